package avatar

import "slices"

// StyleCategories are the parts of a configuration a person picks from a
// catalogue of styles (the creator's), in the order it shows them.
var StyleCategories = []string{"hair", "facialHair", "top", "bottom", "footwear", "glasses", "headwear"}

// Styles lists the style ids of a catalogue category, nil for an unknown
// one.
func Styles(category string) []string {
	switch category {
	case "hair":
		return slices.Clone(hairStyles)
	case "facialHair":
		return slices.Clone(facialHairStyles)
	case "top":
		return slices.Clone(topStyles)
	case "bottom":
		return slices.Clone(bottomStyles)
	case "footwear":
		return slices.Clone(footwearStyles)
	case "glasses":
		return slices.Clone(glassesStyles)
	case "headwear":
		return slices.Clone(headwearStyles)
	}
	return nil
}

// Style is the configuration's style of a catalogue category, "" for
// an unknown one.
func (c Config) Style(category string) string {
	if p := c.style(category); p != nil {
		if category == "facialHair" {
			return c.FacialHair.style()
		}
		return *p
	}
	return ""
}

// WithStyle is the configuration with the style of a catalogue category
// replaced; an unknown category leaves it as it is.
func (c Config) WithStyle(category, style string) Config {
	if p := c.style(category); p != nil {
		*p = style
	}
	return c
}

func (c *Config) style(category string) *string {
	switch category {
	case "hair":
		return &c.Hair.Style
	case "facialHair":
		return &c.FacialHair.Style
	case "top":
		return &c.Outfit.Top.Style
	case "bottom":
		return &c.Outfit.Bottom.Style
	case "footwear":
		return &c.Outfit.Footwear.Style
	case "glasses":
		return &c.Glasses.Style
	case "headwear":
		return &c.Headwear.Style
	}
	return nil
}
