package avatar

import (
	"strconv"
	"testing"
)

// Every named skin tone is warm and pink, darker names darker: its hue
// (sRGB) between 10° and 23°, as real skin and the leader's light skin
// (11°) are; the yellower tones of before (23-28°) rendered pale and
// greenish in Blender.
func TestSkinTonesWarm(t *testing.T) {
	order := []string{"porcelain", "light", "fair", "medium", "olive", "tan", "brown", "dark", "deep"}
	if len(order) != len(skinTones) {
		t.Fatalf("%d tones listed, %d in the palette", len(order), len(skinTones))
	}
	prev := 1e9
	for _, name := range order {
		var s [3]float64
		for k := range s {
			v, err := strconv.ParseUint(skinTones[name][1+2*k:3+2*k], 16, 8)
			if err != nil {
				t.Fatalf("%s: %q: %v", name, skinTones[name], err)
			}
			s[k] = float64(v)
		}
		c := colorOf(skinTones, name)
		hi, lo := max(s[0], s[1], s[2]), min(s[0], s[1], s[2])
		if s[0] != hi || hi == lo {
			t.Errorf("%s %s: not red-dominant", name, skinTones[name])
			continue
		}
		if hue := 60 * (s[1] - s[2]) / (hi - lo); hue < 10 || hue > 23 {
			t.Errorf("%s %s: hue %.1f°, want 10..23°", name, skinTones[name], hue)
		}
		lum := c.luma()
		if lum >= prev {
			t.Errorf("%s (luminance %.3f) is not darker than the tone before it (%.3f)", name, lum, prev)
		}
		prev = lum
	}
}
