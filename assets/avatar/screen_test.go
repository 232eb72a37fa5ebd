package avatar

import "math"

// screenArea is twice q's signed area on a picture whose y grows down
// (x, y in pixels): a triangle facing the viewer winds clockwise there,
// so its area is below zero; zero is a triangle seen edge on.
func screenArea(q [3]vec3) float64 {
	return (q[1][0]-q[0][0])*(q[2][1]-q[0][1]) - (q[2][0]-q[0][0])*(q[1][1]-q[0][1])
}

// fillTri calls plot with the index (y*w+x) and the depth of every pixel
// of a w×h picture whose centre lies in q (x, y in pixels, z toward the
// viewer), the depth taken from q's corners at the centre. The picture
// tests that draw meshes in Go (hatView, collarView) share it so that
// they agree on which pixels a triangle covers.
func fillTri(q [3]vec3, w, h int, plot func(at int, z float64)) {
	area := screenArea(q)
	if area == 0 {
		return
	}
	x0, x1 := max(0, int(math.Floor(min(q[0][0], q[1][0], q[2][0])))), min(w-1, int(math.Ceil(max(q[0][0], q[1][0], q[2][0]))))
	y0, y1 := max(0, int(math.Floor(min(q[0][1], q[1][1], q[2][1])))), min(h-1, int(math.Ceil(max(q[0][1], q[1][1], q[2][1]))))
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			px, py := float64(x)+0.5, float64(y)+0.5
			b0 := ((q[1][0]-px)*(q[2][1]-py) - (q[2][0]-px)*(q[1][1]-py)) / area
			b1 := ((q[2][0]-px)*(q[0][1]-py) - (q[0][0]-px)*(q[2][1]-py)) / area
			b2 := 1 - b0 - b1
			if b0 < 0 || b1 < 0 || b2 < 0 {
				continue
			}
			plot(y*w+x, b0*q[0][2]+b1*q[1][2]+b2*q[2][2])
		}
	}
}
