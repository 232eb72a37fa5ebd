package avatar

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Schema is the JSON Schema (draft 2020-12) of the configuration, served
// by the avatar listener and kept in step with ParseConfig by the tests.
//
//go:embed schema.json
var Schema []byte

// ParseConfig reads a configuration document and resolves every field it
// leaves out from the default of its body type, so that the result can
// be stored and built as is. Anything it cannot use (malformed JSON, an
// unknown field, an unsupported version, a value of the wrong type, out
// of range or not in a list) is a kiln error of kind Invalid and code
// invalid_avatar_config whose message starts with the field's path,
// such as `outfit.top.style: "cape" is not one of tshirt, …`. A null
// counts as absent.
func ParseConfig(data []byte) (Config, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return Config{}, invalidf("configuration", "not valid JSON (%v)", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Config{}, invalidf("configuration", "unexpected data after the JSON object")
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return Config{}, invalidf("configuration", "must be a JSON object")
	}
	// The body type chooses the defaults, so it is read first.
	gender := Masculine
	if body, ok := root["body"].(map[string]any); ok && body["type"] != nil {
		t, err := str("body.type", body["type"])
		if err != nil {
			return Config{}, err
		}
		if err := oneOf("body.type", t, bodyTypes); err != nil {
			return Config{}, err
		}
		gender = t
	}
	c := Default(gender)
	version := func(p string, v any) error {
		s, err := str(p, v)
		if err != nil {
			return err
		}
		if s != "1" {
			return invalidf(p, "%q is not a supported version; use \"1\"", s)
		}
		return nil
	}
	text := func(dst *string) func(string, any) error {
		return func(p string, v any) error {
			s, err := str(p, v)
			*dst = s
			return err
		}
	}
	garment := func(g *Garment, printable bool) func(string, any) error {
		return func(p string, v any) error {
			h := map[string]func(string, any) error{"style": text(&g.Style), "color": text(&g.Color)}
			if printable {
				h["print"] = func(p string, v any) error {
					return fields(p, v, map[string]func(string, any) error{"id": text(&g.Print.ID), "color": text(&g.Print.Color)})
				}
			}
			return fields(p, v, h)
		}
	}
	err := fields("", root, map[string]func(string, any) error{
		"version": version,
		"body": func(p string, v any) error {
			return fields(p, v, map[string]func(string, any) error{
				"type": text(&c.Body.Type),
				"height": func(p string, v any) error {
					f, err := num(p, v)
					c.Body.Height = f
					return err
				},
				"age": func(p string, v any) error {
					f, err := num(p, v)
					c.Body.Age = f
					if err == nil && f == 0 {
						return invalidf(p, "0 is out of range; give years from %g to %g", MinAge, MaxAge)
					}
					return err
				},
				"muscle":      optNum(&c.Body.Muscle),
				"weight":      optNum(&c.Body.Weight),
				"proportions": optNum(&c.Body.Proportions),
				"build": func(p string, v any) error {
					if s, ok := v.(string); ok {
						b, known := buildValues[s]
						if !known {
							return invalidf(p, "%q is not one of %s, nor a number from 0 to 1", s, strings.Join(builds, ", "))
						}
						c.Body.Build = b
						return nil
					}
					f, err := num(p, v)
					c.Body.Build = f
					return err
				},
			})
		},
		"skin": func(p string, v any) error {
			return fields(p, v, map[string]func(string, any) error{"tone": text(&c.Skin.Tone)})
		},
		"hair": func(p string, v any) error {
			return fields(p, v, map[string]func(string, any) error{"style": text(&c.Hair.Style), "color": text(&c.Hair.Color)})
		},
		"eyes": func(p string, v any) error {
			return fields(p, v, map[string]func(string, any) error{"color": text(&c.Eyes.Color)})
		},
		"facialHair": func(p string, v any) error {
			return fields(p, v, map[string]func(string, any) error{"style": text(&c.FacialHair.Style), "color": text(&c.FacialHair.Color)})
		},
		"outfit": func(p string, v any) error {
			return fields(p, v, map[string]func(string, any) error{
				"top": garment(&c.Outfit.Top, true), "bottom": garment(&c.Outfit.Bottom, false), "footwear": garment(&c.Outfit.Footwear, false),
			})
		},
		"glasses": func(p string, v any) error {
			return fields(p, v, map[string]func(string, any) error{"style": text(&c.Glasses.Style), "color": text(&c.Glasses.Color)})
		},
		"headwear": func(p string, v any) error {
			return fields(p, v, map[string]func(string, any) error{"style": text(&c.Headwear.Style), "color": text(&c.Headwear.Color)})
		},
		"face": func(p string, v any) error {
			h := map[string]func(string, any) error{
				"seed": func(p string, v any) error {
					n, ok := v.(json.Number)
					if !ok {
						return invalidf(p, "must be a number")
					}
					u, err := strconv.ParseUint(n.String(), 10, 64)
					if err != nil || u > MaxFaceSeed {
						return invalidf(p, "%s is not an integer from 0 to %d", n, uint64(MaxFaceSeed))
					}
					c.Face.Seed = u
					return nil
				},
			}
			for _, reg := range faceRegions {
				dst := c.Face.feature(reg.name)
				h[reg.name] = func(p string, v any) error {
					dials := map[string]func(string, any) error{}
					for _, d := range faceDials[reg.name] {
						dials[d] = func(p string, v any) error {
							f, err := num(p, v)
							if err != nil {
								return err
							}
							if *dst == nil {
								*dst = map[string]float64{}
							}
							(*dst)[d] = f
							return nil
						}
					}
					return fields(p, v, dials)
				}
			}
			return fields(p, v, h)
		},
	})
	if err != nil {
		return Config{}, err
	}
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// fields walks an object: every key must have a handler (in sorted
// order, so that the first error is the same on every run); nulls are
// skipped.
func fields(path string, v any, handlers map[string]func(string, any) error) error {
	name := path
	if name == "" {
		name = "configuration"
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return invalidf(name, "must be a JSON object")
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := k
		if path != "" {
			p = path + "." + k
		}
		h, ok := handlers[k]
		if !ok {
			known := make([]string, 0, len(handlers))
			for k := range handlers {
				known = append(known, k)
			}
			sort.Strings(known)
			return invalidf(p, "unknown field; %s has the fields %s", name, strings.Join(known, ", "))
		}
		if obj[k] == nil {
			continue
		}
		if err := h(p, obj[k]); err != nil {
			return err
		}
	}
	return nil
}

// optNum reads a number into a field that is absent when nil.
func optNum(dst **float64) func(string, any) error {
	return func(p string, v any) error {
		f, err := num(p, v)
		*dst = &f
		return err
	}
}

func str(path string, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", invalidf(path, "must be a string")
	}
	return s, nil
}

func num(path string, v any) (float64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, invalidf(path, "must be a number")
	}
	f, err := n.Float64()
	if err != nil {
		return 0, invalidf(path, "%s is not a usable number", n)
	}
	return f, nil
}
