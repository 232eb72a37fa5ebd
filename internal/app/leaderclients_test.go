package app

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/internal/testenv"
)

// leaderClients is what tools/browser-test/leaderclients.mjs reports.
type leaderClients struct {
	Three struct {
		Roots, Armature, TeethTargets, Groups []string
		TeethIsMesh                           bool
	}
	TalkingHead struct {
		Morphs                         []string
		VisemeMax                      float64
		Viseme, Audio                  string
		Queued                         []string
		Visemes                        [][2]any // name, weight at its peak
		MouthChanged, ElsewhereChanged float64
	}
}

// TestLeaderClientsInBrowser loads Kiln avatars by the leader's URL, with
// the morph targets lip-sync apps ask for, in two clients written for
// the leader's avatars, in chromium, from a page on another origin:
// three.js finds Wolf3D_Teeth as a mesh with its morphTargetDictionary
// and the meshes under Armature; TalkingHead accepts the model (no "Blend
// shapes not found") and speaks words it is given with their timings
// (speakAudio, as with a TTS that times its words): its lip-sync sets a
// viseme on the face, and that viseme changes the pixels around the
// mouth, not elsewhere.
func TestLeaderClientsInBrowser(t *testing.T) {
	node, dir := testenv.BrowserTools(t, "@met4citizen/talkinghead")
	script := filepath.Join(dir, "leaderclients.mjs")
	r := start(t)
	for _, tc := range []struct {
		query  string
		merged bool
	}{
		{lipsyncQuery, false},
		{lipsyncQuery + "&mergeMesh=1", true},
	} {
		out := runBrowser(t, node, script, r.AvatarURL+"/default-female.glb"+tc.query)
		var c leaderClients
		if err := json.Unmarshal([]byte(lastLine(out)), &c); err != nil {
			t.Fatalf("%s: %v: %s", tc.query, err, out)
		}
		face := "Wolf3D_Head"
		if tc.merged {
			face = "Wolf3D_Avatar"
		}
		if !slices.Equal(c.Three.Roots, []string{"Armature"}) || !slices.Contains(c.Three.Armature, face) || len(c.Three.Groups) > 0 {
			t.Errorf("%s: three.js sees roots %v, Armature %v, groups %v", tc.query, c.Three.Roots, c.Three.Armature, c.Three.Groups)
		}
		if !tc.merged && (!c.Three.TeethIsMesh || !slices.Contains(c.Three.TeethTargets, "jawOpen") || !slices.Contains(c.Three.TeethTargets, "mouthOpen")) {
			t.Errorf("%s: getObjectByName('Wolf3D_Teeth'): mesh %t, targets %v", tc.query, c.Three.TeethIsMesh, c.Three.TeethTargets)
		}
		// TalkingHead finds the face (its "Blend shapes not found" is
		// what the leader's tree fixed), its lip-sync queues the visemes
		// of the words, and at each one's peak it sets that viseme on the
		// face at its level (0.6 and more); the one that moves the mouth
		// most changes the mouth's pixels and hardly any other (2.4-2.6%
		// and under 0.07% in two runs with the shaped lips of 5fcf571).
		if !slices.Contains(c.TalkingHead.Morphs, face) {
			t.Errorf("%s: TalkingHead drives %v, not %s", tc.query, c.TalkingHead.Morphs, face)
		}
		t.Logf("%s: TalkingHead (audio %s) drives %v; queued %v; at their peaks %v; %s changes %.2f%% of the mouth's pixels and %.3f%% elsewhere", tc.query, c.TalkingHead.Audio,
			c.TalkingHead.Morphs, c.TalkingHead.Queued, c.TalkingHead.Visemes, c.TalkingHead.Viseme, 100*c.TalkingHead.MouthChanged, 100*c.TalkingHead.ElsewhereChanged)
		if len(c.TalkingHead.Queued) < 4 || len(c.TalkingHead.Visemes) != 3 {
			t.Errorf("%s: TalkingHead queued visemes %v for two words, set %v", tc.query, c.TalkingHead.Queued, c.TalkingHead.Visemes)
		}
		for _, v := range c.TalkingHead.Visemes {
			if w, _ := v[1].(float64); w < 0.5 {
				t.Errorf("%s: at its peak TalkingHead set %v to %.2f, want its level (0.6 or more)", tc.query, v[0], w)
			}
		}
		if c.TalkingHead.MouthChanged < 0.01 || c.TalkingHead.MouthChanged < 10*c.TalkingHead.ElsewhereChanged {
			t.Errorf("%s: %s at %.2f changes %.4f of the mouth's pixels and %.4f elsewhere, want the mouth", tc.query, c.TalkingHead.Viseme, c.TalkingHead.VisemeMax, c.TalkingHead.MouthChanged, c.TalkingHead.ElsewhereChanged)
		}
	}
}
