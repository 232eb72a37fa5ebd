package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// midlineFront is the face's and neck's profile down the middle: per
// 5 mm band under the eyes (band b is b·5 mm to (b+1)·5 mm under them),
// how far forward (z, metres) the skin of the head and the body reaches
// where the plane x = 0 cuts it; the eyes' mean height and distance
// apart besides.
func midlineFront(t *testing.T, s *scene.Scene) (front map[int]float64, ipd float64) {
	t.Helper()
	el, er := meshOf(t, s, "EyeLeft"), meshOf(t, s, "EyeRight")
	var eye, lx, rx float64
	for _, q := range el.Positions {
		eye += float64(q[1]) / float64(2*len(el.Positions))
		lx += float64(q[0]) / float64(len(el.Positions))
	}
	for _, q := range er.Positions {
		eye += float64(q[1]) / float64(2*len(er.Positions))
		rx += float64(q[0]) / float64(len(er.Positions))
	}
	front = map[int]float64{}
	for _, name := range []string{"Wolf3D_Head", "Wolf3D_Body"} {
		p := meshOf(t, s, name)
		for i := 0; i+2 < len(p.Indices); i += 3 {
			// Where the triangle crosses x = 0: a segment, walked in
			// 20 steps.
			var cut [][2]float64
			for k := range 3 {
				u, v := p.Positions[p.Indices[i+k]], p.Positions[p.Indices[i+(k+1)%3]]
				if (u[0] <= 0) != (v[0] <= 0) {
					f := float64(u[0]) / float64(u[0]-v[0])
					cut = append(cut, [2]float64{float64(u[1]) + f*float64(v[1]-u[1]), float64(u[2]) + f*float64(v[2]-u[2])})
				}
			}
			if len(cut) < 2 {
				continue
			}
			for j := 0; j <= 20; j++ {
				f := float64(j) / 20
				y, z := cut[0][0]+f*(cut[1][0]-cut[0][0]), cut[0][1]+f*(cut[1][1]-cut[0][1])
				b := int(math.Floor((eye - y) / 0.005))
				if z0, ok := front[b]; !ok || z > z0 {
					front[b] = z
				}
			}
		}
	}
	return front, math.Abs(lx - rx)
}

// jawShelf is how sharply the chin stands off the neck, in eye-distances:
// the most the midline profile (midlineFront) steps back over 1 cm of
// height, between 0.8 and 2.5 eye-distances under the eyes, where the
// chin's front gives way to the throat under it. A clean jaw ends in a
// shelf, the chin's underside nearly level and the throat straight under
// it (the leader's casual and office avatars: 0.90 and 0.89); a soft,
// heavy jaw slopes from the chin down into the neck (a double chin).
func jawShelf(t *testing.T, s *scene.Scene) float64 {
	t.Helper()
	front, ipd := midlineFront(t, s)
	best := 0.0
	for b := int(0.8 * ipd / 0.005); b <= int(2.5*ipd/0.005); b++ {
		z0, ok0 := front[b]
		z1, ok1 := front[b+2]
		if ok0 && ok1 {
			best = math.Max(best, z0-z1)
		}
	}
	return best / ipd
}

// TestJawShelf asks the default faces, and an old, heavy one (where
// MakeHuman's age and weight hang the most skin under the chin), for a
// jaw that ends in a shelf (jawShelf) at least as clean as the
// leader's: our jaws sloped down into the neck, the blind panel's
// heavy, soft jaw merged with the neck and the creases under it
// (default-male 0.765, default-female 0.825, old and heavy 0.653 before
// neck-double in houseFace; now 0.976, 0.991 and 0.861).
func TestJawShelf(t *testing.T) {
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if l, ok := optionalLeaderScene(t, n); ok {
			t.Logf("%s: jaw shelf %.3f eye-distances", n, jawShelf(t, l))
		}
	}
	old := Default(Feminine)
	old.Body.Age, old.Body.Build = 70, 1
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"default-male", Default(Masculine)},
		{"default-female", Default(Feminine)},
		{"old and heavy", old},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Generate(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := jawShelf(t, s)
			t.Logf("jaw shelf %.3f eye-distances", r)
			if r < 0.85 {
				t.Errorf("the chin stands %.3f eye-distances off the throat under it, want 0.85 or more (the leader's 0.87-0.88)", r)
			}
		})
	}
}
