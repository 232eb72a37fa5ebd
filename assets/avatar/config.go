package avatar

import "math"

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
	// Face shapes the face; the zero Face is MakeHuman's average face for
	// the body (configurations from before it existed keep their look).
	Face Face `json:"face,omitzero"`
	// FacialHair is the beard or moustache; absent, a bare face (as
	// before it existed).
	FacialHair FacialHair `json:"facialHair,omitzero"`
	// Headwear is a hat; the zero Headwear is none (configurations from
	// before it existed keep their look).
	Headwear Headwear `json:"headwear,omitzero"`
}

// Body is the body type and its measures.
type Body struct {
	Type string `json:"type"`
	// Height is from the soles to the crown, in metres, hair excluded, as
	// a person's height is measured.
	Height float64 `json:"height"`
	// Build is 0 (slim) to 1 (heavy); the JSON also accepts the names
	// slim, average, athletic and heavy. It sets muscle and weight when
	// they are not given.
	Build float64 `json:"build"`
	// Age in years, 18 to 90; 0 (absent) is a young adult of 25. The body
	// ages from 25 on (MakeHuman's young adult), so younger ages look 25.
	Age float64 `json:"age,omitempty"`
	// Muscle and Weight, 0 (least) to 1 (most), 0.5 average; absent, they
	// follow Build.
	Muscle *float64 `json:"muscle,omitempty"`
	Weight *float64 `json:"weight,omitempty"`
	// Proportions, 0 (uncommon) to 1 (idealised); absent is 0.5.
	Proportions *float64 `json:"proportions,omitempty"`
}

// MuscleWeight is the body's muscle and weight: as given, or from the
// build (slim is light, athletic muscular, heavy heavy).
func (b Body) MuscleWeight() (muscle, weight float64) {
	weight = 0.2 + 0.7*b.Build
	muscle = 0.5 + 0.4*math.Exp(-math.Pow((b.Build-0.6)/0.12, 2)) - 0.15*math.Max(0, (0.3-b.Build)/0.3)
	if b.Muscle != nil {
		muscle = *b.Muscle
	}
	if b.Weight != nil {
		weight = *b.Weight
	}
	return muscle, weight
}

// AgeYears is the body's age: as given, or 25.
func (b Body) AgeYears() float64 {
	if b.Age == 0 {
		return 25
	}
	return b.Age
}

// ProportionsValue is the body's proportions: as given, or 0.5.
func (b Body) ProportionsValue() float64 {
	if b.Proportions == nil {
		return 0.5
	}
	return *b.Proportions
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

// Garment is a style and a colour (palette name or "#rrggbb"), and for
// a top a print.
type Garment struct {
	Style string `json:"style"`
	Color string `json:"color"`
	// Print is printed on a top; the zero Print is none.
	Print Print `json:"print,omitzero"`
}

// Print is a print on a top: one of the built-in designs (see
// printStyles) in an ink colour (a palette name or "#rrggbb"; empty is
// white on a dark top and black on a light one).
type Print struct {
	ID    string `json:"id,omitempty"`
	Color string `json:"color,omitempty"`
}

// printStyles are the print designs: stripes all round, a graphic on the
// chest, the built-in logo on the left chest.
var printStyles = []string{"none", "stripes", "graphic", "logo"}

// on reports whether there is a print.
func (p Print) on() bool { return p.ID != "" && p.ID != "none" }

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

// resolve fills the fields a configuration leaves empty from the default
// of its body type (masculine when that is empty too).
func (c Config) resolve() Config {
	d := Default(c.Body.Type)
	if c.Version == "" {
		c.Version = d.Version
	}
	if c.Body.Type == "" {
		c.Body.Type = d.Body.Type
		if c.Body.Build == 0 {
			c.Body.Build = d.Body.Build
		}
	}
	if c.Body.Height == 0 {
		c.Body.Height = d.Body.Height
	}
	fill := func(dst *string, def string) {
		if *dst == "" {
			*dst = def
		}
	}
	fill(&c.Skin.Tone, d.Skin.Tone)
	fill(&c.Hair.Style, d.Hair.Style)
	fill(&c.Hair.Color, d.Hair.Color)
	fill(&c.Eyes.Color, d.Eyes.Color)
	fill(&c.Outfit.Top.Style, d.Outfit.Top.Style)
	fill(&c.Outfit.Top.Color, d.Outfit.Top.Color)
	fill(&c.Outfit.Bottom.Style, d.Outfit.Bottom.Style)
	fill(&c.Outfit.Bottom.Color, d.Outfit.Bottom.Color)
	fill(&c.Outfit.Footwear.Style, d.Outfit.Footwear.Style)
	fill(&c.Outfit.Footwear.Color, d.Outfit.Footwear.Color)
	fill(&c.Glasses.Style, d.Glasses.Style)
	fill(&c.Glasses.Color, d.Glasses.Color)
	return c
}
