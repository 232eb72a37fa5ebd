package avatar

// Masculine and Feminine are the two body types, named like the folders
// of the leader's animation library so that a gender string travels
// unchanged from the configuration to the animation URLs.
const (
	Masculine = "masculine"
	Feminine  = "feminine"
)

// Config is an avatar configuration, version "1". ParseConfig fills every
// field, so that the generator never has to guess; the zero Config is
// resolved the same way by Generate and Skeleton.
type Config struct {
	Version string  `json:"version"`
	Body    Body    `json:"body"`
	Skin    Skin    `json:"skin"`
	Hair    Hair    `json:"hair"`
	Eyes    Eyes    `json:"eyes"`
	Outfit  Outfit  `json:"outfit"`
	Glasses Glasses `json:"glasses"`
}

// Body is the body type and its measures.
type Body struct {
	Type string `json:"type"`
	// Height is from the soles to the crown, in metres, hair excluded, as
	// a person's height is measured.
	Height float64 `json:"height"`
	// Build is 0 (slim) to 1 (heavy); the JSON also accepts the names
	// slim, average, athletic and heavy.
	Build float64 `json:"build"`
}

// Skin is the skin tone, a palette name or "#rrggbb".
type Skin struct {
	Tone string `json:"tone"`
}

// Hair is the hair style and colour.
type Hair struct {
	Style string `json:"style"`
	Color string `json:"color"`
}

// Eyes is the iris colour.
type Eyes struct {
	Color string `json:"color"`
}

// Outfit is the three garments.
type Outfit struct {
	Top      Garment `json:"top"`
	Bottom   Garment `json:"bottom"`
	Footwear Garment `json:"footwear"`
}

// Garment is a style and a colour (palette name or "#rrggbb").
type Garment struct {
	Style string `json:"style"`
	Color string `json:"color"`
}

// Glasses is the frame style ("none" for no glasses) and colour.
type Glasses struct {
	Style string `json:"style"`
	Color string `json:"color"`
}

// Default is the built-in avatar of a gender (default-male and
// default-female in the API): a complete configuration, so that it also
// supplies every field a partial configuration leaves out. An unknown
// gender gives the masculine default.
func Default(gender string) Config {
	if gender == Feminine {
		return Config{
			Version: "1",
			Body:    Body{Type: Feminine, Height: 1.65, Build: 0.4},
			Skin:    Skin{Tone: "light"},
			Hair:    Hair{Style: "long", Color: "brown"},
			Eyes:    Eyes{Color: "green"},
			Outfit: Outfit{
				Top:      Garment{Style: "blouse", Color: "white"},
				Bottom:   Garment{Style: "jeans", Color: "denim"},
				Footwear: Garment{Style: "sneakers", Color: "white"},
			},
			Glasses: Glasses{Style: "none", Color: "black"},
		}
	}
	return Config{
		Version: "1",
		Body:    Body{Type: Masculine, Height: 1.78, Build: 0.4},
		Skin:    Skin{Tone: "medium"},
		Hair:    Hair{Style: "short", Color: "dark-brown"},
		Eyes:    Eyes{Color: "brown"},
		Outfit: Outfit{
			Top:      Garment{Style: "tshirt", Color: "navy"},
			Bottom:   Garment{Style: "jeans", Color: "denim"},
			Footwear: Garment{Style: "sneakers", Color: "white"},
		},
		Glasses: Glasses{Style: "none", Color: "black"},
	}
}
