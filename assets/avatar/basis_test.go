package avatar

import (
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// The basis moves the model where the real build of the moved sliders
// is: the first-order preview is far nearer to it than the unmoved model,
// and its distance is logged in millimetres (the creator's preview is
// compared with the 1 mm).
func TestBasisFollowsTheBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two avatars")
	}
	cfg := Default(Feminine)
	move := map[string]float64{"body.height": 0.04, "body.build": 0.1, "body.age": 6, "face.nose.scale-horiz": 0.3}
	names := []string{"body.height", "body.build", "body.age", "face.nose.scale-horiz", "body.proportions"}
	basis, err := Basis(cfg, names)
	if err != nil {
		t.Fatal(err)
	}
	values := basis.Scenes[0].Extras.(map[string]any)["sliders"].(map[string]any)
	if got := values["body.height"]; got != 1.65 {
		t.Errorf("sliders[body.height] = %v, want 1.65", got)
	}
	moved := cfg.resolve()
	for n, d := range move {
		moved = withSlider(moved, n, SliderValue(moved, n)+d)
	}
	real, err := Generate(moved)
	if err != nil {
		t.Fatal(err)
	}
	byName := func(sc *scene.Scene, name string) *scene.Mesh {
		for _, m := range sc.Meshes {
			if m.Name == name {
				return m
			}
		}
		return nil
	}
	for _, name := range []string{"Wolf3D_Head", "Wolf3D_Body", "Wolf3D_Hair", "Wolf3D_Outfit_Top", "Wolf3D_Outfit_Footwear"} {
		b, r := byName(basis, name), byName(real, name)
		if b == nil || r == nil {
			t.Fatalf("%s missing", name)
		}
		tn, _ := b.Extras.(map[string]any)["targetNames"].([]any)
		var pos, still [][3]float32
		for _, p := range b.Primitives {
			for i, v := range p.Positions {
				still = append(still, v)
				for ti, n := range tn {
					for k := range 3 {
						v[k] += float32(move[n.(string)]) * p.Targets[ti].Positions[i][k]
					}
				}
				pos = append(pos, v)
			}
		}
		var want [][3]float32
		for _, p := range r.Primitives {
			want = append(want, p.Positions...)
		}
		preview, unmoved := nearestErrors(pos, want), nearestErrors(still, want)
		t.Logf("%s (%d targets, %d/%d vertices): preview off by p95 %.2f mm, max %.2f mm; unmoved p95 %.2f mm",
			name, len(tn), len(pos), len(want), 1000*preview[0], 1000*preview[1], 1000*unmoved[0])
		if preview[0] > unmoved[0]/4 {
			t.Errorf("%s: preview p95 %.2f mm is not well under the unmoved model's %.2f mm", name, 1000*preview[0], 1000*unmoved[0])
		}
	}
}

// nearestErrors is the 95th percentile and the largest distance from each
// vertex of got to the nearest vertex of want. Where both have the same
// vertices in the same order (parts the budget leaves whole) it is their
// per-vertex distance.
func nearestErrors(got, want [][3]float32) [2]float64 {
	d := make([]float64, len(got))
	same := len(got) == len(want)
	for i, g := range got {
		if same {
			d[i] = dist(g, want[i])
			continue
		}
		d[i] = math.Inf(1)
		for _, w := range want {
			d[i] = math.Min(d[i], dist(g, w))
		}
	}
	slices.Sort(d)
	return [2]float64{d[len(d)*95/100], d[len(d)-1]}
}

func dist(a, b [3]float32) float64 {
	x, y, z := float64(a[0]-b[0]), float64(a[1]-b[1]), float64(a[2]-b[2])
	return math.Sqrt(x*x + y*y + z*z)
}

func TestSliderSet(t *testing.T) {
	nose := make([]string, len(faceDials["nose"]))
	for i, d := range faceDials["nose"] {
		nose[i] = "face.nose." + d
	}
	for _, tc := range []struct {
		name      string
		in, want  []string
		wantError bool
	}{
		{"none", nil, []string{}, false},
		{"canonical order, once each", []string{"face.nose.width1", "body.age", "body.height", "body.age"}, []string{"body.height", "body.age", "face.nose.width1"}, false},
		{"a feature's dials", []string{"face.nose.*", "body.height"}, append([]string{"body.height"}, nose...), false},
		{"unknown feature", []string{"face.tail.*"}, nil, true},
		{"body glob", []string{"body.*"}, nil, true},
		{"unknown dial", []string{"face.nose.nope"}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SliderSet(tc.in)
			if (err != nil) != tc.wantError {
				t.Fatalf("SliderSet(%q) error %v, want error %v", tc.in, err, tc.wantError)
			}
			if !tc.wantError && !slices.Equal(got, tc.want) {
				t.Errorf("SliderSet(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSliderNames(t *testing.T) {
	for _, n := range Sliders() {
		lo, hi, ok := SliderRange(n)
		if !ok || lo >= hi {
			t.Errorf("%s: range %g..%g, %v", n, lo, hi, ok)
		}
	}
	for _, bad := range []string{"body.type", "face.nose", "face.nose.nope", "face.x.y"} {
		if _, _, ok := SliderRange(bad); ok {
			t.Errorf("%s taken as a slider", bad)
		}
	}
	if _, err := Basis(Config{}, []string{"face.nose.nope"}); err == nil {
		t.Error("Basis took an unknown slider")
	}
}

// What the creator shows once a person stops (the build of the
// configuration, its sliders' influences at zero) is the avatar the
// server saves for it: every mesh's vertices where Generate puts them,
// within the 1 mm.
func TestBasisAtRestIsTheSavedAvatar(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two avatars")
	}
	cfg := Default(Feminine)
	cfg.Hair.Style = "bun"
	cfg.Glasses.Style = "round"
	basis, err := Basis(cfg, []string{"body.height", "body.build", "face.nose.*"})
	if err != nil {
		t.Fatal(err)
	}
	saved, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(basis.Meshes) != len(saved.Meshes) {
		t.Fatalf("%d meshes shown, %d saved", len(basis.Meshes), len(saved.Meshes))
	}
	for i, m := range saved.Meshes {
		b := basis.Meshes[i]
		var got, want [][3]float32
		for _, p := range b.Primitives {
			got = append(got, p.Positions...)
		}
		for _, p := range m.Primitives {
			want = append(want, p.Positions...)
		}
		if b.Name != m.Name || len(got) != len(want) {
			t.Fatalf("mesh %d: shown %s of %d vertices, saved %s of %d", i, b.Name, len(got), m.Name, len(want))
		}
		worst := 0.0
		for k := range got {
			worst = math.Max(worst, dist(got[k], want[k]))
		}
		t.Logf("%s: %d vertices, farthest %.4f mm from the saved avatar's", m.Name, len(got), 1000*worst)
		if worst > 0.001 {
			t.Errorf("%s: a vertex %.2f mm from the saved avatar's", m.Name, 1000*worst)
		}
	}
}
