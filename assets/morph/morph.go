// Package morph picks which morph targets a model keeps: the avatar
// download's morphTargets parameter (ARKit blendshapes, visemes, the two
// default mouth shapes, none) is applied by dropping every target not
// asked for. Avatars are generated once with every shape (see
// assets/avatar/face); each download keeps its own subset, so a client
// that asks for the defaults does not carry 69 targets it never drives.
//
// Targets are matched by the names in mesh.extras.targetNames, the
// convention three.js, Blender and the leader's files follow; a target
// without a name cannot be asked for and is dropped. Kept targets stay in
// the mesh's own order, with their default weights; weight animations
// keep the values of the kept targets only.
package morph

import (
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
)

// Keep drops from every mesh of s the morph targets whose names are not
// in names, and reports the names kept anywhere, in mesh order without
// repeats. A mesh left without targets loses its targetNames and weights.
func Keep(s *scene.Scene, names []string) []string {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var kept []string
	// keptIdx[mesh] lists the old indices of the targets that stay.
	// counts[mesh] is its number of targets before.
	keptIdx := make([][]int, len(s.Meshes))
	counts := make([]int, len(s.Meshes))
	for mi, m := range s.Meshes {
		count := 0
		if len(m.Primitives) > 0 {
			count = len(m.Primitives[0].Targets)
		}
		counts[mi] = count
		if count == 0 {
			continue
		}
		given := m.TargetNames()
		var idx []int
		for i := range count {
			if i < len(given) && want[given[i]] {
				idx = append(idx, i)
				if !slices.Contains(kept, given[i]) {
					kept = append(kept, given[i])
				}
			}
		}
		keptIdx[mi] = idx
		if len(idx) == count {
			continue
		}
		for _, p := range m.Primitives {
			p.Targets = pick(p.Targets, idx)
		}
		if len(m.Weights) == count {
			m.Weights = pick(m.Weights, idx)
		}
		setNames(m, pick(given, idx))
		if len(idx) == 0 {
			m.Weights = nil
		}
	}
	for _, n := range s.Nodes {
		if n.Mesh == nil || *n.Mesh < 0 || *n.Mesh >= len(s.Meshes) || len(n.Weights) == 0 {
			continue
		}
		if idx := keptIdx[*n.Mesh]; len(n.Weights) > len(idx) {
			n.Weights = pick(n.Weights, idx)
			if len(n.Weights) == 0 {
				n.Weights = nil
			}
		}
	}
	trimAnimations(s, keptIdx, counts)
	return kept
}

// trimAnimations keeps, in each weight channel, the values of the kept
// targets; a channel whose mesh has none left goes (Prune then drops its
// unused sampler), and so does a clip left without channels.
func trimAnimations(s *scene.Scene, keptIdx [][]int, counts []int) {
	defer func() {
		s.Animations = slices.DeleteFunc(s.Animations, func(a *scene.Animation) bool { return len(a.Channels) == 0 })
	}()
	for _, a := range s.Animations {
		trimmed := map[int]bool{} // a sampler may feed several channels
		a.Channels = slices.DeleteFunc(a.Channels, func(c scene.Channel) bool {
			if c.Path != gltf.TRSWeights || c.Node == nil || *c.Node < 0 || *c.Node >= len(s.Nodes) {
				return false
			}
			mesh := s.Nodes[*c.Node].Mesh
			if mesh == nil || *mesh < 0 || *mesh >= len(s.Meshes) || c.Sampler < 0 || c.Sampler >= len(a.Samplers) {
				return false
			}
			idx, count := keptIdx[*mesh], counts[*mesh]
			if count == 0 || len(idx) == count {
				return false
			}
			if len(idx) == 0 {
				return true
			}
			sm := &a.Samplers[c.Sampler]
			if trimmed[c.Sampler] || len(sm.Input) == 0 {
				return false
			}
			trimmed[c.Sampler] = true
			per := len(sm.Output) / len(sm.Input) // values per key: targets, ×3 for CUBICSPLINE
			if per%count != 0 {
				return false
			}
			groups := per / count * len(sm.Input) // runs of one value per target
			out := make([]float32, 0, groups*len(idx))
			for g := range groups {
				run := sm.Output[g*count : (g+1)*count]
				for _, i := range idx {
					out = append(out, run[i])
				}
			}
			sm.Output = out
			return false
		})
	}
}

func pick[T any](list []T, idx []int) []T {
	out := make([]T, 0, len(idx))
	for _, i := range idx {
		if i < len(list) {
			out = append(out, list[i])
		}
	}
	return out
}

// setNames writes the target names into the mesh's extras, keeping its
// other extras; without names the key goes.
func setNames(m *scene.Mesh, names []string) {
	ex, _ := m.Extras.(map[string]any)
	if ex == nil {
		if len(names) == 0 {
			return
		}
		ex = map[string]any{}
	}
	if len(names) == 0 {
		delete(ex, "targetNames")
	} else {
		list := make([]any, len(names))
		for i, n := range names {
			list[i] = n
		}
		ex["targetNames"] = list
	}
	if len(ex) == 0 {
		m.Extras = nil
		return
	}
	m.Extras = ex
}
