package avatar

import (
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/facemeasure"
	"github.com/kilnhq/kiln/assets/scene"
)

// earSpan is how far a head's ears stand out from the skull and how
// tall they are, in eye-distances (the eyes' centres' distance).
type earSpan struct{ out, height float64 }

// measureEars is facemeasure.Ears of a head whose eyes' centres are
// eyeL and eyeR.
func measureEars(head *scene.Primitive, eyeL, eyeR vec3) earSpan {
	out, height := facemeasure.Ears(head, math.Abs(eyeL[0]-eyeR[0]), (eyeL[1]+eyeR[1])/2)
	return earSpan{out, height}
}

// earBand bounds a set of faces' ears (earSpan): the farthest out and
// the tallest, and the tenth of the faces furthest out and tallest, so
// that neither one odd face nor a broad tail of them stands out; and
// the least spread of how far out they stand (the tenth from the top
// less the tenth from the bottom), so that faces keep their own ears.
type earBand struct{ maxOut, p90Out, maxHeight, p90Height, minSpread float64 }

// earsFlat bounds the panel's faces and random draws alike. The leader's
// ears stand 0.256 (casual) and 0.242 (office) eye-distances out and are
// 0.94 and 0.92 tall; Kiln's house faces' 0.217 and 0.202 (masculine and
// feminine), 0.93 and 0.82 tall, as before.
var earsFlat = earBand{maxOut: 0.30, p90Out: 0.27, maxHeight: 1.2, p90Height: 1.08, minSpread: 0.06}

// TestEarsLieFlat holds how far the ears stand out from the skull and
// how tall they are (measureEars, on shaped bodies: no build) on the
// panel's twenty faces and 300 random draws to earsFlat. At p25 the
// judges saw ears "sticking out" like handles. Before the seed drew the
// ear dials that stand the ears out or enlarge them at a quarter of the
// spread on their high side (tucked), the panel's stood 0.12 to 0.35 out
// (random-06 0.35, random-07 0.29, random-18 0.28 and 1.12 tall), and
// the draws 0.06 to 0.47 (a tenth beyond 0.33), up to 1.32 tall (a tenth
// beyond 1.18): both sets failed on the farthest out and the tallest.
func TestEarsLieFlat(t *testing.T) {
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if l, ok := optionalLeaderScene(t, n); ok {
			e := measureEars(sceneHead(t, l))
			t.Logf("leader %s: out %.3f, %.2f tall", n, e.out, e.height)
		}
	}
	check := func(t *testing.T, what string, ears []earSpan) {
		t.Helper()
		outs, heights := make([]float64, len(ears)), make([]float64, len(ears))
		for i, e := range ears {
			outs[i], heights[i] = e.out, e.height
		}
		slices.Sort(outs)
		slices.Sort(heights)
		tenth := len(ears) / 10
		hiOut, loOut, hiHeight := outs[len(outs)-1-tenth], outs[tenth], heights[len(heights)-1-tenth]
		t.Logf("%s: %d faces, out %.3f to %.3f (a tenth beyond %.3f), %.2f to %.2f tall (a tenth beyond %.2f)",
			what, len(ears), outs[0], outs[len(outs)-1], hiOut, heights[0], heights[len(heights)-1], hiHeight)
		for _, c := range []struct {
			what    string
			v, most float64
		}{
			{"the farthest out", outs[len(outs)-1], earsFlat.maxOut}, {"a tenth out beyond", hiOut, earsFlat.p90Out},
			{"the tallest", heights[len(heights)-1], earsFlat.maxHeight}, {"a tenth taller than", hiHeight, earsFlat.p90Height},
		} {
			if c.v > c.most {
				t.Errorf("%s: ears %s %.3f eye-distances, want %.2f or less (the leader's stand 0.24-0.26 out, 0.92-0.94 tall)", what, c.what, c.v, c.most)
			}
		}
		if spread := hiOut - loOut; spread < earsFlat.minSpread {
			t.Errorf("%s: the ears' middle eight tenths stand out within %.3f eye-distances, want %.2f or more: faces alike", what, spread, earsFlat.minSpread)
		}
	}
	t.Run("panel", func(t *testing.T) {
		var ears []earSpan
		for _, c := range panelFaces() {
			e := measureEars(shapedHead(c.cfg))
			t.Logf("%s: out %.3f, %.2f tall", c.name, e.out, e.height)
			ears = append(ears, e)
		}
		check(t, "panel", ears)
	})
	t.Run("random", func(t *testing.T) {
		var ears []earSpan
		for seed := int64(5000); seed < 5300; seed++ {
			ears = append(ears, measureEars(shapedHead(Random(seed))))
		}
		check(t, "random draws", ears)
	})
}
