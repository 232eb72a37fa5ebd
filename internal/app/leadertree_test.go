package app

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/leader"
	"github.com/kilnhq/kiln/assets/scene"
)

// sharedTestdata is ../shared/testdata seen from this package.
const sharedTestdata = "../../../shared/testdata/"

// kilnOnly are the meshes Kiln's avatars have and the leader's do not
// (the leader paints brows and lashes into the head's texture); they come
// after the leader's meshes under Armature.
var kilnOnly = []string{"Wolf3D_Eyebrows", "Wolf3D_Eyelashes"}

// avatarTree is what clients see of an avatar's node tree: the scene's
// roots, the children of Armature, every joint as parent/name in tree
// order, and each mesh node's problems (a node named otherwise than its
// mesh, unskinned, or of more than one primitive).
type avatarTree struct {
	roots, armature, joints, problems []string
}

func treeOf(s *scene.Scene) avatarTree {
	var t avatarTree
	roots := s.Scenes[0].Nodes
	if s.DefaultScene != nil {
		roots = s.Scenes[*s.DefaultScene].Nodes
	}
	var walk func(i int, parent string, underHips bool)
	walk = func(i int, parent string, underHips bool) {
		n := s.Nodes[i]
		if parent == "Armature" {
			t.armature = append(t.armature, n.Name)
		}
		if underHips || n.Name == "Hips" {
			t.joints = append(t.joints, parent+"/"+n.Name)
			underHips = true
		}
		if n.Mesh != nil {
			m := s.Meshes[*n.Mesh]
			if m.Name != n.Name || n.Skin == nil || len(m.Primitives) != 1 {
				t.problems = append(t.problems, fmt.Sprintf("%s: mesh %s, %d primitives, skinned %t", n.Name, m.Name, len(m.Primitives), n.Skin != nil))
			}
		}
		for _, c := range n.Children {
			walk(c, n.Name, underHips)
		}
	}
	for _, r := range roots {
		t.roots = append(t.roots, s.Nodes[r].Name)
		walk(r, "", false)
	}
	return t
}

// keepOnly is names in their order without those not in set.
func keepOnly(names, set []string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !slices.Contains(set, n) })
}

// readLeader reads one of the leader's avatars from ../shared.
func readLeader(t *testing.T, name string) *scene.Scene {
	t.Helper()
	b, err := os.ReadFile(sharedTestdata + name)
	if err != nil {
		t.Skipf("../shared absent: %v", err)
	}
	s, err := scene.Read(b, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLeaderTreeRule checks the rule Kiln applies (leader.MeshOrder)
// against the leader's two files: the meshes hang under Armature after
// Hips, one mesh of one skinned primitive each, in the rule's order
// (casual lists Wolf3D_Hair last, where office lists it after the teeth:
// the one difference between them).
func TestLeaderTreeRule(t *testing.T) {
	for _, f := range []string{"rpm-avatar-office.glb", "rpm-avatar-casual.glb"} {
		tr := treeOf(readLeader(t, f))
		want := append([]string{"Hips"}, keepOnly(leader.MeshOrder, tr.armature)...)
		got := tr.armature
		if f == "rpm-avatar-casual.glb" {
			want, got = slices.DeleteFunc(want, func(n string) bool { return n == "Wolf3D_Hair" }), slices.DeleteFunc(slices.Clone(got), func(n string) bool { return n == "Wolf3D_Hair" })
		}
		if !slices.Equal(tr.roots, []string{"Armature"}) || !slices.Equal(got, want) || len(tr.problems) > 0 {
			t.Errorf("%s: roots %v, Armature %v, want %v; %v", f, tr.roots, tr.armature, want, tr.problems)
		}
	}
}

// TestLeaderTree downloads avatars over HTTP in every kind of variant and
// compares each tree with the leader's two files: the same roots, the
// same joints under the same parents in the same order, the meshes they
// share under Armature in the same order (Kiln's brows and lashes after
// them), each one skinned mesh of one primitive named as its node.
func TestLeaderTree(t *testing.T) {
	office, casual := treeOf(readLeader(t, "rpm-avatar-office.glb")), treeOf(readLeader(t, "rpm-avatar-casual.glb"))
	r := start(t)
	writer := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	glasses := postAvatar(t, r, writer, `{"version":"1","body":{"type":"feminine"},"glasses":{"style":"round","color":"black"},"hair":{"style":"bun"},"headwear":{"style":"fedora"}}`)
	merged := []string{"Hips", "Wolf3D_Avatar", "Wolf3D_Avatar_Transparent"}
	for _, tc := range []struct {
		id, query string
		merged    bool
	}{
		{kiln.AvatarDefaultMale, "", false},
		{glasses, "", false},
		{kiln.AvatarDefaultFemale, "?lod=1", false},
		{glasses, "?lod=2&morphTargets=ARKit,Oculus%20Visemes", false},
		{kiln.AvatarDefaultMale, "?morphTargets=none&pose=T", false},
		{kiln.AvatarDefaultMale, "?animations=gesture_wave,locomotion_walk&useMeshOptCompression=true", false},
		{glasses, "?textureAtlasSize=1024", false},
		{kiln.AvatarDefaultMale, "?mergeMesh=1", true},
		{glasses, "?mergeMesh=1&textureAtlasSize=512&morphTargets=ARKit&lod=1&useMeshOptCompression=true", true},
		{kiln.AvatarDefaultFemale, "?quality=low&mergeMesh=1&animations=gesture_wave", true},
	} {
		t.Run(tc.id+tc.query, func(t *testing.T) {
			_, s, _ := getModel(t, r, tc.id, tc.query)
			tr := treeOf(s)
			if !slices.Equal(tr.roots, []string{"Armature"}) || len(tr.problems) > 0 {
				t.Errorf("roots %v; %v", tr.roots, tr.problems)
			}
			if !slices.Equal(tr.joints, office.joints) {
				t.Errorf("joints differ from the leader's: %d of %d, first %v", len(tr.joints), len(office.joints), firstDiff(tr.joints, office.joints))
			}
			if tc.merged {
				want := merged
				if tc.id == glasses {
					// The lenses are BLEND, the brows and lashes MASK: a
					// third merged mesh after the leader's two (assets/merge).
					want = append(slices.Clone(merged), "Wolf3D_Avatar_Blend")
				}
				if !slices.Equal(tr.armature, want) {
					t.Errorf("Armature holds %v, want %v", tr.armature, want)
				}
				return
			}
			n := len(tr.armature) - len(kilnOnly)
			if n < 1 || !slices.Equal(tr.armature[n:], kilnOnly) {
				t.Errorf("Armature holds %v: Kiln's own %v not last", tr.armature, kilnOnly)
				return
			}
			kiln := tr.armature[:n]
			for _, l := range []struct {
				name string
				tree avatarTree
			}{{"office", office}, {"casual", casual}} {
				ours, theirs := keepOnly(kiln, l.tree.armature), keepOnly(l.tree.armature, kiln)
				if l.name == "casual" {
					ours, theirs = slices.DeleteFunc(ours, isHair), slices.DeleteFunc(theirs, isHair)
				}
				if !slices.Equal(ours, theirs) || len(keepOnly(kiln, leader.MeshOrder))+1 != len(kiln) {
					t.Errorf("Armature holds %v; the leader's %s file %v", tr.armature, l.name, l.tree.armature)
				}
			}
		})
	}
}

func isHair(n string) bool { return n == "Wolf3D_Hair" }

func firstDiff(a, b []string) []string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return []string{a[i], b[i]}
		}
	}
	return nil
}
