package avatar

import (
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// mouthReds are the lightest vertex colours (linear luminance) of the
// tongue and of the gums in cfg's Wolf3D_Teeth: its red pieces (welded by
// position), the tongue the one whose top is lowest (the gums rise with
// the upper teeth).
func mouthReds(t *testing.T, s *scene.Scene) (tongue, gums float64) {
	t.Helper()
	p := meshOf(t, s, "Wolf3D_Teeth")
	var tris [][3]uint32
	for i := 0; i+2 < len(p.Indices); i += 3 {
		tris = append(tris, [3]uint32{p.Indices[i], p.Indices[i+1], p.Indices[i+2]})
	}
	piece, n := pieces(p.Positions, tris)
	top, light := make([]float64, n), make([]float64, n)
	red := make([]bool, n)
	for k := range top {
		top[k] = math.Inf(-1)
	}
	for v, c := range p.Colors[0] {
		k := piece[v]
		top[k] = math.Max(top[k], float64(p.Positions[v][1]))
		light[k] = math.Max(light[k], luma([3]float64{float64(c[0]), float64(c[1]), float64(c[2])}))
		red[k] = red[k] || c[1] < 0.6*c[0]
	}
	var reds []int
	for k := range n {
		if red[k] {
			reds = append(reds, k)
		}
	}
	if len(reds) != 2 {
		t.Fatalf("%d red pieces in Wolf3D_Teeth, want 2 (the tongue and the gums)", len(reds))
	}
	slices.SortFunc(reds, func(a, b int) int { return int(math.Copysign(1, top[a]-top[b])) })
	return light[reds[0]], light[reds[1]]
}

// TestMouthDarkerThanLips checks, on every skin tone, that the inside of
// an open mouth is darker than the lips round it: the tongue, which
// fills most of the opening under jawOpen and viseme_aa, at most half
// the luminance of the painted lips (their middle, upper and lower, in
// the head's texture), and the gums at most twice it. One colour for
// every skin, the tongue was a sixth of fair lips' luminance but 0.9 of
// dark lips' and 1.7 times deep lips' (a pink plate filling the mouth of
// a dark face, so it barely read as open), the gums up to nine times.
func TestMouthDarkerThanLips(t *testing.T) {
	tones := make([]string, 0, len(skinTones))
	for k := range skinTones {
		tones = append(tones, k)
	}
	slices.Sort(tones)
	for _, tone := range tones {
		t.Run(tone, func(t *testing.T) {
			cfg := Default(Masculine)
			cfg.Skin.Tone = tone
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			tongue, gums := mouthReds(t, s)
			l := readLips(t, cfg)
			var lips [3]float64
			for k := range 3 {
				lips[k] = srgbLinear((l.upper[k] + l.lower[k]) / 2)
			}
			lip := luma(lips)
			t.Logf("%s: tongue %.4f, gums %.4f, lips %.4f (tongue %.2f, gums %.2f of the lips)", tone, tongue, gums, lip, tongue/lip, gums/lip)
			if tongue > 0.5*lip {
				t.Errorf("%s: the tongue's luminance is %.2f of the lips', want at most 0.5", tone, tongue/lip)
			}
			if gums > 2*lip {
				t.Errorf("%s: the gums' luminance is %.2f of the lips', want at most 2", tone, gums/lip)
			}
		})
	}
}
