package paint

import "testing"

// TestLipsGlossByTone paints the lips band of TestSkinLips's sphere in a
// light, a dark and the deepest tone and reads the roughness (ORM's
// green) on the lips against the cheek's. Light lips stay glossier than
// their skin (at least 0.1 less rough); the deeper the tone, the less
// (lipMatte): the dark and deep lips at most 0.06 less rough than their
// skin. Before, every tone's lips were 0.14 less rough than its skin,
// and a room light mirrored its top light on a deep tone's lower lip as
// a grey-white band (random-04, random-17 of the panel).
func TestLipsGlossByTone(t *testing.T) {
	head := sphere([3]float32{0, 1.6, 0}, 0.1, 64)
	head.Mask = make([]float32, len(head.Pos))
	for i, p := range head.Pos {
		if p[2] > 0.08 && p[1] < 1.58 && p[1] > 1.55 {
			head.Mask[i] = 1
		}
	}
	for _, tc := range []struct {
		name        string
		tone        RGB // the palette's light, and its dark and deep of session 18 (#583b2e, #3e2920), linear
		least, most float64
	}{
		{"light", RGB{0.730, 0.352, 0.262}, 0.1, 1},
		{"dark", RGB{0.0976, 0.0437, 0.0273}, 0, 0.06},
		{"deep", RGB{0.0482, 0.0222, 0.0144}, 0, 0.06},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orm := decode(t, Skin(head, tc.tone, 3, 256).ORM)
			lip, cheek := float64(at(orm, 0.5, 0.59)[1])/255, float64(at(orm, 0.3, 0.4)[1])/255
			d := cheek - lip
			t.Logf("roughness: lips %.2f, cheek %.2f (lips %.2f glossier)", lip, cheek, d)
			if d < tc.least || d > tc.most {
				t.Errorf("lips %.2f less rough than the cheek (%.2f against %.2f), want %.2f to %.2f", d, lip, cheek, tc.least, tc.most)
			}
		})
	}
}
