package vrm

import (
	"math"

	"github.com/kilnhq/kiln/assets/pose"
	"github.com/kilnhq/kiln/assets/scene"
)

// TPose puts the avatar in VRM's rest pose ("VRM T-pose", tpose.md in the
// VRM 1.0 specification): facing +Z, which Kiln's avatars already do,
// with the upper arms, forearms, hands and four fingers along X, parallel
// to the ground, and each thumb between X and +Z. Kiln builds avatars in
// an A pose with the elbows, wrists and fingers a little bent; VRM apps
// retarget motion from this pose, so a bend left in it would show in
// every clip. The legs stand as built.
func TPose(s *scene.Scene) error {
	return pose.AimAll(s, tposeAims())
}

// tposeAims are the bones to straighten, parents first, on both sides.
func tposeAims() []pose.Aim {
	var out []pose.Aim
	for _, side := range []struct {
		name string
		x    float64
	}{{"Left", 1}, {"Right", -1}} {
		along := [3]float64{side.x, 0, 0}
		n := side.name
		out = append(out,
			pose.Aim{Joint: n + "Arm", Child: n + "ForeArm", Dir: along},
			pose.Aim{Joint: n + "ForeArm", Child: n + "Hand", Dir: along},
			pose.Aim{Joint: n + "Hand", Child: n + "HandMiddle1", Dir: along},
		)
		for _, f := range []string{"Index", "Middle", "Ring", "Pinky"} {
			for k := 1; k <= 3; k++ {
				out = append(out, pose.Aim{Joint: n + "Hand" + f + itoa(k), Child: n + "Hand" + f + itoa(k+1), Dir: along})
			}
		}
		thumb := [3]float64{side.x / math.Sqrt2, 0, 1 / math.Sqrt2}
		for k := 1; k <= 3; k++ {
			out = append(out, pose.Aim{Joint: n + "HandThumb" + itoa(k), Child: n + "HandThumb" + itoa(k+1), Dir: thumb})
		}
	}
	return out
}

func itoa(k int) string { return string(rune('0' + k)) }
