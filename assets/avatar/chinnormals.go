package avatar

import (
	"math"
	"slices"
)

// chinNormalSigma is the spread of the ball over which smoothChinNormals
// averages the lower face's normals, metres: the folds it evens are
// 1-1.5 cm across (2-3 of the mesh's 4 mm edges and their slopes), the
// chin's and the jaw's roundness 5 cm and more, which a ball this size
// keeps (round a sphere's point the ball's normals average to its own).
// At 6 mm the pointed chins of some random faces (random-01, -09) kept a
// ridge down their middle; at 9 mm it rounds.
const chinNormalSigma = 0.009

// chinNormalBend is how alike a normal must be to the vertex's own to
// count in its average (the cosine where its weight reaches 0, rising to
// 1 for the same direction): a fold turns the normal 10-25 degrees and
// counts nearly whole; the jaw's underside over the throat, at 90 degrees
// and more from the face's front, does not count, so the jaw's edge keeps
// its turn.
const chinNormalBend = 0.0

// chinNormalPasses is how many times smoothChinNormals takes the ball's
// mean. Once left a sixth of the ridge down the middle of the pointed
// chins (the mesh's own normals turn 15-19 degrees more across its
// middle column of vertices than beside it on random-01, -13 and -16),
// and in a room light the rest shaded as "a seam down the chin", one
// side lighter than the other (p24): TestChinShading's chinSeam 2.50,
// 1.57 and 1.77 degrees, the leader's 0.45-0.65, and random-01's chin
// plate 3.23 degrees. Twice: 0.56, 0.44 and 0.53, plate 1.79. A wider
// ball (12 mm) taken once did not even the ridge; it grew.
const chinNormalPasses = 2

// smoothChinNormals evens the head's normals (not its shape) over the
// lower face, each the mean of the normals in a ball round it
// (chinNormalSigma, chinNormalPasses times), each by how alike it faces (chinNormalBend), none
// on the lips: MakeHuman's shaped lower face folds along two lines from
// the corners of the mouth to the jaw (in the shape itself: they show
// without smoothFace too), and in a room light each fold shaded as a
// thin dark line with the chin between them a lighter plate (p14's "jaw
// seam"; TestChinShading). Session 14 averaged each normal with its mesh
// neighbours' across the face, twelve times over a region that stopped
// at the mouth's corners: that flattened the chin's front toward the
// viewer as one plate, and the turn it lost was all left at the
// region's sides, a crease of 10-13 degrees within 3-6 mm from the
// mouth's corners to the jaw (p16's "blotchy jaw", "colour band on the
// jaw": the lighter plate and a darker band beside it, baked into the
// skin's paint too by formShade, which reads these normals;
// TestChinShading). A ball in space has no region's edge inside the face
// to pile the turn up at: the normals turn evenly round the chin, and
// where the region fades out the ball's mean is the skin's own. The
// positions stay as they are, so the face's shapes (ARKit, visemes) and
// the glasses are unchanged; a beard's shells grow along the normals
// from before (part.rawNrm), where they cover the skin under the lip.
func smoothChinNormals(head *part, joints map[string][3]float32) {
	head.rawNrm = slices.Clone(head.nrm)
	w := chinRegion(head, frameOf(head, joints))
	lips := lipMask()
	// The vertices that lend their normals: the skin, not the lips, on a
	// grid of the ball's reach.
	const reach = 2.5 * chinNormalSigma
	var pairs bucketPairs
	for i, v := range head.base {
		if lips[v] < 0.3 {
			pairs.add(cellOf(head.pos[i], reach), i)
		}
	}
	grid := pairs.build()
	for range chinNormalPasses {
		head.nrm = ballMeans(head, w, &grid, reach)
	}
}

// ballMeans is one pass of smoothChinNormals: each vertex's normal moved
// by its weight w toward the mean of the donors' (grid) in its ball.
func ballMeans(head *part, w []float64, grid *buckets, reach float64) [][3]float32 {
	out := make([][3]float32, len(head.nrm))
	copy(out, head.nrm)
	for i, p := range head.pos {
		if w[i] == 0 {
			continue
		}
		own := v3(head.nrm[i])
		var m vec3
		for j := range grid.around(cellOf(p, reach), 1) {
			d := v3(head.pos[j]).sub(v3(p))
			r2 := d.dot(d)
			if r2 > reach*reach {
				continue
			}
			n := v3(head.nrm[j])
			alike := (n.dot(own) - chinNormalBend) / (1 - chinNormalBend)
			if alike <= 0 {
				continue
			}
			m = m.add(n.scale(alike * math.Exp(-r2/(2*chinNormalSigma*chinNormalSigma))))
		}
		if m.dot(m) == 0 {
			continue
		}
		out[i] = own.scale(1 - w[i]).add(m.norm().scale(w[i])).norm().f32()
	}
	return out
}

// chinRegion is, per head vertex, how much of its normal smoothChinNormals
// evens (0..1), in the face's units (f.unit, the eyes' height over the
// lips, so it follows every face): the lower face from the lips' top
// across to the jaw's sides and down round the chin to a tenth of a unit
// under its lowest point, not on the lips. Soft at every edge, so the
// evened normals meet the rest without a line of their own.
func chinRegion(head *part, f faceFrame) []float64 {
	lips := lipMask()
	out := make([]float64, len(head.pos))
	u := f.unit
	chin := (f.chin - f.lip[1]) / u
	top := (f.lipTop - f.lip[1]) / u
	for i, v := range head.base {
		p := head.pos[i]
		x, y := math.Abs(float64(p[0]))/u, (float64(p[1])-f.lip[1])/u
		w := smoothstep(1.0, 0.7, x) * smoothstep(top+0.15, top, y) * smoothstep(chin-0.1, chin, y)
		w *= smoothstep(-0.2, 0.2, float64(head.nrm[i][2]))
		w *= 1 - smoothstep(0.05, 0.3, float64(lips[v]))
		out[i] = w
	}
	return out
}
