// Package closeup finds what the look tools under bench/avatar-look
// measure from in a rendered eye close-up (look.mjs --camera eyes): a
// pixel's luma and the pupils. browshape and eyewhite both place their
// boxes in eye-distances from the pupils, so they must find them alike.
package closeup

import (
	"image"
	"math"
	"slices"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// Luma is the pixel's relative luminance on 0..255, by the painter's
// own weights (paint.Luma), so a tool reads a picture as the skin was
// painted.
func Luma(im image.Image, x, y int) float64 {
	r, g, b, _ := im.At(x, y).RGBA()
	return 255 * paint.Luma(paint.RGB{float64(r>>8) / 255, float64(g>>8) / 255, float64(b>>8) / 255})
}

// Pupil is the middle of the darkest 13-px patch in the window, by its
// third-quartile luma so a catchlight over part of it does not move it.
func Pupil(im image.Image, win image.Rectangle) (cx, cy int) {
	best := math.Inf(1)
	for y := win.Min.Y; y < win.Max.Y; y++ {
		for x := win.Min.X; x < win.Max.X; x++ {
			var v []float64
			for dy := -6; dy <= 6; dy += 2 {
				for dx := -6; dx <= 6; dx += 2 {
					v = append(v, Luma(im, x+dx, y+dy))
				}
			}
			slices.Sort(v)
			if q := v[len(v)*3/4]; q < best {
				best, cx, cy = q, x, y
			}
		}
	}
	return cx, cy
}
