package avatar

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// paintedFace is a head at rest with its painted skin, to read the
// skin's colour where a front view sees a point of the face.
type paintedFace struct {
	head  *part
	uv    [][2]float32
	base  *image.NRGBA
	orm   *image.NRGBA
	frame *paint.Mouth
}

// paintFace paints the head of cfg's avatar as Generate does (the lips'
// colour, the mouth's inside, the blush and the lips' frame).
func paintFace(t *testing.T, cfg Config) *paintedFace {
	t.Helper()
	c := cfg.resolve()
	_, head := restingHead(t, c)
	lips, blush := lipColour(), blushMask()
	head.mask = make([]float32, len(head.pos))
	hb := make([]float32, len(head.pos))
	for i, v := range head.base {
		head.mask[i], hb[i] = lips[v], blush[v]
	}
	hs := head.surface()
	head.packIslands(headUVGap)
	hs.UV = head.uv
	hs.Inner, hs.Blush, hs.Mouth = head.mouthDepth(), hb, head.mouthFrame()
	if hs.Mouth == nil {
		t.Fatal("no mouth frame")
	}
	m := paint.Skin(hs, paint.RGB(colorOf(skinTones, c.Skin.Tone)), 1, 512)
	return &paintedFace{head: head, uv: hs.UV, base: m.Base, orm: m.ORM, frame: hs.Mouth}
}

// at is the painted colour (sRGB, 0..1) a front view sees at (x, y): the
// texture under the most forward triangle there, bilinearly sampled.
func (f *paintedFace) at(x, y float64) ([3]float64, bool) {
	best, found := math.Inf(-1), false
	var uv [2]float64
	for _, t := range f.head.tris {
		a, b, c := f.head.pos[t[0]], f.head.pos[t[1]], f.head.pos[t[2]]
		d := float64((b[1]-c[1])*(a[0]-c[0]) + (c[0]-b[0])*(a[1]-c[1]))
		if math.Abs(d) < 1e-14 {
			continue
		}
		w0 := (float64(b[1]-c[1])*(x-float64(c[0])) + float64(c[0]-b[0])*(y-float64(c[1]))) / d
		w1 := (float64(c[1]-a[1])*(x-float64(c[0])) + float64(a[0]-c[0])*(y-float64(c[1]))) / d
		w2 := 1 - w0 - w1
		if w0 < 0 || w1 < 0 || w2 < 0 {
			continue
		}
		z := w0*float64(a[2]) + w1*float64(b[2]) + w2*float64(c[2])
		if z <= best {
			continue
		}
		best, found = z, true
		for k := range 2 {
			uv[k] = w0*float64(f.uv[t[0]][k]) + w1*float64(f.uv[t[1]][k]) + w2*float64(f.uv[t[2]][k])
		}
	}
	if !found {
		return [3]float64{}, false
	}
	n := f.base.Bounds().Dx()
	px, py := uv[0]*float64(n)-0.5, uv[1]*float64(n)-0.5
	x0, y0 := int(math.Floor(px)), int(math.Floor(py))
	fx, fy := px-float64(x0), py-float64(y0)
	var out [3]float64
	for j := range 2 {
		for i := range 2 {
			w := (1 - math.Abs(float64(i)-fx)) * (1 - math.Abs(float64(j)-fy))
			c := f.base.NRGBAAt(min(n-1, max(0, x0+i)), min(n-1, max(0, y0+j)))
			out[0] += w * float64(c.R) / 255
			out[1] += w * float64(c.G) / 255
			out[2] += w * float64(c.B) / 255
		}
	}
	return out, true
}

// lipProfile reads the painted lips of cfg in a front view: the colour
// of the skin (between the lower lip and the chin, and beside the
// mouth), of each lip (the mean over its middle third of height, in the
// middle of the mouth), of the parting, and the painted height of each
// lip above and below the parting at u (a share of the lips' half-width
// from the middle): how far the colour stays at least halfway from the
// skin's redness to the lip's.
type lipProfile struct {
	skin, upper, lower, parting [3]float64
	up, down                    map[float64]float64
}

// redness is 1 - G/R: lips are redder than the skin around them.
func redness(c [3]float64) float64 { return 1 - c[1]/math.Max(c[0], 1e-6) }

func luma(c [3]float64) float64 { return paint.Luma(c) }

var lipColumns = []float64{0.1, 0.2, 0.5, 0.8}

func readLips(t *testing.T, cfg Config) lipProfile {
	t.Helper()
	f := paintFace(t, cfg)
	fr := f.frame
	pt := func(u, dy float64) [3]float64 {
		x := fr.Centre[0] + u*fr.Half
		c, ok := f.at(x, fr.Centre[1]+fr.Corner*u*u+dy)
		if !ok {
			t.Fatalf("nothing painted at u %.2f, %.1f mm from the parting", u, 1000*dy)
		}
		return c
	}
	mean := func(cs ...[3]float64) (m [3]float64) {
		for _, c := range cs {
			for k := range 3 {
				m[k] += c[k] / float64(len(cs))
			}
		}
		return m
	}
	var p lipProfile
	p.skin = mean(pt(0.1, -fr.Lower-0.006), pt(1.3, 0), pt(-1.3, 0))
	p.upper = mean(pt(0.1, fr.Upper*0.5), pt(-0.1, fr.Upper*0.5), pt(0.3, fr.Upper*0.5), pt(-0.3, fr.Upper*0.5))
	p.lower = mean(pt(0.1, -fr.Lower*0.5), pt(-0.1, -fr.Lower*0.5), pt(0.3, -fr.Lower*0.5), pt(-0.3, -fr.Lower*0.5))
	p.parting = mean(pt(0.1, 0), pt(-0.1, 0), pt(0.3, 0), pt(-0.3, 0))
	rs := redness(p.skin)
	half := (rs + math.Max(redness(p.upper), redness(p.lower))) / 2
	p.up, p.down = map[float64]float64{}, map[float64]float64{}
	for _, u := range lipColumns {
		var h [2]float64
		for s, sign := range []float64{1, -1} {
			for dy := 0.0005; dy < 0.015; dy += 0.00025 {
				// Both sides of the face, and the lip's colour from the
				// parting's shade outward.
				if (redness(pt(u, sign*dy))+redness(pt(-u, sign*dy)))/2 >= half || dy < 0.0015 {
					h[s] = dy
					continue
				}
				break
			}
		}
		p.up[u], p.down[u] = h[0], h[1]
	}
	return p
}

// TestLipsShaped checks the painted lips of the panel's two default faces
// and two random ones in a front view, against the "flat pale bar" the
// blind panel saw (an even strip of the same height from corner to
// corner, c5792eb): the upper lip's colour highest near the middle (at
// the bow, u 0.2) and lower toward the corners (u 0.8), at least 1.2
// times; the lower lip fullest in the middle (u 0.1: at the face's middle
// line the front-most triangle this sampler picks is not always the one
// drawn) and tapering, at least 1.2 times its height at u 0.8; the
// upper lip deep and red and the lower light and pink, as the leader's
// in a room light (its upper lip's luma 0.59 to 0.81 of a cheek's and
// its redness, 1 - G/R, 0.19 to 0.29 above; its lower lip's 0.95 to
// 1.2 and 0.04 to 0.07): here in the texture, the upper lip's luma 0.55
// to 0.9 of the skin's and its redness 0.08 to 0.3 above, the lower's
// 0.75 to 1 and 0.02 to 0.2 (a lipstick would be redder); the upper lip
// deeper than the lower; and the parting at most 0.65 of the lower lip's
// luma, the dark line between the lips (the leader's texture: 0.5 of
// its lower lip's middle; ours 0.70 to 0.74 before lipSlitShade 0.65
// and lipSlitWidth 1.3 mm, then 0.55 to 0.62). Before (c5792eb's lips, one even
// colour) the heights were the same across the mouth and the two lips
// one colour.
func TestLipsShaped(t *testing.T) {
	for _, c := range lipCases() {
		t.Run(c.name, func(t *testing.T) {
			p := readLips(t, c.cfg)
			ls, lu, ll, lp := luma(p.skin), luma(p.upper), luma(p.lower), luma(p.parting)
			rs := redness(p.skin)
			var cols string
			for _, u := range lipColumns {
				cols += fmt.Sprintf(" u%.1f %.1f/%.1f", u, 1000*p.up[u], 1000*p.down[u])
			}
			t.Logf("lip height up/down mm:%s; luma skin %.3f upper %.3f lower %.3f parting %.3f; redness skin %.3f upper %.3f lower %.3f",
				cols, ls, lu, ll, lp, rs, redness(p.upper), redness(p.lower))
			if r := p.up[0.2] / p.up[0.8]; r < 1.2 {
				t.Errorf("upper lip at the bow %.1f mm, at the sides %.1f mm (%.2f times), want at least 1.2 times", 1000*p.up[0.2], 1000*p.up[0.8], r)
			}
			if r := p.down[0.1] / p.down[0.8]; r < 1.2 {
				t.Errorf("lower lip in the middle %.1f mm, at the sides %.1f mm (%.2f times), want at least 1.2 times", 1000*p.down[0.1], 1000*p.down[0.8], r)
			}
			for _, l := range []struct {
				name      string
				c         [3]float64
				luma, red [2]float64
			}{{"upper", p.upper, [2]float64{0.55, 0.9}, [2]float64{0.08, 0.3}}, {"lower", p.lower, [2]float64{0.75, 1}, [2]float64{0.02, 0.2}}} {
				if r := luma(l.c) / ls; r < l.luma[0] || r > l.luma[1] {
					t.Errorf("%s lip's luma %.2f of the skin's, want %.2f to %.2f", l.name, r, l.luma[0], l.luma[1])
				}
				if d := redness(l.c) - rs; d < l.red[0] || d > l.red[1] {
					t.Errorf("%s lip's redness %.3f above the skin's, want %.2f to %.2f", l.name, d, l.red[0], l.red[1])
				}
			}
			if lu >= ll {
				t.Errorf("upper lip's luma %.3f not below the lower's %.3f", lu, ll)
			}
			if lp > 0.65*ll {
				t.Errorf("parting's luma %.3f, %.2f of the lower lip's %.3f, want at most 0.65", lp, lp/ll, ll)
			}
		})
	}
}
