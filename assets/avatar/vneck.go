package avatar

import "math"

// How the skin in an open collar's V is shaded where the shirt meets
// it: up to vneckDepth of the jaw's full shade (Surface.Shade 1) on the
// skin the cloth touches, fading out by vneckReach from the nearest of
// the shirt's triangles. Kiln's V was painted as light as the face, or
// lighter toward its bottom, where the neck's shade has faded out
// (neckShade), and read as "a skin-coloured V merging into the collar"
// (p27, six of 40 pairs); the leader's V is darker under the collar's
// edge and toward its bottom, where the shirt closes round it.
const (
	vneckDepth = 0.7
	vneckFull  = 0.01
	vneckReach = 0.035
	// vneckFadeIn is how far under the neck joint the V's shade fades in.
	vneckFadeIn = 0.05
)

// openCollar is whether a top leaves a V of skin open under its collar.
func openCollar(style string) bool { return style == "shirt" || style == "blouse" }

// vneckShade is, per vertex of the body, how much of the V's shade it
// takes (0..vneckDepth): the shirt's contact shade on the skin in front
// of the neck and under it. It is measured to the shirt's triangles, so
// the V, a few of the body's triangles across, darkens most where it
// narrows to its bottom and along the collar's edges, and the neck above
// the opening, farther from the cloth, keeps its own shade.
func vneckShade(body, top *part, neck [3]float32) []float32 {
	var cloth [][3][3]float64
	for _, t := range top.tris {
		p := top.pos[t[0]]
		if p[1] > neck[1]-neckSkinBelow-0.05 && math.Abs(float64(p[0]-neck[0])) < chestHalf+0.05 && p[2] > neck[2]-0.02 {
			cloth = append(cloth, [3][3]float64{v3(top.pos[t[0]]), v3(top.pos[t[1]]), v3(top.pos[t[2]])})
		}
	}
	out := make([]float32, len(body.pos))
	for v, p := range body.pos {
		y := float64(p[1])
		if y > float64(neck[1]) || y < float64(neck[1])-neckSkinBelow || math.Abs(float64(p[0]-neck[0])) > chestHalf || p[2] < neck[2] {
			continue
		}
		o := v3(p)
		d := math.Inf(1)
		for _, c := range cloth {
			q, _ := closestOnTriangle(o, c[0], c[1], c[2])
			d = math.Min(d, vec3(q).sub(o).len())
		}
		// Faded in under the neck joint, where the neck's own shade
		// (neckShade) lies: cut off there it drew a line across the neck.
		in := smoothstep(float64(neck[1]), float64(neck[1])-vneckFadeIn, y)
		out[v] = float32(vneckDepth * in * smoothstep(vneckReach, vneckFull, d))
	}
	return out
}
