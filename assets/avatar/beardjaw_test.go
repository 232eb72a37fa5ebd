package avatar

import (
	"math"
	"testing"
)

// beardJawCases are the bearded heads the jaw tests build: the default
// man and four random faces (narrow, wide and long jaws; random-08
// wears a goatee in the panel), each in the three styles that reach
// under the jaw.
func beardJawCases() []struct {
	name string
	cfg  Config
} {
	var out []struct {
		name string
		cfg  Config
	}
	heads := []struct {
		name string
		cfg  Config
	}{{"default", Default(Masculine)}, {"random-06", Random(6)}, {"random-11", Random(11)}, {"random-18", Random(18)}, {"random-08", Random(8)}}
	for _, h := range heads {
		for _, st := range []string{"full-beard", "short-beard", "goatee"} {
			c := h.cfg
			c.FacialHair = FacialHair{Style: st}
			out = append(out, struct {
				name string
				cfg  Config
			}{h.name + "/" + st, c})
		}
	}
	return out
}

// neckHair is the area, cm², of the head's skin under a beard's hair
// (region weight 0.3 and over, where paint.Beard draws the strands) that
// is neck: below the chin's lowest point and facing out (a normal less
// than 0.3 down), where the jaw, which rises from the chin toward the
// ears, has ended.
func neckHair(head *part, f faceFrame, w []float32) float64 {
	var area float64
	for _, t := range head.tris {
		a, b, c := v3(head.pos[t[0]]), v3(head.pos[t[1]]), v3(head.pos[t[2]])
		var ny, wt float64
		for _, v := range t {
			ny += float64(head.nrm[v][1]) / 3
			wt += float64(w[v]) / 3
		}
		if wt < 0.3 || ny < -0.3 || (a[1]+b[1]+c[1])/3 >= f.chin {
			continue
		}
		e, g := b.sub(a), c.sub(a)
		x := [3]float64{e[1]*g[2] - e[2]*g[1], e[2]*g[0] - e[0]*g[2], e[0]*g[1] - e[1]*g[0]}
		area += math.Sqrt(x[0]*x[0]+x[1]*x[1]+x[2]*x[2]) / 2
	}
	return area * 1e4
}

// beardOutline is the beard's lower outline seen from the front: in
// columns 1 mm wide across the chin and jaw (within 0.7 face units of
// the midline), the lowest point of its shells that carries hair
// (interpolated region weight 0.3 and over); +Inf where none does.
func beardOutline(p *part, f faceFrame) []float64 {
	const col = 0.001
	half := int(0.7 * f.unit / col)
	low := make([]float64, 2*half+1)
	for k := range low {
		low[k] = math.Inf(1)
	}
	const n = 10
	for _, t := range p.tris {
		a, b, c := v3(p.pos[t[0]]), v3(p.pos[t[1]]), v3(p.pos[t[2]])
		ma, mb, mc := float64(p.mask[t[0]]), float64(p.mask[t[1]]), float64(p.mask[t[2]])
		for i := 0; i <= n; i++ {
			for j := 0; i+j <= n; j++ {
				u, v := float64(i)/n, float64(j)/n
				if ma+u*(mb-ma)+v*(mc-ma) < 0.3 {
					continue
				}
				k := int(math.Round((a[0]+u*(b[0]-a[0])+v*(c[0]-a[0]))/col)) + half
				if k < 0 || k >= len(low) {
					continue
				}
				low[k] = math.Min(low[k], a[1]+u*(b[1]-a[1])+v*(c[1]-a[1]))
			}
		}
	}
	return low
}

// maxGoatee is how far under the chin's lowest point, metres, a
// goatee's hair may reach seen from the front: it wraps the chin's edge
// but does not hang below it.
const maxGoatee = 0.008

// TestBeardFollowsJaw: a full or short beard ends just under the jaw's
// edge, following it round to the ears, and leaves the neck bare. Cut
// off under the chin by a level plane, it ran down the neck at the
// sides, where the jaw rises toward the ears, and hung under the jaw as
// a block with a flat lower edge (p25's judges: "a fuzzy, blocky mass
// that hides the jaw", "a stepped lower edge"): 2.7-7.7 cm² of neck
// under hair and hair 17.6-20.4 mm under the chin's lowest point. The
// leader's beard stops at the jaw's edge. A goatee, on the chin alone,
// ends on the chin's underside: cut off by its own level plane, it hung
// 11.4-16.1 mm under the chin's lowest point, a square flap reaching
// back under the jaw, with corners lower still (the strips joining it to
// the moustache had no cut under the jaw); so it may reach no lower than
// maxGoatee. Measured on the region's weights (the skin under hair) and
// on the shells from the front.
func TestBeardFollowsJaw(t *testing.T) {
	const maxNeck = 0.5
	maxBelow := map[string]float64{"full-beard": 0.012, "short-beard": 0.012, "goatee": maxGoatee}
	for _, tc := range beardJawCases() {
		t.Run(tc.name, func(t *testing.T) {
			body, head := restingHead(t, tc.cfg)
			f := frameOf(head, body.Joints())
			bd := newBeard(tc.cfg, head, body.Joints())
			if bd.part == nil {
				t.Fatal("no beard")
			}
			neck := neckHair(head, f, bd.weights)
			lowest := math.Inf(1)
			for _, y := range beardOutline(bd.part, f) {
				lowest = math.Min(lowest, y)
			}
			below := f.chin - lowest
			t.Logf("%s: neck under hair %.2f cm², hair down to %.1f mm under the chin", tc.name, neck, below*1000)
			if neck > maxNeck {
				t.Errorf("%s: %.2f cm² of neck under the beard's hair (max %.1f): it runs down the neck under the jaw", tc.name, neck, maxNeck)
			}
			if m := maxBelow[tc.cfg.FacialHair.Style]; below > m {
				t.Errorf("%s: the beard hangs %.1f mm under the chin (max %.0f): a block under the jaw", tc.name, below*1000, m*1000)
			}
		})
	}
}
