package avatar

import (
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// TestNoHairOnForehead: no style leaves hair lying on the forehead below
// the hairline (the ragged dark patches of issue 22): no hair triangle
// between 1.5 and 5.5 cm above the eyes, in front of the face, has its
// three corners within 2.5 mm of skin vertices. A fringe may hang there,
// off the skin, and touch it with its edge.
func TestNoHairOnForehead(t *testing.T) {
	for i, st := range hairStyles {
		if st == "bald" {
			continue
		}
		t.Run(st, func(t *testing.T) {
			cfg := Default([]string{Masculine, Feminine}[i%2])
			cfg.Hair.Style = st
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			head, hair := meshNamed(s, "Wolf3D_Head"), meshNamed(s, "Wolf3D_Hair")
			if hair == nil {
				t.Fatal("no Wolf3D_Hair")
			}
			// The eyes' height: the middle of the EyeLeft mesh.
			eye := midY(meshNamed(s, "EyeLeft"))
			front := maxZ(head) - 0.035
			g := newGrid(head.Primitives[0].Positions)
			// A patch on the skin: a triangle whose three corners are.
			pos := hair.Primitives[0].Positions
			flat := make([]bool, len(pos))
			for v, p := range pos {
				y := float64(p[1])
				if y < eye+0.015 || y > eye+0.055 || float64(p[2]) < front || p[0] > 0.04 || p[0] < -0.04 {
					continue
				}
				flat[v] = g.nearest(p) < 0.0025
			}
			on := 0
			idx := hair.Primitives[0].Indices
			for k := 0; k+2 < len(idx); k += 3 {
				if flat[idx[k]] && flat[idx[k+1]] && flat[idx[k+2]] {
					on++
				}
			}
			if on > 0 {
				t.Errorf("%d hair triangles lie on the forehead", on)
			}
		})
	}
}

func midY(m *scene.Mesh) float64 {
	lo, hi := 1e9, -1e9
	for _, p := range m.Primitives[0].Positions {
		lo, hi = min(lo, float64(p[1])), max(hi, float64(p[1]))
	}
	return (lo + hi) / 2
}

func maxZ(m *scene.Mesh) float64 {
	z := -1e9
	for _, p := range m.Primitives[0].Positions {
		z = max(z, float64(p[2]))
	}
	return z
}
