package avatar

import (
	"math"
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

// Every named hair colour is one real hair has: its CIELAB chroma (how
// far from grey, the same measure at any lightness) at most 40, as the
// browns (15-28) and auburn (39) are; the old red (54) and blonde (43)
// rendered as a flat orange and a yellow in room light. Red stays a
// red: a hue angle nearer the reds than the browns (under 52°, brown is
// 61°) and clearly coloured (chroma at least 30).
func TestHairColoursNatural(t *testing.T) {
	for _, name := range names(hairColors) {
		l, c, h := cielab(t, hairColors[name])
		if c > 40 {
			t.Errorf("%s %s: chroma %.1f (L %.1f), want at most 40", name, hairColors[name], c, l)
		}
		if (name == "red" || name == "auburn") && (h > 52 || c < 30) {
			t.Errorf("%s %s: hue %.0f°, chroma %.1f; want a red: hue under 52°, chroma at least 30", name, hairColors[name], h, c)
		}
	}
}

// cielab gives an "#rrggbb" colour's CIELAB lightness, chroma and hue
// angle (degrees), D65 white.
func cielab(t *testing.T, hex string) (l, c, h float64) {
	t.Helper()
	var lin [3]float64
	for k := range lin {
		v, err := strconv.ParseUint(hex[1+2*k:3+2*k], 16, 8)
		if err != nil {
			t.Fatalf("%q: %v", hex, err)
		}
		s := float64(v) / 255
		if s <= 0.04045 {
			lin[k] = s / 12.92
		} else {
			lin[k] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	x := (0.4124*lin[0] + 0.3576*lin[1] + 0.1805*lin[2]) / 0.95047
	y := 0.2126*lin[0] + 0.7152*lin[1] + 0.0722*lin[2]
	z := (0.0193*lin[0] + 0.1192*lin[1] + 0.9505*lin[2]) / 1.08883
	f := func(v float64) float64 {
		if v > 0.008856 {
			return math.Cbrt(v)
		}
		return 7.787*v + 16.0/116
	}
	a, b := 500*(f(x)-f(y)), 200*(f(y)-f(z))
	return 116*f(y) - 16, math.Hypot(a, b), math.Atan2(b, a) * 180 / math.Pi
}

// Every named skin tone keeps its colour under a viewer's lights: its
// CIELAB chroma at least 18 (the deep tones had lost it on the way down,
// brown, dark and deep at 22.6, 17.2 and 13.0, and rendered as flat dark
// brown discs under a three-point rig, issue 22's "muddy" faces), and a
// pale tone (lightness over 75) no pinker than a hue angle of 48°
// (porcelain was 44.5°, the pinkest of all, and read washed-out pink).
// The tones stay distinct: each at least 4 lighter (L) than the next.
func TestSkinTonesHoldColour(t *testing.T) {
	order := []string{"porcelain", "light", "fair", "medium", "olive", "tan", "brown", "dark", "deep"}
	prev := math.Inf(1)
	for _, name := range order {
		l, c, h := cielab(t, skinTones[name])
		t.Logf("%s %s: L %.1f, chroma %.1f, hue %.1f°", name, skinTones[name], l, c, h)
		if c < 18 {
			t.Errorf("%s %s: chroma %.1f, want 18 or more", name, skinTones[name], c)
		}
		if l > 75 && h < 48 {
			t.Errorf("%s %s: hue %.1f° at lightness %.1f, want 48° or more", name, skinTones[name], h, l)
		}
		if prev-l < 4 {
			t.Errorf("%s %s: lightness %.1f, only %.1f under the tone before it", name, skinTones[name], l, prev-l)
		}
		prev = l
	}
}

// TestGlassesPaletteIsTheFrame holds the creator's frame swatches to the
// colour a frame is drawn in: a silver swatch that showed cloth's pale
// grey would promise a frame the avatar does not get.
func TestGlassesPaletteIsTheFrame(t *testing.T) {
	p := Palettes()
	for name := range clothColors {
		got, ok := p["glasses"][name]
		if !ok {
			t.Fatalf("glasses palette lacks %q", name)
		}
		want := frameColor(name)
		if hexColor(got) != want {
			t.Errorf("glasses %q swatch %s, frame drawn in %v", name, got, want)
		}
	}
	if p["glasses"]["silver"] == p["cloth"]["silver"] {
		t.Errorf("silver frame swatch %s is the silver garment's", p["glasses"]["silver"])
	}
}
