package avatar

import (
	"math"
	"testing"
)

// visorOverBrows is how far the cap's visor stays over the brows in a
// portrait, metres at the eyes' depth: seen from eye height 60 cm in
// front of the eyes, the lowest point of the hat in front of the
// forehead across the brows' width, less the brows' highest point
// (negative: the visor hides the brows' top).
func visorOverBrows(t *testing.T, cfg Config) float64 {
	t.Helper()
	m := generatedMeshes(t, cfg)
	hat, head, brows := m["Wolf3D_Headwear"].pos, m["Wolf3D_Head"].pos, m["Wolf3D_Eyebrows"].pos
	if len(hat) == 0 || len(brows) == 0 {
		t.Fatal("no hat or no brows")
	}
	eye := centroid(append(append([]vec3{}, m["EyeLeft"].pos...), m["EyeRight"].pos...))
	cam := eye.add(vec3{0, 0, 0.6})
	// Heights as the camera sees them, scaled to the eyes' depth.
	seen := func(p vec3) float64 { return eye[1] + (p[1]-eye[1])*(cam[2]-eye[2])/(cam[2]-p[2]) }
	forehead, wide := math.Inf(-1), 0.0
	for _, p := range head {
		if p[1] > eye[1] {
			forehead = math.Max(forehead, p[2])
		}
	}
	browTop := math.Inf(-1)
	for _, p := range brows {
		browTop = math.Max(browTop, seen(p))
		wide = math.Max(wide, math.Abs(p[0]))
	}
	low := math.Inf(1)
	for _, p := range hat {
		if p[2] > forehead && math.Abs(p[0]) < 0.6*wide {
			low = math.Min(low, seen(p))
		}
	}
	return low - browTop
}

// TestCapOverBrows: a cap's visor sits over the brows, as the leader's
// do, not on them. Issue 22's panel saw the cap "cut into the brows and
// hair" (random-01): the visor's edge, seen from a portrait's camera,
// came down onto the brows' top.
func TestCapOverBrows(t *testing.T) {
	male := Default(Masculine)
	male.Headwear = Headwear{Style: "cap"}
	female := Default(Feminine)
	female.Headwear = Headwear{Style: "cap"}
	wide := Default(Masculine)
	wide.Body.Build = 1
	wide.Face.Seed = 7
	wide.Headwear = Headwear{Style: "cap"}
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"masculine", male},
		{"feminine", female},
		{"wide-build", wide},
		{"random-1", Random(1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gap := visorOverBrows(t, tc.cfg)
			t.Logf("%s: the visor %.1f mm over the brows", tc.name, 1000*gap)
			if gap < 0.003 {
				t.Errorf("the visor comes %.1f mm over the brows' top, want 3 mm and more", 1000*gap)
			}
		})
	}
}
