package avatar

import (
	"math"
	"strings"

	"github.com/kilnhq/kiln"
)

// invalidf is the error of a bad configuration: a client error whose
// message starts with the field's path, so that a form can point at it.
func invalidf(field, format string, args ...any) error {
	return kiln.Errorf(kiln.KindInvalid, "invalid_avatar_config", "%s: "+format, append([]any{field}, args...)...)
}

// Validate checks a resolved configuration's values.
func (c Config) Validate() error {
	if c.Version != "1" {
		return invalidf("version", "%q is not a supported version; use \"1\"", c.Version)
	}
	if err := oneOf("body.type", c.Body.Type, bodyTypes); err != nil {
		return err
	}
	if c.Body.Height < MinHeight || c.Body.Height > MaxHeight {
		return invalidf("body.height", "%g is out of range; give metres from %.2f to %.2f", c.Body.Height, MinHeight, MaxHeight)
	}
	if c.Body.Build < 0 || c.Body.Build > 1 {
		return invalidf("body.build", "%g is out of range; give 0 (slim) to 1 (heavy) or one of %s", c.Body.Build, strings.Join(builds, ", "))
	}
	if a := c.Body.Age; a != 0 && (a < MinAge || a > MaxAge || math.IsNaN(a)) {
		return invalidf("body.age", "%g is out of range; give years from %g to %g", a, MinAge, MaxAge)
	}
	for _, f := range []struct {
		field string
		v     *float64
	}{{"body.muscle", c.Body.Muscle}, {"body.weight", c.Body.Weight}, {"body.proportions", c.Body.Proportions}} {
		if f.v != nil && (*f.v < 0 || *f.v > 1 || math.IsNaN(*f.v)) {
			return invalidf(f.field, "%g is out of range; give 0 to 1", *f.v)
		}
	}
	if err := c.Face.validate(); err != nil {
		return err
	}
	if err := c.FacialHair.validate(); err != nil {
		return err
	}
	for _, f := range []struct {
		field, value string
		palette      map[string]string
	}{
		{"skin.tone", c.Skin.Tone, skinTones},
		{"hair.color", c.Hair.Color, hairColors},
		{"eyes.color", c.Eyes.Color, eyeColors},
		{"outfit.top.color", c.Outfit.Top.Color, clothColors},
		{"outfit.bottom.color", c.Outfit.Bottom.Color, clothColors},
		{"outfit.footwear.color", c.Outfit.Footwear.Color, clothColors},
		{"glasses.color", c.Glasses.Color, clothColors},
	} {
		if _, ok := f.palette[f.value]; !ok && !isHex(f.value) {
			return invalidf(f.field, "%q is neither \"#rrggbb\" nor one of %s", f.value, strings.Join(names(f.palette), ", "))
		}
	}
	for _, f := range []struct {
		field, value string
		list         []string
	}{
		{"hair.style", c.Hair.Style, hairStyles},
		{"outfit.top.style", c.Outfit.Top.Style, topStyles},
		{"outfit.bottom.style", c.Outfit.Bottom.Style, bottomStyles},
		{"outfit.footwear.style", c.Outfit.Footwear.Style, footwearStyles},
		{"glasses.style", c.Glasses.Style, glassesStyles},
	} {
		if err := oneOf(f.field, f.value, f.list); err != nil {
			return err
		}
	}
	if pr := c.Outfit.Top.Print; pr.ID != "" || pr.Color != "" {
		if err := oneOf("outfit.top.print.id", pr.ID, printStyles); pr.ID != "" && err != nil {
			return err
		}
		if _, ok := clothColors[pr.Color]; pr.Color != "" && !ok && !isHex(pr.Color) {
			return invalidf("outfit.top.print.color", "%q is neither \"#rrggbb\" nor one of %s", pr.Color, strings.Join(names(clothColors), ", "))
		}
	}
	if c.Outfit.Bottom.Print != (Print{}) || c.Outfit.Footwear.Print != (Print{}) {
		return invalidf("outfit", "only the top takes a print")
	}
	if h := c.Headwear; h.Style != "" || h.Color != "" {
		if err := oneOf("headwear.style", h.Style, headwearStyles); h.Style != "" && err != nil {
			return err
		}
		if _, ok := clothColors[h.Color]; h.Color != "" && !ok && !isHex(h.Color) {
			return invalidf("headwear.color", "%q is neither \"#rrggbb\" nor one of %s", h.Color, strings.Join(names(clothColors), ", "))
		}
	}
	return nil
}

func oneOf(field, v string, list []string) error {
	for _, s := range list {
		if s == v {
			return nil
		}
	}
	return invalidf(field, "%q is not one of %s", v, strings.Join(list, ", "))
}
