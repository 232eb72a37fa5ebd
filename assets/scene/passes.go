package scene

import (
	"encoding/binary"
	"encoding/json"
	"math"

	"github.com/qmuntal/gltf"
)

// Compact drops the vertices that no index refers to from every stream
// (attributes, joints, weights, morph target deltas, custom attributes),
// keeps the others in their order and renumbers the indices. A pass that
// replaces the indices (simplification, splitting by material) leaves
// such vertices behind: they would still be downloaded, skinned and
// counted. A primitive without indices uses all its vertices.
func (p *Primitive) Compact() error {
	if err := p.check(); err != nil {
		return err
	}
	n := len(p.Positions)
	if p.Indices == nil {
		return nil
	}
	order := referenced(p.Indices, n)
	if len(order) == n {
		return nil
	}
	p.gather(order)
	p.Indices = append([]uint32(nil), p.Indices...)
	remapIndices(p.Indices, order, n)
	return nil
}

// pick returns the elements of s listed in order; nil stays nil.
func pick[T any](s []T, order []uint32) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(order))
	for i, o := range order {
		out[i] = s[o]
	}
	return out
}

func pickStream(s Stream, order []uint32) Stream {
	return Stream{Components: s.Components, Data: gatherN(s.Data, s.Components, order, len(order))}
}

// gather replaces every stream by its elements listed in order. It
// builds new outer slices, maps and targets too, so that a shallow copy
// of a primitive (lod := *p; lod.Indices = …; lod.Compact()) never
// changes the original.
func (p *Primitive) gather(order []uint32) {
	p.Positions = pick(p.Positions, order)
	p.Normals = pick(p.Normals, order)
	p.Tangents = pick(p.Tangents, order)
	p.TexCoords = pickEach(p.TexCoords, order)
	p.Colors = pickEach(p.Colors, order)
	p.Joints = pickEach(p.Joints, order)
	p.Weights = pickEach(p.Weights, order)
	p.Custom = pickCustom(p.Custom, order)
	if p.Targets != nil {
		targets := make([]Target, len(p.Targets))
		for t, tg := range p.Targets {
			targets[t] = Target{
				Positions: pick(tg.Positions, order),
				Normals:   pick(tg.Normals, order),
				Tangents:  pick(tg.Tangents, order),
				Custom:    pickCustom(tg.Custom, order),
			}
		}
		p.Targets = targets
	}
}

func pickEach[T any](sets [][]T, order []uint32) [][]T {
	if sets == nil {
		return nil
	}
	out := make([][]T, len(sets))
	for i, s := range sets {
		out[i] = pick(s, order)
	}
	return out
}

func pickCustom(m map[string]Stream, order []uint32) map[string]Stream {
	if m == nil {
		return nil
	}
	out := make(map[string]Stream, len(m))
	for k, s := range m {
		out[k] = pickStream(s, order)
	}
	return out
}

// vertexKey appends the bytes of vertex i in every stream; without
// shading, normals and tangents (and their morph deltas) are left out.
func (p *Primitive) vertexKey(b []byte, i int, shading bool) []byte {
	f := func(v ...float32) {
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	f(p.Positions[i][:]...)
	if p.Normals != nil && shading {
		f(p.Normals[i][:]...)
	}
	if p.Tangents != nil && shading {
		f(p.Tangents[i][:]...)
	}
	for _, s := range p.TexCoords {
		if s != nil {
			f(s[i][:]...)
		}
	}
	for _, s := range p.Colors {
		if s != nil {
			f(s[i][:]...)
		}
	}
	for _, s := range p.Joints {
		if s != nil {
			for _, j := range s[i] {
				b = binary.LittleEndian.AppendUint16(b, j)
			}
		}
	}
	for _, s := range p.Weights {
		if s != nil {
			f(s[i][:]...)
		}
	}
	for _, name := range sortedKeys(p.Custom) {
		s := p.Custom[name]
		f(s.Data[i*s.Components : (i+1)*s.Components]...)
	}
	for _, t := range p.Targets {
		if t.Positions != nil {
			f(t.Positions[i][:]...)
		}
		if t.Normals != nil && shading {
			f(t.Normals[i][:]...)
		}
		if t.Tangents != nil && shading {
			f(t.Tangents[i][:]...)
		}
		for _, name := range sortedKeys(t.Custom) {
			s := t.Custom[name]
			f(s.Data[i*s.Components : (i+1)*s.Components]...)
		}
	}
	return b
}

// Weld merges the vertices of each primitive that are identical in every
// stream, morph targets and skin weights included, so nothing that
// renders changes. Exporters of per-corner formats (OBJ, FBX) and
// flat-shading tools split every vertex per face; a simplifier infers
// seams and borders from shared indices, so it needs welded input, and
// the file shrinks. Non-indexed primitives become indexed.
func (s *Scene) Weld() error {
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			if err := p.Weld(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Weld merges identical vertices of one primitive; see Scene.Weld.
func (p *Primitive) Weld() error {
	if err := p.check(); err != nil {
		return err
	}
	n := len(p.Positions)
	seen := make(map[string]uint32, n)
	remap := make([]uint32, n)
	var order []uint32
	var key []byte
	for i := 0; i < n; i++ {
		key = p.vertexKey(key[:0], i, true)
		if j, ok := seen[string(key)]; ok {
			remap[i] = j
			continue
		}
		seen[string(key)] = uint32(len(order))
		remap[i] = uint32(len(order))
		order = append(order, uint32(i))
	}
	if len(order) == n {
		return nil
	}
	indices := make([]uint32, len(p.Indices))
	for k, v := range p.Indices {
		indices[k] = remap[v]
	}
	if p.Indices == nil {
		indices = remap
	}
	p.Indices = indices
	p.gather(order)
	return nil
}

// keepOnly drops the items whose keep is false and returns, for each old
// index, its new one (or -1).
func keepOnly[T any](items []T, keep []bool) ([]T, []int) {
	remap := make([]int, len(items))
	out := make([]T, 0, len(items))
	for i, it := range items {
		remap[i] = -1
		if keep[i] {
			remap[i] = len(out)
			out = append(out, it)
		}
	}
	return out, remap
}

// merged turns a map from each index to the index of its first equal
// (rep) into a keep mask and a remap onto the kept items.
func merged[T any](items []T, rep []int) ([]T, []int) {
	keep := make([]bool, len(items))
	for i, r := range rep {
		keep[i] = r == i
	}
	out, remap := keepOnly(items, keep)
	for i, r := range rep {
		remap[i] = remap[r]
	}
	return out, remap
}

func lookup(remap []int) func(int) int {
	return func(i int) int {
		if i >= 0 && i < len(remap) {
			return remap[i]
		}
		return i
	}
}

func (s *Scene) remapImages(remap []int) {
	for _, t := range s.Textures {
		textureImages(t, lookup(remap))
	}
}

func (s *Scene) remapSamplers(remap []int) {
	for _, t := range s.Textures {
		if t.Sampler != nil {
			t.Sampler = gltf.Index(lookup(remap)(*t.Sampler))
		}
	}
}

func (s *Scene) remapTextures(remap []int) {
	for _, m := range s.Materials {
		materialTextures(m, lookup(remap))
	}
}

func (s *Scene) remapMaterials(remap []int) {
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			primitiveMaterials(p, lookup(remap))
		}
	}
}

// firstEqual maps each item to the first item with the same key; key
// returns nil for an item that must stay distinct.
func firstEqual[T any](items []T, key func(T) []byte) []int {
	rep := make([]int, len(items))
	byKey := map[string]int{}
	for i, it := range items {
		rep[i] = i
		k := key(it)
		if k == nil {
			continue
		}
		if j, ok := byKey[string(k)]; ok {
			rep[i] = j
		} else {
			byKey[string(k)] = i
		}
	}
	return rep
}

func jsonKey(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// Dedup merges images with the same bytes, and samplers, textures and
// materials with the same content, and rewrites every reference to the
// one that stays. Exporters and Kiln's own merges (avatar assembly,
// atlases) produce copies: one JPEG embedded once per mesh, one material
// per part. Each copy costs download size and, for materials, a draw
// call that batching could save. Material names are ignored (copies are
// typically named Material.001); the first name stays. Identical
// accessors need no pass: Write stores equal data once.
func (s *Scene) Dedup() {
	rep := firstEqual(s.Images, func(im *Image) []byte {
		// Names and extensions of an image make it distinct too.
		head := jsonKey([]any{im.Name, im.MimeType, im.Extensions, im.Extras})
		return append(head, im.Data...)
	})
	var remap []int
	s.Images, remap = merged(s.Images, rep)
	s.remapImages(remap)

	s.Samplers, remap = merged(s.Samplers, firstEqual(s.Samplers, func(v *gltf.Sampler) []byte { return jsonKey(v) }))
	s.remapSamplers(remap)

	s.Textures, remap = merged(s.Textures, firstEqual(s.Textures, func(v *gltf.Texture) []byte { return jsonKey(v) }))
	s.remapTextures(remap)

	s.Materials, remap = merged(s.Materials, firstEqual(s.Materials, func(m *gltf.Material) []byte {
		c := *m
		c.Name = ""
		return jsonKey(&c)
	}))
	s.remapMaterials(remap)
}

// Prune removes what nothing uses: meshes, skins and cameras no node
// refers to, materials no primitive uses, textures no material uses,
// images and samplers no texture uses, and nodes that are empty leaves.
// Exporters and Kiln's own passes leave such objects behind (a replaced
// material, an atlas's source textures, a helper node), and each costs
// download size. A node is only removed when it has no name, no mesh,
// camera, skin, extension or extras, no children left, and is neither a
// joint, a skeleton root nor animated: named nodes are attachment points
// and retargeting anchors for clients. A scene without nodes keeps its
// meshes, which are then all it has.
func (s *Scene) Prune() {
	s.pruneNodes()

	if len(s.Nodes) > 0 {
		used := make([]bool, len(s.Meshes))
		usedSkin := make([]bool, len(s.Skins))
		usedCam := make([]bool, len(s.Cameras))
		for _, n := range s.Nodes {
			mark(used, n.Mesh)
			mark(usedSkin, n.Skin)
			mark(usedCam, n.Camera)
		}
		var mr, sr, cr []int
		s.Meshes, mr = keepOnly(s.Meshes, used)
		s.Skins, sr = keepOnly(s.Skins, usedSkin)
		s.Cameras, cr = keepOnly(s.Cameras, usedCam)
		for _, n := range s.Nodes {
			remapPtr(&n.Mesh, mr)
			remapPtr(&n.Skin, sr)
			remapPtr(&n.Camera, cr)
		}
	}

	used := make([]bool, len(s.Materials))
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			primitiveMaterials(p, markIndex(used))
		}
	}
	var remap []int
	s.Materials, remap = keepOnly(s.Materials, used)
	s.remapMaterials(remap)

	used = make([]bool, len(s.Textures))
	for _, m := range s.Materials {
		materialTextures(m, markIndex(used))
	}
	s.Textures, remap = keepOnly(s.Textures, used)
	s.remapTextures(remap)

	used = make([]bool, len(s.Images))
	usedSampler := make([]bool, len(s.Samplers))
	for _, t := range s.Textures {
		textureImages(t, markIndex(used))
		mark(usedSampler, t.Sampler)
	}
	s.Images, remap = keepOnly(s.Images, used)
	s.remapImages(remap)
	s.Samplers, remap = keepOnly(s.Samplers, usedSampler)
	s.remapSamplers(remap)
}

func mark(used []bool, i *int) {
	if i != nil && *i >= 0 && *i < len(used) {
		used[*i] = true
	}
}

func markIndex(used []bool) func(int) int {
	return func(i int) int {
		mark(used, &i)
		return i
	}
}

func remapPtr(p **int, remap []int) {
	if *p != nil && **p >= 0 && **p < len(remap) {
		*p = gltf.Index(remap[**p])
	}
}

// pruneNodes removes empty leaf nodes until none is left, then renumbers
// every node reference.
func (s *Scene) pruneNodes() {
	keep := make([]bool, len(s.Nodes))
	protected := make([]bool, len(s.Nodes))
	for _, sk := range s.Skins {
		for _, j := range sk.Joints {
			mark(protected, &j)
		}
		mark(protected, sk.Skeleton)
	}
	for _, a := range s.Animations {
		for _, c := range a.Channels {
			mark(protected, c.Node)
		}
	}
	for i, n := range s.Nodes {
		keep[i] = protected[i] || n.Name != "" || n.Mesh != nil || n.Camera != nil || n.Skin != nil ||
			len(n.Extensions) > 0 || n.Extras != nil
	}
	// A node is kept if it must be or if a kept node is below it.
	parent := s.Parents()
	for i := range s.Nodes {
		if !keep[i] {
			continue
		}
		for p := parent[i]; p != -1 && !keep[p]; p = parent[p] {
			keep[p] = true
		}
	}
	var remap []int
	s.Nodes, remap = keepOnly(s.Nodes, keep)
	if len(s.Nodes) == len(remap) {
		return
	}
	dropped := func(list []int) []int {
		out := list[:0:0]
		for _, c := range list {
			if c >= 0 && c < len(remap) && remap[c] >= 0 {
				out = append(out, remap[c])
			}
		}
		return out
	}
	for _, n := range s.Nodes {
		n.Children = dropped(n.Children)
	}
	for _, sc := range s.Scenes {
		sc.Nodes = dropped(sc.Nodes)
	}
	for _, sk := range s.Skins {
		sk.Joints = dropped(sk.Joints)
		remapPtr(&sk.Skeleton, remap)
	}
	for _, a := range s.Animations {
		for i := range a.Channels {
			remapPtr(&a.Channels[i].Node, remap)
		}
	}
}
