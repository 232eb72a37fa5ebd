package vrm

import (
	"maps"
	"slices"

	"github.com/kilnhq/kiln/assets/avatar/face"
)

// preset is one of VRM's preset expressions: its 1.0 name, its 0.x
// preset name (0.x has no surprised: it is a custom group there) and the
// face shapes that make it.
type preset struct {
	v1, v0, v0name string
	recipe         map[string]float64
}

// sides spells a shape on both sides.
func sides(name string, w float64) map[string]float64 {
	return map[string]float64{name + "Left": w, name + "Right": w}
}

// join merges recipes.
func join(ms ...map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for _, m := range ms {
		maps.Copy(out, m)
	}
	return out
}

// presets are VRM's preset expressions made of Kiln's face shapes. The
// emotions are the render API's recipes (assets/avatar/face) where it has
// one (angry is its rage); the mouth shapes are the Oculus visemes the
// names stand for; blink and the gaze are the ARKit eye shapes.
var presets = []preset{
	{"happy", "joy", "Joy", face.Expression("happy")},
	{"angry", "angry", "Angry", face.Expression("rage")},
	{"sad", "sorrow", "Sorrow", face.Expression("sad")},
	{"relaxed", "fun", "Fun", join(sides("mouthSmile", 0.5), sides("cheekSquint", 0.3), sides("eyeSquint", 0.3))},
	{"surprised", "unknown", "Surprised", join(sides("eyeWide", 1), sides("browOuterUp", 0.8), map[string]float64{"browInnerUp": 1, "jawOpen": 0.35, "mouthFunnel": 0.2})},
	{"aa", "a", "A", map[string]float64{"viseme_aa": 1}},
	{"ih", "i", "I", map[string]float64{"viseme_I": 1}},
	{"ou", "u", "U", map[string]float64{"viseme_U": 1}},
	{"ee", "e", "E", map[string]float64{"viseme_E": 1}},
	{"oh", "o", "O", map[string]float64{"viseme_O": 1}},
	{"blink", "blink", "Blink", sides("eyeBlink", 1)},
	{"blinkLeft", "blink_l", "Blink_L", map[string]float64{"eyeBlinkLeft": 1}},
	{"blinkRight", "blink_r", "Blink_R", map[string]float64{"eyeBlinkRight": 1}},
	// The avatar's own left and right: looking left turns the left eye
	// out and the right eye in.
	{"lookUp", "lookup", "LookUp", sides("eyeLookUp", 1)},
	{"lookDown", "lookdown", "LookDown", sides("eyeLookDown", 1)},
	{"lookLeft", "lookleft", "LookLeft", map[string]float64{"eyeLookOutLeft": 1, "eyeLookInRight": 1}},
	{"lookRight", "lookright", "LookRight", map[string]float64{"eyeLookInLeft": 1, "eyeLookOutRight": 1}},
	{"neutral", "neutral", "Neutral", nil},
}

// bind is one face shape of one mesh node at a weight (0..1).
type bind struct {
	node, mesh, index int
	weight            float64
}

// binds are the shapes of recipe on every mesh that has them, in node
// order then shape name, so that the file is the same bytes each time.
func (m *model) binds(recipe map[string]float64) []bind {
	var out []bind
	names := slices.Sorted(maps.Keys(recipe))
	for _, n := range m.meshNodes {
		for _, name := range names {
			if k := m.shapeIndex(n, name); k >= 0 {
				out = append(out, bind{n, *m.s.Nodes[n].Mesh, k, recipe[name]})
			}
		}
	}
	return out
}

// customNames are every face shape of the model, each a custom
// expression: the ARKit shapes, the visemes and Kiln's extras, in the
// order the meshes first list them.
func (m *model) customNames() []string {
	var out []string
	for _, n := range m.meshNodes {
		for _, name := range m.shapes[*m.s.Nodes[n].Mesh] {
			if name != "" && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// expression1 is one VRMC_vrm expression.
func expression1(bs []bind) map[string]any {
	out := map[string]any{"isBinary": false}
	var list []any
	for _, b := range bs {
		list = append(list, map[string]any{"node": b.node, "index": b.index, "weight": round(b.weight)})
	}
	// The schema wants at least one bind when the list is there:
	// neutral (and a preset the model has no shapes for) has none.
	if len(list) > 0 {
		out["morphTargetBinds"] = list
	}
	return out
}

// expressions1 is VRMC_vrm.expressions.
func expressions1(m *model) map[string]any {
	pre := map[string]any{}
	for _, p := range presets {
		pre[p.v1] = expression1(m.binds(p.recipe))
	}
	custom := map[string]any{}
	for _, name := range m.customNames() {
		custom[name] = expression1(m.binds(map[string]float64{name: 1}))
	}
	return map[string]any{"preset": pre, "custom": custom}
}

// blendShapeMaster0 is VRM 0.x's blendShapeMaster: the presets, then
// every face shape as a group of its own (presetName unknown). 0.x
// binds meshes, not nodes, with weights of 0..100.
func blendShapeMaster0(m *model) map[string]any {
	groups := []any{}
	add := func(name, presetName string, bs []bind) {
		list := []any{}
		for _, b := range bs {
			list = append(list, map[string]any{"mesh": b.mesh, "index": b.index, "weight": round(100 * b.weight)})
		}
		groups = append(groups, map[string]any{"name": name, "presetName": presetName, "binds": list, "materialValues": []any{}, "isBinary": false})
	}
	for _, p := range presets {
		add(p.v0name, p.v0, m.binds(p.recipe))
	}
	for _, name := range m.customNames() {
		add(name, "unknown", m.binds(map[string]float64{name: 1}))
	}
	return map[string]any{"blendShapeGroups": groups}
}
