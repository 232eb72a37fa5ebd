// Command sclerashade measures, in close-ups of the eyes (look.mjs
// --camera eyes, 512 px), how bright the eye's white shows against the
// face and how the upper lid shades its top, on the eye on the picture's
// left, so Kiln's eyes can be put beside the leader's by number (issue
// 22, p28: "glaring eye whites" on dark faces; the leader's upper lid
// casts a soft shade over the top of the white).
//
//	go run ./bench/avatar-look/sclerashade OUT/*-eyes.png
//
// The pupil is the darkest patch in the window (pupil) and the
// iris's radius the run along the pupil's row, rightward, to the first
// irisRun light, grey pixels (lightRun). In columns 1.3 to 2.1 iris radii either side of the
// pupil, the white is the run of rows about the pupil's row that are at
// least reach of that column's light on the pupil's row (the lash line
// is darker) and grey or a little warm (the skin, however light, is
// redder). Printed: the white's mean luma over the
// skin's (the cheek's 2.5 to 3.5 iris radii under the pupil, as wide as
// the iris), and the luma of the white's top three rows (just under the
// upper lid) over its middle's (three rows about the pupil's row).
package main

import (
	"flag"
	"fmt"
	"image"
	"os"

	"github.com/kilnhq/kiln/bench/internal/closeup"
	"github.com/kilnhq/kiln/bench/internal/pngfile"
)

const (
	// A white pixel is at least reach of its column's light on the
	// pupil's row and no redder than warm ((red - blue) / red): the
	// lids' lash line is darker and the skin, however light, redder.
	reach = 0.45
	warm  = 0.24
	// The iris ends at the first irisRun pixels on the pupil's row this
	// light and grey (lightRun).
	irisEnd, irisRun, irisGrey = 110, 8, 0.2
)

func main() {
	x0 := flag.Int("x0", 110, "window's first column")
	x1 := flag.Int("x1", 200, "window's last column")
	y0 := flag.Int("y0", 235, "window's first row")
	y1 := flag.Int("y1", 285, "window's last row")
	from := flag.Int("from", 3, "px right of the pupil to look for the iris's end from (a light grey iris passes for white)")
	flag.Parse()
	for _, f := range flag.Args() {
		im, err := pngfile.Read(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		m, ok := measure(im, image.Rect(*x0, *y0, *x1, *y1), *from)
		if !ok {
			fmt.Printf("%s: no iris found right of the pupil (%d, %d)\n", f, m.cx, m.cy)
			continue
		}
		fmt.Printf("%s: pupil (%d, %d), white %.0f, skin %.0f: white/skin %.2f; under the lid %.0f, middle %.0f: lid/middle %.2f (iris radius %d px, white %d px tall)\n",
			f, m.cx, m.cy, m.white, m.skin, m.white/m.skin, m.top, m.mid, m.top/m.mid, m.r, m.tall)
	}
}

type measures struct {
	cx, cy, r, tall       int
	white, skin, top, mid float64
}

// lightRun is whether the irisRun pixels from (x, y) rightward are the
// white's: at least irisEnd light and grey (their channels' spread at
// most irisGrey of the brightest; a green or blue iris is more
// coloured). A catchlight is shorter.
func lightRun(im image.Image, x, y int) bool {
	for k := range irisRun {
		r, g, b, _ := im.At(x+k, y).RGBA()
		hi, lo := float64(max(r, g, b)), float64(min(r, g, b))
		if closeup.Luma(im, x+k, y) < irisEnd || hi == 0 || (hi-lo)/hi > irisGrey {
			return false
		}
	}
	return true
}

// sclera is whether the pixel at (x, y) is the white's, in a column
// whose white on the pupil's row has luma mid.
func sclera(im image.Image, x, y int, mid float64) bool {
	r, _, b, _ := im.At(x, y).RGBA()
	return closeup.Luma(im, x, y) >= reach*mid && r > 0 && (float64(r)-float64(b))/float64(r) < warm
}

func measure(im image.Image, win image.Rectangle, from int) (measures, bool) {
	var m measures
	cx, cy := pupil(im, win)
	m.cx, m.cy = cx, cy
	for x := cx + from; x < cx+120; x++ {
		if lightRun(im, x, cy) {
			m.r = x - cx
			break
		}
	}
	if m.r == 0 {
		return m, false
	}
	var white, top, mid []float64
	tall := 0
	for _, side := range []int{-1, 1} {
		for f := 1.3; f <= 2.1; f += 0.1 {
			x := cx + side*int(f*float64(m.r))
			mid0 := closeup.Luma(im, x, cy)
			up, down := cy, cy
			if !sclera(im, x, cy, mid0) {
				continue
			}
			for up > cy-3*m.r/2 && sclera(im, x, up-1, mid0) {
				up--
			}
			for down < cy+3*m.r/2 && sclera(im, x, down+1, mid0) {
				down++
			}
			if down-up < 6 {
				continue
			}
			tall = max(tall, down-up+1)
			for y := up; y <= down; y++ {
				white = append(white, closeup.Luma(im, x, y))
			}
			for k := range 3 {
				top = append(top, closeup.Luma(im, x, up+k))
				mid = append(mid, closeup.Luma(im, x, cy-1+k))
			}
		}
	}
	if len(top) == 0 {
		return m, false
	}
	var skin []float64
	for y := cy + 5*m.r/2; y <= cy+7*m.r/2; y++ {
		for x := cx - m.r; x <= cx+m.r; x++ {
			skin = append(skin, closeup.Luma(im, x, y))
		}
	}
	m.tall = tall
	m.white, m.skin, m.top, m.mid = mean(white), mean(skin), mean(top), mean(mid)
	return m, true
}

// pupil is the middle of the darkest 7-px square in the window, by its
// mean luma: a large catchlight over the pupil's top left the 13-px
// patch's third quartile (closeup.Pupil) darker on a dark face's lash
// line (random-04).
func pupil(im image.Image, win image.Rectangle) (cx, cy int) {
	best := 1e9
	for y := win.Min.Y; y < win.Max.Y; y++ {
		for x := win.Min.X; x < win.Max.X; x++ {
			s := 0.0
			for dy := -3; dy <= 3; dy++ {
				for dx := -3; dx <= 3; dx++ {
					s += closeup.Luma(im, x+dx, y+dy)
				}
			}
			if s < best {
				best, cx, cy = s, x, y
			}
		}
	}
	return cx, cy
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
