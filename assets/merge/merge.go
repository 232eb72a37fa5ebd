// Package merge joins every mesh of a model into one skinned mesh per
// alpha group (mergeMesh=1): with the atlas (assets/atlas) in
// front, a whole avatar draws in at most two calls, the way Ready Player
// Me's merged avatars do (three when it has both MASK and BLEND parts).
//
// Decisions, each for a reason:
//
//   - Two meshes, not one mesh of two primitives: the opaque primitives go
//     into a mesh named Wolf3D_Avatar and the BLEND/MASK ones into
//     Wolf3D_Avatar_Transparent for Ready Player Me avatars (any mesh named
//     Wolf3D_*), Kiln_Merged and Kiln_Merged_Transparent otherwise. glTF
//     primitives have no names, and clients look these meshes up by name
//     (RPM's SDKs drive blend shapes on Wolf3D_Avatar); the draw calls are
//     the same. The meshes share one skin and have one node each.
//   - A model with both MASK and BLEND materials gets a third mesh,
//     Wolf3D_Avatar_Blend (Kiln_Merged_Blend), for the BLEND ones; the
//     MASK ones stay in the transparent mesh. After the atlas, which
//     keeps them in two materials for the same reason (a renderer draws
//     BLEND without writing depth, so cut-out brows, lashes and beards
//     made BLEND sort wrongly), one mesh of both would hold two
//     primitives, where the leader's meshes hold one each (three.js
//     loads a mesh of two primitives as a Group).
//   - Within each mesh, primitives are grouped by material: glTF gives a
//     primitive one material, so after the atlas (one material per group)
//     each mesh has one primitive; without the atlas, one per material.
//     Primitives of a kept-out material (see assets/atlas) stay apart too.
//   - Skins: all skinned meshes end up on one skin. Several skins are
//     folded into the first: joints are united, and a skin whose inverse
//     bind matrices differ from the first's by one common transform X
//     (another bind pose of the same skeleton) has its vertices moved by X;
//     skins that disagree otherwise cannot share joints and are an error.
//   - Unskinned meshes of a skinned (or animated) model are baked and
//     bound with weight 1 to the nearest joint above them, or to the
//     nearest animated node above them (made a joint), or to the top of
//     their tree (made a joint): they move exactly as before. Without any
//     skin or node animation, meshes are baked into world space (normals
//     by the inverse transpose; mirrored instances re-wound) and the
//     merged nodes sit at the root.
//   - Morph targets: the union of the target names (targets of a mesh
//     without names are named mesh.index); a mesh without a target gets
//     zero deltas; targetNames go into the mesh's extras and the default
//     weights into its weights. Weight animations of the merged meshes'
//     nodes are moved onto the merged node, resampled on the union of
//     their times when several drive one mesh.
//   - Streams only some sources have are filled neutrally: normals from
//     the geometry, tangents from the UVs, UV (0,0), colour white, joint
//     weights renormalized to sum to 1.
//   - Merged-away mesh nodes lose their mesh and skin; those left as empty
//     leaves (no children, not a joint, not animated) are removed, the
//     skeleton stays.
package merge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/atlas"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

// Report says what Meshes did.
type Report struct {
	// Instances is the number of (node, mesh) pairs merged.
	Instances int          `json:"instances"`
	Meshes    []MeshReport `json:"meshes"`
	Skinned   bool         `json:"skinned"`
	Joints    int          `json:"joints"`
	// AddedJoints names the nodes made joints to carry unskinned meshes.
	AddedJoints []string `json:"addedJoints,omitempty"`
	// SkinsMerged counts the source skins folded into the one kept.
	SkinsMerged  int      `json:"skinsMerged"`
	MorphTargets []string `json:"morphTargets,omitempty"`
}

// MeshReport is one merged mesh, by its index after Meshes.
type MeshReport struct {
	Name         string `json:"name"`
	Mesh         int    `json:"mesh"`
	Node         int    `json:"node"`
	Transparent  bool   `json:"transparent"`
	Primitives   int    `json:"primitives"`
	Vertices     int    `json:"vertices"`
	Triangles    int    `json:"triangles"`
	MorphTargets int    `json:"morphTargets"`
}

// instance is one node drawing one mesh.
type instance struct {
	node  int
	mesh  *scene.Mesh
	skin  int // -1 when unskinned
	world xform.Mat4
	// names are the mesh's morph target names (generated when absent),
	// weights its default weights (the node's, else the mesh's).
	names   []string
	weights []float64
	// For a skinned instance: its joints' merged indices and the bind
	// correction X. For an unskinned one in a skinned result: the joint
	// it rides and the transform into that joint's bind space.
	jointMap []uint16
	attach   int
	xform    xform.Mat4
}

// The alpha groups, each merged into a mesh of its own: opaque,
// transparent (MASK, or BLEND when there is no MASK) and BLEND beside
// MASK.
const (
	kindOpaque = iota
	kindTransparent
	kindBlend
	nKinds
)

// Names of the merged meshes, by kind.
func names(s *scene.Scene) [nKinds]string {
	if atlas.IsWolf3D(s) {
		return [nKinds]string{"Wolf3D_Avatar", "Wolf3D_Avatar_Transparent", "Wolf3D_Avatar_Blend"}
	}
	return [nKinds]string{"Kiln_Merged", "Kiln_Merged_Transparent", "Kiln_Merged_Blend"}
}

// Meshes merges every mesh drawn by the default scene into at most three
// meshes (opaque, transparent, BLEND beside MASK), rewriting s in place; see the package
// documentation. A scene without meshes is left alone.
func Meshes(s *scene.Scene) (Report, error) {
	var rep Report
	t := newTree(s)
	insts, err := instances(s, t)
	if err != nil || len(insts) == 0 {
		return rep, err
	}
	rep.Instances = len(insts)
	skin, err := bindInstances(s, t, insts, &rep)
	if err != nil {
		return rep, err
	}
	g := groupPrimitives(s, insts)
	nm := names(s)
	var merged [nKinds]*gltf.Node
	var unions [nKinds][]string
	for kind, keys := range g.kinds {
		if len(keys) > 0 {
			merged[kind], unions[kind] = g.mergeKind(s, keys, nm[kind], skin)
		}
	}
	addMerged(s, t, insts, skin, merged, unions)
	rep.describe(s, merged, unions, skin)
	return rep, nil
}

// instances lists the drawn nodes that carry a mesh, with their world
// transforms, skins and morph target names.
func instances(s *scene.Scene, t *tree) ([]*instance, error) {
	var insts []*instance
	for _, n := range t.drawn {
		node := s.Nodes[n]
		if node.Mesh == nil {
			continue
		}
		if *node.Mesh < 0 || *node.Mesh >= len(s.Meshes) {
			return nil, kiln.Errorf(kiln.KindInvalid, "invalid_model", "node %d refers to mesh %d, which does not exist", n, *node.Mesh)
		}
		in := &instance{node: n, mesh: s.Meshes[*node.Mesh], skin: -1, world: t.world(n), attach: -1, xform: xform.Identity}
		if node.Skin != nil && *node.Skin >= 0 && *node.Skin < len(s.Skins) {
			in.skin = *node.Skin
		}
		in.names, in.weights = targetsOf(in.mesh, *node.Mesh, node.Weights)
		insts = append(insts, in)
	}
	return insts, nil
}

// bindInstances puts every instance on one skin when any is skinned or
// animated (see bindAll), or else bakes each one's world transform into
// its vertices; it answers the skin, nil for a still model.
func bindInstances(s *scene.Scene, t *tree, insts []*instance, rep *Report) (*scene.Skin, error) {
	skinned := false
	for _, in := range insts {
		skinned = skinned || in.skin >= 0 || t.moves(in.node)
	}
	if skinned {
		return bindAll(s, t, insts, rep)
	}
	for _, in := range insts {
		in.xform = in.world
	}
	return nil, nil
}

// groupKey is what primitives must share to become one: alpha group,
// material, mode and extensions (KHR_materials_variants mappings).
type groupKey struct {
	kind     int
	material int
	mode     gltf.PrimitiveMode
	ext      string
}

// groups are the primitives of every instance by groupKey, with each
// alpha group's keys in order of appearance.
type groups struct {
	kinds  [nKinds][]groupKey
	pieces map[groupKey][]piece
}

func groupPrimitives(s *scene.Scene, insts []*instance) groups {
	g := groups{pieces: map[groupKey][]piece{}}
	mode := func(p *scene.Primitive) gltf.AlphaMode {
		if p.Material == nil || *p.Material < 0 || *p.Material >= len(s.Materials) {
			return gltf.AlphaOpaque
		}
		return s.Materials[*p.Material].AlphaMode
	}
	// BLEND goes apart from MASK only when both occur.
	mask := false
	for _, in := range insts {
		for _, p := range in.mesh.Primitives {
			mask = mask || mode(p) == gltf.AlphaMask
		}
	}
	for _, in := range insts {
		for _, p := range in.mesh.Primitives {
			k := groupKey{material: -1, mode: drawMode(p.Mode)}
			if p.Material != nil {
				k.material = *p.Material
			}
			switch mode(p) {
			case gltf.AlphaMask:
				k.kind = kindTransparent
			case gltf.AlphaBlend:
				k.kind = kindTransparent
				if mask {
					k.kind = kindBlend
				}
			}
			if len(p.Extensions) > 0 {
				b, _ := json.Marshal(p.Extensions)
				k.ext = string(b)
			}
			if _, ok := g.pieces[k]; !ok {
				g.kinds[k.kind] = append(g.kinds[k.kind], k)
			}
			g.pieces[k] = append(g.pieces[k], piece{in: in, p: p})
		}
	}
	return g
}

// targetUnion is the morph targets of an alpha group's merged mesh: the
// union of its instances' names in order of appearance, each with the
// default weight of the first instance that has it.
func (g groups) targetUnion(keys []groupKey) (union []string, index map[string]int, defaults []float64) {
	index = map[string]int{}
	seen := map[*instance]bool{}
	for _, k := range keys {
		for _, pc := range g.pieces[k] {
			if seen[pc.in] {
				continue
			}
			seen[pc.in] = true
			for i, name := range pc.in.names {
				if _, ok := index[name]; !ok {
					index[name] = len(union)
					union = append(union, name)
					defaults = append(defaults, pc.in.weights[i])
				}
			}
		}
	}
	return union, index, defaults
}

// mergeKind builds the merged mesh of one alpha group, one primitive per
// key, appends it to the scene, and answers the node that will draw it
// (not yet in the scene) and its morph target names.
func (g groups) mergeKind(s *scene.Scene, keys []groupKey, name string, skin *scene.Skin) (*gltf.Node, []string) {
	union, index, defaults := g.targetUnion(keys)
	mesh := &scene.Mesh{Name: name}
	for _, k := range keys {
		ps := g.pieces[k]
		for i := range ps {
			ps[i].targets = make([]int, len(ps[i].in.names))
			for j, target := range ps[i].in.names {
				ps[i].targets[j] = index[target]
			}
		}
		mp := build(ps, k.mode, len(union), skin != nil)
		if k.material >= 0 {
			mp.Material = gltf.Index(k.material)
		}
		mp.Extensions = ps[0].p.Extensions
		mesh.Primitives = append(mesh.Primitives, mp)
	}
	if len(union) > 0 {
		mesh.Weights = defaults
		list := make([]any, len(union))
		for i, n := range union {
			list[i] = n
		}
		mesh.Extras = map[string]any{"targetNames": list}
	}
	s.Meshes = append(s.Meshes, mesh)
	node := &gltf.Node{Name: name, Mesh: gltf.Index(len(s.Meshes) - 1)}
	if skin != nil {
		node.Skin = gltf.Index(slices.Index(s.Skins, skin))
	}
	return node, union
}

// addMerged adds the merged nodes (so that animation channels can name
// them), moves the animated weights onto them, lets the sources go, and
// prunes what no longer draws: the source meshes, skins folded away, and
// the emptied nodes.
func addMerged(s *scene.Scene, t *tree, insts []*instance, skin *scene.Skin, merged [nKinds]*gltf.Node, unions [nKinds][]string) {
	nodeIndex := [nKinds]int{-1, -1, -1}
	for kind, node := range merged {
		if node == nil {
			continue
		}
		s.Nodes = append(s.Nodes, node)
		nodeIndex[kind] = len(s.Nodes) - 1
		t.place(s, nodeIndex[kind], insts, skin != nil)
	}
	retargetWeights(s, insts, nodeIndex, unions)
	t.release(s, insts, skin)
	s.Prune()
}

// describe fills the report of the merged meshes, found again after the
// prune by their nodes' identity.
func (rep *Report) describe(s *scene.Scene, merged [nKinds]*gltf.Node, unions [nKinds][]string, skin *scene.Skin) {
	for kind, node := range merged {
		if node == nil {
			continue
		}
		ni := slices.Index(s.Nodes, node)
		mi := *node.Mesh
		m := s.Meshes[mi]
		mr := MeshReport{Name: m.Name, Mesh: mi, Node: ni, Transparent: kind != kindOpaque, Primitives: len(m.Primitives), MorphTargets: len(unions[kind])}
		for _, p := range m.Primitives {
			mr.Vertices += p.VertexCount()
			mr.Triangles += p.Triangles()
		}
		rep.Meshes = append(rep.Meshes, mr)
	}
	if skin != nil {
		rep.Skinned = true
		rep.Joints = len(skin.Joints)
	}
	rep.MorphTargets = unionAll(unions)
}

func unionAll(u [nKinds][]string) []string {
	out := slices.Clone(u[0])
	for _, names := range u[1:] {
		for _, n := range names {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// targetsOf returns a mesh's morph target names (from extras, or
// mesh.index for those without) and its default weights (the node's
// override, else the mesh's, else zeros).
func targetsOf(m *scene.Mesh, mi int, nodeWeights []float64) ([]string, []float64) {
	n := 0
	if len(m.Primitives) > 0 {
		n = len(m.Primitives[0].Targets)
	}
	given := m.TargetNames()
	names := make([]string, n)
	for i := range names {
		if i < len(given) && given[i] != "" {
			names[i] = given[i]
		} else {
			base := m.Name
			if base == "" {
				base = "mesh" + strconv.Itoa(mi)
			}
			names[i] = base + "." + strconv.Itoa(i)
		}
	}
	w := make([]float64, n)
	switch {
	case len(nodeWeights) == n:
		copy(w, nodeWeights)
	case len(m.Weights) == n:
		copy(w, m.Weights)
	}
	return names, w
}

// tree holds the node hierarchy: parents, rest-pose world matrices, the
// nodes the default scene draws and the nodes animations move.
type tree struct {
	parent   []int
	worlds   []xform.Mat4
	done     []bool
	drawn    []int
	animated []bool
	roots    *[]int // the default scene's root list, nil without scenes
}

func newTree(s *scene.Scene) *tree {
	t := &tree{
		parent:   make([]int, len(s.Nodes)),
		worlds:   make([]xform.Mat4, len(s.Nodes)),
		done:     make([]bool, len(s.Nodes)),
		animated: make([]bool, len(s.Nodes)),
	}
	for i := range t.parent {
		t.parent[i] = -1
	}
	for i, n := range s.Nodes {
		for _, c := range n.Children {
			if c >= 0 && c < len(s.Nodes) {
				t.parent[c] = i
			}
		}
	}
	for _, a := range s.Animations {
		for _, c := range a.Channels {
			if c.Node != nil && *c.Node >= 0 && *c.Node < len(s.Nodes) && c.Path != gltf.TRSWeights {
				t.animated[*c.Node] = true
			}
		}
	}
	var roots []int
	switch {
	case len(s.Scenes) == 0:
		for i := range s.Nodes {
			if t.parent[i] == -1 {
				roots = append(roots, i)
			}
		}
	default:
		sc := 0
		if s.DefaultScene != nil && *s.DefaultScene >= 0 && *s.DefaultScene < len(s.Scenes) {
			sc = *s.DefaultScene
		}
		t.roots = &s.Scenes[sc].Nodes
		roots = *t.roots
	}
	seen := make([]bool, len(s.Nodes))
	var walk func(n int)
	walk = func(n int) {
		if n < 0 || n >= len(s.Nodes) || seen[n] {
			return
		}
		seen[n] = true
		t.drawn = append(t.drawn, n)
		for _, c := range s.Nodes[n].Children {
			walk(c)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	for i, n := range s.Nodes {
		t.worlds[i] = xform.Local(n)
	}
	return t
}

// world is the node's rest-pose world matrix.
func (t *tree) world(n int) xform.Mat4 {
	if t.done[n] {
		return t.worlds[n]
	}
	t.done[n] = true // before recursing: a cycle (rejected by Read) ends here
	if p := t.parent[n]; p >= 0 {
		t.worlds[n] = t.world(p).Mul(t.worlds[n])
	}
	return t.worlds[n]
}

// moves reports whether an animation moves the node or one above it.
func (t *tree) moves(n int) bool {
	for ; n >= 0; n = t.parent[n] {
		if t.animated[n] {
			return true
		}
	}
	return false
}

func (t *tree) top(n int) int {
	for t.parent[n] >= 0 {
		n = t.parent[n]
	}
	return n
}

// place puts a merged node into the hierarchy: a skinned one beside the
// first skinned source node (where RPM keeps its meshes: its transform
// is ignored anyway), a world-space one at the root.
func (t *tree) place(s *scene.Scene, node int, insts []*instance, skinned bool) {
	if skinned {
		for _, in := range insts {
			if in.skin >= 0 {
				if p := t.parent[in.node]; p >= 0 {
					s.Nodes[p].Children = append(s.Nodes[p].Children, node)
					return
				}
				break
			}
		}
	}
	if t.roots != nil {
		*t.roots = append(*t.roots, node)
	}
}

// release takes the mesh and skin away from the merged nodes, and the
// name from those that are left as empty leaves, which Prune then
// removes.
func (t *tree) release(s *scene.Scene, insts []*instance, skin *scene.Skin) {
	joint := map[int]bool{}
	if skin != nil {
		for _, j := range skin.Joints {
			joint[j] = true
		}
	}
	for _, sk := range s.Skins {
		if sk.Skeleton != nil {
			joint[*sk.Skeleton] = true
		}
	}
	for _, in := range insts {
		n := s.Nodes[in.node]
		n.Mesh, n.Skin, n.Weights = nil, nil, nil
		if len(n.Children) == 0 && !joint[in.node] && !t.animated[in.node] && n.Camera == nil &&
			len(n.Extensions) == 0 && n.Extras == nil {
			n.Name = ""
		}
	}
}

// describe names a node for reports.
func describe(s *scene.Scene, n int) string {
	if s.Nodes[n].Name != "" {
		return s.Nodes[n].Name
	}
	return fmt.Sprintf("node %d", n)
}
