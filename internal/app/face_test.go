package app

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/assets/scene"
)

// meshTargets maps each mesh of s that has morph targets to their names.
func meshTargets(s *scene.Scene) map[string][]string {
	out := map[string][]string{}
	for _, m := range s.Meshes {
		if len(m.Primitives) > 0 && len(m.Primitives[0].Targets) > 0 {
			out[m.Name] = m.TargetNames()
		}
	}
	return out
}

// TestAvatarMorphTargets downloads avatars with each form of the
// morphTargets parameter and checks which targets the meshes carry.
func TestAvatarMorphTargets(t *testing.T) {
	r := start(t)
	const id = "default-female"

	_, def, _ := getModel(t, r, id, "")
	targets := meshTargets(def)
	if !slices.Equal(targets["Wolf3D_Head"], face.Default) {
		t.Fatalf("default download: head targets %v, want %v", targets["Wolf3D_Head"], face.Default)
	}
	for mesh, names := range targets {
		if !slices.Equal(names, face.Default) && !slices.Equal(names, face.Default[:1]) {
			t.Errorf("default download: %s carries %v", mesh, names)
		}
	}
	headOf := func(s *scene.Scene) *scene.Mesh {
		for _, m := range s.Meshes {
			if m.Name == "Wolf3D_Head" {
				return m
			}
		}
		t.Fatal("no Wolf3D_Head")
		return nil
	}

	_, explicit, _ := getModel(t, r, id, "?morphTargets=Default")
	if !slices.Equal(meshTargets(explicit)["Wolf3D_Head"], face.Default) {
		t.Errorf("morphTargets=Default: %v", meshTargets(explicit))
	}

	_, none, _ := getModel(t, r, id, "?morphTargets=none")
	if got := meshTargets(none); len(got) != 0 {
		t.Errorf("morphTargets=none keeps %v", got)
	}

	_, smile, _ := getModel(t, r, id, "?morphTargets=mouthSmile")
	head := headOf(smile)
	if !slices.Equal(head.TargetNames(), []string{"mouthSmile"}) || len(head.Weights) != 1 {
		t.Fatalf("morphTargets=mouthSmile: head %v weights %v", head.TargetNames(), head.Weights)
	}
	if !slices.Equal(head.Primitives[0].Targets[0].Positions, headOf(def).Primitives[0].Targets[1].Positions) {
		t.Errorf("morphTargets=mouthSmile: the smile moves differently from the default download's")
	}

	// Every name kept is one asked for, and every asked name the avatar
	// has is kept.
	_, all, _ := getModel(t, r, id, "?morphTargets=ARKit,Oculus%20Visemes")
	asked := slices.Concat(face.ARKit, face.Visemes)
	for mesh, names := range meshTargets(all) {
		for _, n := range names {
			if !slices.Contains(asked, n) {
				t.Errorf("ARKit,Oculus Visemes: %s carries %s", mesh, n)
			}
		}
	}

	// Merged: one mesh Wolf3D_Avatar with the targets on it.
	_, merged, _ := getModel(t, r, id, "?mergeMesh=1&textureAtlasSize=512&morphTargets=mouthOpen,mouthSmile")
	if got := meshTargets(merged); !slices.Equal(got["Wolf3D_Avatar"], face.Default) {
		t.Errorf("merged: targets %v, want Wolf3D_Avatar with %v", got, face.Default)
	}

	for _, tc := range []struct {
		query, names string
	}{
		{"?morphTargets=ARKit,smile,frown", `"smile", "frown"`},
		{"?morphTargets=", `""`},
		{"?morphTargets=jawopen", `"jawopen"`},
	} {
		res := do(t, "GET", r.AvatarURL+"/model/"+id+".glb"+tc.query, "", nil, nil)
		var body struct {
			Error struct{ Message string } `json:"error"`
		}
		res.json(t, &body)
		if res.Status != http.StatusBadRequest || res.errorCode(t) != "invalid_morph_targets" || !strings.Contains(body.Error.Message, tc.names) {
			t.Errorf("%s: %d %s, want 400 invalid_morph_targets naming %s", tc.query, res.Status, res.Body, tc.names)
		}
	}
}
