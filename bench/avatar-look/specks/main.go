// Command specks counts single-pixel specks round the mouth in room-light
// portraits (look.mjs --light room --camera portrait, 512 px). At p24 the
// judges named single dark and light specks round our mouths (about 8 a
// face, the leader's 2 to 5). They were not in the avatars: look.mjs drew
// them with multisampling in SwiftShader, which tests each sample against
// the depth at the pixel's centre, and the mouth's lining and the teeth,
// seen nearly edge on a centimetre or two behind the skin, came through
// it in one sample of a pixel (see look.mjs's --ssaa). This measure is
// how that was found and how it is checked.
//
//	go run ./bench/avatar-look/specks [-box 196,276,316,340] [-v] OUT/*-room-portrait.png
//
// A speck is a pixel whose luma stands more than specksStep from the
// median of its 3x3 neighbourhood, and at least half that beyond each of
// its eight neighbours on the same side: an isolated dot, not an edge,
// a line or a shade (the lips' slit, a lash, the jaw's outline).
// Printed: each picture's count, and with -v where the specks are.
package main

import (
	"flag"
	"fmt"
	"image"
	"os"
	"slices"

	"github.com/kilnhq/kiln/bench/internal/closeup"
	"github.com/kilnhq/kiln/bench/internal/pngfile"
)

// specksStep is how far, in luma (0..255), a speck stands from its
// neighbourhood's median: the p24 pictures' specks stood 13 to 80 off.
const specksStep = 12

// mouthBox is the box round the mouth in a 512-px room portrait, ours and
// the leader's: the lips, the skin round the corners, not the jaw's
// outline or the hair.
var mouthBox = image.Rect(196, 276, 316, 340)

func main() {
	box := flag.String("box", "", "x0,y0,x1,y1 of the box searched (default the mouth's)")
	verbose := flag.Bool("v", false, "print where the specks are")
	flag.Parse()
	r := mouthBox
	if *box != "" {
		if _, err := fmt.Sscanf(*box, "%d,%d,%d,%d", &r.Min.X, &r.Min.Y, &r.Max.X, &r.Max.Y); err != nil {
			fmt.Fprintln(os.Stderr, "-box is x0,y0,x1,y1:", err)
			os.Exit(2)
		}
	}
	total := 0
	pngfile.Each(flag.Args(), func(f string, im image.Image) {
		s := specks(im, r)
		total += len(s)
		fmt.Printf("%s %d", f, len(s))
		if *verbose {
			for _, p := range s {
				fmt.Printf(" %d,%d", p.X, p.Y)
			}
		}
		fmt.Println()
	})
	fmt.Printf("total %d\n", total)
}

// specks are the isolated pixels in r (r within im, a pixel's border
// inside its bounds).
func specks(im image.Image, r image.Rectangle) []image.Point {
	r = r.Intersect(im.Bounds().Inset(1))
	var out []image.Point
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if isolated(im, x, y) {
				out = append(out, image.Pt(x, y))
			}
		}
	}
	return out
}

// isolated reports whether the pixel at x, y is a speck.
func isolated(im image.Image, x, y int) bool {
	c := closeup.Luma(im, x, y)
	var around []float64
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if dx != 0 || dy != 0 {
				around = append(around, closeup.Luma(im, x+dx, y+dy))
			}
		}
	}
	all := slices.Sorted(slices.Values(append([]float64{c}, around...)))
	d := c - all[4]
	if d <= specksStep && d >= -specksStep {
		return false
	}
	for _, q := range around {
		if d > 0 && c-q < specksStep/2 || d < 0 && q-c < specksStep/2 {
			return false
		}
	}
	return true
}
