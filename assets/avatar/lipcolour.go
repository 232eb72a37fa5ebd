package avatar

import (
	"math"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// lipColour is, per base vertex, how much of the lips' colour the skin
// painter gives it (0..1): lipMask, raised toward the corners of the
// mouth. lipMask comes from the lip volume dials, which swell the middle
// of the lips and fade out well before the corners: painted by it, the
// lips' colour stopped two to three millimetres short of each end of the
// mouth's slit, and the pink middle between two skin-coloured corners
// read as a small pursed muzzle (the panel's "pout"). Toward the ends of
// the lips (beyond half their width) the mask is multiplied up, so the
// colour runs, thinning, to the corners; skin that lipMask leaves at zero
// stays skin. Found once on the average body: the same base vertices are
// the lips on every face.
var lipColour = sync.OnceValue(func() []float32 {
	lips := lipMask()
	body := human.Shape(human.Average(0.5))
	// Half the width of the lips' full part, in the average body's
	// frame (the face's middle at x = 0).
	var half float64
	for v, m := range lips {
		if m >= 0.5 {
			half = math.Max(half, math.Abs(float64(body.Pos[v][0])))
		}
	}
	out := make([]float32, len(lips))
	for v, m := range lips {
		if m == 0 {
			continue
		}
		x := math.Abs(float64(body.Pos[v][0]))
		boost := 1 + lipCornerBoost*smooth(0.5*half, 1.15*half, x)
		out[v] = float32(math.Min(1, float64(m)*boost))
	}
	return out
})

// lipCornerBoost is how much more lip colour the corners take: the mask
// there is 0.05 to 0.35, which times four paints the corners' lips.
const lipCornerBoost = 4
