package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// chinLinePixel is the size of frontNormals' pixels for chinLines,
// metres: fine enough that a fold of the mesh, 2-3 of its 4 mm edges
// wide, spans several.
const chinLinePixel = 0.0005

// chinLineStep is how far either side of a pixel chinLines looks, metres.
const chinLineStep = 0.002

// chinLines is how far the normal turns back across the skin under the
// mouth, in degrees, as a viewer's shading interpolates it: the head
// drawn from the front (frontNormals), and along each row, from a
// quarter eye-distance under the mouth's middle (the teeth's) to a tenth
// over the chin's lowest point, within 0.7 eye-distances of the middle,
// the most its normal turns toward the middle over 2·chinLineStep (the
// skin facing the viewer); the mean over the rows. Across a rounded chin
// the normal only turns outward; a fold running down it (p14's "jaw
// seam" lines from the mouth's corners) turns it back within a few
// millimetres and crosses every row, a dark line in any light.
func chinLines(t *testing.T, s *scene.Scene) float64 {
	t.Helper()
	head, mouth, chin, ipd := chinFrame(t, s)
	top, bottom, half := mouth-0.25*ipd, chin+0.1*ipd, 0.7*ipd
	img := frontNormals(head, -half, bottom, half, top, chinLinePixel)
	d := int(math.Round(chinLineStep / chinLinePixel))
	var rows []float64
	for _, row := range img {
		worst := 0.0
		for i := d; i < len(row)-d; i++ {
			a, c := row[i-d], row[i+d]
			// Only on skin facing the viewer: the jaw's edge turns away.
			if a[2] < 0.5 || c[2] < 0.5 {
				continue
			}
			// Across a rounded chin the normal turns outward as x grows;
			// in a fold it turns back.
			worst = math.Max(worst, math.Atan2(a[0], a[2])-math.Atan2(c[0], c[2]))
		}
		rows = append(rows, worst)
	}
	var sum float64
	for _, r := range rows {
		sum += r
	}
	return sum / float64(len(rows)) * 180 / math.Pi
}

// chinFrame finds what the chin measures (chinLines, chinPlate) are
// drawn in: the head's mesh, the mouth's height (the teeth's mean), the
// chin's lowest point on the midline in front of the eyes, and the eye
// distance the rows and widths scale with.
func chinFrame(t *testing.T, s *scene.Scene) (head *scene.Primitive, mouth, chin, ipd float64) {
	t.Helper()
	l, r, ipd := sceneEyes(t, s)
	eyeZ := (l[2] + r[2]) / 2
	teeth := meshOf(t, s, "Wolf3D_Teeth")
	for _, q := range teeth.Positions {
		mouth += float64(q[1]) / float64(len(teeth.Positions))
	}
	head = meshOf(t, s, "Wolf3D_Head")
	chin = math.Inf(1)
	for _, q := range head.Positions {
		if float64(q[2]) > eyeZ && math.Abs(float64(q[0])) < 0.006 {
			chin = math.Min(chin, float64(q[1]))
		}
	}
	return head, mouth, chin, ipd
}

// frontNormals is p's unit normal, interpolated across its triangles as a
// renderer does, seen from the front (+z) at the nearest surface, on a
// grid of pixel-metre pixels over x0..x1 and y0..y1 (rows from y0 up); a
// zero normal where p does not cover the pixel.
func frontNormals(p *scene.Primitive, x0, y0, x1, y1, pixel float64) [][]vec3 {
	nx, ny := int((x1-x0)/pixel), int((y1-y0)/pixel)
	img := make([][]vec3, ny)
	depth := make([][]float64, ny)
	for j := range img {
		img[j] = make([]vec3, nx)
		depth[j] = make([]float64, nx)
		for i := range depth[j] {
			depth[j][i] = math.Inf(-1)
		}
	}
	for t := 0; t+2 < len(p.Indices); t += 3 {
		var x, y, z [3]float64
		var n [3]vec3
		for k := range 3 {
			q := p.Positions[p.Indices[t+k]]
			x[k], y[k], z[k] = (float64(q[0])-x0)/pixel, (float64(q[1])-y0)/pixel, float64(q[2])
			n[k] = v3(p.Normals[p.Indices[t+k]])
		}
		det := (x[1]-x[0])*(y[2]-y[0]) - (x[2]-x[0])*(y[1]-y[0])
		if math.Abs(det) < 1e-9 {
			continue
		}
		for j := max(0, int(min(y[0], y[1], y[2]))); j <= min(ny-1, int(max(y[0], y[1], y[2]))); j++ {
			for i := max(0, int(min(x[0], x[1], x[2]))); i <= min(nx-1, int(max(x[0], x[1], x[2]))); i++ {
				px, py := float64(i)+0.5, float64(j)+0.5
				u := ((px-x[0])*(y[2]-y[0]) - (x[2]-x[0])*(py-y[0])) / det
				w := ((x[1]-x[0])*(py-y[0]) - (px-x[0])*(y[1]-y[0])) / det
				if u < 0 || w < 0 || u+w > 1 {
					continue
				}
				if d := z[0] + u*(z[1]-z[0]) + w*(z[2]-z[0]); d > depth[j][i] {
					depth[j][i] = d
					img[j][i] = n[0].scale(1 - u - w).add(n[1].scale(u)).add(n[2].scale(w)).norm()
				}
			}
		}
	}
	return img
}

// chinLinesMax is the most TestChinShading allows of chinLines: over twice the leader's.
const chinLinesMax = 1.0
