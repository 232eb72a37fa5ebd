package avatar

import "testing"

// lowerCheek is the side of the lower face between the mouth's corner
// and the jaw's edge, at the mouth's height (skinRegion's units: eye
// distances off the middle and from the eyes' height).
var lowerCheek = skinRegion{"lowcheek", 0.5, 0.85, -1.3, -1.05, 0}

// TestLowerFaceNotMuddy asks the skin of the lower face's sides to keep
// near the cheeks' own value (lowerCheek over skinRegions' cheek, the
// luma of the skin texture under them), on pale to dark skin: with the
// key light's full shade of the skin turning from it (formShade) there
// it was 0.942-0.949, now 0.970-0.977, and in a room light the lower
// face read dirty, unshaven (p28's judges: "muddy"; random-10's room
// portrait, lower cheek over the cheek under the eye, 0.667 -> 0.727,
// the leader's office 0.871). The leader's albedo is logged (office
// 0.925; the casual's 0.70 is its stubble): its evenness in a render is
// its pale skin's, lit from the same form (a grey material: 0.76 both).
// It must not be lighter than the cheek: the lower face turns from the
// light, and a face without that shade reads flat.
func TestLowerFaceNotMuddy(t *testing.T) {
	const lo, hi = 0.96, 1.0
	cases := []struct{ body, tone string }{
		{Masculine, "porcelain"},
		{Masculine, "tan"},
		{Feminine, "light"},
		{Feminine, "dark"},
	}
	regions := append(skinRegions[:len(skinRegions):len(skinRegions)], lowerCheek)
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if l, ok := optionalLeaderScene(t, n); ok {
			c := regionColoursIn(t, l, regions)
			t.Logf("%s: lower cheek / cheek %.3f", n, luma(c["lowcheek"])/luma(c["cheek"]))
		}
	}
	for _, tc := range cases {
		cfg := Default(tc.body)
		cfg.Skin.Tone = tc.tone
		s, err := Generate(cfg)
		if err != nil {
			t.Fatal(err)
		}
		c := regionColoursIn(t, s, regions)
		r := luma(c["lowcheek"]) / luma(c["cheek"])
		t.Logf("%s %s: lower cheek / cheek %.3f", tc.body, tc.tone, r)
		if r < lo || r > hi {
			t.Errorf("%s %s: lower cheek / cheek luma %.3f, want %.2f to %.2f", tc.body, tc.tone, r, lo, hi)
		}
	}
}
