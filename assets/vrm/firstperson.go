package vrm

import "strings"

// headParts are the words of the avatar's part names that sit on the
// head: a first-person camera would see their inside, so they are drawn
// for the others only (thirdPersonOnly). Every other mesh is auto: the
// app cuts away the triangles weighted to the head (a merged mesh that
// holds the head too).
var headParts = []string{"Head", "Eye", "Teeth", "Hair", "Beard", "Glasses", "Headwear", "Facewear", "Hat", "Mask"}

// firstPersonType is the annotation of mesh node i.
func (m *model) firstPersonType(i int) string {
	name := m.meshName(i)
	for _, w := range headParts {
		if strings.Contains(name, w) {
			return "thirdPersonOnly"
		}
	}
	return "auto"
}

// firstPerson1 are VRMC_vrm.firstPerson's meshAnnotations.
func firstPerson1(m *model) []any {
	out := []any{}
	for _, n := range m.meshNodes {
		out = append(out, map[string]any{"node": n, "type": m.firstPersonType(n)})
	}
	return out
}

// firstPerson0 is VRM 0.x's firstPerson, lookAt included.
func firstPerson0(m *model) map[string]any {
	out := lookAt0()
	head := m.node["Head"]
	out["firstPersonBone"] = head
	o := m.lookAtOrigin()
	out["firstPersonBoneOffset"] = map[string]any{"x": o[0], "y": o[1], "z": o[2]}
	list := []any{}
	for _, n := range m.meshNodes {
		flag := "Auto"
		if m.firstPersonType(n) == "thirdPersonOnly" {
			flag = "ThirdPersonOnly"
		}
		list = append(list, map[string]any{"mesh": *m.s.Nodes[n].Mesh, "firstPersonFlag": flag})
	}
	out["meshAnnotations"] = list
	return out
}
