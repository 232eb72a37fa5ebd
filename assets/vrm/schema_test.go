package vrm_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// schemaChecker validates JSON against the vendored VRM schemas
// (testdata/schema, JSON Schema draft-04/07 as the VRM specification
// uses it). It knows exactly the keywords those schemas use and fails on
// any other, so that no rule is passed over silently.
type schemaChecker struct {
	dirs  []string
	cache map[string]map[string]any
}

func newSchemaChecker(dirs ...string) *schemaChecker {
	return &schemaChecker{dirs: dirs, cache: map[string]map[string]any{}}
}

// load reads a schema file by name from the first folder that has it.
func (c *schemaChecker) load(name string) (map[string]any, error) {
	if s, ok := c.cache[name]; ok {
		return s, nil
	}
	for _, d := range c.dirs {
		data, err := os.ReadFile(filepath.Join(d, name))
		if err != nil {
			continue
		}
		var s map[string]any
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		c.cache[name] = s
		return s, nil
	}
	return nil, fmt.Errorf("schema %s not found in %v", name, c.dirs)
}

// check validates v against the schema file name; errors name the path.
func (c *schemaChecker) check(name string, v any) []string {
	s, err := c.load(name)
	if err != nil {
		return []string{err.Error()}
	}
	var errs []string
	c.validate(s, v, "$", &errs)
	return errs
}

var ignoredKeywords = []string{"$schema", "title", "description", "default"}

func (c *schemaChecker) validate(s map[string]any, v any, at string, errs *[]string) {
	fail := func(format string, args ...any) {
		*errs = append(*errs, at+": "+fmt.Sprintf(format, args...))
	}
	for k, rule := range s {
		switch k {
		case "$ref":
			ref, err := c.load(rule.(string))
			if err != nil {
				fail("%v", err)
				continue
			}
			c.validate(ref, v, at, errs)
		case "type":
			types := []string{}
			switch t := rule.(type) {
			case string:
				types = append(types, t)
			case []any:
				for _, x := range t {
					types = append(types, x.(string))
				}
			}
			if !slices.ContainsFunc(types, func(t string) bool { return isType(v, t) }) {
				fail("is %T, want %v", v, types)
			}
		case "properties":
			obj, ok := v.(map[string]any)
			if !ok {
				continue
			}
			for name, sub := range rule.(map[string]any) {
				if x, ok := obj[name]; ok {
					c.validate(sub.(map[string]any), x, at+"."+name, errs)
				}
			}
		case "additionalProperties":
			obj, ok := v.(map[string]any)
			if !ok {
				continue
			}
			props, _ := s["properties"].(map[string]any)
			for name, x := range obj {
				if _, known := props[name]; known {
					continue
				}
				switch a := rule.(type) {
				case bool:
					if !a {
						fail("property %q is not allowed", name)
					}
				case map[string]any:
					c.validate(a, x, at+"."+name, errs)
				}
			}
		case "required":
			obj, ok := v.(map[string]any)
			if !ok {
				continue
			}
			for _, name := range rule.([]any) {
				if _, ok := obj[name.(string)]; !ok {
					fail("required property %q is missing", name)
				}
			}
		case "enum":
			if !slices.ContainsFunc(rule.([]any), func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
				fail("%v is not one of %v", v, rule)
			}
		case "items":
			list, ok := v.([]any)
			if !ok {
				continue
			}
			for i, x := range list {
				c.validate(rule.(map[string]any), x, fmt.Sprintf("%s[%d]", at, i), errs)
			}
		case "minItems", "maxItems":
			list, ok := v.([]any)
			if !ok {
				continue
			}
			n := int(rule.(float64))
			if k == "minItems" && len(list) < n || k == "maxItems" && len(list) > n {
				fail("%d items, %s %d", len(list), k, n)
			}
		case "minimum", "maximum":
			x, ok := v.(float64)
			if !ok {
				continue
			}
			lim := rule.(float64)
			if k == "minimum" && x < lim || k == "maximum" && x > lim {
				fail("%g breaks %s %g", x, k, lim)
			}
		case "minLength":
			if str, ok := v.(string); ok && len([]rune(str)) < int(rule.(float64)) {
				fail("%q is shorter than %v", str, rule)
			}
		case "oneOf":
			// Exactly one of the subschemas holds.
			passed := 0
			for _, sub := range rule.([]any) {
				var sink []string
				c.validate(sub.(map[string]any), v, at, &sink)
				if len(sink) == 0 {
					passed++
				}
			}
			if passed != 1 {
				fail("%d of the oneOf schemas hold, want exactly 1", passed)
			}
		case "allOf":
			for _, sub := range rule.([]any) {
				c.validate(sub.(map[string]any), v, at, errs)
			}
		default:
			if !slices.Contains(ignoredKeywords, k) {
				fail("schema keyword %q is not supported by the test's checker", k)
			}
		}
	}
}

func isType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		x, ok := v.(float64)
		return ok && x == math.Trunc(x)
	case "null":
		return v == nil
	}
	return false
}

// TestSchemaChecker shows the checker refuses what the schemas forbid,
// so that a pass below means something.
func TestSchemaChecker(t *testing.T) {
	c := newSchemaChecker("testdata/schema/VRMC_vrm-1.0", "testdata/schema/gltf")
	cases := []struct {
		name string
		json string
		bad  bool
	}{
		{"required bones missing", `{"specVersion":"1.0","meta":{"name":"a","authors":["b"],"licenseUrl":"u"},"humanoid":{"humanBones":{"hips":{"node":0}}}}`, true},
		{"no meta", `{"specVersion":"1.0","humanoid":{"humanBones":{}}}`, true},
		{"bad enum", `{"specVersion":"1.0","meta":{"name":"a","authors":["b"],"licenseUrl":"u","commercialUsage":"free"},"humanoid":{"humanBones":{}}}`, true},
		{"negative node", `{"specVersion":"1.0","meta":{"name":"a","authors":["b"],"licenseUrl":"u"},"humanoid":{"humanBones":{"hips":{"node":-1}}}}`, true},
		{"unknown bone", `{"specVersion":"1.0","meta":{"name":"a","authors":["b"],"licenseUrl":"u"},"humanoid":{"humanBones":{"tail":{"node":1}}}}`, true},
		{"no authors", `{"specVersion":"1.0","meta":{"name":"a","authors":[],"licenseUrl":"u"},"humanoid":{"humanBones":{}}}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(tc.json), &v); err != nil {
				t.Fatal(err)
			}
			errs := c.check("VRMC_vrm.schema.json", v)
			if tc.bad != (len(errs) > 0) {
				t.Errorf("bad=%v, got errors %v", tc.bad, errs)
			}
		})
	}
	// oneOf: a collider's shape is a sphere or a capsule, not both.
	sc := newSchemaChecker("testdata/schema/VRMC_springBone-1.0", "testdata/schema/gltf")
	for doc, bad := range map[string]bool{
		`{"specVersion":"1.0","colliders":[{"node":0,"shape":{"sphere":{"radius":1}}}]}`:                        false,
		`{"specVersion":"1.0","colliders":[{"node":0,"shape":{"sphere":{"radius":1},"capsule":{"radius":1}}}]}`: true,
	} {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		if errs := sc.check("VRMC_springBone.schema.json", v); bad != (len(errs) > 0) {
			t.Errorf("%s: bad=%v, got %v", doc, bad, errs)
		}
	}
}
