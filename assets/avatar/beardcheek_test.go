package avatar

import (
	"math"
	"testing"
)

// beardCheekTop is how high, metres over the lips' middle, a beard
// covers the cheek at a width (in face units, about 7 cm, from the
// face's middle) from x0 to x1: the highest head vertex there with a
// region weight of 0.5 or more, facing forward.
func beardCheekTop(t *testing.T, cfg Config, x0, x1 float64) float64 {
	t.Helper()
	body, head := restingHead(t, cfg)
	joints := body.Joints()
	bd := newBeard(cfg, head, joints)
	f := frameOf(head, joints)
	top := math.Inf(-1)
	for i, w := range bd.weights {
		p := head.pos[i]
		x := math.Abs(float64(p[0])) / f.unit
		if w < 0.5 || x < x0 || x > x1 || head.nrm[i][2] < 0.3 {
			continue
		}
		top = math.Max(top, float64(p[1])-f.lip[1])
	}
	return top
}

// TestBeardCheekLine: a full or short beard's cheek line runs down
// from the sideburns to the mouth's corners, as the leader's casual
// beard's does, so the cheek shows skin over it and the beard reads as
// grown and trimmed. Issue 22's p13 panel called our beards "blocky",
// "pasted-on" (random-06, -11): their top ran level across the face at
// the nostrils' height from the moustache to the ears. Measured beside
// the mouth (0.55 to 0.7 face units out, just past its corner) against
// the moustache's top over the mouth's middle (under 0.2 units out).
func TestBeardCheekLine(t *testing.T) {
	short := Default(Masculine)
	short.FacialHair.Style = "short-beard"
	full := Default(Masculine)
	full.FacialHair.Style = "full-beard"
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"full-beard", full},
		{"short-beard", short},
		{"random-06", Random(6)},
		{"random-11", Random(11)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cheek := beardCheekTop(t, tc.cfg, 0.55, 0.7)
			lip := beardCheekTop(t, tc.cfg, 0, 0.2)
			t.Logf("%s: the beard beside the mouth reaches %.1f mm over the lips' middle, the moustache %.1f mm", tc.name, 1000*cheek, 1000*lip)
			if cheek > lip-0.005 {
				t.Errorf("the beard beside the mouth reaches %.1f mm over the lips, the moustache %.1f: want the cheek line 5 mm or more under the moustache's top", 1000*cheek, 1000*lip)
			}
		})
	}
}
