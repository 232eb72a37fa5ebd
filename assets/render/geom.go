package render

import (
	"math"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

// posed is one primitive instance in world space: morphed, skinned or
// moved by its node, ready to project.
type posed struct {
	pos     []vec3
	normals []vec3 // nil: flat normals from the triangle
	tangent [][4]float64
	uv      [][][2]float32
	color   [][4]float32
	mat     *material
	index   []uint32
}

// worldMatrices walks the default scene (or every root when the asset has
// no scenes) and gives each reachable node its world matrix; unreachable
// nodes keep a nil entry and are not drawn, as a glTF viewer would.
func worldMatrices(s *scene.Scene) []*xform.Mat4 {
	world := make([]*xform.Mat4, len(s.Nodes))
	var roots []int
	switch {
	case s.DefaultScene != nil && *s.DefaultScene < len(s.Scenes):
		roots = s.Scenes[*s.DefaultScene].Nodes
	case len(s.Scenes) > 0:
		roots = s.Scenes[0].Nodes
	default:
		child := make([]bool, len(s.Nodes))
		for _, n := range s.Nodes {
			for _, c := range n.Children {
				if c >= 0 && c < len(child) {
					child[c] = true
				}
			}
		}
		for i := range s.Nodes {
			if !child[i] {
				roots = append(roots, i)
			}
		}
	}
	var visit func(i int, parent xform.Mat4, depth int)
	visit = func(i int, parent xform.Mat4, depth int) {
		// The depth bound stops a cyclic hierarchy, which a broken file
		// may have, from recursing forever.
		if i < 0 || i >= len(s.Nodes) || world[i] != nil || depth > 256 {
			return
		}
		m := parent.Mul(xform.Local(s.Nodes[i]))
		world[i] = &m
		for _, c := range s.Nodes[i].Children {
			visit(c, m, depth+1)
		}
	}
	for _, r := range roots {
		visit(r, xform.Identity, 0)
	}
	return world
}

// pose builds every drawable primitive in world space. Skinned meshes are
// always skinned, even with no animation: the rest pose of the nodes and
// the bind pose of the inverse bind matrices can differ, and only
// skinning gives what a viewer shows.
func pose(s *scene.Scene, mats []*material) []*posed {
	world := worldMatrices(s)
	var out []*posed
	for ni, n := range s.Nodes {
		if n.Mesh == nil || *n.Mesh < 0 || *n.Mesh >= len(s.Meshes) || world[ni] == nil {
			continue
		}
		mesh := s.Meshes[*n.Mesh]
		weights := mesh.Weights
		if len(n.Weights) > 0 {
			weights = n.Weights
		}
		var joints []xform.Mat4
		if n.Skin != nil && *n.Skin >= 0 && *n.Skin < len(s.Skins) {
			joints = jointMatrices(s.Skins[*n.Skin], world)
		}
		for _, p := range mesh.Primitives {
			if p.Mode != gltf.PrimitiveTriangles && p.Mode != gltf.PrimitiveTriangleStrip && p.Mode != gltf.PrimitiveTriangleFan {
				continue
			}
			if len(p.Positions) == 0 {
				continue
			}
			out = append(out, posePrimitive(p, weights, *world[ni], joints, pickMaterial(mats, p.Material)))
		}
	}
	return out
}

func jointMatrices(sk *scene.Skin, world []*xform.Mat4) []xform.Mat4 {
	m := make([]xform.Mat4, len(sk.Joints))
	for i, j := range sk.Joints {
		w := xform.Identity
		if j >= 0 && j < len(world) && world[j] != nil {
			w = *world[j]
		}
		ibm := xform.Identity
		if i < len(sk.InverseBindMatrices) {
			for k, v := range sk.InverseBindMatrices[i] {
				ibm[k] = float64(v)
			}
		}
		m[i] = w.Mul(ibm)
	}
	return m
}

func posePrimitive(p *scene.Primitive, weights []float64, world xform.Mat4, joints []xform.Mat4, mat *material) *posed {
	n := len(p.Positions)
	q := &posed{pos: make([]vec3, n), mat: mat, uv: p.TexCoords}
	hasNormals := len(p.Normals) == n
	hasTangents := len(p.Tangents) == n
	if hasNormals {
		q.normals = make([]vec3, n)
	}
	if hasTangents {
		q.tangent = make([][4]float64, n)
	}
	if len(p.Colors) > 0 && len(p.Colors[0]) == n {
		q.color = p.Colors[0]
	}
	skinned := len(joints) > 0 && len(p.Joints) > 0 && len(p.Weights) > 0 &&
		len(p.Joints[0]) == n && len(p.Weights[0]) == n
	worldN := world.NormalMatrix()
	for i := 0; i < n; i++ {
		pos := v3(p.Positions[i])
		var nor, tan vec3
		if hasNormals {
			nor = v3(p.Normals[i])
		}
		if hasTangents {
			t := p.Tangents[i]
			tan = vec3{float64(t[0]), float64(t[1]), float64(t[2])}
		}
		// Morph targets at the default weights, before skinning.
		for t, w := range weights {
			if w == 0 || t >= len(p.Targets) {
				continue
			}
			tg := p.Targets[t]
			if len(tg.Positions) == n {
				pos = pos.add(v3(tg.Positions[i]).mul(w))
			}
			if hasNormals && len(tg.Normals) == n {
				nor = nor.add(v3(tg.Normals[i]).mul(w))
			}
			if hasTangents && len(tg.Tangents) == n {
				tan = tan.add(v3(tg.Tangents[i]).mul(w))
			}
		}
		m, nm := world, worldN
		if skinned {
			m = skinMatrix(p, i, joints)
			nm = m.NormalMatrix()
		}
		q.pos[i] = m.Point(pos)
		if hasNormals {
			q.normals[i] = vec3(nm.Vector(nor)).norm()
		}
		if hasTangents {
			t := vec3(m.Vector(tan)).norm()
			q.tangent[i] = [4]float64{t[0], t[1], t[2], float64(p.Tangents[i][3])}
		}
	}
	q.index = triangles(p)
	return q
}

// skinMatrix blends the joint matrices of every JOINTS_n/WEIGHTS_n set;
// weights are renormalised because exporters leave sums slightly off 1.
func skinMatrix(p *scene.Primitive, i int, joints []xform.Mat4) xform.Mat4 {
	var m xform.Mat4
	var total float64
	for set := range p.Joints {
		if set >= len(p.Weights) || len(p.Joints[set]) <= i || len(p.Weights[set]) <= i {
			continue
		}
		for k := 0; k < 4; k++ {
			w := float64(p.Weights[set][i][k])
			j := int(p.Joints[set][i][k])
			if w == 0 || j >= len(joints) {
				continue
			}
			m = m.AddScaled(joints[j], w)
			total += w
		}
	}
	if total == 0 {
		return xform.Identity
	}
	for k := range m {
		m[k] /= total
	}
	return m
}

// triangles lists the vertex indices of each triangle, unrolling strips
// and fans, and drops indices out of range.
func triangles(p *scene.Primitive) []uint32 {
	idx := p.Indices
	if idx == nil {
		idx = make([]uint32, len(p.Positions))
		for i := range idx {
			idx[i] = uint32(i)
		}
	}
	var out []uint32
	switch p.Mode {
	case gltf.PrimitiveTriangleStrip:
		for i := 2; i < len(idx); i++ {
			if i%2 == 0 {
				out = append(out, idx[i-2], idx[i-1], idx[i])
			} else {
				out = append(out, idx[i-1], idx[i-2], idx[i])
			}
		}
	case gltf.PrimitiveTriangleFan:
		for i := 2; i < len(idx); i++ {
			out = append(out, idx[0], idx[i-1], idx[i])
		}
	default:
		out = idx[:len(idx)/3*3]
	}
	n := uint32(len(p.Positions))
	clean := out[:0:0]
	for i := 0; i+2 < len(out); i += 3 {
		if out[i] < n && out[i+1] < n && out[i+2] < n {
			clean = append(clean, out[i], out[i+1], out[i+2])
		}
	}
	return clean
}

func v3(a [3]float32) vec3 { return vec3{float64(a[0]), float64(a[1]), float64(a[2])} }

// bounds is the box of every posed vertex; ok is false when there is none
// that is finite.
func bounds(ps []*posed) (lo, hi vec3, ok bool) {
	lo = vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = lo.mul(-1)
	for _, p := range ps {
		for _, i := range p.index {
			v := p.pos[i]
			if math.IsNaN(v[0]+v[1]+v[2]) || math.IsInf(v[0]+v[1]+v[2], 0) {
				continue
			}
			for k := 0; k < 3; k++ {
				lo[k] = math.Min(lo[k], v[k])
				hi[k] = math.Max(hi[k], v[k])
			}
			ok = true
		}
	}
	return lo, hi, ok
}
