package avatar

import (
	"math"
	"testing"
)

// curlyEdgeCases are the curly panel faces (random-11 under its fedora)
// and two more made curly: dark hair on medium and on dark skin.
func curlyEdgeCases() []namedConfig {
	curly := func(c Config) Config { c.Hair.Style = "curly"; return c }
	return []namedConfig{
		{"random-08", Random(8)},
		{"random-09", Random(9)},
		{"random-11", Random(11)},
		{"random-14", Random(14)},
		{"default-male-curly", curly(Default(Masculine))},
		{"random-04-curly", curly(Random(4))},
	}
}

// edgeUnevenness is how far (metres) the hair's lower edge in cols
// strays from the smooth arch that fits it best (a parabola over x,
// least squares): the root mean square and the span from the highest
// notch above the arch to the lowest lobe below it; 0 for an even line
// like a hat's rim.
func edgeUnevenness(cols []hairlineColumn) (rms, span float64) {
	// Normal equations of edge = a + b·x + c·x².
	var m [3][4]float64
	for _, c := range cols {
		f := [3]float64{1, c.x, c.x * c.x}
		for i := range 3 {
			for j := range 3 {
				m[i][j] += f[i] * f[j]
			}
			m[i][3] += f[i] * c.edge
		}
	}
	for i := range 3 {
		for k := i + 1; k < 3; k++ {
			r := m[k][i] / m[i][i]
			for j := i; j < 4; j++ {
				m[k][j] -= r * m[i][j]
			}
		}
	}
	var coef [3]float64
	for i := 2; i >= 0; i-- {
		v := m[i][3]
		for j := i + 1; j < 3; j++ {
			v -= m[i][j] * coef[j]
		}
		coef[i] = v / m[i][i]
	}
	ss, lo, hi := 0.0, 0.0, 0.0
	for _, c := range cols {
		d := c.edge - (coef[0] + coef[1]*c.x + coef[2]*c.x*c.x)
		ss += d * d
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	return math.Sqrt(ss / float64(max(1, len(cols)))), hi - lo
}

// TestCurlyHairlineBroken looks at curly hair's front edge from the
// front (frontHairline) and asks that it comes down in lobes (curlLobe),
// not in an even arch "like a hat's rim" (issue 22's panel, p26), and
// that the scalp's band shows under it (coverFromFront). Before the
// lobes the edge spanned 3.5-4.0 mm in height across the middle 8 cm
// and strayed from its arch by 0.9-3.0 mm notch to lobe (random-08 0.9,
// -09 1.3, -14 3.0, default-male 1.3, random-04 2.6); now 7-17 mm and
// 3.4-13.1 mm; at least 6 and 3.2 asked. The band showed under the
// edge in 76% of random-14's columns, 91% of random-09's; now 97% and
// 100%, at least 90% asked where hair is darker than skin (random-08's
// blonde on olive skin paints no darker band). random-11's fedora
// covers the forehead: logged only.
func TestCurlyHairlineBroken(t *testing.T) {
	for _, c := range curlyEdgeCases() {
		t.Run(c.name, func(t *testing.T) {
			s, err := Generate(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			cols := frontHairline(t, s)
			banded := 0
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, col := range cols {
				if col.banded {
					banded++
				}
				lo, hi = math.Min(lo, col.edge), math.Max(hi, col.edge)
			}
			share := float64(banded) / float64(max(1, len(cols)))
			rms, span := edgeUnevenness(cols)
			t.Logf("%s: %d columns, edge %.1f-%.1f mm over the eyes, off the arch %.2f mm rms, %.1f mm notch to lobe, band under it in %.0f%%", c.name, len(cols), 1000*lo, 1000*hi, 1000*rms, 1000*span, 100*share)
			if c.cfg.Headwear.Style != "" && c.cfg.Headwear.Style != "none" {
				return
			}
			if len(cols) < 25 {
				t.Fatalf("only %d columns found the hair's edge", len(cols))
			}
			if hi-lo < 0.006 {
				t.Errorf("the edge spans %.1f mm in height, want at least 6: an even arch", 1000*(hi-lo))
			}
			if span < 0.0032 {
				t.Errorf("the edge strays %.1f mm from its arch notch to lobe, want at least 3.2", 1000*span)
			}
			if c.name != "random-08" && share < 0.9 {
				t.Errorf("the scalp's band under the edge shows in %.0f%% of the columns, want at least 90%%", 100*share)
			}
		})
	}
}
