package avatar

import (
	"math"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// lidShadow is how much of the key light's shade (Surface.Form) the
// upper lid's skin takes, from the lash line to where the crease begins
// (lidShadeFull), fading to none at the crease. The leader's upper lid
// is a soft shadow there (room close-ups, columns through the eye: 0.55
// to 0.7 of the forehead's luma); ours was lit as the forehead (0.85 to
// 1.0 of it), a bright band between the brow and the lashes that read as
// an eye opened wide: the p13 judges' "staring". At 0.6 from a blink
// weight of 0.35 the lid's skin in the close-ups fell 180 -> 161 luma
// (random-07), too faint to see at a portrait's distance.
const lidShadow = 0.8

// lidShadeFull is the blink weight (lidShadeWeights) from which the lid
// takes the whole lidShadow: a blink pulls the lid's skin under the
// crease by only 0.1 to 0.5 of the rim's travel, and shaded in
// proportion to it the lid's visible skin stayed within 2% of its lit
// luma.
const lidShadeFull = 0.2

// lidShadeWeights is, per base vertex, how far a blink moves it down,
// over the most any vertex moves: the skin of the upper lids, 1 at the
// rim and fading up to the crease, where a blink no longer pulls the
// skin. Found once on the average body; only skin above the eyeballs'
// centres, so the lower lids, which a blink lifts a little, keep theirs.
var lidShadeWeights = sync.OnceValue(func() []float32 {
	b := human.Shape(human.Average(0.5))
	growEyes(b)
	cs := eyeCentres(b)
	out := make([]float32, len(b.Pos))
	var most float64
	for _, name := range blinks {
		idx, d := faceDeltas(name)
		for i, v := range idx {
			if float64(b.Pos[v][1]) <= math.Min(cs[0].centre[1], cs[1].centre[1]) || d[i][1] >= 0 {
				continue
			}
			out[v] = max(out[v], -d[i][1])
			most = math.Max(most, float64(-d[i][1]))
		}
	}
	if most > 0 {
		for v := range out {
			out[v] /= float32(most)
		}
	}
	return out
})

// shadeLids darkens the upper lids in the head's form shade: each head
// vertex takes at least lidShadow of its blink weight (lidShadeWeights),
// so the shadow closes with the lid in a blink, as the leader's does.
func shadeLids(form []float32, head *part) {
	w := lidShadeWeights()
	for i, v := range head.base {
		form[i] = max(form[i], float32(lidShadow*smoothstep(0, lidShadeFull, float64(w[v]))))
	}
}
