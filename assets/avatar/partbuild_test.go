package avatar

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// meshBox is the bounds of a named mesh's rest positions, and whether
// the scene has it.
func meshBox(sc *scene.Scene, name string) (lo, hi [3]float32, ok bool) {
	lo = [3]float32{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
	hi = [3]float32{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32}
	for _, m := range sc.Meshes {
		if m.Name != name {
			continue
		}
		for _, p := range m.Primitives {
			for _, v := range p.Positions {
				for k := range 3 {
					lo[k], hi[k] = min(lo[k], v[k]), max(hi[k], v[k])
				}
			}
		}
		ok = true
	}
	return lo, hi, ok
}

// TestBuildPartMatchesGenerate: a part is the whole build's mesh of that
// style, in the same place on the same skeleton: its bounds within 5 mm of the whole avatar's mesh
// (the whole build simplifies it under the avatar's triangle budget,
// which moves its outline a little), the same joints, and a file the
// validator passes.
func TestBuildPartMatchesGenerate(t *testing.T) {
	// One avatar wearing a style of every category: one whole build to
	// compare every part with.
	cfg := Default(Feminine)
	cfg.Body.Height = 1.82
	for cat, style := range map[string]string{"hair": "bun", "facialHair": "full-beard", "top": "hoodie", "bottom": "shorts",
		"footwear": "boots", "glasses": "round", "headwear": "cap"} {
		cfg = cfg.WithStyle(cat, style)
	}
	whole, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	bald := cfg.WithStyle("hair", "bald").WithStyle("headwear", "none")
	cases := []struct {
		category string
		cfg      Config
		want     []string
	}{
		{"hair", cfg, []string{"Wolf3D_Hair"}},
		{"hair", bald, nil},
		{"facialHair", cfg, []string{"Wolf3D_Beard"}},
		{"top", cfg, []string{"Wolf3D_Outfit_Top", "Wolf3D_Body"}},
		{"bottom", cfg, []string{"Wolf3D_Outfit_Bottom", "Wolf3D_Body"}},
		{"footwear", cfg, []string{"Wolf3D_Outfit_Footwear", "Wolf3D_Body"}},
		{"glasses", cfg, []string{"Wolf3D_Glasses"}},
		{"headwear", cfg, []string{"Wolf3D_Headwear", "Wolf3D_Hair"}},
	}
	for _, tc := range cases {
		t.Run(tc.category+"/"+tc.cfg.Style(tc.category), func(t *testing.T) {
			sc, err := BuildPart(tc.cfg, tc.category, "")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range sc.Meshes {
				got = append(got, m.Name)
			}
			if !slices.Equal(sorted(got), sorted(tc.want)) {
				t.Fatalf("meshes %v, want %v", got, tc.want)
			}
			if r := sc.Scenes[0].Extras.(map[string]any)["replaces"]; !slices.Equal(r.([]string), PartMeshes[tc.category]) {
				t.Errorf("replaces %v, want %v", r, PartMeshes[tc.category])
			}
			if len(sc.Skins) != 1 || len(sc.Skins[0].Joints) != len(whole.Skins[0].Joints) {
				t.Fatalf("skin joints %d, want %d", len(sc.Skins[0].Joints), len(whole.Skins[0].Joints))
			}
			if len(tc.want) == 0 {
				return
			}
			for i, m := range sc.Skins[0].InverseBindMatrices {
				for k := range 16 {
					if d := math.Abs(float64(m[k] - whole.Skins[0].InverseBindMatrices[i][k])); d > 1e-5 {
						t.Fatalf("joint %d's inverse bind matrix differs by %g from the whole build's", i, d)
					}
				}
			}
			// The category's own mesh (the body a garment part carries is
			// cut less than the whole build's).
			for _, name := range tc.want[:1] {
				lo, hi, _ := meshBox(sc, name)
				wlo, whi, ok := meshBox(whole, name)
				if !ok {
					t.Fatalf("the whole build has no %s", name)
				}
				for k := range 3 {
					if d := math.Max(math.Abs(float64(lo[k]-wlo[k])), math.Abs(float64(hi[k]-whi[k]))); d > 0.005 {
						t.Errorf("%s: bounds %v..%v, the whole build's %v..%v (axis %d off by %.1f mm)", name, lo, hi, wlo, whi, k, d*1000)
					}
				}
			}
			glb, err := scene.Write(sc)
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, glb)
		})
	}
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

func TestBuildPartRejectsUnknownCategory(t *testing.T) {
	if _, err := BuildPart(Default(Masculine), "cape", ""); err == nil {
		t.Fatal("no error for an unknown category")
	}
}

// TestBuildPartStandsOn: new shoes swapped into an avatar that stands on
// other ones are placed at that avatar's height (the soles differ), and
// an unknown style to stand on is an error.
func TestBuildPartStandsOn(t *testing.T) {
	cfg := Default(Masculine).WithStyle("footwear", "boots")
	on, err := BuildPart(cfg, "footwear", "sneakers")
	if err != nil {
		t.Fatal(err)
	}
	own, err := BuildPart(cfg, "footwear", "")
	if err != nil {
		t.Fatal(err)
	}
	shown, err := BuildPart(cfg.WithStyle("footwear", "sneakers"), "footwear", "")
	if err != nil {
		t.Fatal(err)
	}
	// The body's top (the neck's cut, under the head) is where the shown
	// avatar's is, and where the boots' own stance puts it only if the
	// soles were alike.
	_, hiOn, _ := meshBox(on, "Wolf3D_Body")
	_, hiShown, _ := meshBox(shown, "Wolf3D_Body")
	_, hiOwn, _ := meshBox(own, "Wolf3D_Body")
	if d := math.Abs(float64(hiOn[1] - hiShown[1])); d > 1e-4 {
		t.Errorf("standing on sneakers, the body's top is %.1f mm from the shown avatar's", d*1000)
	}
	t.Logf("boots lift the body %.1f mm more than sneakers", (hiOwn[1]-hiShown[1])*1000)
	if _, err := BuildPart(cfg, "footwear", "stilts"); err == nil {
		t.Error("no error for an unknown footwear style to stand on")
	}
}

// TestStyleColorIsBuilt: the colour StyleColor names for a hat (what the
// creator's catalogue serves and its page shows as picked) is the colour
// the hat is built in when the configuration gives none: the same part,
// byte for byte, as with that colour set; and another colour differs.
func TestStyleColorIsBuilt(t *testing.T) {
	for _, style := range HeadwearStyles() {
		if style == "none" {
			if c := StyleColor("headwear", style); c != "" {
				t.Errorf("no hat has colour %q", c)
			}
			continue
		}
		t.Run(style, func(t *testing.T) {
			col := StyleColor("headwear", style)
			if col == "" {
				t.Fatal("no colour")
			}
			glb := func(color string) []byte {
				cfg := Default(Masculine)
				cfg.Headwear = Headwear{Style: style, Color: color}
				sc, err := BuildPart(cfg, "headwear", "")
				if err != nil {
					t.Fatal(err)
				}
				b, err := scene.Write(sc)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			unset, named := glb(""), glb(col)
			if !slices.Equal(unset, named) {
				t.Errorf("a %s without a colour is not built in %s", style, col)
			}
			other := "red"
			if col == other {
				other = "white"
			}
			if slices.Equal(unset, glb(other)) {
				t.Errorf("a %s in %s is built as in %s: the test cannot tell colours apart", style, other, col)
			}
		})
	}
}

// TestBuildPartContextStops: a part nobody waits for any more (the
// creator dropped the part it asked ahead) stops with the context's
// error instead of building to its end beside the part picked.
func TestBuildPartContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg := Default(Masculine).WithStyle("headwear", "beanie").WithStyle("top", "hoodie")
	for _, cat := range []string{"hair", "headwear", "top", "bottom", "footwear"} {
		t.Run(cat, func(t *testing.T) {
			sc, err := BuildPartContext(ctx, cfg, cat, "")
			if !errors.Is(err, context.Canceled) || sc != nil {
				t.Fatalf("BuildPartContext with an ended context: %v, %v; want context.Canceled and no scene", sc != nil, err)
			}
		})
	}
}

// TestHoldPaints: while a part holds the paints, a whole build's texture
// does not start; it starts once the hold ends, and a part's own texture
// never waits for the hold.
func TestHoldPaints(t *testing.T) {
	done := HoldPaints()
	started := make(chan func(), 1)
	go func() { started <- paintSlots.take(false) }()
	select {
	case release := <-started:
		release()
		t.Fatal("a whole build's texture started while a part held the paints")
	case <-time.After(200 * time.Millisecond):
	}
	paintSlots.take(true)() // a part's texture: at once
	done()
	done() // twice is once
	select {
	case release := <-started:
		release()
	case <-time.After(10 * time.Second):
		t.Fatal("a whole build's texture did not start once the hold ended")
	}
}
