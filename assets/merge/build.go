package merge

import (
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

// piece is one source primitive of a merged one, with its instance and
// where its morph targets go in the merged target list.
type piece struct {
	in      *instance
	p       *scene.Primitive
	targets []int
}

// build concatenates the pieces into one primitive of the given mode
// with nTargets morph targets, transforming each piece into the merged
// space (its instance's xform) and filling the streams it lacks.
func build(ps []piece, mode gltf.PrimitiveMode, nTargets int, skinned bool) *scene.Primitive {
	// Which streams the merged primitive carries: any piece's.
	var hasNormals, hasTangents, tgtNormals, tgtTangents bool
	var nTex, nCol, nJoints int
	custom := map[string]int{}
	tgtCustom := map[string]int{}
	total := 0
	for _, pc := range ps {
		p := pc.p
		total += p.VertexCount()
		hasNormals = hasNormals || p.Normals != nil
		hasTangents = hasTangents || p.Tangents != nil
		nTex = max(nTex, lastSet(p.TexCoords))
		nCol = max(nCol, lastSet(p.Colors))
		if skinned {
			nJoints = max(nJoints, lastSet(p.Joints), lastSet(p.Weights), 1)
		}
		for name, st := range p.Custom {
			custom[name] = max(custom[name], st.Components)
		}
		for _, tg := range p.Targets {
			tgtNormals = tgtNormals || tg.Normals != nil
			tgtTangents = tgtTangents || tg.Tangents != nil
			for name, st := range tg.Custom {
				tgtCustom[name] = max(tgtCustom[name], st.Components)
			}
		}
	}
	// Tangents need normals to be orthogonal to.
	hasNormals = hasNormals || hasTangents

	out := &scene.Primitive{Mode: mode, Positions: make([][3]float32, 0, total)}
	if hasNormals {
		out.Normals = make([][3]float32, 0, total)
	}
	if hasTangents {
		out.Tangents = make([][4]float32, 0, total)
	}
	out.TexCoords = makeSets[[2]float32](nTex, total)
	out.Colors = makeSets[[4]float32](nCol, total)
	out.Joints = makeSets[[4]uint16](nJoints, total)
	out.Weights = makeSets[[4]float32](nJoints, total)
	if len(custom) > 0 {
		out.Custom = map[string]scene.Stream{}
		for name, c := range custom {
			out.Custom[name] = scene.Stream{Components: c, Data: make([]float32, 0, c*total)}
		}
	}
	if nTargets > 0 {
		out.Targets = make([]scene.Target, nTargets)
		for i := range out.Targets {
			tg := &out.Targets[i]
			tg.Positions = make([][3]float32, 0, total)
			if tgtNormals {
				tg.Normals = make([][3]float32, 0, total)
			}
			if tgtTangents {
				tg.Tangents = make([][3]float32, 0, total)
			}
			if len(tgtCustom) > 0 {
				tg.Custom = map[string]scene.Stream{}
				for name, c := range tgtCustom {
					tg.Custom[name] = scene.Stream{Components: c, Data: make([]float32, 0, c*total)}
				}
			}
		}
	}

	for _, pc := range ps {
		appendPiece(out, pc, skinned)
	}
	return out
}

// lastSet is one more than the index of the last non-nil set.
func lastSet[T any](sets [][]T) int {
	for i := len(sets) - 1; i >= 0; i-- {
		if sets[i] != nil {
			return i + 1
		}
	}
	return 0
}

func makeSets[T any](n, capacity int) [][]T {
	if n == 0 {
		return nil
	}
	out := make([][]T, n)
	for i := range out {
		out[i] = make([]T, 0, capacity)
	}
	return out
}

// set returns sets[i], or nil.
func set[T any](sets [][]T, i int) []T {
	if i < len(sets) {
		return sets[i]
	}
	return nil
}

// appendPiece appends one source primitive's vertices and indices.
func appendPiece(out *scene.Primitive, pc piece, skinned bool) {
	p, in := pc.p, pc.in
	n := p.VertexCount()
	base := uint32(len(out.Positions))
	m := in.xform
	nm := m.NormalMatrix()
	mirrored := m.Det3() < 0
	sign := float32(1)
	if mirrored {
		sign = -1
	}

	tris := triangleList(p)
	if out.Mode == gltf.PrimitiveTriangles && mirrored {
		for i := 0; i+2 < len(tris); i += 3 {
			tris[i+1], tris[i+2] = tris[i+2], tris[i+1]
		}
	}
	if out.Indices == nil && len(out.Positions) == 0 {
		out.Indices = make([]uint32, 0, len(tris))
	}
	for _, v := range tris {
		out.Indices = append(out.Indices, base+v)
	}

	for _, v := range p.Positions {
		out.Positions = append(out.Positions, m.Point32(v))
	}
	var normals [][3]float32
	if out.Normals != nil {
		normals = p.Normals
		if normals == nil {
			normals = vertexNormals(p.Positions, geometryTriangles(p, tris, mirrored))
		}
		for _, v := range normals {
			out.Normals = append(out.Normals, normalize(nm.Vector32(v)))
		}
	}
	if out.Tangents != nil {
		tangents := p.Tangents
		if tangents == nil {
			tangents = vertexTangents(p.Positions, normals, set(p.TexCoords, 0), geometryTriangles(p, tris, mirrored))
		}
		for _, v := range tangents {
			t := normalize(m.Vector32([3]float32{v[0], v[1], v[2]}))
			out.Tangents = append(out.Tangents, [4]float32{t[0], t[1], t[2], v[3] * sign})
		}
	}
	for i := range out.TexCoords {
		if src := set(p.TexCoords, i); src != nil {
			out.TexCoords[i] = append(out.TexCoords[i], src...)
		} else {
			out.TexCoords[i] = append(out.TexCoords[i], make([][2]float32, n)...)
		}
	}
	for i := range out.Colors {
		if src := set(p.Colors, i); src != nil {
			out.Colors[i] = append(out.Colors[i], src...)
		} else {
			for range n {
				out.Colors[i] = append(out.Colors[i], [4]float32{1, 1, 1, 1})
			}
		}
	}
	if skinned {
		appendSkin(out, p, in)
	}
	for name, st := range out.Custom {
		src, ok := p.Custom[name]
		for v := range n {
			for c := range st.Components {
				var x float32
				if ok && c < src.Components {
					x = src.Data[v*src.Components+c]
				}
				st.Data = append(st.Data, x)
			}
		}
		out.Custom[name] = st
	}
	for ti := range out.Targets {
		appendTarget(&out.Targets[ti], p, pc.targets, ti, n, m, nm)
	}
}

// geometryTriangles is the piece's triangles in its own winding (tris
// may have been re-wound for a mirroring transform); nil for points and
// lines, whose normals then default to +Z.
func geometryTriangles(p *scene.Primitive, tris []uint32, mirrored bool) []uint32 {
	if drawMode(p.Mode) != gltf.PrimitiveTriangles {
		return nil
	}
	if !mirrored {
		return tris
	}
	out := slices.Clone(tris)
	for i := 0; i+2 < len(out); i += 3 {
		out[i+1], out[i+2] = out[i+2], out[i+1]
	}
	return out
}

// appendSkin appends the piece's joints, remapped onto the merged skin,
// and its weights normalized to sum to 1; an unskinned piece rides its
// attachment joint with weight 1.
func appendSkin(out *scene.Primitive, p *scene.Primitive, in *instance) {
	n := p.VertexCount()
	sets := len(out.Joints)
	for v := range n {
		var sum float32
		for s := range sets {
			var j [4]uint16
			var w [4]float32
			if in.skin < 0 {
				if s == 0 {
					j, w = [4]uint16{uint16(in.attach)}, [4]float32{1}
				}
			} else if js, ws := set(p.Joints, s), set(p.Weights, s); js != nil && ws != nil {
				j, w = js[v], ws[v]
				for k := range j {
					if w[k] <= 0 || int(j[k]) >= len(in.jointMap) {
						j[k], w[k] = 0, 0
						continue
					}
					j[k] = in.jointMap[j[k]]
				}
			}
			out.Joints[s] = append(out.Joints[s], j)
			out.Weights[s] = append(out.Weights[s], w)
			sum += w[0] + w[1] + w[2] + w[3]
		}
		at := len(out.Weights[0]) - 1
		if sum <= 0 {
			// No influence at all: the mesh's first joint, as an exporter
			// would bind it.
			out.Weights[0][at] = [4]float32{1}
			if in.skin >= 0 && len(in.jointMap) > 0 {
				out.Joints[0][at] = [4]uint16{in.jointMap[0]}
			}
			continue
		}
		if sum != 1 {
			for s := range sets {
				w := &out.Weights[s][len(out.Weights[s])-1]
				for k := range w {
					w[k] /= sum
				}
			}
		}
	}
}

// appendTarget appends the piece's deltas for merged target ti: the
// source target that maps there, transformed, or zeros.
func appendTarget(tg *scene.Target, p *scene.Primitive, targets []int, ti, n int, m, nm xform.Mat4) {
	src := -1
	for i, t := range targets {
		if t == ti && i < len(p.Targets) {
			src = i
			break
		}
	}
	var st *scene.Target
	if src >= 0 {
		st = &p.Targets[src]
	}
	appendDeltas := func(dst *[][3]float32, from [][3]float32, xf xform.Mat4) {
		if *dst == nil {
			return
		}
		if from == nil {
			*dst = append(*dst, make([][3]float32, n)...)
			return
		}
		for _, d := range from {
			*dst = append(*dst, xf.Vector32(d))
		}
	}
	var pos, nrm, tan [][3]float32
	if st != nil {
		pos, nrm, tan = st.Positions, st.Normals, st.Tangents
	}
	appendDeltas(&tg.Positions, pos, m)
	appendDeltas(&tg.Normals, nrm, nm)
	appendDeltas(&tg.Tangents, tan, m)
	for name, s := range tg.Custom {
		var from scene.Stream
		ok := false
		if st != nil {
			from, ok = st.Custom[name]
		}
		for v := range n {
			for c := range s.Components {
				var x float32
				if ok && c < from.Components {
					x = from.Data[v*from.Components+c]
				}
				s.Data = append(s.Data, x)
			}
		}
		tg.Custom[name] = s
	}
}
