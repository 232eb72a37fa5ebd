// Package closeup finds what the look tools under bench/avatar-look
// measure from in a rendered eye close-up (look.mjs --camera eyes): a
// pixel's luma and the pupils. browshape, eyewhite and eyerim place
// their boxes in eye-distances from the pupils, so they must find them
// alike.
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

// LumaSat is the pixel's luma (as Luma) and its saturation, its
// channels' spread on 0..255: an eye's white is light and grey, which
// eyewhite and eyerim both test (each with its own bounds).
func LumaSat(im image.Image, x, y int) (luma, sat float64) {
	r, g, b, _ := im.At(x, y).RGBA()
	c := paint.RGB{float64(r>>8) / 255, float64(g>>8) / 255, float64(b>>8) / 255}
	return 255 * paint.Luma(c), 255 * (max(c[0], c[1], c[2]) - min(c[0], c[1], c[2]))
}

// PupilDistance is how far the other eye's pupil is from (cx, cy), a
// pupil found in win: the other is Pupil in win mirrored about the
// picture's middle, since the eyes camera is centred between the eyes.
// The tools measure in this distance, so they must find it alike.
func PupilDistance(im image.Image, win image.Rectangle, cx, cy int) float64 {
	w := im.Bounds().Dx()
	ox, oy := Pupil(im, image.Rect(w-win.Max.X, win.Min.Y, w-win.Min.X, win.Max.Y))
	return math.Hypot(float64(ox-cx), float64(oy-cy))
}
