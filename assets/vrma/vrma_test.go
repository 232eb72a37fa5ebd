package vrma

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/animation"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// play is the world matrix of every node of s at time t of its first
// animation.
func play(s *scene.Scene, t float64) []xform.Mat4 {
	local := make([]xform.Mat4, len(s.Nodes))
	for i, n := range s.Nodes {
		local[i] = xform.Local(n)
	}
	a := s.Animations[0]
	for _, ch := range a.Channels {
		n := s.Nodes[*ch.Node]
		tr, q, sc := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
		switch ch.Path {
		case gltf.TRSTranslation:
			v := sample(a.Samplers[ch.Sampler], t, 3)
			tr = [3]float64{v[0], v[1], v[2]}
		case gltf.TRSRotation:
			v := sample(a.Samplers[ch.Sampler], t, 4)
			q = normalize([4]float64{v[0], v[1], v[2], v[3]})
		}
		local[*ch.Node] = xform.TRS(tr, q, sc)
	}
	return xform.Worlds(s, s.Parents(), local)
}

func TestFile(t *testing.T) {
	for _, tc := range []struct{ gender, clip string }{
		{avatar.Feminine, "gesture_wave"},
		{avatar.Masculine, "locomotion_walk"},
	} {
		t.Run(tc.gender+"/"+tc.clip, func(t *testing.T) {
			data, err := File(tc.gender, tc.clip)
			if err != nil {
				t.Fatal(err)
			}
			rep := gltfcheck.RequireValid(t, data)
			t.Logf("%d bytes, validator: %d errors, %d warnings", len(data), rep.NumErrors, rep.NumWarnings)
			s, err := scene.Read(data, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			raw, ok := s.Extensions[Extension].(json.RawMessage)
			if !ok {
				t.Fatalf("no %s: %T", Extension, s.Extensions[Extension])
			}
			var ext map[string]any
			if err := json.Unmarshal(raw, &ext); err != nil {
				t.Fatal(err)
			}
			if ext["specVersion"] != "1.0" {
				t.Errorf("specVersion %v", ext["specVersion"])
			}
			hb, _ := ext["humanoid"].(map[string]any)["humanBones"].(map[string]any)
			node := map[string]int{}
			for name, v := range hb {
				n, ok := v.(map[string]any)["node"].(float64)
				if !ok || n < 0 || int(n) >= len(s.Nodes) {
					t.Fatalf("humanBones.%s.node %v", name, v)
				}
				node[name] = int(n)
			}
			for _, r := range required {
				if _, ok := node[r]; !ok {
					t.Errorf("required bone %s missing", r)
				}
			}
			if _, ok := node["leftEye"]; ok {
				t.Error("leftEye is mapped; VRM Animation forbids it")
			}
			if len(node) != 52 {
				t.Errorf("%d humanoid bones, want 52 (the Kiln rig without eyes and end joints)", len(node))
			}
			// Rest: VRM's normalised T-pose, facing +Z.
			for _, n := range s.Nodes {
				if n.RotationOrDefault() != gltf.DefaultRotation || n.ScaleOrDefault() != gltf.DefaultScale {
					t.Errorf("%s rests with rotation %v scale %v", n.Name, n.Rotation, n.Scale)
				}
			}
			rest := xform.Worlds(s, s.Parents(), nil)
			at := func(name string) [3]float64 { return rest[node[name]].Translation() }
			arm := sub(at("leftLowerArm"), at("leftUpperArm"))
			if arm[0] <= 0 || math.Abs(arm[1]) > 0.02*math.Abs(arm[0]) {
				t.Errorf("left upper arm at rest %v: want level, toward +X", arm)
			}
			if foot := sub(at("leftToes"), at("leftFoot")); foot[2] <= 0 {
				t.Errorf("left foot at rest points %v: want +Z", foot)
			}
			a := s.Animations[0]
			for _, ch := range a.Channels {
				if ch.Path == gltf.TRSScale || ch.Path == gltf.TRSTranslation && *ch.Node != node["hips"] {
					t.Errorf("channel %s on %s", ch.Path, s.Nodes[*ch.Node].Name)
				}
			}
			// Played, every bone lands where the library clip puts the
			// same joint on the Kiln rig.
			glb, err := animation.GLB(tc.gender, tc.clip)
			if err != nil {
				t.Fatal(err)
			}
			src, err := scene.Read(glb, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			srcNode := map[string]int{}
			for i, n := range src.Nodes {
				srcNode[n.Name] = i
			}
			times := keyTimes(a)
			worst, moved := 0.0, 0.0
			for _, tm := range []float64{times[0], times[len(times)/3], times[len(times)/2], times[len(times)-1]} {
				got, want := play(s, tm), play(src, tm)
				for _, h := range Humanoid {
					g := got[node[h[1]]].Translation()
					w := want[srcNode[h[0]]].Translation()
					worst = math.Max(worst, dist(g, w))
					moved = math.Max(moved, dist(g, rest[node[h[1]]].Translation()))
				}
			}
			t.Logf("%d keys; bones within %.2g m of the library clip's joints; up to %.2f m from the T-pose", len(times), worst, moved)
			if worst > 1e-4 {
				t.Errorf("played VRMA bones are up to %g m from the clip's joints", worst)
			}
			if moved < 0.05 {
				t.Errorf("the clip moves no bone more than %g m", moved)
			}
		})
	}
}

func dist(a, b [3]float64) float64 {
	d := sub(a, b)
	return math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
}

// TestEveryClip makes the VRM Animation of every built-in clip of both
// genders: each passes the glTF validator and maps every humanoid bone.
func TestEveryClip(t *testing.T) {
	for _, gender := range animation.Genders() {
		for _, name := range animation.Names() {
			data, err := File(gender, name)
			if err != nil {
				t.Errorf("%s/%s: %v", gender, name, err)
				continue
			}
			rep := gltfcheck.RequireValid(t, data)
			s, err := scene.Read(data, scene.ReadOptions{})
			if err != nil || len(s.Animations) != 1 || len(s.Animations[0].Channels) != 53 {
				t.Errorf("%s/%s: %v, want one clip of 53 channels (52 bones and the hips' position)", gender, name, err)
				continue
			}
			t.Logf("%s/%s: %d bytes, %d keys, %d validator errors", gender, name, len(data), len(s.Animations[0].Samplers[0].Input), rep.NumErrors)
		}
	}
}
