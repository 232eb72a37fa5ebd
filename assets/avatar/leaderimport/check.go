// Package leaderimport turns an avatar GLB made by the leader (Ready
// Player Me) into a Kiln avatar model: Check tells whether a file is one
// (its 67-joint skeleton and its mesh names), and Transfer gives a face
// that carries only the leader's two mouth shapes Kiln's whole set of
// face shapes, carried from Kiln's own generated face onto its head,
// teeth and eyes, so that the avatars people kept can blink and speak.
package leaderimport

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/qmuntal/gltf"
)

// Meshes every leader avatar has, by node name. Hair, outfit, glasses
// and beard meshes vary and are not required.
var Meshes = []string{"Wolf3D_Head", "Wolf3D_Body", "EyeLeft", "EyeRight", "Wolf3D_Teeth"}

// Limits of an import: the leader's files are 1-3 MB and 10,000-30,000
// triangles; these leave room for its highest quality settings while
// keeping a hostile file from costing the worker more than an avatar.
const (
	MaxBytes     = 32 << 20
	MaxTriangles = 200_000
)

// Check reports what keeps s from being one of the leader's avatars: a
// skin over the 67 joints named as the leader names them, and the
// skinned meshes of Meshes, each of triangles. The error is a 400
// (invalid_avatar) naming everything missing, so that a user sees at
// once what the file lacks.
func Check(s *scene.Scene) error {
	var missing []string
	joints := map[string]bool{}
	for _, sk := range s.Skins {
		for _, j := range sk.Joints {
			if j >= 0 && j < len(s.Nodes) {
				joints[s.Nodes[j].Name] = true
			}
		}
	}
	var lack []string
	for _, name := range avatar.JointNames() {
		if !joints[name] {
			lack = append(lack, name)
		}
	}
	switch {
	case len(lack) == len(avatar.JointNames()):
		missing = append(missing, "the skeleton (a skin over joints Hips … RightToe_End)")
	case len(lack) > 0:
		missing = append(missing, "joints "+listed(lack, 8))
	}
	var meshes []string
	for _, name := range Meshes {
		n := Node(s, name)
		if n < 0 || s.Nodes[n].Mesh == nil || s.Nodes[n].Skin == nil {
			meshes = append(meshes, name)
		}
	}
	if len(meshes) > 0 {
		missing = append(missing, "skinned meshes "+listed(meshes, len(meshes)))
	}
	if len(missing) > 0 {
		return kiln.Errorf(kiln.KindInvalid, "invalid_avatar", "not an avatar made by Ready Player Me: missing %s", strings.Join(missing, "; "))
	}
	tris := 0
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			if p.Mode != gltf.PrimitiveTriangles {
				return kiln.Errorf(kiln.KindInvalid, "invalid_avatar", "mesh %q draws mode %d; the leader's avatars are triangles", m.Name, p.Mode)
			}
			if p.Indices != nil {
				tris += len(p.Indices) / 3
			} else {
				tris += len(p.Positions) / 3
			}
		}
	}
	if tris > MaxTriangles {
		return kiln.Errorf(kiln.KindInvalid, "avatar_too_large", "the avatar has %d triangles; at most %d can be imported", tris, MaxTriangles)
	}
	return nil
}

// NeedsFace reports whether the head carries no face shapes beyond the
// leader's mouthOpen and mouthSmile, so that Transfer should give it
// Kiln's.
func NeedsFace(s *scene.Scene) bool {
	n := Node(s, "Wolf3D_Head")
	if n < 0 || s.Nodes[n].Mesh == nil {
		return false
	}
	for _, name := range s.Meshes[*s.Nodes[n].Mesh].TargetNames() {
		if name != "mouthOpen" && name != "mouthSmile" {
			return false
		}
	}
	return true
}

// Node is the index of the first node named name, or -1.
func Node(s *scene.Scene, name string) int {
	return slices.IndexFunc(s.Nodes, func(n *gltf.Node) bool { return n != nil && n.Name == name })
}

// listed joins names, shortening a long list to its first max and a count.
func listed(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:max], ", "), len(names)-max)
}
