package avatar

import "math"

// chinNormalPasses is how many times smoothChinNormals averages each
// normal with its neighbours': the creases it evens are a band of 2-3 of
// the mesh's 4 mm edges, and each pass spreads a normal's turn over about
// one more edge.
const chinNormalPasses = 12

// smoothChinNormals evens the head's normals (not its shape) over the
// skin from the mouth's corners down to the chin: MakeHuman's shaped
// lower face folds there along two lines from the corners of the mouth
// to the jaw (in the shape itself: they show without smoothFace too),
// and in a room light each fold shaded as a thin dark line with the chin
// between them a lighter plate (p14's "jaw seam", "smudgy chin shading":
// random-01, -13, -15; TestChinLines). Each normal is averaged with its
// neighbours' (chinNormalPasses), by how much of the region it is
// (chinRegion) and each neighbour by how much its edge runs across the
// face: the folds run down it, so the light turns across them as over a
// rounded chin, while what runs across (the shade under the lower lip,
// the jaw's edge over the throat) keeps its turn from top to bottom. The
// positions stay as they are, so the face's shape, its shapes (ARKit,
// visemes) and the glasses are unchanged; a beard's shells, grown along
// the skin's normals, follow the evened ones.
func smoothChinNormals(head *part, joints map[string][3]float32) {
	w := chinRegion(head, frameOf(head, joints))
	g := graphOf(head)
	n := make([]vec3, len(g.at))
	wb := make([]float64, len(g.at))
	for i, k := range g.node {
		n[k] = v3(head.nrm[i])
		wb[k] = math.Max(wb[k], w[i])
	}
	// Each neighbour weighs by how much its edge runs across the face
	// (x): a fold running down it is evened, the shade under the lower
	// lip and the jaw's edge, which run across, are not.
	type link struct {
		j int
		w float64
	}
	nbr := make([][]link, len(g.at))
	for a, ns := range g.nbr {
		for _, b := range ns {
			e := v3(head.pos[g.at[b]]).sub(v3(head.pos[g.at[a]]))
			nbr[a] = append(nbr[a], link{b, e[0] * e[0] / e.dot(e)})
		}
	}
	next := make([]vec3, len(n))
	for range chinNormalPasses {
		for i := range n {
			var m vec3
			var sum float64
			for _, l := range nbr[i] {
				m = m.add(n[l.j].scale(l.w))
				sum += l.w
			}
			if wb[i] == 0 || sum == 0 {
				next[i] = n[i]
				continue
			}
			next[i] = n[i].scale(1 - wb[i]).add(m.scale(wb[i] / sum)).norm()
		}
		n, next = next, n
	}
	for i, k := range g.node {
		head.nrm[i] = n[k].f32()
	}
}

// chinRegion is, per head vertex, how much of its normal smoothChinNormals
// evens (0..1), in the face's units (f.unit, the eyes' height over the
// lips, so it follows every face): across the mouth's width and a little
// beyond (the folds run from its corners out to the jaw), from the lips'
// middle down round the chin to a tenth of a unit under its lowest
// point, not on the lips. Soft at every edge, so the evened normals meet
// the rest without a line of their own.
func chinRegion(head *part, f faceFrame) []float64 {
	lips := lipMask()
	out := make([]float64, len(head.pos))
	u := f.unit
	chin := (f.chin - f.lip[1]) / u
	for i, v := range head.base {
		p := head.pos[i]
		x, y := math.Abs(float64(p[0]))/u, (float64(p[1])-f.lip[1])/u
		w := smooth(0.75, 0.6, x) * smooth(0.05, -0.05, y) * smooth(chin-0.1, chin, y)
		w *= smooth(-0.2, 0.2, float64(head.nrm[i][2]))
		w *= 1 - smooth(0.05, 0.3, float64(lips[v]))
		out[i] = w
	}
	return out
}
