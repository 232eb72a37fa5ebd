package avatar

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// cases are the configurations the generator tests run over: both
// defaults, every hair style, every garment, glasses, the extremes of
// height and build, and random ones.
func cases() map[string]Config {
	c := map[string]Config{
		"default-male":   Default(Masculine),
		"default-female": Default(Feminine),
		"zero":           {},
	}
	for i, st := range hairStyles {
		g := Masculine
		if i%2 == 1 {
			g = Feminine
		}
		cfg := Default(g)
		cfg.Hair.Style = st
		cfg.Outfit.Top.Style = topStyles[i%len(topStyles)]
		cfg.Outfit.Bottom.Style = bottomStyles[i%len(bottomStyles)]
		cfg.Outfit.Footwear.Style = footwearStyles[i%len(footwearStyles)]
		cfg.Glasses.Style = glassesStyles[i%len(glassesStyles)]
		c["hair-"+st] = cfg
	}
	tall := Default(Masculine)
	tall.Body = Body{Type: Masculine, Height: MaxHeight, Build: 1}
	tall.Glasses = Glasses{Style: "square", Color: "gold"}
	tall.Headwear = Headwear{Style: "cap", Color: "red"}
	c["tall-heavy"] = tall
	short := Default(Feminine)
	short.Body = Body{Type: Feminine, Height: MinHeight, Build: 0}
	short.Skin.Tone = "#3a2a20"
	short.Headwear = Headwear{Style: "beanie"}
	c["short-slim"] = short
	// The most triangles any combination gives.
	worst := Default(Feminine)
	worst.Body.Build = 1
	worst.Hair.Style, worst.Glasses.Style = "long", "round"
	worst.Outfit.Top.Style, worst.Outfit.Bottom.Style, worst.Outfit.Footwear.Style = "hoodie", "shorts", "boots"
	worst.Headwear = Headwear{Style: "fedora", Color: "#556070"}
	c["worst"] = worst
	for i, st := range facialHairStyles[1:] {
		cfg := Default(Masculine)
		cfg.FacialHair.Style = st
		cfg.Face.Seed = uint64(i + 1)
		if i%2 == 1 {
			cfg.FacialHair.Color = "#b08050"
		}
		c["facial-hair-"+st] = cfg
	}
	for _, seed := range []int64{1, 2, 3, 42} {
		c["random-"+string(rune('0'+seed%10))+string(rune('a'+seed/10))] = Random(seed)
	}
	return c
}

// meshNames are the leader's mesh names every avatar has.
var meshNames = []string{"Wolf3D_Body", "Wolf3D_Head", "EyeLeft", "EyeRight", "Wolf3D_Teeth", "Wolf3D_Eyebrows", "Wolf3D_Eyelashes",
	"Wolf3D_Outfit_Top", "Wolf3D_Outfit_Bottom", "Wolf3D_Outfit_Footwear"}

func TestGenerate(t *testing.T) {
	out := os.Getenv("KILN_AVATAR_OUT") // a directory to keep the GLBs in, for looking at them
	for name, cfg := range cases() {
		t.Run(name, func(t *testing.T) {
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			glb, err := scene.Write(s)
			if err != nil {
				t.Fatal(err)
			}
			if out != "" {
				if err := os.WriteFile(filepath.Join(out, name+".glb"), glb, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rc := cfg.resolve()
			if gltfcheck.Available() {
				gltfcheck.RequireValid(t, glb)
			}
			// The GLB reads back; everything below is checked on what a
			// client would load.
			s, err = scene.Read(glb, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkAvatar(t, s, rc)

			// Deterministic: the same configuration gives the same bytes.
			s2, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			glb2, _ := scene.Write(s2)
			if !bytes.Equal(glb, glb2) {
				t.Error("two builds of the same configuration differ")
			}
		})
	}
}

func checkAvatar(t *testing.T, s *scene.Scene, cfg Config) {
	t.Helper()
	if len(s.Skins) != 1 || len(s.Skins[0].Joints) != 67 {
		t.Fatalf("skins: %d", len(s.Skins))
	}
	sk := s.Skins[0]
	// Names and hierarchy: the skeleton contract.
	parentOf := map[int]int{}
	for i, n := range s.Nodes {
		for _, c := range n.Children {
			parentOf[c] = i
		}
	}
	rig := Skeleton(cfg.Body.Type, cfg)
	for i, j := range sk.Joints {
		if s.Nodes[j].Name != rig.Names[i] {
			t.Fatalf("joint %d is %q, want %q", i, s.Nodes[j].Name, rig.Names[i])
		}
		p := s.Nodes[parentOf[j]].Name
		want := "Armature"
		if rig.Parent[i] >= 0 {
			want = rig.Names[rig.Parent[i]]
		}
		if p != want {
			t.Errorf("%s under %s, want %s", rig.Names[i], p, want)
		}
	}
	// IBM × world rest matrix ≈ identity for every joint, with the world
	// matrices composed from the nodes as a client would.
	world := make(map[int]xform.Mat4)
	var compose func(n int) xform.Mat4
	compose = func(n int) xform.Mat4 {
		if m, ok := world[n]; ok {
			return m
		}
		nd := s.Nodes[n]
		l := trs(Transform{
			Translation: [3]float32{float32(nd.Translation[0]), float32(nd.Translation[1]), float32(nd.Translation[2])},
			Rotation:    [4]float32{float32(nd.Rotation[0]), float32(nd.Rotation[1]), float32(nd.Rotation[2]), float32(nd.Rotation[3])},
			Scale:       [3]float32{float32(nd.Scale[0]), float32(nd.Scale[1]), float32(nd.Scale[2])},
		})
		if p, ok := parentOf[n]; ok {
			l = compose(p).Mul(l)
		}
		world[n] = l
		return l
	}
	for i, j := range sk.Joints {
		var ibm xform.Mat4
		for k := range 16 {
			ibm[k] = float64(sk.InverseBindMatrices[i][k])
		}
		m := compose(j).Mul(ibm)
		for k := range 16 {
			want := 0.0
			if k%5 == 0 {
				want = 1
			}
			if math.Abs(m[k]-want) > 1e-4 {
				t.Fatalf("%s: world × IBM = %v", s.Nodes[j].Name, m)
			}
		}
	}
	// Meshes, weights, triangles, height.
	want := append([]string{}, meshNames...)
	if cfg.Hair.Style != "bald" {
		want = append(want, "Wolf3D_Hair")
	}
	if cfg.Glasses.Style != "none" {
		want = append(want, "Wolf3D_Glasses")
	}
	if c := beardCuts[cfg.FacialHair.style()]; c.shells > 0 {
		want = append(want, "Wolf3D_Beard")
	}
	if cfg.Headwear.on() {
		want = append(want, "Wolf3D_Headwear")
	}
	got := map[string]*scene.Mesh{}
	for _, m := range s.Meshes {
		got[m.Name] = m
	}
	if len(got) != len(want) {
		t.Errorf("%d meshes, want %d (%v)", len(got), len(want), want)
	}
	tris := 0
	top := 0.0
	for _, name := range want {
		m := got[name]
		if m == nil {
			t.Errorf("no mesh %s", name)
			continue
		}
		for _, p := range m.Primitives {
			tris += len(p.Indices) / 3
			t.Logf("%s: %d triangles", name, len(p.Indices)/3)
			if len(p.Joints) != 1 || len(p.Weights) != 1 {
				t.Fatalf("%s: %d joint sets", name, len(p.Joints))
			}
			for i, w := range p.Weights[0] {
				sum := 0.0
				for k, x := range w {
					if x < 0 || (x > 0 && int(p.Joints[0][i][k]) >= 67) {
						t.Fatalf("%s vertex %d: weights %v joints %v", name, i, w, p.Joints[0][i])
					}
					sum += float64(x)
				}
				if math.Abs(sum-1) > 1e-5 {
					t.Fatalf("%s vertex %d: weights sum to %v", name, i, sum)
				}
			}
			if name == "Wolf3D_Hair" || name == "Wolf3D_Headwear" {
				continue // height is measured without hair or hat
			}
			for _, v := range p.Positions {
				top = math.Max(top, float64(v[1]))
				if v[1] < -0.001 {
					t.Errorf("%s: a vertex below the floor at %v", name, v)
					break
				}
			}
		}
	}
	// Every finger segment moves vertices of the body (the hands).
	used := map[string]bool{}
	for _, p := range got["Wolf3D_Body"].Primitives {
		for i, js := range p.Joints[0] {
			for k, j := range js {
				if p.Weights[0][i][k] > 0.5 {
					used[rig.Names[j]] = true
				}
			}
		}
	}
	for _, side := range []string{"Left", "Right"} {
		for _, f := range fingers {
			for k := 1; k <= 3; k++ {
				if n := side + "Hand" + f + string(rune('0'+k)); !used[n] {
					t.Errorf("no body vertex follows %s", n)
				}
			}
		}
	}
	if tris < 8000 || tris > 32000 {
		t.Errorf("%d triangles, want 8,000 to 32,000", tris)
	}
	if d := math.Abs(top-cfg.Body.Height) / cfg.Body.Height; d > 0.02 {
		t.Errorf("height %.3f m, configured %.3f m", top, cfg.Body.Height)
	}
	// The face carries every shape (a download keeps those asked for):
	// the head has them all, the eyes turn and the teeth follow the jaw.
	all := face.All()
	for mesh, must := range map[string][]string{
		"Wolf3D_Head":  all,
		"EyeLeft":      {"eyeLookUpLeft", "eyeLookOutLeft"},
		"Wolf3D_Teeth": {"jawOpen", "mouthOpen", "viseme_aa"},
	} {
		tn := got[mesh].TargetNames()
		for _, n := range must {
			if !slices.Contains(tn, n) {
				t.Errorf("%s lacks the morph target %s (has %d)", mesh, n, len(tn))
			}
		}
		for _, n := range tn {
			if !slices.Contains(all, n) {
				t.Errorf("%s: unknown morph target %s", mesh, n)
			}
		}
	}
	t.Logf("%d triangles", tris)
}

// BenchmarkGenerate measures a build and its GLB, what the avatar job
// does before storing.
func BenchmarkGenerate(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		s, err := Generate(Random(int64(i)))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := scene.Write(s); err != nil {
			b.Fatal(err)
		}
	}
}
