// Command eyerim measures the rim round the eye's opening in close-ups
// of the eyes (look.mjs --camera eyes, 512 px, room light): how dark the
// band just above the white (the upper lash line) and the band just
// below it (the lower lid's edge) are against the skin under the eye, so
// Kiln's eyes can be put beside the leader's by number (the panel: ours
// "stark white, heavy dark rim"; the leader's a fine upper line and a
// soft lower lid).
//
//	go run ./bench/avatar-look/eyerim [-x0 90 -x1 230 -y0 245 -y1 300] OUT/*-eyes.png
//
// The pupil is the darkest patch in the window (closeup.Pupil), on the
// eye on the picture's left; the window starts lower than eyewhite's
// (from row 215 it took a dark face's brow or lash line for the pupil).
// The iris's radius is the run along the pupil's row, rightward, to the
// white. Each column of white on the pupil's row either side of the
// iris (from two pixels past the iris to the eye's corner) is read up
// and down from that row to the white's ends. The band is a thirtieth of
// the pupils' distance (at least 2 px; the other pupil in the window
// mirrored about the middle): the upper rim is the mean luma of the band
// of rows above the white, the lower rim of the band below it, and the
// skin the median of the rows two to four bands below the white (the
// lower lid and the skin under it). The line is the rows above the white
// darker than half the skin, the upper line's thickness. Printed: the
// means over the columns, and each rim over the skin (1 the skin's
// light, 0 black).
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

// A white (sclera) pixel is at least whiteLuma light and at most
// whiteSat in its channels' spread: from 120 the leader's grey irises
// counted as white, and the columns it read ran through the iris.
const whiteLuma, whiteSat = 175, 45

func main() {
	x0 := flag.Int("x0", 90, "window's first column")
	x1 := flag.Int("x1", 230, "window's last column")
	y0 := flag.Int("y0", 245, "window's first row")
	y1 := flag.Int("y1", 300, "window's last row")
	flag.Parse()
	pngfile.Each(flag.Args(), func(f string, im image.Image) {
		win := image.Rect(*x0, *y0, *x1, *y1)
		r, ok := measure(im, win)
		if !ok {
			fmt.Printf("%s: no eye found\n", f)
			return
		}
		fmt.Printf("%s: %d columns, band %d px; upper rim %.0f, lower rim %.0f, skin %.0f luma; upper/skin %.2f, lower/skin %.2f; line %.1f px\n",
			f, r.cols, r.band, r.upper, r.lower, r.skin, r.upper/r.skin, r.lower/r.skin, r.line)
	})
}

func white(im image.Image, x, y int) bool {
	l, s := closeup.LumaSat(im, x, y)
	return l >= whiteLuma && s <= whiteSat
}

type rim struct {
	cols, band         int
	upper, lower, skin float64
	line               float64
}

func measure(im image.Image, win image.Rectangle) (rim, bool) {
	var out rim
	cx, cy := closeup.Pupil(im, win)
	ipd := closeup.PupilDistance(im, win, cx, cy)
	out.band = max(2, int(math.Round(ipd/30)))
	r := 0
	for x := cx + 2; x < cx+int(ipd/3); x++ {
		if white(im, x, cy) && white(im, x+1, cy) {
			r = x - cx
			break
		}
	}
	if r == 0 {
		return out, false
	}
	var up, lo, sk, ln []float64
	column := func(x int) bool {
		if !white(im, x, cy) {
			return false
		}
		t, b := cy, cy
		for white(im, x, t-1) {
			t--
		}
		for white(im, x, b+1) {
			b++
		}
		var u, l float64
		for k := 1; k <= out.band; k++ {
			u += closeup.Luma(im, x, t-k)
			l += closeup.Luma(im, x, b+k)
		}
		var s []float64
		for y := b + 2*out.band; y <= b+4*out.band; y++ {
			s = append(s, closeup.Luma(im, x, y))
		}
		slices.Sort(s)
		skin := s[len(s)/2]
		n := 0
		for y := t - 1; y > t-4*out.band && closeup.Luma(im, x, y) < skin/2; y-- {
			n++
		}
		up = append(up, u/float64(out.band))
		lo = append(lo, l/float64(out.band))
		sk = append(sk, skin)
		ln = append(ln, float64(n))
		return true
	}
	for x := cx + r + 2; column(x); x++ {
	}
	for x := cx - r - 2; column(x); x-- {
	}
	if len(up) == 0 {
		return out, false
	}
	out.cols = len(up)
	out.upper, out.lower, out.skin, out.line = mean(up), mean(lo), mean(sk), mean(ln)
	return out, true
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
