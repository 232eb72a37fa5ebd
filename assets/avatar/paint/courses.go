package paint

import (
	"math"
	"sort"

	"github.com/kilnhq/kiln/assets/disjoint"
)

// Arm is one of the wearer's arms in the rest pose: its shoulder, elbow
// and wrist joints, which its sleeve's stripes run round.
type Arm [3][3]float64

// sleeveReach is how far from an arm's axis a sleeve's cloth lies at
// most (metres): a garment piece with most of its vertices that near an
// arm, past the shoulder, is a sleeve.
const sleeveReach = 0.09

// courses is, per vertex of s, the height of the knitted course it lies
// on (metres, in flow's first value; the second is unused): Breton
// stripes are bands of courses, so they keep their width along the
// cloth wherever it goes. Each garment piece (a UV island: the pieces
// are sewn together at their UV seams, where a stripe ends) is knitted
// on its own:
//   - a sleeve's courses run round the arm: its height is the shoulder
//     joint's less the distance down the arm (along its shoulder, elbow
//     and wrist);
//   - a body piece's run level round the body up to the chest (its
//     height is y there), and above it they climb on over the shoulder
//     as the cloth does: the height is the chest's plus the distance
//     along the cloth from the chest (courseClimb). Level planes cut the
//     sloping shoulder in bands many times wider than on the chest
//     (issue 22's p21 judges: the stripes "smeared over the shoulders",
//     with jagged edges where the cut ran nearly along the cloth);
//   - a piece that reaches no lower than the chest (a collar, a hood's
//     upper parts) keeps y.
func (pr *Print) courses(s Surface) [][2]float64 {
	out := make([][2]float64, len(s.Pos))
	for i, p := range s.Pos {
		out[i][0] = float64(p[1])
	}
	s, same := welded(s)
	defer func() {
		for v, w := range same {
			out[v] = out[w]
		}
	}()
	for _, piece := range pieces(s) {
		if arm := pr.sleeveOf(s, piece.verts); arm != nil {
			for _, v := range piece.verts {
				out[v][0] = arm[0][1] - alongArm(*arm, pos64(s.Pos[v]))
			}
			continue
		}
		courseClimb(s, piece, pr.Chest[1], out)
	}
	return out
}

// welded is s with each triangle's corners that repeat another
// vertex's position and UV replaced by that vertex (the first), and
// which vertex each one became. A garment's mesh repeats some (a
// T-shirt's front had 14), and the pieces split where they do: the
// stripes, climbing each part on its own, broke off in a notch under
// the neckband.
func welded(s Surface) (Surface, []uint32) {
	type point struct {
		pos [3]float32
		uv  [2]float32
	}
	first := make(map[point]uint32, len(s.Pos))
	same := make([]uint32, len(s.Pos))
	for v := range s.Pos {
		k := point{s.Pos[v], s.UV[v]}
		w, ok := first[k]
		if !ok {
			w = uint32(v)
			first[k] = w
		}
		same[v] = w
	}
	tris := make([][3]uint32, len(s.Tris))
	for i, t := range s.Tris {
		tris[i] = [3]uint32{same[t[0]], same[t[1]], same[t[2]]}
	}
	s.Tris = tris
	return s, same
}

// piece is one UV island of a surface: its vertices and triangles.
type piece struct {
	verts []uint32
	tris  [][3]uint32
}

// pieces splits s into its islands, vertices joined by triangles.
func pieces(s Surface) []piece {
	sets := disjoint.New[uint32](len(s.Pos))
	for _, t := range s.Tris {
		for _, v := range t[1:] {
			sets.Union(t[0], v)
		}
	}
	index := map[uint32]int{}
	var out []piece
	at := func(v uint32) *piece {
		r := sets.Find(v)
		k, ok := index[r]
		if !ok {
			k = len(out)
			index[r] = k
			out = append(out, piece{})
		}
		return &out[k]
	}
	used := make([]bool, len(s.Pos))
	for _, t := range s.Tris {
		pc := at(t[0])
		pc.tris = append(pc.tris, t)
		for _, v := range t {
			if !used[v] {
				used[v] = true
				pc.verts = append(pc.verts, v)
			}
		}
	}
	return out
}

// sleeveOf is the arm whose sleeve the piece of verts is (most of them
// within sleeveReach of the arm's axis, past its shoulder), or nil.
func (pr *Print) sleeveOf(s Surface, verts []uint32) *Arm {
	for k := range pr.Arms {
		arm := &pr.Arms[k]
		if arm[0] == arm[1] {
			continue // no arm given
		}
		near := 0
		for _, v := range verts {
			p := pos64(s.Pos[v])
			if alongArm(*arm, p) > 0 && armDistance(*arm, p) < sleeveReach {
				near++
			}
		}
		if 2*near > len(verts) {
			return arm
		}
	}
	return nil
}

// armSegment is the nearest point to p on the line through a and b, as
// a share t of the way from a to b, and its distance from p.
func armSegment(a, b, p [3]float64) (t, d float64) {
	ab, ap := sub64(b, a), sub64(p, a)
	t = dot64(ap, ab) / dot64(ab, ab)
	q := [3]float64{a[0] + t*ab[0], a[1] + t*ab[1], a[2] + t*ab[2]}
	return t, math.Sqrt(dot64(sub64(p, q), sub64(p, q)))
}

// armNearest is where on the arm's axis (the upper arm from the
// shoulder, then the forearm on past the wrist) p is nearest: how far
// along it from the shoulder (metres), and how far from it.
func armNearest(arm Arm, p [3]float64) (along, dist float64) {
	l1 := math.Sqrt(dot64(sub64(arm[1], arm[0]), sub64(arm[1], arm[0])))
	l2 := math.Sqrt(dot64(sub64(arm[2], arm[1]), sub64(arm[2], arm[1])))
	t1, d1 := armSegment(arm[0], arm[1], p)
	t2, d2 := armSegment(arm[1], arm[2], p)
	// The upper arm runs on back past the shoulder; the forearm starts at
	// the elbow (before it, the elbow itself is the nearest point).
	if t1 > 1 {
		d1 = math.Sqrt(dot64(sub64(p, arm[1]), sub64(p, arm[1])))
		t1 = 1
	}
	if t2 < 0 {
		t2, d2 = 0, math.Sqrt(dot64(sub64(p, arm[1]), sub64(p, arm[1])))
	}
	if d1 <= d2 {
		return t1 * l1, d1
	}
	return l1 + t2*l2, d2
}

// alongArm is how far down the arm from the shoulder p lies (armNearest).
func alongArm(arm Arm, p [3]float64) float64 {
	a, _ := armNearest(arm, p)
	return a
}

// armDistance is how far p lies from the arm's axis (armNearest).
func armDistance(arm Arm, p [3]float64) float64 {
	_, d := armNearest(arm, p)
	return d
}

// courseClimb sets the course heights out of the body piece pc: y up to
// chest, and above it the chest's height plus the distance along the
// cloth, the geodesic distance from the piece's cloth at the chest's
// height, found by relaxing each triangle's corners in turn (a corner
// takes the height a plane front over the triangle's other two reaches
// it at, or the nearer of them plus the edge to it) until none moves. A
// piece with no vertex as low as chest keeps y.
func courseClimb(s Surface, pc piece, chest float64, out [][2]float64) {
	fixed := false
	for _, v := range pc.verts {
		if float64(s.Pos[v][1]) <= chest {
			fixed = true
		} else {
			out[v][0] = math.Inf(1)
		}
	}
	if !fixed {
		for _, v := range pc.verts {
			out[v][0] = float64(s.Pos[v][1])
		}
		return
	}
	// From the bottom up: the front climbs, so a sweep in this order
	// settles most corners at once.
	tris := append([][3]uint32(nil), pc.tris...)
	low := func(t [3]uint32) float32 { return min(s.Pos[t[0]][1], s.Pos[t[1]][1], s.Pos[t[2]][1]) }
	sort.SliceStable(tris, func(i, j int) bool { return low(tris[i]) < low(tris[j]) })
	for sweep := 0; sweep < 500; sweep++ {
		moved := false
		for _, t := range tris {
			for k := 0; k < 3; k++ {
				c, a, b := t[k], t[(k+1)%3], t[(k+2)%3]
				if float64(s.Pos[c][1]) <= chest {
					continue
				}
				h := frontAt(pos64(s.Pos[a]), pos64(s.Pos[b]), pos64(s.Pos[c]), out[a][0], out[b][0])
				if h < out[c][0]-1e-9 {
					out[c][0] = h
					moved = true
				}
			}
		}
		if !moved {
			break
		}
	}
}

// frontAt is the height a front of unit speed, at heights ha and hb at
// a and b, reaches c with: across the triangle as a plane, when the
// plane's path to c comes through the edge ab, else along the nearer
// edge to c. +Inf when neither a nor b is reached yet.
func frontAt(a, b, c [3]float64, ha, hb float64) float64 {
	best := math.Min(ha+math.Sqrt(dot64(sub64(c, a), sub64(c, a))), hb+math.Sqrt(dot64(sub64(c, b), sub64(c, b))))
	if math.IsInf(ha, 1) || math.IsInf(hb, 1) {
		return best
	}
	ab, ac := sub64(b, a), sub64(c, a)
	l := math.Sqrt(dot64(ab, ab))
	gx := (hb - ha) / l // the front's slope along ab
	if l == 0 || math.Abs(gx) >= 1 {
		return best
	}
	cx := dot64(ac, ab) / l
	cy := math.Sqrt(math.Max(0, dot64(ac, ac)-cx*cx))
	gy := math.Sqrt(1 - gx*gx)
	if cy == 0 || gy < 1e-9 {
		return best
	}
	// Back from c against the front's direction, to the line of ab.
	if x := cx - gx*cy/gy; x < 0 || x > l {
		return best
	}
	return math.Min(best, ha+gx*cx+gy*cy)
}

func pos64(p [3]float32) [3]float64 {
	return [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
}

func sub64(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

func dot64(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
