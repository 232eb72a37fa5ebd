package avatar

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar/human"
)

func TestParseConfigValid(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      func() Config
	}{
		{"empty", `{}`, func() Config { return Default(Masculine) }},
		{"version only", `{"version":"1"}`, func() Config { return Default(Masculine) }},
		{"feminine defaults", `{"body":{"type":"feminine"}}`, func() Config { return Default(Feminine) }},
		{"nulls are absent", `{"body":null,"hair":{"style":null}}`, func() Config { return Default(Masculine) }},
		{"build name", `{"body":{"build":"athletic","height":1.9}}`, func() Config {
			c := Default(Masculine)
			c.Body.Build, c.Body.Height = 0.6, 1.9
			return c
		}},
		{"body dials and a face", `{"body":{"age":47,"muscle":0,"weight":0.8,"proportions":1},
			"face":{"seed":9007199254740991,"nose":{"hump":0.5,"scale-horiz":-1},"head":{"oval":1},"cheeks":{"volume":0}}}`, func() Config {
			c := Default(Masculine)
			m, w, pr := 0.0, 0.8, 1.0
			c.Body.Age, c.Body.Muscle, c.Body.Weight, c.Body.Proportions = 47, &m, &w, &pr
			c.Face = Face{Seed: MaxFaceSeed, Nose: map[string]float64{"hump": 0.5, "scale-horiz": -1},
				Head: map[string]float64{"oval": 1}, Cheeks: map[string]float64{"volume": 0}}
			return c
		}},
		{"everything", `{"version":"1","body":{"type":"feminine","height":1.5,"build":0},
			"skin":{"tone":"#A0522D"},"hair":{"style":"bun","color":"auburn"},"eyes":{"color":"#112233"},
			"outfit":{"top":{"style":"tank","color":"teal"},"bottom":{"style":"skirt","color":"#000000"},
			"footwear":{"style":"boots","color":"brown"}},"glasses":{"style":"round","color":"gold"}}`, func() Config {
			return Config{Version: "1", Body: Body{Type: Feminine, Height: 1.5}, Skin: Skin{"#A0522D"}, Hair: Hair{"bun", "auburn"},
				Eyes: Eyes{"#112233"}, Outfit: Outfit{Garment{Style: "tank", Color: "teal"}, Garment{Style: "skirt", Color: "#000000"}, Garment{Style: "boots", Color: "brown"}},
				Glasses: Glasses{"round", "gold"}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseConfig([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want()) {
				t.Errorf("got %+v\nwant %+v", got, tc.want())
			}
			// What ParseConfig gives marshals and parses back the same,
			// so that stored configurations rebuild the same avatar.
			b, _ := json.Marshal(got)
			again, err := ParseConfig(b)
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Errorf("round trip: %v %+v", err, again)
			}
		})
	}
}

func TestParseConfigInvalid(t *testing.T) {
	for _, tc := range []struct{ doc, field string }{
		{`not json`, "configuration"},
		{`[]`, "configuration"},
		{`{} {}`, "configuration"},
		{`{"colour":"red"}`, "colour"},
		{`{"version":"2"}`, "version"},
		{`{"version":1}`, "version"},
		{`{"body":"tall"}`, "body"},
		{`{"body":{"type":"robot"}}`, "body.type"},
		{`{"body":{"type":7}}`, "body.type"},
		{`{"body":{"weight":80}}`, "body.weight"},
		{`{"body":{"height":2.5}}`, "body.height"},
		{`{"body":{"height":1.49}}`, "body.height"},
		{`{"body":{"height":"tall"}}`, "body.height"},
		{`{"body":{"build":1.5}}`, "body.build"},
		{`{"body":{"build":-0.1}}`, "body.build"},
		{`{"body":{"build":"muscular"}}`, "body.build"},
		{`{"skin":{"tone":"green"}}`, "skin.tone"},
		{`{"skin":{"tone":"#12345"}}`, "skin.tone"},
		{`{"skin":{"color":"light"}}`, "skin.color"},
		{`{"hair":{"style":"mohawk"}}`, "hair.style"},
		{`{"hair":{"color":"blue"}}`, "hair.color"},
		{`{"eyes":{"color":"#gggggg"}}`, "eyes.color"},
		{`{"eyes":{"colour":"blue"}}`, "eyes.colour"},
		{`{"outfit":{"top":{"style":"cape"}}}`, "outfit.top.style"},
		{`{"outfit":{"top":{"color":"chartreuse"}}}`, "outfit.top.color"},
		{`{"outfit":{"bottom":{"style":"kilt"}}}`, "outfit.bottom.style"},
		{`{"outfit":{"bottom":{"color":3}}}`, "outfit.bottom.color"},
		{`{"outfit":{"footwear":{"style":"sandals"}}}`, "outfit.footwear.style"},
		{`{"outfit":{"footwear":{"color":""}}}`, "outfit.footwear.color"},
		{`{"outfit":{"hat":{}}}`, "outfit.hat"},
		{`{"glasses":{"style":"monocle"}}`, "glasses.style"},
		{`{"glasses":{"color":"clear"}}`, "glasses.color"},
		{`{"glasses":true}`, "glasses"},
		{`{"body":{"age":17}}`, "body.age"},
		{`{"body":{"age":0}}`, "body.age"},
		{`{"body":{"age":91}}`, "body.age"},
		{`{"body":{"muscle":1.2}}`, "body.muscle"},
		{`{"body":{"weight":-0.5}}`, "body.weight"},
		{`{"body":{"proportions":"ideal"}}`, "body.proportions"},
		{`{"face":1}`, "face"},
		{`{"face":{"seed":-1}}`, "face.seed"},
		{`{"face":{"seed":1.5}}`, "face.seed"},
		{`{"face":{"seed":9007199254740992}}`, "face.seed"},
		{`{"face":{"lips":{}}}`, "face.lips"},
		{`{"face":{"nose":{"length":0.2}}}`, "face.nose.length"},
		{`{"face":{"nose":{"hump":2}}}`, "face.nose.hump"},
		{`{"face":{"head":{"oval":-0.5}}}`, "face.head.oval"},
		{`{"face":{"chin":{"width":"wide"}}}`, "face.chin.width"},
	} {
		t.Run(tc.doc, func(t *testing.T) {
			_, err := ParseConfig([]byte(tc.doc))
			var ke *kiln.Error
			if !errors.As(err, &ke) {
				t.Fatalf("error %v (%T), want a kiln error", err, err)
			}
			if kiln.KindOf(err) != kiln.KindInvalid || ke.Code != "invalid_avatar_config" {
				t.Errorf("kind %v code %q", kiln.KindOf(err), ke.Code)
			}
			if !strings.HasPrefix(ke.Message, tc.field+": ") {
				t.Errorf("message %q does not name %s", ke.Message, tc.field)
			}
		})
	}
}

// TestSchemaMatchesParser keeps schema.json and ParseConfig in step: the
// schema's properties are the fields the parser accepts (each property
// with a value the schema allows parses; an extra property in each object
// fails), and its enums are the Go lists and palettes.
func TestSchemaMatchesParser(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(Schema, &schema); err != nil {
		t.Fatal(err)
	}
	if schema["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", schema["$schema"])
	}
	enums := map[string][]string{}
	var walk func(path string, node map[string]any)
	walk = func(path string, node map[string]any) {
		if node["additionalProperties"] != false && node["type"] == "object" {
			t.Errorf("%s: additionalProperties is not false", path)
		}
		props, _ := node["properties"].(map[string]any)
		for k, v := range props {
			p := strings.TrimPrefix(path+"."+k, ".")
			child := v.(map[string]any)
			if child["type"] == "object" {
				walk(p, child)
				// An unknown field inside this object is rejected.
				if _, err := ParseConfig([]byte(nest(p+".bogus", "1"))); err == nil || !strings.Contains(err.Error(), p+".bogus") {
					t.Errorf("%s.bogus accepted: %v", p, err)
				}
				continue
			}
			var list []string
			collect := func(n any) {
				m, _ := n.(map[string]any)
				for _, e := range asList(m["enum"]) {
					list = append(list, e.(string))
				}
			}
			collect(child)
			for _, alt := range append(asList(child["anyOf"]), asList(child["oneOf"])...) {
				collect(alt)
			}
			enums[p] = list
			// Every value the schema lists parses.
			for _, e := range list {
				if _, err := ParseConfig([]byte(nest(p, `"`+e+`"`))); err != nil {
					t.Errorf("schema allows %s = %q, ParseConfig says %v", p, e, err)
				}
			}
		}
	}
	walk("", schema)
	if _, err := ParseConfig([]byte(`{"bogus":1}`)); err == nil {
		t.Error("unknown top-level field accepted")
	}
	want := map[string][]string{
		"version": {"1"}, "body.type": bodyTypes, "body.build": builds, "body.height": nil,
		"skin.tone": names(skinTones), "hair.style": hairStyles, "hair.color": names(hairColors),
		"eyes.color": names(eyeColors), "outfit.top.style": topStyles, "outfit.bottom.style": bottomStyles,
		"outfit.footwear.style": footwearStyles, "glasses.style": glassesStyles,
		"outfit.top.color": names(clothColors), "outfit.bottom.color": names(clothColors),
		"outfit.footwear.color": names(clothColors), "glasses.color": names(clothColors),
		"headwear.style": headwearStyles, "headwear.color": names(clothColors),
		"outfit.top.print.id": printStyles, "outfit.top.print.color": names(clothColors),
		"body.age": nil, "body.muscle": nil, "body.weight": nil, "body.proportions": nil, "face.seed": nil,
		"facialHair.style": facialHairStyles, "facialHair.color": names(hairColors),
	}
	for _, reg := range faceRegions {
		for _, d := range faceDials[reg.name] {
			want["face."+reg.name+"."+d] = nil
		}
	}
	for p, w := range want {
		got, ok := enums[p]
		if !ok {
			t.Errorf("schema has no %s", p)
			continue
		}
		g := slices.Clone(got)
		sort.Strings(g)
		w = slices.Clone(w)
		sort.Strings(w)
		if !slices.Equal(g, w) {
			t.Errorf("%s: schema %v, Go %v", p, g, w)
		}
	}
	if len(enums) != len(want) {
		t.Errorf("schema leaves %d, Go %d: %v", len(enums), len(want), enums)
	}
	// The numeric ranges.
	body := schema["properties"].(map[string]any)["body"].(map[string]any)["properties"].(map[string]any)
	height := body["height"].(map[string]any)
	if height["minimum"] != MinHeight || height["maximum"] != MaxHeight {
		t.Errorf("schema height %v..%v, Go %v..%v", height["minimum"], height["maximum"], MinHeight, MaxHeight)
	}
}

// TestFaceDials checks that every dial of the configuration is one of
// the parametric human's modifiers, and that a seeded face sets dials of
// every feature while an unseeded one is average.
func TestFaceDials(t *testing.T) {
	mods := human.Modifiers()
	for _, reg := range faceRegions {
		if len(faceDials[reg.name]) == 0 || !slices.IsSorted(faceDials[reg.name]) {
			t.Errorf("%s: dials %v", reg.name, faceDials[reg.name])
		}
		for _, d := range faceDials[reg.name] {
			if m := reg.folder + "/" + reg.stem + "-" + d; !slices.Contains(mods, m) {
				t.Errorf("face.%s.%s: %s is not a modifier", reg.name, d, m)
			}
		}
	}
	if m := (Face{}).Modifiers(); len(m) != 0 {
		t.Errorf("the zero face sets %v", m)
	}
	a, b := Face{Seed: 1}.Modifiers(), Face{Seed: 2}.Modifiers()
	if reflect.DeepEqual(a, b) {
		t.Error("two seeds gave the same face")
	}
	for _, reg := range faceRegions {
		n := 0
		for k := range a {
			if strings.HasPrefix(k, reg.folder+"/") {
				n++
			}
		}
		if n < len(faceDials[reg.name])/2 {
			t.Errorf("seeded face sets %d of %d %s dials", n, len(faceDials[reg.name]), reg.name)
		}
	}
	// An explicit dial wins and leaves the seeded others as they were.
	c := Face{Seed: 1, Nose: map[string]float64{"hump": -1}}.Modifiers()
	if c["nose/nose-hump"] != -1 {
		t.Errorf("nose hump %v, want -1", c["nose/nose-hump"])
	}
	for k, v := range a {
		if k != "nose/nose-hump" && c[k] != v {
			t.Errorf("%s: %v with the nose set, %v without", k, c[k], v)
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// nest builds {"a":{"b":value}} from "a.b".
func nest(path, value string) string {
	parts := strings.Split(path, ".")
	s := value
	for i := len(parts) - 1; i >= 0; i-- {
		s = `{"` + parts[i] + `":` + s + `}`
	}
	return s
}

func TestRandomIsValidAndFixed(t *testing.T) {
	seen := map[string]bool{}
	faces := map[uint64]bool{}
	for seed := int64(0); seed < 50; seed++ {
		c := Random(seed)
		if err := c.Validate(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !reflect.DeepEqual(Random(seed), c) {
			t.Fatalf("seed %d gives two configurations", seed)
		}
		b, _ := json.Marshal(c)
		seen[string(b)] = true
		if c.Face.Seed == 0 || faces[c.Face.Seed] {
			t.Errorf("seed %d: face seed %d is unset or shared", seed, c.Face.Seed)
		}
		faces[c.Face.Seed] = true
	}
	if len(seen) < 45 {
		t.Errorf("only %d distinct configurations in 50 seeds", len(seen))
	}
}
