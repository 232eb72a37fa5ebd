package vrm_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"net/url"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// glbJSON is the JSON chunk of a GLB.
func glbJSON(t *testing.T, glb []byte) map[string]any {
	t.Helper()
	if len(glb) < 20 || !bytes.Equal(glb[:4], []byte("glTF")) {
		t.Fatal("not a GLB")
	}
	n := binary.LittleEndian.Uint32(glb[12:16])
	var doc map[string]any
	if err := json.Unmarshal(glb[20:20+n], &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// build makes an avatar's VRM as GET /model/{id}.vrm does, from query q.
func build(t *testing.T, cfg avatar.Config, q string) ([]byte, *scene.Scene) {
	t.Helper()
	s, err := avatar.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	values, _ := url.ParseQuery(q)
	v, err := kiln.ParseVRMVariant(values, kiln.VRMMeta{Name: "test-avatar", Author: "Test Operator", LicenseURL: "https://creativecommons.org/publicdomain/zero/1.0/"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := assets.BuildVariant(context.Background(), s, v)
	if err != nil {
		t.Fatal(err)
	}
	back, err := scene.Read(m.GLB, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m.GLB, back
}

// worldOf is the model-space position of the named node.
func worldOf(t *testing.T, s *scene.Scene, name string) [3]float64 {
	t.Helper()
	parent := map[int]int{}
	idx := -1
	for i, n := range s.Nodes {
		for _, c := range n.Children {
			parent[c] = i
		}
		if n.Name == name {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatalf("no node %s", name)
	}
	m := xform.Local(s.Nodes[idx])
	for p, ok := parent[idx]; ok; p, ok = parent[p] {
		m = xform.Local(s.Nodes[p]).Mul(m)
	}
	return m.Translation()
}

// TestVRM builds VRMs of the built-in and a random avatar in both
// versions and checks what an app reads: the file passes the Khronos
// validator, the VRM JSON passes the published schemas, every required
// bone is mapped to the joint of its name, the expressions bind the face
// shapes, the model faces +Z (1.0) or -Z (0.x) and stands in T-pose.
func TestVRM(t *testing.T) {
	v1 := newSchemaChecker("testdata/schema/VRMC_vrm-1.0", "testdata/schema/gltf")
	mtoon := newSchemaChecker("testdata/schema/VRMC_materials_mtoon-1.0", "testdata/schema/gltf")
	v0 := newSchemaChecker("testdata/schema/0.0", "testdata/schema/gltf")
	springs := newSchemaChecker("testdata/schema/VRMC_springBone-1.0", "testdata/schema/gltf")
	cases := []struct {
		name    string
		cfg     avatar.Config
		q       string
		springs bool // long hair or a skirt: spring bone chains
	}{
		{"male 1.0", avatar.Default(avatar.Masculine), "", false},
		{"female 0.x toon", avatar.Default(avatar.Feminine), "vrm=0&shading=toon", true},
		{"female 1.0", avatar.Default(avatar.Feminine), "", true},
		{"random 1.0 toon merged meshopt", avatar.Random(7), "shading=toon&mergeMesh=1&lod=1&useMeshOptCompression=true&textureFormat=webp", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			glb, s := build(t, tc.cfg, tc.q)
			gltfcheck.RequireValid(t, glb)
			doc := glbJSON(t, glb)
			ext := doc["extensions"].(map[string]any)
			nodes := doc["nodes"].([]any)
			nodeName := func(i any) string { return nodes[int(i.(float64))].(map[string]any)["name"].(string) }
			head, eye := worldOf(t, s, "Head"), worldOf(t, s, "LeftEye")
			if vrm, ok := ext["VRMC_vrm"]; ok {
				for _, e := range v1.check("VRMC_vrm.schema.json", vrm) {
					t.Error(e)
				}
				bones := vrm.(map[string]any)["humanoid"].(map[string]any)["humanBones"].(map[string]any)
				for bone, joint := range map[string]string{"hips": "Hips", "head": "Head", "leftUpperArm": "LeftArm", "rightHand": "RightHand", "leftFoot": "LeftFoot", "leftEye": "LeftEye", "leftIndexProximal": "LeftHandIndex1", "rightThumbMetacarpal": "RightHandThumb1"} {
					if got := nodeName(bones[bone].(map[string]any)["node"]); got != joint {
						t.Errorf("%s is node %s, want %s", bone, got, joint)
					}
				}
				if len(bones) != 54 {
					t.Errorf("%d bones mapped, want 54 (every joint but the ends; no jaw)", len(bones))
				}
				expr := vrm.(map[string]any)["expressions"].(map[string]any)
				aa := expr["preset"].(map[string]any)["aa"].(map[string]any)["morphTargetBinds"].([]any)
				if len(aa) < 2 {
					t.Errorf("aa binds %d shapes, want the head's and the teeth's viseme_aa", len(aa))
				}
				custom := expr["custom"].(map[string]any)
				for _, name := range []string{"jawOpen", "eyeBlinkLeft", "viseme_PP", "tongueOut", "mouthSmile"} {
					if _, ok := custom[name]; !ok {
						t.Errorf("no custom expression %s", name)
					}
				}
				if sb, ok := ext["VRMC_springBone"]; ok != tc.springs {
					t.Errorf("VRMC_springBone present %v, want %v", ok, tc.springs)
				} else if ok {
					for _, e := range springs.check("VRMC_springBone.schema.json", sb) {
						t.Error(e)
					}
				}
				if eye[2]-head[2] < 0.05 {
					t.Errorf("eyes at z %.3f, head at %.3f: a VRM 1.0 faces +Z", eye[2], head[2])
				}
				if eye[0] < 0 {
					t.Errorf("left eye at x %.3f: the avatar's left is +X facing +Z", eye[0])
				}
			} else {
				vrm0, ok := ext["VRM"]
				if !ok {
					t.Fatalf("neither VRMC_vrm nor VRM in %v", doc["extensionsUsed"])
				}
				for _, e := range v0.check("vrm.schema.json", vrm0) {
					t.Error(e)
				}
				groups := vrm0.(map[string]any)["blendShapeMaster"].(map[string]any)["blendShapeGroups"].([]any)
				presets := map[string]bool{}
				for _, g := range groups {
					presets[g.(map[string]any)["presetName"].(string)] = true
				}
				for _, p := range []string{"a", "i", "u", "e", "o", "blink", "joy", "angry", "sorrow", "fun", "blink_l", "blink_r", "lookup", "neutral"} {
					if !presets[p] {
						t.Errorf("no blend shape group %s", p)
					}
				}
				bones := vrm0.(map[string]any)["secondaryAnimation"].(map[string]any)["boneGroups"].([]any)
				if (len(bones) > 0) != tc.springs {
					t.Errorf("%d spring bone groups, want some: %v", len(bones), tc.springs)
				}
				if head[2]-eye[2] < 0.05 {
					t.Errorf("eyes at z %.3f, head at %.3f: a VRM 0.x faces -Z", eye[2], head[2])
				}
				if eye[0] > 0 {
					t.Errorf("left eye at x %.3f: the avatar's left is -X facing -Z", eye[0])
				}
			}
			for i, mat := range doc["materials"].([]any) {
				exts, _ := mat.(map[string]any)["extensions"].(map[string]any)
				toon, ok := exts["VRMC_materials_mtoon"]
				if ok {
					for _, e := range mtoon.check("VRMC_materials_mtoon.schema.json", toon) {
						t.Errorf("material %d: %s", i, e)
					}
				}
			}
			// T-pose: the hands and the middle fingers' tips level with the
			// shoulders' joint and out along X.
			for _, side := range []string{"Left", "Right"} {
				arm, hand, tip := worldOf(t, s, side+"Arm"), worldOf(t, s, side+"Hand"), worldOf(t, s, side+"HandMiddle4")
				if math.Abs(hand[1]-arm[1]) > 0.01 || math.Abs(tip[1]-arm[1]) > 0.01 || math.Abs(tip[2]-arm[2]) > 0.01 {
					t.Errorf("%s arm not level: shoulder %.3f, hand %.3f, fingertip %.3f", side, arm, hand, tip)
				}
				if math.Abs(tip[0]) < math.Abs(hand[0])+0.1 {
					t.Errorf("%s fingertip at x %.3f, hand at %.3f: not stretched out", side, tip[0], hand[0])
				}
			}
		})
	}
}
