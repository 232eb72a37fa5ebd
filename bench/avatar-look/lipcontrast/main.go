// Command lipcontrast measures the lips in room-light portraits
// (look.mjs --light room --camera portrait, 512 px), so Kiln's lips can
// be put beside the leader's by number (issue 22: the judges saw our
// lips barely apart from the skin, a faint slit; the leader's pink lips
// clearly apart from the skin, the upper one darker, a dark slit and a
// shade under the lower lip).
//
//	go run ./bench/avatar-look/lipcontrast OUT/*-room-portrait.png
//
// The slit is the darkest row (the mean over the middle band of columns,
// 256 +- 10) between rows y0 and y1; the upper lip is the four rows
// above it (2 to 5 rows off), the lower lip the five below (2 to 6);
// the skin that above the upper lip either side of the philtrum
// (columns 256 +- 14 to 24, rows 10 to 14 above the slit: the cheeks
// beside the mouth lie in the face's side shade, and a chin under the
// lower lip in its shade). Printed: each lip's luma over the skin's,
// its redness (1 - G/R) and pinkness (B/G) minus the skin's, the slit's
// luma over the lower lip's, and the darkest of the 12 rows under the
// lower lip over the lower lip (the shade under it).
package main

import (
	"flag"
	"fmt"
	"image"

	"github.com/kilnhq/kiln/assets/avatar/paint"
	"github.com/kilnhq/kiln/bench/internal/pngfile"
)

func main() {
	y0 := flag.Int("y0", 285, "first row searched for the slit")
	y1 := flag.Int("y1", 340, "last row searched for the slit")
	flag.Parse()
	pngfile.Each(flag.Args(), func(f string, im image.Image) {
		measure(f, im, *y0, *y1)
	})
}

type rgb [3]float64

func (c rgb) luma() float64    { return paint.Luma(c) }
func (c rgb) redness() float64 { return 1 - c[1]/c[0] }
func (c rgb) pink() float64    { return c[2] / c[1] }

// mean is the mean colour (0..255) over columns x0..x1 and rows ya..yb.
func mean(im image.Image, x0, x1, ya, yb int) rgb {
	var c rgb
	n := 0.0
	for y := ya; y <= yb; y++ {
		for x := x0; x <= x1; x++ {
			R, G, B, _ := im.At(x, y).RGBA()
			c[0] += float64(R) / 257
			c[1] += float64(G) / 257
			c[2] += float64(B) / 257
			n++
		}
	}
	return rgb{c[0] / n, c[1] / n, c[2] / n}
}

func measure(name string, im image.Image, y0, y1 int) {
	const cx, band = 256, 10
	row := func(y int) rgb { return mean(im, cx-band, cx+band, y, y) }
	slit := y0
	for y := y0; y <= y1; y++ {
		if row(y).luma() < row(slit).luma() {
			slit = y
		}
	}
	up := mean(im, cx-band, cx+band, slit-5, slit-2)
	low := mean(im, cx-band, cx+band, slit+2, slit+6)
	l, r := mean(im, cx-24, cx-14, slit-14, slit-10), mean(im, cx+14, cx+24, slit-14, slit-10)
	skin := rgb{(l[0] + r[0]) / 2, (l[1] + r[1]) / 2, (l[2] + r[2]) / 2}
	under := low.luma()
	for y := slit + 7; y <= slit+18; y++ {
		under = min(under, row(y).luma())
	}
	fmt.Printf("%s: slit row %d; upper lip luma %.2f redness %+.3f pink %+.3f; lower lip luma %.2f redness %+.3f pink %+.3f; slit %.2f of the lower lip; under it %.2f\n",
		name, slit, up.luma()/skin.luma(), up.redness()-skin.redness(), up.pink()-skin.pink(),
		low.luma()/skin.luma(), low.redness()-skin.redness(), low.pink()-skin.pink(),
		row(slit).luma()/low.luma(), under/low.luma())
}
