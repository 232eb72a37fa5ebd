// Command browcontrast measures the brow in close-ups of the eyes
// (look.mjs --camera eyes, 512 px): how much darker than the forehead
// the brow is, and how soft its upper edge, so Kiln's brows can be put
// beside the leader's by number (issue 22: the judges called ours "hard
// eyebrows", near-black with a cut outline; the leader's are a soft
// brown shape).
//
//	go run ./bench/avatar-look/browcontrast OUT/*-eyes.png
//
// Each column from x0 to x1 (the middle of the brow on the picture's
// left) is read down from the forehead (the mean luma of rows y0 to
// y0+20) into the first run of rows darker than the forehead by 12 or
// more (the brow). Per column: the brow's luma (the median of its first
// browRows rows) against the forehead's (contrast, 0 the same to 1
// black) and the rows its upper edge takes to fall from 10 % to 90 % of
// that drop (edge, pixels). Printed:
// the medians over the columns.
package main

import (
	"flag"
	"fmt"
	"image"
	"slices"

	"github.com/kilnhq/kiln/assets/avatar/paint"
	"github.com/kilnhq/kiln/bench/internal/pngfile"
)

func main() {
	x0 := flag.Int("x0", 120, "first column")
	x1 := flag.Int("x1", 200, "last column")
	y0 := flag.Int("y0", 140, "first forehead row")
	flag.Parse()
	pngfile.Each(flag.Args(), func(f string, im image.Image) {
		var contrast, edge, dark, fore []float64
		for x := *x0; x <= *x1; x++ {
			if c, e, d, fh, ok := column(im, x, *y0); ok {
				contrast, edge, dark, fore = append(contrast, c), append(edge, e), append(dark, d), append(fore, fh)
			}
		}
		if len(contrast) == 0 {
			fmt.Printf("%s: no brow found\n", f)
			return
		}
		fmt.Printf("%s: forehead luma %.0f, brow %.0f, contrast %.2f, upper edge %.1f px (%d columns)\n",
			f, median(fore), median(dark), median(contrast), median(edge), len(contrast))
	})
}

// column reads one column down from the forehead through the brow.
func column(im image.Image, x, y0 int) (contrast, edge, dark, fore float64, ok bool) {
	luma := func(y int) float64 {
		R, G, B, _ := im.At(x, y).RGBA()
		return paint.Luma([3]float64{float64(R), float64(G), float64(B)}) / 257
	}
	for y := y0; y < y0+20; y++ {
		fore += luma(y) / 20
	}
	in := -1
	for y := y0 + 20; y < im.Bounds().Max.Y; y++ {
		if luma(y) < fore-12 {
			in = y
			break
		}
	}
	if in < 0 {
		return 0, 0, 0, 0, false
	}
	// The brow's level: the median luma of the browRows rows from where
	// it starts (its darkest row is no measure: the leader's brow runs
	// into the lid's shade and lashes below it).
	var rows []float64
	for y := in; y < in+browRows && y < im.Bounds().Max.Y; y++ {
		rows = append(rows, luma(y))
	}
	dark = median(rows)
	drop := fore - dark
	if drop <= 0 {
		return 0, 0, 0, 0, false
	}
	top, bottom := -1, -1
	for y := y0 + 20; y < in+browRows; y++ {
		l := luma(y)
		if top < 0 && l < fore-0.1*drop {
			top = y
		}
		if l < fore-0.9*drop {
			bottom = y
			break
		}
	}
	if top < 0 || bottom < 0 {
		return 0, 0, 0, 0, false
	}
	return drop / fore, float64(bottom - top + 1), dark, fore, true
}

// browRows is how many rows down from its top edge the brow is read: at
// this camera the middle of every brow here is at least that high.
const browRows = 16

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
