package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// skinRegion is a box on the face, in eye-distances (the eyes' centres
// apart, so Kiln's faces and the leader's are measured alike): x off the
// middle between the eyes (either side), y from the eyes' height (up
// positive), over the vertices facing the viewer at least nz (normal's z).
type skinRegion struct {
	name           string
	x0, x1, y0, y1 float64
	nz             float64
}

// skinRegions are where the key light's shade on a face shows or does
// not: the nose's bridge and its sides, the eye sockets' inner corners
// beside the bridge, the forehead, the temples beside the eyes and the
// cheeks under them.
var skinRegions = []skinRegion{
	{"bridge", 0, 0.06, -0.45, -0.15, 0.6},
	{"noseside", 0.15, 0.28, -0.5, -0.2, 0},
	{"socket", 0.12, 0.28, -0.05, 0.15, 0},
	{"forehead", 0, 0.4, 0.5, 0.8, 0.6},
	{"temple", 0.85, 1.05, 0, 0.35, -1},
	{"cheek", 0.3, 0.8, -0.6, -0.35, 0.6},
}

// regionColours is the mean base colour (sRGB-coded, 0..1) the head's
// vertices in each of skinRegions sample from the skin texture, by the
// region's name.
func regionColours(t *testing.T, s *scene.Scene) map[string][3]float64 {
	t.Helper()
	return regionColoursIn(t, s, skinRegions)
}

// regionColoursIn is regionColours over the given regions.
func regionColoursIn(t *testing.T, s *scene.Scene, regions []skinRegion) map[string][3]float64 {
	t.Helper()
	el, er, ipd := sceneEyes(t, s)
	mx := (el[0] + er[0]) / 2
	eyeY, eyeZ := (el[1]+er[1])/2, (el[2]+er[2])/2
	head := meshOf(t, s, "Wolf3D_Head")
	img := baseColorImage(t, s, "Wolf3D_Skin")
	b := img.Bounds()
	out := map[string][3]float64{}
	n := map[string]float64{}
	for i, q := range head.Positions {
		x, y := math.Abs(float64(q[0])-mx)/ipd, (float64(q[1])-eyeY)/ipd
		if float64(q[2]) < eyeZ-0.6*ipd {
			continue
		}
		nz := float64(head.Normals[i][2])
		for _, r := range regions {
			if x < r.x0 || x > r.x1 || y < r.y0 || y > r.y1 || nz < r.nz {
				continue
			}
			uv := head.TexCoords[0][i]
			cr, cg, cb, _ := img.At(b.Min.X+int(float64(uv[0])*float64(b.Dx())), b.Min.Y+int(float64(uv[1])*float64(b.Dy()))).RGBA()
			c := out[r.name]
			c[0] += float64(cr) / 65535
			c[1] += float64(cg) / 65535
			c[2] += float64(cb) / 65535
			out[r.name] = c
			n[r.name]++
		}
	}
	for k, c := range out {
		out[k] = [3]float64{c[0] / n[k], c[1] / n[k], c[2] / n[k]}
	}
	return out
}

// TestFaceFormShaded asks the default faces' skin to carry the shade of
// their own form in a key light (formShade), as the leader bakes it, by
// the luma of the skin texture under regions of the face (skinRegions)
// one over the other. Before, ours were even (nose sides 0.99-1.00 of
// the bridge, temples 1.01 of the cheeks, the eye sockets 0.95 of the
// forehead): in a room light the flat, waxy faces the blind panel saw.
// The leader's casual and office: 0.91 and 0.90, 0.83 and 0.89, 0.70
// and 0.72 (its eyeliner is in its sockets' skin). Each ratio has a floor
// too, under the leader's, so that the shading cannot turn muddy.
func TestFaceFormShaded(t *testing.T) {
	cases := []struct {
		name, shaded, lit string
		lo, hi            float64
	}{
		{"nose side / bridge", "noseside", "bridge", 0.85, 0.96},
		{"temple / cheek", "temple", "cheek", 0.8, 0.95},
		{"eye socket / forehead", "socket", "forehead", 0.7, 0.9},
	}
	leaders := map[string]map[string][3]float64{}
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if l, ok := optionalLeaderScene(t, n); ok {
			leaders[n] = regionColours(t, l)
		}
	}
	for _, g := range []string{Masculine, Feminine} {
		s, err := Generate(Default(g))
		if err != nil {
			t.Fatal(err)
		}
		c := regionColours(t, s)
		for _, tc := range cases {
			r := luma(c[tc.shaded]) / luma(c[tc.lit])
			for n, l := range leaders {
				t.Logf("%s: %s %.3f (%s's %.3f)", g, tc.name, r, n, luma(l[tc.shaded])/luma(l[tc.lit]))
			}
			if r < tc.lo || r > tc.hi {
				t.Errorf("%s: %s luma %.3f, want %.2f to %.2f", g, tc.name, r, tc.lo, tc.hi)
			}
		}
	}
}
