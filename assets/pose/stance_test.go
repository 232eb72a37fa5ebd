package pose

import (
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
)

// joints reads the posed skeleton in the body's frame: each joint's
// position as (left, up, forward) from the hips' centre, in hip widths,
// so that the checks read the same on a model in metres or centimetres.
func joints(t *testing.T, s *scene.Scene) func(name string) vec3 {
	t.Helper()
	b, err := newBody(s)
	if err != nil {
		t.Fatal(err)
	}
	centre := b.at("LeftUpLeg").add(b.at("RightUpLeg")).scale(0.5)
	return func(name string) vec3 {
		if find(s, name) < 0 {
			t.Fatalf("no joint %s", name)
		}
		d := b.at(name).sub(centre).scale(1 / b.hipWidth)
		return vec3{d.dot(b.left), d.dot(b.up), d.dot(b.fwd)}
	}
}

// TestStrike poses Kiln's avatars and the leader's files and checks
// each pose where a viewer would look: the arms down at the sides for
// standing, bent elbows for relaxed, hands on the hips and feet apart
// for the power stance, a raised fist with the thumb up for thumbs-up.
// The vertices and bind matrices are left as they are: the renderer
// skins them to the joints.
func TestStrike(t *testing.T) {
	for name, load := range avatars(t) {
		t.Run(name, func(t *testing.T) {
			rest := load()
			at := joints(t, rest)
			restFeet := at("LeftFoot")[0] - at("RightFoot")[0]
			restFist := at("RightHandIndex4").sub(at("RightHand")).length()
			for _, pose := range kiln.RenderPoses {
				s := load()
				ibm := slices.Clone(s.Skins[0].InverseBindMatrices)
				pos := slices.Clone(s.Meshes[0].Primitives[0].Positions)
				if err := Strike(s, pose); err != nil {
					t.Fatalf("%s: %v", pose, err)
				}
				if !slices.Equal(ibm, s.Skins[0].InverseBindMatrices) || !slices.Equal(pos, s.Meshes[0].Primitives[0].Positions) {
					t.Errorf("%s: the bind pose or the vertices changed", pose)
				}
				at := joints(t, s)
				feet := at("LeftFoot")[0] - at("RightFoot")[0]
				bend := func(side string) float64 {
					u, _ := at(side + "ForeArm").sub(at(side + "Arm")).unit()
					f, _ := at(side + "Hand").sub(at(side + "ForeArm")).unit()
					return math.Acos(u.dot(f)) * 180 / math.Pi
				}
				t.Logf("%s: hands %.2f / %.2f, elbows bent %.0f° / %.0f°, feet %.2f apart (%.2f at rest)", pose,
					at("LeftHand"), at("RightHand"), bend("Left"), bend("Right"), feet, restFeet)
				switch pose {
				case "standing", "relaxed":
					for _, side := range []string{"Left", "Right"} {
						h := at(side + "Hand")
						// By the thigh: below the waist, within a hip
						// width and a half of the middle.
						if h[1] > 0.5 || math.Abs(h[0]) > 1.6 {
							t.Errorf("%s: %s hand at %.2f, want down at the side", pose, side, h)
						}
						if pose == "relaxed" && bend(side) < 20 {
							t.Errorf("relaxed: %s elbow bent %.0f°, want bent", side, bend(side))
						}
					}
				case "power-stance":
					for _, side := range []string{"Left", "Right"} {
						h, e := at(side+"Hand"), at(side+"ForeArm")
						// At the hip: about a hip width up and out.
						if h[1] < 0 || h[1] > 1.2 || math.Abs(h[0]) < 0.6 || math.Abs(h[0]) > 1.4 {
							t.Errorf("power-stance: %s hand at %.2f, want on the hip", side, h)
						}
						if math.Abs(e[0]) < math.Abs(h[0])+0.3 || e[2] > h[2] {
							t.Errorf("power-stance: %s elbow at %.2f, hand at %.2f; want the elbow out and back", side, e, h)
						}
					}
					if feet < restFeet*1.2 {
						t.Errorf("power-stance: feet %.2f apart, %.2f at rest; want wider", feet, restFeet)
					}
				case "thumbs-up":
					h, e := at("RightHand"), at("RightForeArm")
					thumb := at("RightHandThumb4").sub(at("RightHandThumb2"))
					fist := at("RightHandIndex4").sub(at("RightHand")).length()
					if h[1] < e[1] || h[2] < 0.5 {
						t.Errorf("thumbs-up: right hand at %.2f, elbow at %.2f; want the hand up in front", h, e)
					}
					if thumb[1] < 0.8*thumb.length() {
						t.Errorf("thumbs-up: thumb along %.2f, want it pointing up", thumb)
					}
					if fist > 0.7*restFist {
						t.Errorf("thumbs-up: index tip %.2f from the wrist, %.2f at rest; want a fist", fist, restFist)
					}
					if l := at("LeftHand"); l[1] > 0.5 {
						t.Errorf("thumbs-up: left hand at %.2f, want down", l)
					}
				}
			}
		})
	}
}

// TestStrikeUnsupported refuses a model without the skeleton and a
// pose no one named.
func TestStrikeUnsupported(t *testing.T) {
	if err := Strike(&scene.Scene{}, "standing"); kiln.KindOf(err) != kiln.KindUnprocessable {
		t.Errorf("no skeleton: %v, want unprocessable", err)
	}
	s := avatars(t)["kiln-"+"masculine"]()
	if err := Strike(s, "sitting"); kiln.KindOf(err) != kiln.KindInvalid {
		t.Errorf("sitting: %v, want invalid", err)
	}
}
