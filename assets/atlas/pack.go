package atlas

import (
	"fmt"
	"image"
	"math"
	"sort"
)

// layout chooses the global scale and places every packed material's
// rectangle (m.rect) in a size×size atlas, returning the scale and the
// atlas's final width and height (the packed extent, rounded up to powers
// of two, since mipmapping and old WebGL want them). If even the smallest
// rectangles do not fit, the materials with the fewest texels are kept out
// one by one, with a reason.
func layout(ms []*source, size, pad int) (scale float64, w, h int) {
	for {
		var live []*source
		for _, m := range ms {
			if m.reason == "" {
				live = append(live, m)
			}
		}
		if len(live) == 0 {
			return 0, 0, 0
		}
		if _, ok := pack(live, 0, size, pad); !ok {
			// A palette that cannot have its own resolution stays out;
			// otherwise drop the material with the least texel weight.
			var drop *source
			for _, m := range live {
				if m.points && (m.res.X+2*pad > size || m.res.Y+2*pad > size) {
					drop = m
					drop.reason = fmt.Sprintf("its UVs pick single texels (a palette) and its %dx%d texture does not fit a %d atlas unscaled", m.res.X, m.res.Y, size)
					break
				}
			}
			if drop == nil {
				drop = live[0]
				for _, m := range live[1:] {
					if weight(m) < weight(drop) {
						drop = m
					}
				}
				drop.reason = "no room left in the atlas at this size"
			}
			continue
		}
		// The largest scale that fits: every rectangle grows with it, so
		// fitting is monotone and a binary search finds it.
		lo, hi := 0.0, 1/math.Sqrt(minCoverage)
		if _, ok := pack(live, hi, size, pad); ok {
			lo = hi
		} else {
			for range 32 {
				mid := (lo + hi) / 2
				if _, ok := pack(live, mid, size, pad); ok {
					lo = mid
				} else {
					hi = mid
				}
			}
		}
		extent, _ := pack(live, lo, size, pad)
		return lo, ceilPow2(extent.X), ceilPow2(extent.Y)
	}
}

// weight is the number of source texels the material's faces use.
func weight(m *source) float64 {
	return float64(m.res.X) * float64(m.res.Y) * m.coverage
}

// inner is the material's rectangle size at a global scale k: the
// texture's resolution times k·sqrt(coverage), capped at the resolution.
func inner(m *source, k float64) image.Point {
	if m.flat() {
		return image.Pt(minSide, minSide)
	}
	if m.points {
		return image.Pt(max(m.res.X, minSide), max(m.res.Y, minSide))
	}
	f := min(1, k*math.Sqrt(m.coverage))
	side := func(n int) int {
		return min(max(int(math.Round(float64(n)*f)), minSide), max(n, minSide))
	}
	return image.Pt(side(m.res.X), side(m.res.Y))
}

// pack places the rectangles on shelves, tallest first, each with its
// padding and its outer box rounded up to 4 pixels, and reports the
// packed extent and whether it fits size×size.
func pack(ms []*source, k float64, size, pad int) (image.Point, bool) {
	type item struct {
		m     *source
		in    image.Point
		outer image.Point
	}
	items := make([]item, len(ms))
	for i, m := range ms {
		in := inner(m, k)
		items[i] = item{m, in, image.Pt(roundUp4(in.X+2*pad), roundUp4(in.Y+2*pad))}
	}
	sort.SliceStable(items, func(a, b int) bool {
		if items[a].outer.Y != items[b].outer.Y {
			return items[a].outer.Y > items[b].outer.Y
		}
		return items[a].outer.X > items[b].outer.X
	})
	var x, y, shelf int
	var extent image.Point
	for _, it := range items {
		if it.outer.X > size {
			return extent, false
		}
		if x+it.outer.X > size {
			x, y, shelf = 0, y+shelf, 0
		}
		if y+it.outer.Y > size {
			return extent, false
		}
		it.m.rect = image.Rectangle{Min: image.Pt(x+pad, y+pad), Max: image.Pt(x+pad+it.in.X, y+pad+it.in.Y)}
		x += it.outer.X
		shelf = max(shelf, it.outer.Y)
		extent = image.Pt(max(extent.X, x), max(extent.Y, y+it.outer.Y))
	}
	return extent, true
}

func roundUp4(n int) int { return (n + 3) &^ 3 }

func ceilPow2(n int) int {
	p := 1
	for p < n {
		p <<= 1
	}
	return p
}
