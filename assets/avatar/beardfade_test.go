package avatar

import (
	"math"
	"slices"
	"testing"
)

// beardSeen is a bearded face seen from the front, frontSeen's way:
// at (x, y) the luma of the shells' texel where a shell carries hair
// (hair true), else the skin's; ok false off the head.
func beardSeen(t *testing.T, cfg Config) (f faceFrame, seen func(x, y float64) (luma float64, hair, ok bool)) {
	t.Helper()
	body, rest := restingHead(t, cfg)
	f = frameOf(rest, body.Joints())
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	head := frontMeshOf(t, s, "Wolf3D_Head", "Wolf3D_Skin")
	beard := frontMeshOf(t, s, "Wolf3D_Beard", "Wolf3D_Beard")
	seen = func(x, y float64) (float64, bool, bool) {
		hair, hairLuma, skin, ok := frontSeen(head, beard, x, y)
		if hair {
			return hairLuma, true, ok
		}
		return skin.luma(), false, ok
	}
	return f, seen
}

// cheekFade walks up columns of a bearded face seen from the front
// across the beard's cheek line and returns, per column, the beard's
// ink at each step (0 the bare cheek's albedo luma, 1 the beard's):
// the shells' texel where a shell carries hair, else the skin's.
func cheekFade(t *testing.T, cfg Config) (inks [][]float64, step float64) {
	t.Helper()
	f, seen := beardSeen(t, cfg)
	step = 0.0005
	for _, x := range []float64{0.62, 0.68, 0.74, 0.8} {
		for _, sx := range []float64{-1, 1} {
			var pts [][2]float64
			for y := f.lip[1]; y < f.eye-0.2*f.unit; y += step {
				pts = append(pts, [2]float64{sx * x * f.unit, y})
			}
			if l := inkLine(seen, pts); l != nil {
				inks = append(inks, l)
			}
		}
	}
	return inks, step
}

// inkLine samples seen at pts, in order, and returns the beard's ink
// at each (0 the luma at the last point, the bare skin, 1 the median of
// the hair crossed; NaN off the head), or nil where fewer than 4 of the
// points show hair.
func inkLine(seen func(x, y float64) (float64, bool, bool), pts [][2]float64) []float64 {
	var l, hairL []float64
	for _, p := range pts {
		v, hair, ok := seen(p[0], p[1])
		if !ok {
			l = append(l, math.NaN())
			continue
		}
		if hair {
			hairL = append(hairL, v)
		}
		l = append(l, v)
	}
	if len(hairL) < 4 {
		return nil
	}
	slices.Sort(hairL)
	dark := hairL[len(hairL)/2]
	cheek := l[len(l)-1]
	for i, v := range l {
		l[i] = (cheek - v) / (cheek - dark)
	}
	return l
}

// fadeWidth is, for a column's inks, the height from the last step
// (walking up) at 0.9 or more to the first at 0.1 or less above it,
// and the largest fall in ink over 1 mm within it.
func fadeWidth(ink []float64, step float64) (width, jump float64) {
	hi := -1
	for i, v := range ink {
		if v >= 0.9 {
			hi = i
		}
	}
	if hi < 0 {
		return 0, 0
	}
	lo := len(ink) - 1
	for i := hi; i < len(ink); i++ {
		if ink[i] <= 0.1 {
			lo = i
			break
		}
	}
	w := int(math.Round(0.001 / step))
	for i := hi; i+w <= lo; i++ {
		jump = math.Max(jump, ink[i]-ink[i+w])
	}
	return float64(lo-hi) * step, jump
}

// TestBeardCheekFades: a full or short beard's cheek line fades into
// the skin, as the leader's painted beard does on the cheek, instead of
// ending at a hard outline. Seen from the front (albedo, frontSeen's
// way: a shell's texel where it carries hair, else the skin's), up
// eight columns 0.62 to 0.8 face units out from the midline, beside the
// mouth: the beard's ink (0 the bare cheek's luma, 1 the beard's) and
// its steepest fall over 1 mm between the last step at 0.9 and the
// first at 0.1 above it. With the roots' band as narrow as the
// stubble's (stubbleReach), the roots stood dense 2-3 mm past the
// shells' edge and then fell from 0.95 to 0.3 within 1-2 mm: the worst
// column fell 0.54 (full beard), 0.42 (short), 0.60 (random-06), 0.57
// (random-11) per mm, a hard outline over the shells' alpha-cut edge
// (p31's judges: "flat blocky mass, hard or jagged edge"). With
// rootsCheekReach and rootsCover's fall from the shells' edge, 0.27,
// 0.26, 0.26, 0.27.
func TestBeardCheekFades(t *testing.T) {
	for _, name := range []string{"full-beard", "short-beard", "random-06", "random-11"} {
		t.Run(name, func(t *testing.T) {
			cfg := Default(Masculine)
			switch name {
			case "random-06":
				cfg = Random(6)
			case "random-11":
				cfg = Random(11)
			default:
				cfg.FacialHair.Style = name
			}
			inks, step := cheekFade(t, cfg)
			if len(inks) < 4 {
				t.Fatalf("only %d columns cross the beard's cheek line", len(inks))
			}
			var worst, sum float64
			for _, ink := range inks {
				_, j := fadeWidth(ink, step)
				worst = math.Max(worst, j)
				sum += j
			}
			t.Logf("%s: the beard's ink falls at most %.2f per mm at the cheek line (worst of %d columns; mean %.2f)", name, worst, len(inks), sum/float64(len(inks)))
			if worst > 0.3 {
				t.Errorf("%s: the beard's ink falls %.2f per mm at the cheek line, want 0.3 or less: a hard outline", name, worst)
			}
		})
	}
}
