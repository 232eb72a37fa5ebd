package vrm

// bone maps one joint of the leader's skeleton (Mixamo names without a
// prefix) to its VRM humanoid bone, in 1.0 and 0.x terms (they differ for
// the thumbs: 1.0 added the metacarpal). required marks the bones both
// versions require.
type bone struct {
	joint, v1, v0 string
	required      bool
}

// bones is the humanoid map, parents before children. The leader's
// skeleton has no jaw joint (the mouth opens by shapes), so jaw stays
// unmapped; the end joints (HeadTop_End, *4, *Toe_End) have no VRM bone.
var bones = func() []bone {
	out := []bone{
		{"Hips", "hips", "hips", true},
		{"Spine", "spine", "spine", true},
		{"Spine1", "chest", "chest", false},
		{"Spine2", "upperChest", "upperChest", false},
		{"Neck", "neck", "neck", false},
		{"Head", "head", "head", true},
		{"LeftEye", "leftEye", "leftEye", false},
		{"RightEye", "rightEye", "rightEye", false},
		{"Jaw", "jaw", "jaw", false},
	}
	for _, side := range [][2]string{{"Left", "left"}, {"Right", "right"}} {
		j, v := side[0], side[1]
		out = append(out,
			bone{j + "UpLeg", v + "UpperLeg", v + "UpperLeg", true},
			bone{j + "Leg", v + "LowerLeg", v + "LowerLeg", true},
			bone{j + "Foot", v + "Foot", v + "Foot", true},
			bone{j + "ToeBase", v + "Toes", v + "Toes", false},
			bone{j + "Shoulder", v + "Shoulder", v + "Shoulder", false},
			bone{j + "Arm", v + "UpperArm", v + "UpperArm", true},
			bone{j + "ForeArm", v + "LowerArm", v + "LowerArm", true},
			bone{j + "Hand", v + "Hand", v + "Hand", true},
			bone{j + "HandThumb1", v + "ThumbMetacarpal", v + "ThumbProximal", false},
			bone{j + "HandThumb2", v + "ThumbProximal", v + "ThumbIntermediate", false},
			bone{j + "HandThumb3", v + "ThumbDistal", v + "ThumbDistal", false},
		)
		for _, f := range [][2]string{{"Index", "Index"}, {"Middle", "Middle"}, {"Ring", "Ring"}, {"Pinky", "Little"}} {
			out = append(out,
				bone{j + "Hand" + f[0] + "1", v + f[1] + "Proximal", v + f[1] + "Proximal", false},
				bone{j + "Hand" + f[0] + "2", v + f[1] + "Intermediate", v + f[1] + "Intermediate", false},
				bone{j + "Hand" + f[0] + "3", v + f[1] + "Distal", v + f[1] + "Distal", false},
			)
		}
	}
	return out
}()

// humanBones1 is VRMC_vrm.humanoid.humanBones: each present bone's node.
func humanBones1(m *model) map[string]any {
	out := map[string]any{}
	for _, b := range bones {
		if i, ok := m.node[b.joint]; ok {
			out[b.v1] = map[string]any{"node": i}
		}
	}
	return out
}

// humanBones0 is VRM 0.x's humanoid.humanBones list.
func humanBones0(m *model) []any {
	var out []any
	for _, b := range bones {
		if i, ok := m.node[b.joint]; ok {
			out = append(out, map[string]any{"bone": b.v0, "node": i, "useDefaultValues": true})
		}
	}
	return out
}
