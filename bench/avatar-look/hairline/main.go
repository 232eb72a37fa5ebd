// Command hairline measures how hard the hairline at the temples is in
// room portraits (look.mjs --camera portrait, 512 px): how many pixels
// the step from the forehead's skin to the hair takes, so Kiln's short
// cut can be put beside the leader's by number (issue 22, p16: "hair
// sits like a cap with hard edges", "boxy hair with a hard hairline").
//
//	go run ./bench/avatar-look/hairline OUT/*-room-portrait.png
//
// Each row from y0 to y1 (the temples, above the brows) is read from the
// face's middle (x = 256) outward, to the left on the picture and to the
// right, skin while a pixel is within 12 of the mean of the 8 before it;
// the first pixel darker than that by 12 or more starts the hair, whose
// luma is the darkest of the 10 pixels after. Per row and side: the
// pixels the step takes from 10 % to 90 % of its drop (edge, pixels) and
// its depth (the drop over the skin's luma). Rows whose middle is not
// skin (a fringe) or whose drop is under 20 % are left out. Printed: the
// medians over the rows.
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
	y0 := flag.Int("y0", 150, "first row")
	y1 := flag.Int("y1", 195, "last row")
	flag.Parse()
	pngfile.Each(flag.Args(), func(f string, im image.Image) {
		var edge, depth []float64
		for y := *y0; y <= *y1; y++ {
			for _, dir := range []int{-1, 1} {
				if e, d, ok := step(im, y, dir); ok {
					edge, depth = append(edge, e), append(depth, d)
				}
			}
		}
		if len(edge) == 0 {
			fmt.Printf("%s: no hairline found\n", f)
			return
		}
		fmt.Printf("%s: temple hairline edge %.1f px, depth %.2f (%d rows and sides)\n", f, median(edge), median(depth), len(edge))
	})
}

// step reads row y from the middle outward (dir -1 left, 1 right) into
// the hair.
func step(im image.Image, y, dir int) (edge, depth float64, ok bool) {
	luma := func(x int) float64 {
		R, G, B, _ := im.At(x, y).RGBA()
		return paint.Luma([3]float64{float64(R), float64(G), float64(B)}) / 257
	}
	mid := im.Bounds().Dx() / 2
	var run []float64
	for k := 0; k < 8; k++ {
		run = append(run, luma(mid+dir*k))
	}
	skin := mean(run)
	if skin < 100 {
		return 0, 0, false // hair over the middle
	}
	for x := mid + dir*8; x > 10 && x < im.Bounds().Dx()-10; x += dir {
		l := luma(x)
		if l < skin-12 {
			hair := l
			for k := 0; k < 10; k++ {
				hair = min(hair, luma(x+dir*k))
			}
			drop := skin - hair
			if drop < 0.2*skin {
				return 0, 0, false
			}
			// Back to where the fall began (within 12 of the skin), then
			// the 10 % and 90 % points of the drop.
			at := func(share float64) float64 {
				for k := -12; k < 12; k++ {
					if luma(x+dir*k) < skin-share*drop {
						return float64(k)
					}
				}
				return 12
			}
			return at(0.9) - at(0.1), drop / skin, true
		}
		if l > skin-12 && l < skin+12 {
			run = append(run[1:], l)
			skin = mean(run)
		}
	}
	return 0, 0, false
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
