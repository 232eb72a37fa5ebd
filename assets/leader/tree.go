// Package leader holds the market leader's conventions for avatar scenes
// that clients written for its files rely on: where the meshes hang in
// the node tree and in which order. The lip-sync libraries and viewers
// built for the leader look the meshes up under the Armature node, beside
// Hips, as its files have them.
package leader

import (
	"slices"

	"github.com/kilnhq/kiln/assets/scene"
)

// MeshOrder is the order of the leader's mesh nodes under Armature,
// after Hips, as its files give them (rpm-avatar-office.glb, which has
// every kind of part but the merged ones; rpm-avatar-casual.glb lists
// Wolf3D_Hair last, the one place the two disagree). Wolf3D_Avatar and
// Wolf3D_Avatar_Transparent are its merged meshes (mergeMesh=1);
// Wolf3D_Avatar_Blend, Kiln's third merged mesh, holds the BLEND parts
// (glasses' lenses) of an avatar that also has MASK ones (assets/merge).
// Wolf3D_Headwear, a hat, is in neither file: it goes with the head's
// parts, after the glasses.
var MeshOrder = []string{
	"EyeLeft", "EyeRight", "Wolf3D_Head", "Wolf3D_Teeth", "Wolf3D_Hair", "Wolf3D_Beard", "Wolf3D_Glasses", "Wolf3D_Headwear",
	"Wolf3D_Body", "Wolf3D_Outfit_Bottom", "Wolf3D_Outfit_Footwear", "Wolf3D_Outfit_Top",
	"Wolf3D_Avatar", "Wolf3D_Avatar_Transparent", "Wolf3D_Avatar_Blend",
}

// Arrange hangs the skinned mesh nodes of an avatar scene (one whose
// default scene has a root named Armature holding Hips) under Armature
// after its other children: the names of MeshOrder in that order, then
// any other mesh in the order it had. Only skinned meshes move: a skinned
// mesh ignores its node's place (the skin's joints place it), so nothing
// is drawn elsewhere. Other scenes are left as they are.
func Arrange(s *scene.Scene) {
	roots := defaultRoots(s)
	if roots == nil {
		return
	}
	arm := -1
	for _, r := range *roots {
		if r >= 0 && r < len(s.Nodes) && s.Nodes[r].Name == "Armature" && slices.ContainsFunc(s.Nodes[r].Children, func(c int) bool {
			return c >= 0 && c < len(s.Nodes) && s.Nodes[c].Name == "Hips"
		}) {
			arm = r
			break
		}
	}
	if arm < 0 {
		return
	}
	skinnedMesh := func(i int) bool {
		return i >= 0 && i < len(s.Nodes) && s.Nodes[i].Mesh != nil && s.Nodes[i].Skin != nil && len(s.Nodes[i].Children) == 0
	}
	var keep, meshes []int
	for _, c := range s.Nodes[arm].Children {
		if skinnedMesh(c) {
			meshes = append(meshes, c)
		} else {
			keep = append(keep, c)
		}
	}
	var stay []int
	for _, r := range *roots {
		if r != arm && skinnedMesh(r) {
			meshes = append(meshes, r)
		} else {
			stay = append(stay, r)
		}
	}
	rank := func(i int) int {
		if k := slices.Index(MeshOrder, s.Nodes[i].Name); k >= 0 {
			return k
		}
		return len(MeshOrder)
	}
	slices.SortStableFunc(meshes, func(a, b int) int { return rank(a) - rank(b) })
	s.Nodes[arm].Children = append(keep, meshes...)
	*roots = stay
}

// defaultRoots is the root list of the scene a loader shows: the default
// scene, else the first; nil when there is none.
func defaultRoots(s *scene.Scene) *[]int {
	if len(s.Scenes) == 0 {
		return nil
	}
	i := 0
	if s.DefaultScene != nil && *s.DefaultScene >= 0 && *s.DefaultScene < len(s.Scenes) {
		i = *s.DefaultScene
	}
	return &s.Scenes[i].Nodes
}
