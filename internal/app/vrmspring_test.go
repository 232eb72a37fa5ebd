package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vrmSpringFigures is what tools/browser-test/vrmspring.mjs measures.
type vrmSpringFigures struct {
	Spring, Spring0 springFigures
	Animation       struct {
		Tracks    int
		Duration  float64
		Moved     float64
		MovedBone string
	}
}

// springFigures are the hair's figures of one VRM.
type springFigures struct {
	Joints, HairJoints, Tips, Colliders int
	MovingVertices, HangingVertices     int
	// SwayPeak is how far a hair chain's tip moved in the head's own
	// frame after the head turned (0 for rigid hair), SwayAfterSecond
	// where it was a second later.
	SwayPeak, SwayAfterSecond float64
	SwayPeakFrame             int
	// RestDepth and MaxDepth are how deep the hanging hair (90 % on
	// the chains) got inside a body collider, settled and while the
	// head turned; MaxDeepVertices how many got deeper than 5 mm at
	// once. RootMaxDepth is the same for the vertices near the roots.
	RestDepth, MaxDepth, RootRestDepth, RootMaxDepth float64
	MaxDeepVertices                                  int
}

// TestVRMSpringBonesInBrowser loads default-female (long hair) as VRM 1.0
// and 0.x and the feminine wave as VRM Animation in three-vrm, in one
// page load:
// turning the head sways the hair (its chain tips move in the head's
// frame) without the hanging hair entering the body's colliders, and the
// clip moves the bones.
func TestVRMSpringBonesInBrowser(t *testing.T) {
	node, viewer := browserTool(t)
	script := filepath.Join(filepath.Dir(viewer), "vrmspring.mjs")
	r := start(t)
	// The pictures stay for a person to look at: kiln-vrmspring-{rest,turned,vrma}.png.
	shots := filepath.Join(os.TempDir(), "kiln-vrmspring")
	out := runBrowser(t, node, script, r.AvatarURL+"/model/default-female.vrm", r.AvatarURL+"/animations/feminine/gesture_wave.vrma",
		"--vrm0", r.AvatarURL+"/model/default-female.vrm?vrm=0", "--screenshot", shots)
	var f vrmSpringFigures
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &f); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, v := range []struct {
		name string
		s    springFigures
	}{{"VRM 1.0", f.Spring}, {"VRM 0.x", f.Spring0}} {
		s := v.s
		t.Logf("%s: %d spring joints (%d on the hair, %d chains), %d colliders; %d hair vertices follow the chains (%d by 90 %% or more)",
			v.name, s.Joints, s.HairJoints, s.Tips, s.Colliders, s.MovingVertices, s.HangingVertices)
		t.Logf("%s: head turned 50°: chain tips moved up to %.1f cm in the head's frame (frame %d), %.1f cm a second later; hanging hair inside colliders: %.1f mm settled, %.1f mm at most while turning (%d vertices over 5 mm); near the roots %.1f mm",
			v.name, 100*s.SwayPeak, s.SwayPeakFrame, 100*s.SwayAfterSecond, 1000*s.RestDepth, 1000*s.MaxDepth, s.MaxDeepVertices, 1000*s.RootMaxDepth)
		if s.HairJoints < 6 || s.Tips < 2 || s.Colliders < 4 || s.HangingVertices < 200 {
			t.Errorf("%s: want chains on the long hair and colliders on the body: %+v", v.name, s)
		}
		if s.SwayPeak < 0.03 {
			t.Errorf("%s: turning the head moved the hair by %.1f cm in the head's frame: rigid hair", v.name, 100*s.SwayPeak)
		}
		if s.RestDepth > 0.002 || s.MaxDepth > 0.005 {
			t.Errorf("%s: hanging hair inside the body colliders: %.1f mm settled, %.1f mm while turning", v.name, 1000*s.RestDepth, 1000*s.MaxDepth)
		}
	}
	a := f.Animation
	t.Logf("VRM Animation: %d tracks over %.2f s; %s moved %.2f m", a.Tracks, a.Duration, a.MovedBone, a.Moved)
	if a.Tracks < 50 || a.Duration <= 0 || a.Moved < 0.3 {
		t.Errorf("the .vrma clip should move the bones: %+v", a)
	}
}
