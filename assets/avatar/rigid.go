package avatar

import (
	"math"

	"github.com/kilnhq/kiln/assets/disjoint"
	"github.com/kilnhq/kiln/assets/xform"
)

// Teeth move as solid pieces. Their face shapes are carried from the base
// mesh through each vertex's binding, which mixes the offsets of upper
// and lower jaw where a binding reaches both: under jawOpen a fifth of
// the teeth moved part of the way and the upper teeth stretched into
// pale stripes across the open mouth. Each piece (the upper arch, the
// lower arch, a loose tooth) takes instead the rigid motion that best
// fits its carried offsets (Horn's closed form, by quaternion).

// pieces numbers the connected pieces of a mesh, vertices welded by
// position.
func pieces(pos [][3]float32, tris [][3]uint32) ([]int, int) {
	weld, n := weldByPosition(pos)
	sets := disjoint.New[int](n)
	for _, t := range tris {
		for _, c := range t[1:] {
			sets.Union(weld[t[0]], weld[c])
		}
	}
	id := map[int]int{}
	out := make([]int, len(pos))
	for i, w := range weld {
		r := sets.Find(w)
		if _, ok := id[r]; !ok {
			id[r] = len(id)
		}
		out[i] = id[r]
	}
	return out, len(id)
}

// rigidOffsets replaces the offsets of each piece by those of the rigid
// motion that fits them best in the least-squares sense.
func rigidOffsets(pos, d [][3]float32, piece []int, n int) [][3]float32 {
	type acc struct {
		count float64
		p, q  [3]float64    // centroids of the piece and of its image
		pq    [3][3]float64 // cross-covariance of the centred points
	}
	sums := make([]acc, n)
	for i, p := range pos {
		s := &sums[piece[i]]
		s.count++
		for a := 0; a < 3; a++ {
			s.p[a] += float64(p[a])
			s.q[a] += float64(p[a] + d[i][a])
		}
	}
	for i := range sums {
		for a := 0; a < 3; a++ {
			sums[i].p[a] /= sums[i].count
			sums[i].q[a] /= sums[i].count
		}
	}
	for i, p := range pos {
		s := &sums[piece[i]]
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				s.pq[a][b] += (float64(p[a]) - s.p[a]) * (float64(p[b]+d[i][b]) - s.q[b])
			}
		}
	}
	rot := make([]xform.Mat4, n)
	for i := range sums {
		rot[i] = xform.Rotation(bestRotation(sums[i].pq))
	}
	out := make([][3]float32, len(pos))
	for i, p := range pos {
		s := &sums[piece[i]]
		r := rot[piece[i]].Vector([3]float64{float64(p[0]) - s.p[0], float64(p[1]) - s.p[1], float64(p[2]) - s.p[2]})
		for a := 0; a < 3; a++ {
			out[i][a] = float32(r[a] + s.q[a] - float64(p[a]))
		}
	}
	return out
}

// bestRotation is the rotation (x, y, z, w) that best takes the centred
// points onto their images, from their cross-covariance S: the
// eigenvector of Horn's symmetric 4×4 matrix with the largest
// eigenvalue, found by power iteration after a shift that makes every
// eigenvalue positive.
func bestRotation(s [3][3]float64) [4]float64 {
	// Horn's matrix over (w, x, y, z).
	n := [4][4]float64{
		{s[0][0] + s[1][1] + s[2][2], s[1][2] - s[2][1], s[2][0] - s[0][2], s[0][1] - s[1][0]},
		{s[1][2] - s[2][1], s[0][0] - s[1][1] - s[2][2], s[0][1] + s[1][0], s[2][0] + s[0][2]},
		{s[2][0] - s[0][2], s[0][1] + s[1][0], -s[0][0] + s[1][1] - s[2][2], s[1][2] + s[2][1]},
		{s[0][1] - s[1][0], s[2][0] + s[0][2], s[1][2] + s[2][1], -s[0][0] - s[1][1] + s[2][2]},
	}
	// Gershgorin: no eigenvalue is below minus the largest row sum.
	shift := 0.0
	for _, row := range n {
		sum := 0.0
		for _, v := range row {
			sum += math.Abs(v)
		}
		shift = math.Max(shift, sum)
	}
	q := [4]float64{1, 0, 0, 0}
	for it := 0; it < 200; it++ {
		var next [4]float64
		for a := 0; a < 4; a++ {
			next[a] = shift * q[a]
			for b := 0; b < 4; b++ {
				next[a] += n[a][b] * q[b]
			}
		}
		l := math.Sqrt(next[0]*next[0] + next[1]*next[1] + next[2]*next[2] + next[3]*next[3])
		if l == 0 {
			return [4]float64{0, 0, 0, 1}
		}
		for a := range q {
			q[a] = next[a] / l
		}
	}
	return [4]float64{q[1], q[2], q[3], q[0]}
}

// Pieces numbers the connected pieces of a mesh (vertices welded by
// position) and gives their count.
func Pieces(pos [][3]float32, tris [][3]uint32) ([]int, int) { return pieces(pos, tris) }

// RigidOffsets replaces the offsets d of each piece (numbered 0..n-1) by
// those of the rigid motion that best fits them: an imported set of
// teeth or an eye, given offsets carried from Kiln's face, moves as a
// solid.
func RigidOffsets(pos, d [][3]float32, piece []int, n int) [][3]float32 {
	return rigidOffsets(pos, d, piece, n)
}
