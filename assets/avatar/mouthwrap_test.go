package avatar

import (
	"math"
	"testing"
)

// throughLips is how far the teeth lie in front of the lips' outside
// (metres), sampled over their triangles: the depth from the lips'
// outside behind a point of a tooth to the point, when no head surface
// is in front of it.
func throughLips(head *part, headPos [][3]float32, teeth *part, pos [][3]float32, steps int, side float64) float64 {
	lo, hi := bounds(pos)
	h := *head
	h.pos = headPos
	c := newFaceCover(&h, lo, hi)
	worst := 0.0
	for _, tr := range teeth.tris {
		trianglePoints(f64(pos[tr[0]]), f64(pos[tr[1]]), f64(pos[tr[2]]), steps, func(q [3]float64) {
			if math.Abs(q[0]) < side {
				return
			}
			if d := c.outOfLips(q); d > 0 {
				worst = math.Max(worst, d)
			}
		})
	}
	return worst
}

// TestTeethBehindLips checks that no tooth comes out through the lips:
// on the panel's faces, at rest and under jawOpen, the visemes and the
// mouth shapes at full weight, no point of the teeth lies in front of
// the lips' outside with nothing in front of it.
func TestTeethBehindLips(t *testing.T) {
	worst, at := 0.0, ""
	for _, f := range panelFaces() {
		head, inside := mouthInside(t, f.cfg)
		half := lipsHalf(head)
		states := map[string]int{"rest": -1}
		for name, i := range mouthMoves() {
			states[name] = i
		}
		for name, i := range states {
			h, in := shapedMouth(head, inside, i)
			out := throughLips(head, h, inside[0], in[0], 2, teethSide*half)
			if out > worst {
				worst, at = out, f.name+" "+name
			}
			if out > 0 {
				t.Errorf("%s, %s: the teeth lie %.2f mm in front of the lips, want 0", f.name, name, 1000*out)
			}
		}
	}
	t.Logf("the teeth at most %.2f mm in front of the lips (%s)", 1000*worst, at)
}

// TestMouthWrapsRound checks that the mouth's corners sit back in the
// face, as the leader's do (facemeasure's MouthCorner, in eye-distances:
// the leader's casual and office 0.294 and 0.273): on the house faces and
// the panel's "pursed" mouths. Before wrapMouth the corners sat 0.111 to
// 0.135 behind the lips' front on these faces (0.092 to 0.135: a flat
// front, the muzzle of the quarter view); now 0.23 to 0.33.
func TestMouthWrapsRound(t *testing.T) {
	const least = 0.2
	faces := panelFaces()
	for _, leader := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if s, ok := optionalLeaderScene(t, leader); ok {
			t.Logf("%s: corners %.3f behind the lips' front", leader, measureThirds(t, s).MouthCorner)
		}
	}
	for _, f := range []namedConfig{faces[0], faces[1], faces[10], faces[14], faces[19]} { // default-male, -female, random-09, -13, -18
		t.Run(f.name, func(t *testing.T) {
			s, err := Generate(f.cfg)
			if err != nil {
				t.Fatal(err)
			}
			c := measureThirds(t, s).MouthCorner
			t.Logf("%s: corners %.3f behind the lips' front", f.name, c)
			if c < least {
				t.Errorf("%s: the mouth's corners %.3f eye-distances behind the lips' front, want at least %.2f", f.name, c, least)
			}
		})
	}
}

// TestMouthWrapSmooth checks that the mouth turns back into the face
// without a pit: on the panel's faces at rest, along the lips' middle
// and 0.1 eye-distances over and under it, the face's front (the
// foremost head surface) from 0.3 to 0.8 eye-distances off the middle
// never comes forward again by more than 0.1 mm going outward. A push
// that went on past where the skin already turned back (a trial of
// wrapMouth whose push faded across, past the corners, and not in
// depth) left a hollow there: the face came 0.46 mm forward again just
// past random-09's corners, which shaded as dark creases in a room
// light.
func TestMouthWrapSmooth(t *testing.T) {
	const slack = 0.0001
	for _, f := range panelFaces() {
		body, head := restingHead(t, f.cfg.resolve())
		eyes := eyeCentres(body)
		ipd := eyes[0].centre.sub(eyes[1].centre).len()
		lips := lipMask()
		lo, hi := math.Inf(1), math.Inf(-1)
		for i, v := range head.base {
			if lips[v] >= lipCore {
				lo, hi = math.Min(lo, float64(head.pos[i][1])), math.Max(hi, float64(head.pos[i][1]))
			}
		}
		mid := (lo + hi) / 2
		c := newFaceCover(head, [3]float32{float32(-ipd), float32(mid - 0.2*ipd), 0}, [3]float32{float32(ipd), float32(mid + 0.2*ipd), 0})
		for _, dy := range []float64{-0.1, 0, 0.1} {
			for _, s := range []float64{-1, 1} {
				prev := math.Inf(1)
				for x := 0.3; x <= 0.8; x += 0.01 {
					_, _, z, _ := c.over([3]float64{s * x * ipd, mid + dy*ipd, 10})
					if math.IsInf(z, -1) {
						continue
					}
					if z > prev+slack {
						t.Errorf("%s: %.2f eye-distances off the middle, %+.1f over the lips' middle, the face comes %.2f mm forward again", f.name, s*x, dy, 1000*(z-prev))
						break
					}
					prev = math.Min(prev, z)
				}
			}
		}
	}
}
