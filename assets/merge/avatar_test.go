package merge

import (
	"context"
	"slices"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/atlas"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/assets/scene"
)

// Kiln's avatars merge like the leader's (whose files the shared-model
// test covers): with an atlas, one Wolf3D_Avatar of one primitive that
// carries every face shape, plus Wolf3D_Avatar_Transparent only when the
// atlas found something see-through, and every vertex where it was with
// the shapes at half weight. A glasses wearer (BLEND lenses beside MASK
// brows and lashes) gets a third, Wolf3D_Avatar_Blend, each mesh still
// one primitive, the cut-outs still MASK.
func TestKilnAvatarsMergeIntoOneMesh(t *testing.T) {
	glasses := avatar.Default(avatar.Feminine)
	glasses.Glasses = avatar.Glasses{Style: "round", Color: "black"}
	for _, tc := range []struct {
		name string
		cfg  avatar.Config
	}{
		{"default-male", avatar.Default(avatar.Masculine)},
		{"default-female", avatar.Default(avatar.Feminine)},
		{"random-7", avatar.Random(7)},
		{"glasses", glasses},
	} {
		t.Run(tc.name, func(t *testing.T) {
			build := func() *scene.Scene {
				s, err := avatar.Generate(tc.cfg)
				if err != nil {
					t.Fatal(err)
				}
				ar, err := atlas.Build(context.Background(), s, 1024)
				if err != nil {
					t.Fatal(err)
				}
				if len(ar.KeptOut) > 0 {
					t.Fatalf("the atlas kept out %v", ar.KeptOut)
				}
				return s
			}
			ref, s := build(), build()
			// The union in the order the scene draws the meshes (the
			// leader's node order, assets/leader), as the merge takes them.
			var names []string
			var walk func(i int)
			walk = func(i int) {
				if m := ref.Nodes[i].Mesh; m != nil {
					for _, n := range ref.Meshes[*m].TargetNames() {
						if !slices.Contains(names, n) {
							names = append(names, n)
						}
					}
				}
				for _, c := range ref.Nodes[i].Children {
					walk(c)
				}
			}
			for _, r := range ref.Scenes[0].Nodes {
				walk(r)
			}
			// The atlas made a transparent material only if a part is
			// see-through (assets/atlas tests that).
			seeThrough, mask, blend := false, false, false
			for _, m := range s.Materials {
				seeThrough = seeThrough || m.AlphaMode == gltf.AlphaBlend || m.AlphaMode == gltf.AlphaMask
				mask = mask || m.AlphaMode == gltf.AlphaMask
				blend = blend || m.AlphaMode == gltf.AlphaBlend
			}
			if tc.name == "glasses" && !(mask && blend) {
				t.Fatalf("the glasses wearer's atlas: MASK %t, BLEND %t, want both", mask, blend)
			}
			if _, err := Meshes(s); err != nil {
				t.Fatal(err)
			}
			out, _ := writeValid(t, s)
			want := []string{"Wolf3D_Avatar"}
			if seeThrough {
				want = append(want, "Wolf3D_Avatar_Transparent")
			}
			if mask && blend {
				want = append(want, "Wolf3D_Avatar_Blend")
			}
			var got []string
			for _, m := range out.Meshes {
				got = append(got, m.Name)
				if len(m.Primitives) != 1 {
					t.Errorf("%s has %d primitives", m.Name, len(m.Primitives))
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("meshes %v, want %v", got, want)
			}
			head := out.Meshes[0]
			if !slices.Equal(head.TargetNames(), names) {
				t.Errorf("Wolf3D_Avatar targets %v, want the %d of the parts %v", head.TargetNames(), len(names), names)
			}
			if all := face.All(); !slices.Equal(slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(all))) {
				t.Errorf("the parts carry %d shapes, want the %d of assets/avatar/face", len(names), len(all))
			}
			weights := map[string]float64{}
			for _, n := range names {
				weights[n] = 0.5
			}
			samePositions(t, "shapes at half weight", evaluate(ref, nil, weights), evaluate(out, nil, weights), 1e-5)
			t.Logf("%v, %d triangles, %d targets, %d draw calls", got, out.Stats().Triangles, len(head.TargetNames()), out.Stats().DrawCalls)
		})
	}
}
