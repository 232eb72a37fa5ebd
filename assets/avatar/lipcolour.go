package avatar

import (
	"math"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/human"
	"github.com/kilnhq/kiln/assets/avatar/paint"
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
		boost := 1 + lipCornerBoost*smoothstep(0.5*half, 1.15*half, x)
		out[v] = float32(math.Min(1, float64(m)*boost))
	}
	// The lips' parting: where the lips meet, a few vertices at the
	// front of the lower lip's edge move little with either volume dial
	// (lipMask 0.04 to 0.3), and a front view saw a sliver of skin colour
	// in the middle of the parting (random-14's). A vertex of the lips'
	// region whose height is between the upper lip's lowest full vertex
	// and the lower lip's highest (and up to lipPartingReach beyond), within
	// 2 mm across, is lip.
	low := lowerLipMask()
	const bin = 0.002
	type span struct{ up, down float64 }
	bins := map[int]*span{}
	for v, m := range lips {
		if m < 0.8 {
			continue
		}
		k := int(math.Floor(float64(body.Pos[v][0]) / bin))
		for _, k := range []int{k - 1, k, k + 1} {
			b := bins[k]
			if b == nil {
				b = &span{math.Inf(1), math.Inf(-1)}
				bins[k] = b
			}
			y := float64(body.Pos[v][1])
			if low[v] >= 0.5 {
				b.down = math.Max(b.down, y)
			} else {
				b.up = math.Min(b.up, y)
			}
		}
	}
	for v, m := range lips {
		if m == 0 || m >= lipParting {
			continue
		}
		b := bins[int(math.Floor(float64(body.Pos[v][0])/bin))]
		if y := float64(body.Pos[v][1]); b != nil && y >= math.Min(b.up, b.down)-lipPartingReach && y <= math.Max(b.up, b.down)+lipPartingReach {
			out[v] = max(out[v], lipParting)
		}
	}
	return out
})

// lipPartingReach is how far past the full lips' inner edges the
// parting's lip colour reaches, in metres.
const lipPartingReach = 0.0015

// lipParting is the least lip colour of a vertex between the two lips.
const lipParting = 0.9

// lipCornerBoost is how much more lip colour the corners take: the mask
// there is 0.05 to 0.35, which times four paints the corners' lips.
const lipCornerBoost = 4

// mouthFrame is where the head's lips are (after closeLips), for the
// skin painter's shaping of their colour (paint.Mouth): the parting's
// middle, between the lowest vertex of the upper lip and the highest of
// the lower within lipFrameMid of the face's middle; the lips' half-width
// (the painted lips' widest vertex, lipColour at least 0.5); how far the
// parting's ends stand above its middle (the same midpoint, over the
// outer quarter of the width); the height of each lip in the
// middle (the painted lips' highest and lowest vertices there); and
// their front there (the most forward of those vertices). nil
// when the head has no lips (a broken build, which the tests catch).
func (p *part) mouthFrame() *paint.Mouth {
	col, full, lower := lipColour(), lipMask(), lowerLipMask()
	var half, cx float64
	var n float64
	for i, v := range p.base {
		if col[v] >= 0.5 {
			half = math.Max(half, math.Abs(float64(p.pos[i][0])))
			cx += float64(p.pos[i][0])
			n++
		}
	}
	if n == 0 || half == 0 {
		return nil
	}
	cx /= n
	// parting is the midpoint between the upper lip's lowest and the
	// lower lip's highest vertex with |x - cx| in [lo, hi).
	parting := func(lo, hi float64) (float64, bool) {
		up, down := math.Inf(1), math.Inf(-1)
		for i, v := range p.base {
			x := math.Abs(float64(p.pos[i][0]) - cx)
			if full[v] < 0.5 || x < lo || x >= hi {
				continue
			}
			y := float64(p.pos[i][1])
			if lower[v] >= 0.5 {
				down = math.Max(down, y)
			} else {
				up = math.Min(up, y)
			}
		}
		return (up + down) / 2, !math.IsInf(up, 0) && !math.IsInf(down, 0)
	}
	y0, ok := parting(0, lipFrameMid)
	if !ok {
		return nil
	}
	yc, ok := parting(0.6*half, half)
	if !ok {
		yc = y0
	}
	top, bot, front := y0, y0, math.Inf(-1)
	for i, v := range p.base {
		if col[v] < 0.5 || math.Abs(float64(p.pos[i][0])-cx) >= lipFrameMid {
			continue
		}
		y := float64(p.pos[i][1])
		top, bot = math.Max(top, y), math.Min(bot, y)
		front = math.Max(front, float64(p.pos[i][2]))
	}
	return &paint.Mouth{
		Centre: [2]float64{cx, y0}, Half: half, Corner: (yc - y0) / 0.64,
		Upper: top - y0, Lower: y0 - bot, Front: front,
	}
}

// lipFrameMid is how near the face's middle mouthFrame looks for the
// parting and the lips' heights there, in metres.
const lipFrameMid = 0.004

// lowerLipMask is, per base vertex, how much of the lower lip it is: the
// displacement of MakeHuman's lower-lip volume target, normalised.
var lowerLipMask = sync.OnceValue(func() []float32 {
	return moveMask(map[string]float64{"mouth/mouth-lowerlip-volume": 1})
})
