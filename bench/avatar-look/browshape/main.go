// Command browshape measures the brow over the eye on the picture's left
// in pictures of the face (look.mjs --camera eyes or portrait, room
// light), so Kiln's brows can be put beside the leader's by number
// (issue 22, p14: the leader's brows are the face's strongest feature,
// thick, dark and close above the eye; ours thin, faint lines far above
// it, and the face reads blank).
//
//	go run ./bench/avatar-look/browshape [-x0 90 -x1 230 -y0 215 -y1 300] OUT/*-eyes.png
//
// Sizes are in eye-distances (the pupils' distance on the picture), so a
// close-up and a portrait, and heads of any size, compare. The pupil is
// the darkest patch in the window (x0..x1, y0..y1; the defaults frame
// the left eye of look.mjs's eyes camera), the other pupil the darkest
// patch in the window mirrored about the picture's middle. Each column
// from the brow's outer end to its inner end (offsets colOut to colIn of
// an eye-distance from the pupil) is read down from top (an
// eye-distance above the pupil) past any hair to the first skin, the
// forehead; the brow is the first run of rows darker than the forehead
// by browDrop of its luma, and in it the rows darker than half way from
// the forehead to the brow's darkest are its body. Per column: the
// brow's contrast (1 - its darkest luma over the forehead's), its
// thickness (the body's rows) and its gap (from the body's lowest row
// down to the next dark row, the lid's lash line). Printed: the
// medians over the middle third of the columns, and the thickness in
// the inner and outer thirds (a brow thick at its head and tapering out
// has inner over outer above 1).
package main

import (
	"flag"
	"fmt"
	"image"
	"math"
	"slices"

	"github.com/kilnhq/kiln/bench/internal/closeup"
	"github.com/kilnhq/kiln/bench/internal/pngfile"
)

const (
	// The brow's columns, in eye-distances from the pupil: outward
	// (away from the nose, left on the picture) and inward.
	colOut, colIn = -0.28, 0.30
	// top is how far above the pupil, in eye-distances, a column is read
	// from; lowest how near above it the brow may end (the lid's crease
	// and lashes lie below).
	top, lowest = 0.75, 0.1
	// browDrop is how much darker than the forehead a row must be, as a
	// share of the forehead's luma, to be brow.
	browDrop = 0.1
	// skinShare: a row at least this share of the column's lightest
	// (its 90th percentile) is skin, not hair.
	skinShare = 0.85
	// recover is the share of the brow's depth below the forehead the
	// luma climbs back above the brow's darkest where the brow ends.
	recover = 0.2
)

func main() {
	x0 := flag.Int("x0", 90, "window's first column")
	x1 := flag.Int("x1", 230, "window's last column")
	y0 := flag.Int("y0", 215, "window's first row")
	y1 := flag.Int("y1", 300, "window's last row")
	flag.Parse()
	pngfile.Each(flag.Args(), func(f string, im image.Image) {
		win := image.Rect(*x0, *y0, *x1, *y1)
		cx, cy := closeup.Pupil(im, win)
		ipd := closeup.PupilDistance(im, win, cx, cy)
		b, ok := measure(im, cx, cy, ipd)
		if !ok {
			fmt.Printf("%s: no brow found\n", f)
			return
		}
		fmt.Printf("%s: pupils %.0f px apart; brow contrast %.2f, thickness %.3f, lower edge %.3f above the pupil, gap to the lid %.3f (eye-distances); inner/outer thickness %.3f/%.3f; brow luma %.0f on forehead %.0f (%d columns)\n",
			f, ipd, b.contrast, b.thick, b.above, b.gap, b.inner, b.outer, b.dark, b.fore, b.n)
	})
}

// brow is one brow's measures: contrast, dark and fore (lumas) and the
// sizes in eye-distances, over n columns.
type brow struct {
	contrast, thick, above, gap, inner, outer, dark, fore float64
	n                                                     int
}

// column is one column's reading of the brow.
type column struct {
	ok                   bool
	contrast, dark, fore float64
	thick, above, gap    float64
}

func measure(im image.Image, cx, cy int, ipd float64) (brow, bool) {
	lo, hi := cx+int(colOut*ipd), cx+int(colIn*ipd)
	var cols []column
	for x := lo; x <= hi; x++ {
		cols = append(cols, read(im, x, cy, ipd))
	}
	third := len(cols) / 3
	pick := func(cs []column, f func(column) float64) (float64, int) {
		var v []float64
		for _, c := range cs {
			if c.ok {
				v = append(v, f(c))
			}
		}
		if len(v) == 0 {
			return math.NaN(), 0
		}
		return median(v), len(v)
	}
	mid := cols[third : 2*third]
	var b brow
	var n int
	b.contrast, n = pick(mid, func(c column) float64 { return c.contrast })
	if n == 0 {
		return b, false
	}
	b.n = n
	b.thick, _ = pick(mid, func(c column) float64 { return c.thick })
	b.above, _ = pick(mid, func(c column) float64 { return c.above })
	b.gap, _ = pick(mid, func(c column) float64 { return c.gap })
	b.dark, _ = pick(mid, func(c column) float64 { return c.dark })
	b.fore, _ = pick(mid, func(c column) float64 { return c.fore })
	// Inner is to the right of the picture's left eye (toward the nose).
	b.outer, _ = pick(cols[:third], func(c column) float64 { return c.thick })
	b.inner, _ = pick(cols[2*third:], func(c column) float64 { return c.thick })
	return b, true
}

// read reads column x down from top eye-distances above the pupil at
// row cy.
func read(im image.Image, x, cy int, ipd float64) column {
	y0, y1 := cy-int(top*ipd), cy-int(lowest*ipd)
	var ls []float64
	for y := y0; y <= y1; y++ {
		ls = append(ls, closeup.Luma(im, x, y))
	}
	s := slices.Clone(ls)
	slices.Sort(s)
	light := s[len(s)*9/10]
	// Past any hair to the forehead's skin.
	i := 0
	for i < len(ls) && ls[i] < skinShare*light {
		i++
	}
	if i+4 >= len(ls) {
		return column{}
	}
	fore := median(slices.Clone(ls[i : i+4]))
	// Down to the brow.
	for i < len(ls) && ls[i] >= fore*(1-browDrop) {
		i++
	}
	if i >= len(ls) {
		return column{}
	}
	start := i
	// The brow's body: from the first row darker than half way from the
	// forehead to the brow's darkest, down to where the luma climbs back
	// by recover of that depth above the darkest so far, or the forehead's
	// half way (the leader's brow runs into the shade of the eye's
	// socket with only a faint lighter band between).
	dark := fore
	for k := start; k < len(ls) && ls[k] < fore*(1-browDrop); k++ {
		dark = min(dark, ls[k])
	}
	half := (fore + dark) / 2
	first, last, low := -1, -1, fore
	for k := start; k < len(ls); k++ {
		low = min(low, ls[k])
		if ls[k] >= half || ls[k] > low+recover*(fore-dark) {
			if first >= 0 {
				break
			}
			continue
		}
		if first < 0 {
			first = k
		}
		last = k
	}
	if first < 0 || last+1 >= len(ls) {
		return column{}
	}
	i = last + 1
	// The lid's lash line: the next rows below darker than half way.
	gap := math.NaN()
	for k := i; k < len(ls); k++ {
		if ls[k] < half {
			gap = float64(k-last-1) / ipd
			break
		}
	}
	if math.IsNaN(gap) {
		// Read on below lowest to the lid.
		for y := y1 + 1; y < cy; y++ {
			if closeup.Luma(im, x, y) < half {
				gap = float64(y-(y0+last)-1) / ipd
				break
			}
		}
	}
	return column{
		ok:       true,
		contrast: 1 - dark/fore,
		dark:     dark,
		fore:     fore,
		thick:    float64(last-first+1) / ipd,
		above:    float64(cy-(y0+last)) / ipd,
		gap:      gap,
	}
}

func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}
