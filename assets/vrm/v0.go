package vrm

import (
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/vrm/spring"
)

// exporterVersion names the writer in VRM 0.x's exporterVersion.
const exporterVersion = "Kiln-1.0"

// v0 is the VRM 0.x extension object.
func v0(s *scene.Scene, m *model, o Options) map[string]any {
	return map[string]any{
		"exporterVersion":    exporterVersion,
		"specVersion":        "0.0",
		"meta":               meta0(o.Meta),
		"humanoid":           map[string]any{"humanBones": humanBones0(m), "armStretch": 0.05, "legStretch": 0.05, "upperArmTwist": 0.5, "lowerArmTwist": 0.5, "upperLegTwist": 0.5, "lowerLegTwist": 0.5, "feetSpacing": 0, "hasTranslationDoF": false},
		"firstPerson":        firstPerson0(m),
		"blendShapeMaster":   blendShapeMaster0(m),
		"secondaryAnimation": map[string]any{"boneGroups": []any{}, "colliderGroups": []any{}},
		"materialProperties": materialProperties0(s, o.Toon),
	}
}

// faceMinusZ turns the whole model half a turn about Y, baked into the
// data, so that it faces -Z as VRM 0.x models do (UniVRM's convention;
// three-vrm's rotateVRM0 turns them back). Every transform T becomes
// R T R with R = diag(-1, 1, -1): node transforms, inverse bind
// matrices, and every vertex, normal, tangent and morph displacement
// negates x and z.
func faceMinusZ(s *scene.Scene) {
	flip := func(v [3]float32) [3]float32 { return [3]float32{-v[0], v[1], -v[2]} }
	sign := [4]float64{-1, 1, -1, 1}
	for _, n := range s.Nodes {
		if n == nil {
			continue
		}
		n.Translation = [3]float64{-n.Translation[0], n.Translation[1], -n.Translation[2]}
		n.Rotation = [4]float64{-n.Rotation[0], n.Rotation[1], -n.Rotation[2], n.Rotation[3]}
		for c := range 4 {
			for r := range 4 {
				n.Matrix[c*4+r] *= sign[c] * sign[r]
			}
		}
	}
	for _, sk := range s.Skins {
		for i := range sk.InverseBindMatrices {
			for c := range 4 {
				for r := range 4 {
					sk.InverseBindMatrices[i][c*4+r] *= float32(sign[c] * sign[r])
				}
			}
		}
	}
	for _, mesh := range s.Meshes {
		for _, p := range mesh.Primitives {
			for i := range p.Positions {
				p.Positions[i] = flip(p.Positions[i])
			}
			for i := range p.Normals {
				p.Normals[i] = flip(p.Normals[i])
			}
			for i, t := range p.Tangents {
				p.Tangents[i] = [4]float32{-t[0], t[1], -t[2], t[3]}
			}
			for ti := range p.Targets {
				t := &p.Targets[ti]
				for i := range t.Positions {
					t.Positions[i] = flip(t.Positions[i])
				}
				for i := range t.Normals {
					t.Normals[i] = flip(t.Normals[i])
				}
				for i := range t.Tangents {
					t.Tangents[i] = flip(t.Tangents[i])
				}
			}
		}
	}
	for _, a := range s.Animations {
		for _, c := range a.Channels {
			sm := &a.Samplers[c.Sampler]
			switch c.Path {
			case "translation":
				for i := 0; i+2 < len(sm.Output); i += 3 {
					sm.Output[i], sm.Output[i+2] = -sm.Output[i], -sm.Output[i+2]
				}
			case "rotation":
				for i := 0; i+3 < len(sm.Output); i += 4 {
					sm.Output[i], sm.Output[i+2] = -sm.Output[i], -sm.Output[i+2]
				}
			}
		}
	}
}

// turnChains follows faceMinusZ for the spring bones' colliders: their
// offsets are in their node's local space, which the half turn
// conjugated, so they negate x and z too.
func turnChains(c *spring.Chains) {
	if c == nil {
		return
	}
	for i := range c.Colliders {
		col := &c.Colliders[i]
		col.Offset = [3]float64{-col.Offset[0], col.Offset[1], -col.Offset[2]}
		col.Tail = [3]float64{-col.Tail[0], col.Tail[1], -col.Tail[2]}
	}
}
