package leaderimport

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

// Transfer gives the leader's avatar s every face shape that src (a Kiln
// avatar from avatar.Generate) carries and s lacks, on its head, teeth
// and eyes; the shapes s has keep its own offsets. It changes nothing
// when s already carries more than the leader's two mouth shapes.
//
// Kiln's face is first fitted to the leader's by landmarks both faces
// have: the eye centres set the width, the eye line and the mouth (the
// centroid of what mouthOpen moves) the height, the eye line and the
// nose tip the depth. Each leader vertex then takes the mean offset of
// its nearest Kiln vertices, weighted by closeness, the offsets scaled
// by the fit. Nearness is measured with a fourth coordinate, how far
// each face's own mouthOpen moves the vertex (as a share of its
// largest), so that the upper lip finds Kiln's upper lip and the lower
// teeth Kiln's lower teeth even where the two mouths do not line up to
// the millimetre. Teeth and eyes then move as solid pieces (the rigid
// motion that best fits their offsets), so the lower teeth drop with
// the jaw and the eyes turn for the look shapes.
func Transfer(ctx context.Context, s, src *scene.Scene) error {
	if !NeedsFace(s) {
		return nil
	}
	names := targetNames(src, "Wolf3D_Head")
	if len(names) == 0 {
		return fmt.Errorf("leaderimport: the Kiln face has no shapes")
	}
	ws, wk := xform.Worlds(s, s.Parents(), nil), xform.Worlds(src, src.Parents(), nil)
	parts := map[string][2][]bound{}
	for _, name := range []string{"Wolf3D_Head", "Wolf3D_Teeth", "EyeLeft", "EyeRight"} {
		d, k := Node(s, name), Node(src, name)
		if d < 0 || k < 0 {
			return fmt.Errorf("leaderimport: no %s", name)
		}
		parts[name] = [2][]bound{bind(s, ws, d), bind(src, wk, k)}
	}
	fit, err := fitFace(parts)
	if err != nil {
		return err
	}
	for _, name := range []string{"Wolf3D_Head", "Wolf3D_Teeth", "EyeLeft", "EyeRight"} {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, rigid := fit, name != "Wolf3D_Head"
		switch name {
		case "EyeLeft", "EyeRight":
			f = eyeFit(parts[name])
		case "Wolf3D_Teeth":
			// Teeth are matched by what the jaw moves first and by place
			// second: Kiln's own arches are one piece that turns about
			// its back, so by place alone the leader's upper front teeth
			// found Kiln's moving ones.
			f.feature = 0.1
		}
		p := parts[name]
		mesh := s.Meshes[*s.Nodes[Node(s, name)].Mesh]
		add, err := carry(ctx, p[0], p[1], names, f, rigid)
		if err != nil {
			return err
		}
		addTargets(mesh, names, add)
	}
	return nil
}

// affine maps a point of Kiln's face onto the leader's: about Kiln's
// centre c, scaled per axis by k, to the leader's centre to.
type affine struct {
	c, to, k [3]float64
	// feature weighs the mouthOpen coordinate in metres (0: unused).
	feature float64
	// eyes stretch the lids around each eye (see lids).
	eyes []lids
}

// lids fits Kiln's eyes and lids to the leader's. Around an eye
// (within 1.2 of its radii, fading out by 2.2) the face is mapped by the
// eye's own fit, centre onto centre scaled by the ratio of the balls,
// rather than by the whole face's, so that the lids lie on the leader's
// ball; and the opening is stretched: Kiln's avatars open their eyes
// less than the leader's (6 mm against 11 mm), so Kiln's lid margins are
// moved onto the leader's, the lids above and below move with them, and
// their offsets grow as the opening does, so that a blink closes what
// the leader's face opens.
type lids struct {
	kc, dc [3]float64 // the eye's centre in Kiln's face and in the leader's
	r      float64    // the leader's radius
	ratio  float64    // the leader's radius over Kiln's
	kU, kL float64    // heights of Kiln's upper and lower margins over its centre, scaled by ratio
	dU, dL float64    // the leader's
}

// point maps a point of Kiln's face onto the leader's, and gives the
// scale of offsets there per axis.
func (a affine) point(p [3]float64) (out, k [3]float64) {
	for i := range 3 {
		out[i] = a.to[i] + a.k[i]*(p[i]-a.c[i])
	}
	k = a.k
	for _, e := range a.eyes {
		var l [3]float64
		for i := range 3 {
			l[i] = e.ratio * (p[i] - e.kc[i])
		}
		rho := math.Hypot(l[0], l[1]) / e.r
		w := min(1, max(0, (2.2-rho)/1.0))
		if w == 0 || l[2] < 0 {
			continue
		}
		s := (e.dU - e.dL) / (e.kU - e.kL)
		switch {
		case l[1] > e.kU:
			l[1] += e.dU - e.kU
		case l[1] < e.kL:
			l[1] += e.dL - e.kL
		default:
			l[1] = e.dL + (l[1]-e.kL)*s
		}
		// Only the upper lid's offsets grow: below the opening the cheek
		// moves with the jaw and the smile, which the stretch would
		// carry up to the lower lid.
		scale := [3]float64{e.ratio, e.ratio, e.ratio}
		if l[1] > e.dL {
			scale[1] *= s
		}
		for i := range 3 {
			out[i] += w * (e.dc[i] + l[i] - out[i])
			k[i] += w * (scale[i] - k[i])
		}
	}
	return out, k
}

// landmarks of one face, in world coordinates.
type landmarks struct {
	eyeL, eyeR [3]float64
	mouth      [3]float64
	nose       float64 // z of the nose tip
}

// fitFace fits Kiln's face (index 1 of each part) onto the leader's
// (index 0).
func fitFace(parts map[string][2][]bound) (affine, error) {
	var lm [2]landmarks
	for side := range 2 {
		l := &lm[side]
		l.eyeL = eyeCentre(parts["EyeLeft"][side])
		l.eyeR = eyeCentre(parts["EyeRight"][side])
		l.mouth = incisors(parts["Wolf3D_Teeth"][side])
		eye := mid(l.eyeL, l.eyeR)
		half := math.Abs(l.eyeL[0]-l.eyeR[0]) / 4
		l.nose = math.Inf(-1)
		for _, b := range parts["Wolf3D_Head"][side] {
			for _, p := range b.pos {
				if math.Abs(p[0]-eye[0]) < half && p[1] < eye[1] && p[1] > l.mouth[1] {
					l.nose = max(l.nose, p[2])
				}
			}
		}
	}
	d, k := lm[0], lm[1]
	dc, kc := mid(d.eyeL, d.eyeR), mid(k.eyeL, k.eyeR)
	a := affine{c: kc, to: dc, k: [3]float64{
		dist(d.eyeL, d.eyeR) / dist(k.eyeL, k.eyeR),
		(dc[1] - d.mouth[1]) / (kc[1] - k.mouth[1]),
		(d.nose - dc[2]) / (k.nose - kc[2]),
	}, feature: 0.02}
	for i, f := range a.k {
		if !(f > 0.5 && f < 2) {
			return affine{}, kiln.Errorf(kiln.KindInvalid, "invalid_avatar", "the face's proportions are not a human's (axis %d is %.2f times Kiln's)", i, f)
		}
	}
	for _, eye := range []string{"EyeLeft", "EyeRight"} {
		var c [2][3]float64
		var r, up, lo [2]float64
		for side := range 2 {
			c[side] = eyeCentre(parts[eye][side])
			r[side] = radius(parts[eye][side], c[side])
			var ok bool
			if up[side], lo[side], ok = margins(parts["Wolf3D_Head"][side], c[side], r[side]); !ok {
				return affine{}, kiln.Errorf(kiln.KindInvalid, "invalid_avatar", "no eyelids found around %s", eye)
			}
		}
		ratio := r[0] / r[1]
		if !(ratio > 0.5 && ratio < 2) {
			return affine{}, kiln.Errorf(kiln.KindInvalid, "invalid_avatar", "%s is %.2f times the size of Kiln's", eye, ratio)
		}
		a.eyes = append(a.eyes, lids{kc: c[1], dc: c[0], r: r[0], ratio: ratio,
			kU: ratio * (up[1] - c[1][1]), kL: ratio * (lo[1] - c[1][1]), dU: up[0] - c[0][1], dL: lo[0] - c[0][1]})
	}
	return a, nil
}

// radius is the mean distance of an eye's vertices from its centre.
func radius(b []bound, c [3]float64) float64 {
	sum, n := 0.0, 0.0
	for _, x := range b {
		for _, p := range x.pos {
			sum += dist(p, c)
			n++
		}
	}
	return sum / n
}

// margins finds the heights of the lid margins over an eye: the lowest
// head vertex above its centre and the highest below it, among those in
// front of the centre, within 0.3 radii of it across and within 3 mm of
// the ball.
func margins(head []bound, c [3]float64, r float64) (up, lo float64, ok bool) {
	up, lo = math.Inf(1), math.Inf(-1)
	for _, b := range head {
		for _, p := range b.pos {
			if math.Abs(p[0]-c[0]) < 0.3*r && dist(p, c) < r+0.003 && p[2] > c[2] {
				if p[1] > c[1] {
					up = min(up, p[1])
				} else {
					lo = max(lo, p[1])
				}
			}
		}
	}
	return up, lo, !math.IsInf(up, 0) && !math.IsInf(lo, 0) && up-lo > 0.001
}

// eyeCentre is the centre of the sphere that best fits an eye's
// vertices (algebraic least squares): the leader's eye meshes are the
// front of the ball only, so the middle of their box would sit in front
// of the centre Kiln's whole balls give.
func eyeCentre(b []bound) [3]float64 {
	// |p|² = 2c·p + d: solve the 4×4 normal equations for c and d.
	var m [4][5]float64
	for _, x := range b {
		for _, p := range x.pos {
			row := [5]float64{2 * p[0], 2 * p[1], 2 * p[2], 1, sq(p[0]) + sq(p[1]) + sq(p[2])}
			for i := range 4 {
				for j := range 5 {
					m[i][j] += row[i] * row[j]
				}
			}
		}
	}
	if c, ok := solve4(m); ok {
		return [3]float64{c[0], c[1], c[2]}
	}
	lo, hi := box(b)
	return mid(lo, hi)
}

// solve4 solves a 4×4 system given as an augmented matrix, by Gaussian
// elimination with partial pivoting.
func solve4(m [4][5]float64) ([4]float64, bool) {
	for c := range 4 {
		p := c
		for r := c + 1; r < 4; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-18 {
			return [4]float64{}, false
		}
		m[c], m[p] = m[p], m[c]
		for r := range 4 {
			if r != c {
				f := m[r][c] / m[c][c]
				for k := c; k < 5; k++ {
					m[r][k] -= f * m[c][k]
				}
			}
		}
	}
	var x [4]float64
	for i := range 4 {
		x[i] = m[i][4] / m[i][i]
	}
	return x, true
}

// incisors is the middle of the front teeth (the 8 mm of the teeth that
// come first from the front): where the lips meet.
func incisors(b []bound) [3]float64 {
	_, hi := box(b)
	var sum [3]float64
	n := 0.0
	for _, x := range b {
		for _, p := range x.pos {
			if p[2] > hi[2]-0.008 {
				for c := range 3 {
					sum[c] += p[c]
				}
				n++
			}
		}
	}
	return [3]float64{sum[0] / n, sum[1] / n, sum[2] / n}
}

// eyeFit maps Kiln's eye onto the leader's: centre to centre, scaled by
// their heights.
func eyeFit(p [2][]bound) affine {
	lo0, hi0 := box(p[0])
	lo1, hi1 := box(p[1])
	k := (hi0[1] - lo0[1]) / (hi1[1] - lo1[1])
	if !(k > 0.25 && k < 4) {
		k = 1
	}
	return affine{c: eyeCentre(p[1]), to: eyeCentre(p[0]), k: [3]float64{k, k, k}}
}

// carry computes, for each name the leader's mesh lacks, its offsets on
// every primitive of the leader's mesh (dst), from Kiln's (src).
func carry(ctx context.Context, dst, src []bound, names []string, f affine, rigid bool) (map[string][][][3]float32, error) {
	type point struct {
		p, k [3]float64
		feat float64
		prim int
		v    int
	}
	var pool []point
	srcFeat := features(src)
	for pi, b := range src {
		for v, q := range b.pos {
			at, k := f.point(q)
			pool = append(pool, point{at, k, srcFeat[pi][v], pi, v})
		}
	}
	dstFeat := features(dst)
	const k = 8
	out := map[string][][][3]float32{}
	for _, name := range names {
		if len(dst) > 0 && !slices.Contains(dst[0].names, name) {
			out[name] = make([][][3]float32, len(dst))
		}
	}
	si := map[string]int{}
	if len(src) > 0 {
		for i, n := range src[0].names {
			si[n] = i
		}
	}
	type near struct {
		i int
		d float64
	}
	for pi, b := range dst {
		for name := range out {
			out[name][pi] = make([][3]float32, len(b.pos))
		}
		best := make([]near, 0, k+1)
		for v, p := range b.pos {
			if v%256 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			best = best[:0]
			for i, q := range pool {
				d := sq(p[0]-q.p[0]) + sq(p[1]-q.p[1]) + sq(p[2]-q.p[2]) + sq(f.feature*(dstFeat[pi][v]-q.feat))
				if len(best) == k && d >= best[k-1].d {
					continue
				}
				j := len(best)
				if j < k {
					best = append(best, near{})
				} else {
					j = k - 1
				}
				for j > 0 && best[j-1].d > d {
					best[j] = best[j-1]
					j--
				}
				best[j] = near{i, d}
			}
			for name, offs := range out {
				t, ok := si[name]
				if !ok {
					continue
				}
				var sum [3]float64
				wsum := 0.0
				for _, n := range best {
					q := pool[n.i]
					tg := src[q.prim].prim.Targets
					if t >= len(tg) || tg[t].Positions == nil {
						continue
					}
					d := src[q.prim].lin[q.v].Vector(xform.F64(tg[t].Positions[q.v]))
					d = [3]float64{q.k[0] * d[0], q.k[1] * d[1], q.k[2] * d[2]}
					w := 1 / (n.d + 4e-6)
					for c := range 3 {
						sum[c] += w * d[c]
					}
					wsum += w
				}
				if wsum > 0 {
					for c := range 3 {
						sum[c] /= wsum
					}
					offs[pi][v] = xform.F32(b.inv[v].Vector(sum))
				}
			}
		}
	}
	if rigid {
		for pi, b := range dst {
			piece, n := solids(b, dstFeat[pi])
			for _, offs := range out {
				offs[pi] = avatar.RigidOffsets(b.prim.Positions, offs[pi], piece, n)
			}
		}
	}
	return out, nil
}

// solids numbers the pieces of teeth that move as one: connected
// pieces, split between what the leader's mouthOpen moves (more than
// half its most) and what it does not, since the leader's upper and
// lower teeth touch and weld into one piece.
func solids(b bound, feat []float64) ([]int, int) {
	piece, _ := avatar.Pieces(b.prim.Positions, triangles(b.prim))
	id := map[int]int{}
	for v, p := range piece {
		k := 2 * p
		if feat[v] > 0.5 {
			k++
		}
		if _, ok := id[k]; !ok {
			id[k] = len(id)
		}
		piece[v] = id[k]
	}
	return piece, len(id)
}

// features gives each vertex how far the mesh's own mouthOpen moves it,
// as a share of the most it moves any (0 everywhere without mouthOpen).
func features(b []bound) [][]float64 {
	out := make([][]float64, len(b))
	top := 0.0
	for pi, x := range b {
		out[pi] = make([]float64, len(x.pos))
		t := slices.Index(x.names, "mouthOpen")
		if t < 0 || t >= len(x.prim.Targets) || x.prim.Targets[t].Positions == nil {
			continue
		}
		for v, d := range x.prim.Targets[t].Positions {
			out[pi][v] = norm(x.lin[v].Vector(xform.F64(d)))
			top = max(top, out[pi][v])
		}
	}
	if top > 0 {
		for _, f := range out {
			for v := range f {
				f[v] /= top
			}
		}
	}
	return out
}

// box is the bounding box of the parts' positions.
func box(b []bound) (lo, hi [3]float64) {
	lo = [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, x := range b {
		for _, p := range x.pos {
			for c := range 3 {
				lo[c], hi[c] = min(lo[c], p[c]), max(hi[c], p[c])
			}
		}
	}
	return lo, hi
}

func mid(a, b [3]float64) [3]float64 {
	return [3]float64{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2}
}

func dist(a, b [3]float64) float64 { return math.Sqrt(sq(a[0]-b[0]) + sq(a[1]-b[1]) + sq(a[2]-b[2])) }

func norm(a [3]float64) float64 { return math.Sqrt(sq(a[0]) + sq(a[1]) + sq(a[2])) }

func sq(x float64) float64 { return x * x }

// targetNames is the target names of the mesh of the node named node.
func targetNames(s *scene.Scene, node string) []string {
	n := Node(s, node)
	if n < 0 || s.Nodes[n].Mesh == nil {
		return nil
	}
	return s.Meshes[*s.Nodes[n].Mesh].TargetNames()
}

// triangles lists a primitive's triangles (its indices in threes, or its
// vertices in order when it has none).
func triangles(p *scene.Primitive) [][3]uint32 {
	idx := p.Indices
	if idx == nil {
		idx = make([]uint32, len(p.Positions))
		for i := range idx {
			idx[i] = uint32(i)
		}
	}
	out := make([][3]uint32, len(idx)/3)
	for i := range out {
		out[i] = [3]uint32{idx[3*i], idx[3*i+1], idx[3*i+2]}
	}
	return out
}

// addTargets appends the carried shapes to the mesh after its own, in
// the order of names, with a default weight of zero. Where the mesh's
// own targets carry normal or tangent offsets the new ones carry zero
// offsets of those, so every target of a primitive has the same
// attributes.
func addTargets(m *scene.Mesh, names []string, add map[string][][][3]float32) {
	list := m.TargetNames()
	for _, name := range names {
		offs, ok := add[name]
		if !ok {
			continue
		}
		list = append(list, name)
		for pi, p := range m.Primitives {
			t := scene.Target{Positions: offs[pi]}
			if len(p.Targets) > 0 && p.Targets[0].Normals != nil {
				t.Normals = make([][3]float32, len(p.Positions))
			}
			if len(p.Targets) > 0 && p.Targets[0].Tangents != nil {
				t.Tangents = make([][3]float32, len(p.Positions))
			}
			p.Targets = append(p.Targets, t)
		}
	}
	for len(m.Weights) < len(list) {
		m.Weights = append(m.Weights, 0)
	}
	if len(m.Weights) > 0 && allZero(m.Weights) {
		m.Weights = nil
	}
	ex, _ := m.Extras.(map[string]any)
	if ex == nil {
		ex = map[string]any{}
	}
	l := make([]any, len(list))
	for i, n := range list {
		l[i] = n
	}
	ex["targetNames"] = l
	m.Extras = ex
}

func allZero(w []float64) bool {
	for _, x := range w {
		if x != 0 {
			return false
		}
	}
	return true
}
