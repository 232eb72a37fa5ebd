package human_test

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// Shorts end a little above the knee (chinos or board shorts), not at
// the top of the thigh, where they read as briefs in a full-body view
// (issue 22): on every body the lowest point of each leg's hem is 4 to
// 12 cm above the middle of that knee (the Leg joint). They are cut
// level on MakeHuman's base mesh, 7 cm over its knees; its body shapes
// move the thigh's skin against the knee joint, so fitted the hem ends
// 4.4 cm over the knee of the average woman and 10.7 cm over the
// average man's. MakeHuman's female_casualsuit02 hot pants, the shorts
// until session 18, ended 21-33 cm above it.
func TestShortsLength(t *testing.T) {
	const lo, hi = 0.04, 0.12
	bodies := []struct {
		name string
		p    human.Params
	}{
		{"female", human.Average(0)},
		{"male", human.Average(1)},
		// The random outfits' dials: builds 0.1 to 0.7, proportions 0.5
		// to 0.9, 1.55 to 1.95 m.
		{"slim short female", human.Params{Gender: 0, Muscle: 0.3, Weight: 0.1, Proportions: 0.5, Stature: 1.55}},
		{"full tall female", human.Params{Gender: 0, Muscle: 0.6, Weight: 0.7, Proportions: 0.9, Stature: 1.8}},
		{"slim tall male", human.Params{Gender: 1, Muscle: 0.3, Weight: 0.1, Proportions: 0.9, Stature: 1.95}},
		{"heavy short male", human.Params{Gender: 1, Age: 0.6, Muscle: 0.7, Weight: 0.7, Proportions: 0.5, Stature: 1.65}},
		{"heavy", human.Params{Gender: 1, Age: 1, Muscle: 0.5, Weight: 1, Height: 0.5, Proportions: 0.5}},
	}
	for _, b := range bodies {
		body := human.Shape(b.p)
		f, err := body.Fit("bottom/shorts")
		if err != nil {
			t.Fatal(err)
		}
		j := body.Joints()
		for _, side := range []struct {
			name string
			sign float32
		}{{"LeftLeg", 1}, {"RightLeg", -1}} {
			knee := j[side.name]
			hem := math.Inf(1)
			for _, p := range f.Pos {
				if p[0]*side.sign > 0 {
					hem = math.Min(hem, float64(p[1]))
				}
			}
			over := hem - float64(knee[1])
			t.Logf("%-18s %-8s hem %.1f cm over the knee", b.name, side.name, 100*over)
			if over < lo || over > hi {
				t.Errorf("%s, %s: the shorts' hem is %.1f cm over the knee, want %.0f to %.0f cm", b.name, side.name, 100*over, 100*lo, 100*hi)
			}
		}
	}
}
