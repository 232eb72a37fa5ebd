// Command eyewhite measures, in close-ups of the eyes (look.mjs --camera
// eyes, 512 px), how the upper lid meets the iris of the eye on the
// picture's left, so Kiln's eyes can be put beside the leader's by
// number (issue 22: the judges called ours "staring"; the leader's upper
// lid covers the top of the iris under a thick dark lash line, ours left
// white above it under a thin one).
//
//	go run ./bench/avatar-look/eyewhite [-marks DIR] OUT/*-eyes.png
//
// The pupil is the darkest patch in the window (x0..x1, y0..y1); the
// iris's radius is the run along the pupil's row, rightward (away from
// the painted catchlight, up and left of the pupil), until the white.
// In the column half the iris's radius right of the pupil, read up from
// the pupil: the lid's edge is the first run of lashRows rows darker
// than dark (the lash line), and the white above the iris is the white
// between the iris's top there and that edge; the white below is the
// white from the iris's bottom there down to the lower lid. Printed: the pupils'
// distance (px; the other pupil in the window mirrored about the
// middle), the iris's diameter over it (a size that does not depend on
// the head's), the iris's radius (px), how much of the iris's height
// the lid covers (negative: white shows above it), the white above and
// below (px), the lash line's rows and its luma against the lid's skin above
// it (contrast, 0 the same to 1 black). -marks writes each picture with
// the pupil, the iris's top and the lid's edge marked, to check what
// was measured.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/kilnhq/kiln/bench/internal/closeup"
	"github.com/kilnhq/kiln/bench/internal/pngfile"
)

const (
	// A white (sclera) pixel is at least this light and this grey.
	whiteLuma, whiteSat = 150, 30
	// A lash pixel is darker than dark; the lash line is at least
	// lashRows of them (the iris's dark limbal ring is one or two).
	dark     = 55
	lashRows = 3
)

func main() {
	x0 := flag.Int("x0", 90, "window's first column")
	x1 := flag.Int("x1", 230, "window's last column")
	y0 := flag.Int("y0", 215, "window's first row")
	y1 := flag.Int("y1", 300, "window's last row")
	marks := flag.String("marks", "", "write marked pictures to this folder")
	flag.Parse()
	pngfile.Each(flag.Args(), func(f string, im image.Image) {
		m, ok := measure(im, image.Rect(*x0, *y0, *x1, *y1))
		if !ok {
			fmt.Printf("%s: no iris found\n", f)
			return
		}
		// The other eye, in the window mirrored about the picture's
		// middle (the camera is centred between the eyes).
		ipd := closeup.PupilDistance(im, image.Rect(*x0, *y0, *x1, *y1), m.cx, m.cy)
		fmt.Printf("%s: pupils %.0f px apart, iris diameter %.3f of that, iris radius %d px, lid covers %.0f%% of the iris's height, white above %d px, below %d px, lash line %d px, contrast %.2f\n",
			f, ipd, float64(2*m.r)/ipd, m.r, 100*m.cover, m.white, m.below, m.lash, m.contrast)
		if *marks != "" {
			if err := mark(im, m, filepath.Join(*marks, filepath.Base(f))); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	})
}

func white(im image.Image, x, y int) bool {
	l, s := closeup.LumaSat(im, x, y)
	return l >= whiteLuma && s <= whiteSat
}

func darkAt(im image.Image, x, y int) bool {
	l, _ := closeup.LumaSat(im, x, y)
	return l < dark
}

type measures struct {
	cx, cy, r, col, irisTop, lid int
	cover                        float64
	white, below, lash           int
	contrast                     float64
}

func measure(im image.Image, win image.Rectangle) (measures, bool) {
	var m measures
	m.cx, m.cy = closeup.Pupil(im, win)
	// Centre it on the pupil's dark run along its row.
	pl, _ := closeup.LumaSat(im, m.cx, m.cy)
	l, r := m.cx, m.cx
	for l > win.Min.X-40 && closeup.Luma(im, l-1, m.cy) < pl+30 {
		l--
	}
	for r < win.Max.X+40 && closeup.Luma(im, r+1, m.cy) < pl+30 {
		r++
	}
	m.cx = (l + r) / 2
	for x := r; x < r+120; x++ {
		if white(im, x, m.cy) && white(im, x+1, m.cy) {
			m.r = x - m.cx
			break
		}
	}
	if m.r == 0 {
		return m, false
	}
	dx := m.r / 2
	m.col = m.cx + dx
	m.irisTop = m.cy - int(math.Round(math.Sqrt(float64(m.r*m.r-dx*dx))))
	m.lid = -1
	for y := m.cy - m.r/4; y > m.cy-2*m.r; y-- {
		run := true
		for k := range lashRows {
			run = run && darkAt(im, m.col, y-k)
		}
		if run {
			m.lid = y
			break
		}
	}
	if m.lid < 0 {
		return m, false
	}
	m.cover = float64(m.lid-m.irisTop) / float64(2*m.r)
	for y := min(m.irisTop, m.lid) - 1; y > m.lid; y-- {
		if white(im, m.col, y) {
			m.white++
		}
	}
	// The white below the iris: the first run of white from the iris's
	// bottom in the column (a catchlight inside the iris ends above it)
	// down to the lower lid.
	bottom := 2*m.cy - m.irisTop
	y := bottom - 2
	for y < bottom+m.r/2 && !white(im, m.col, y) {
		y++
	}
	for ; white(im, m.col, y); y++ {
		m.below++
	}
	y = m.lid
	for darkAt(im, m.col, y) && y > m.lid-40 {
		y--
	}
	m.lash = m.lid - y
	var lash, skin []float64
	for k := range m.lash {
		lash = append(lash, closeup.Luma(im, m.col, m.lid-k))
	}
	for k := 2; k < 8; k++ {
		skin = append(skin, closeup.Luma(im, m.col, y-k))
	}
	m.contrast = 1 - median(lash)/median(skin)
	return m, true
}

func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}

// mark writes the picture with the pupil's centre (red), the iris's top
// in the measured column (green) and the lid's edge (blue) marked.
func mark(im image.Image, m measures, f string) error {
	out := image.NewRGBA(im.Bounds())
	draw.Draw(out, out.Bounds(), im, image.Point{}, draw.Src)
	dot := func(x, y int, c color.RGBA) {
		for k := -3; k <= 3; k++ {
			out.Set(x+k, y, c)
		}
	}
	dot(m.cx, m.cy, color.RGBA{255, 0, 0, 255})
	dot(m.col, m.irisTop, color.RGBA{0, 255, 0, 255})
	dot(m.col, m.lid, color.RGBA{0, 0, 255, 255})
	return pngfile.Write(f, out)
}
