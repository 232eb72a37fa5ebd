package avatar

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// TestBobIsNotABowl: the bob ("bun") has a side parting its hair
// sweeps from, not the "bowl-cut shell" issue 22's panel (p18) named on
// all five bun avatars, whose strands fell straight from the crown.
// Measured on the built hair mesh of random-02, -04, -05 and -17:
//   - slant: the direction the strands run down the fringe (the lines
//     of one u in the hair's UVs, which the painter's strands follow),
//     its mean angle from the vertical over the forehead, area-weighted
//     (degrees, + when they run down toward the avatar's right): a
//     swept fringe;
//   - slope: how much higher the fringe ends 3.5 cm to the avatar's
//     left of the head's middle (the parting's side) than 3.5 cm to its
//     right (mm): a fringe whose edge slopes away from the parting.
//
// Before (e882ebe): slant 0.4-0.6°, slope 14.7-17.5 mm (braid01's own
// sweep); swept from the parting (hairbobpart.go): 15.7-17.1°,
// 28.6-29.7 mm.
func TestBobIsNotABowl(t *testing.T) {
	for _, seed := range []int64{2, 4, 5, 17} {
		t.Run(fmt.Sprintf("random-%02d", seed), func(t *testing.T) {
			cfg := Random(seed)
			if cfg.Hair.Style != "bun" {
				t.Fatalf("random-%02d draws %q hair, not the bun", seed, cfg.Hair.Style)
			}
			cfg.Headwear.Style = "none"
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			m := measureBob(t, s)
			t.Logf("random-%02d: slant %.1f°; slope %.1f mm", seed, m.slant, m.slope)
			if m.slant < 8 {
				t.Errorf("slant: the fringe's strands run %.1f° from the vertical, want at least 8° (swept from the parting)", m.slant)
			}
			if m.slope < 24 {
				t.Errorf("slope: the fringe ends %.1f mm higher on the parting's side, want at least 24 mm", m.slope)
			}
		})
	}
}

type bobMeasure struct{ slant, slope float64 }

// measureBob measures the bob of s (TestBobIsNotABowl).
func measureBob(t *testing.T, s *scene.Scene) bobMeasure {
	t.Helper()
	pos, tris := meshPositions(s, "Wolf3D_Hair")
	uv := meshUVs(s, "Wolf3D_Hair")
	if len(tris) == 0 || len(uv) != len(pos) {
		t.Fatalf("hair: %d triangles, %d UVs for %d vertices", len(tris), len(uv), len(pos))
	}
	lp, _ := meshPositions(s, "EyeLeft")
	rp, _ := meshPositions(s, "EyeRight")
	eyes := centroid(append(slices.Clone(lp), rp...))
	kp, _ := meshPositions(s, "Wolf3D_Head")
	head := centroid(kp)
	var m bobMeasure

	// Slant: over the forehead, on the outside (facing forward).
	sum, area := 0.0, 0.0
	for _, tr := range tris {
		p0, p1, p2 := pos[tr[0]], pos[tr[1]], pos[tr[2]]
		c := p0.add(p1).add(p2).scale(1.0 / 3)
		n := p1.sub(p0).cross(p2.sub(p0))
		a := n.len() / 2
		if a == 0 || n.norm()[2] < 0.5 || math.Abs(c[0]-head[0]) > 0.04 || c[1] < eyes[1]+0.03 || c[1] > eyes[1]+0.08 {
			continue
		}
		// The strands run along the lines of one u (the painter's
		// columns), across u's gradient; taken downward.
		g := n.norm().cross(uvGradient(p0, p1, p2, float64(uv[tr[0]][0]), float64(uv[tr[1]][0]), float64(uv[tr[2]][0])))
		if g.len() == 0 {
			continue
		}
		if g[1] > 0 {
			g = g.scale(-1)
		}
		sum += a * math.Atan2(-g[0], -g[1]) * 180 / math.Pi
		area += a
	}
	if area > 0 {
		m.slant = sum / area
	}

	// Slope: the fringe's lowest point in front, either side.
	lowest := func(x float64) float64 {
		y := math.Inf(1)
		for _, p := range pos {
			if math.Abs(p[0]-x) < 0.006 && p[2] > eyes[2]-0.03 && p[1] > eyes[1] {
				y = math.Min(y, p[1])
			}
		}
		return y
	}
	m.slope = (lowest(head[0]+0.035) - lowest(head[0]-0.035)) * 1000

	return m
}

// uvGradient is the direction in space (on the triangle p0 p1 p2) in
// which the texture coordinate v (v0, v1, v2 at its corners) grows, per
// metre.
func uvGradient(p0, p1, p2 vec3, v0, v1, v2 float64) vec3 {
	e1, e2 := p1.sub(p0), p2.sub(p0)
	d1, d2 := v1-v0, v2-v0
	a, b, c := e1.dot(e1), e1.dot(e2), e2.dot(e2)
	det := a*c - b*b
	if det == 0 {
		return vec3{}
	}
	// g = x e1 + y e2 with g·e1 = d1 and g·e2 = d2.
	x := (d1*c - d2*b) / det
	y := (d2*a - d1*b) / det
	return e1.scale(x).add(e2.scale(y))
}

// meshUVs are the TEXCOORD_0 of the named mesh's primitives, in the
// order meshPositions gives their vertices.
func meshUVs(s *scene.Scene, name string) [][2]float32 {
	var uv [][2]float32
	for _, m := range s.Meshes {
		if m.Name != name {
			continue
		}
		for _, p := range m.Primitives {
			if len(p.TexCoords) > 0 {
				uv = append(uv, p.TexCoords[0]...)
			}
		}
	}
	return uv
}
