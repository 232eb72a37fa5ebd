// Command skinshade measures the form shading and the warmth of the skin
// in room-light portraits (look.mjs --light room --camera portrait,
// 512 px), so Kiln's skin can be put beside the leader's by number, in
// the same boxes (issue 22: the judges call our faces flat, waxy and
// stiff; the leader bakes a soft shade into its skin where the face's
// form keeps the light off, and warmth on its cheeks, nose and ears).
//
//	go run ./bench/avatar-look/skinshade [-draw DIR] OUT/*-room-portrait.png
//
// The boxes are placed from two rows found on each picture, so faces of
// different lengths are measured at the same places on them: the eyes'
// row (the mean row of the light, grey pixels, the eyes' whites, in two
// bands beside the nose) and the lips' parting (the darkest row of the
// mouth's middle, as lipcontrast finds it); s is the distance between
// them. The chin's edge is the row under the mouth where the middle of
// the face darkens most from one row to the next. Printed, each over the
// cheeks' luma (Rec. 709 of the sRGB values): the eye sockets' inner
// corners beside the nose's bridge, the nose's sides, the skin under the
// nose either side of the philtrum, the throat under the chin and the
// neck below it (a crew neckline's edge lies lower), the forehead, the nose's bridge, the face's sides beside the cheeks (where
// it turns away toward the ears); then the cheeks' redness ((R-G)/luma),
// less the forehead's, the face sides' less the cheeks', and the
// cheeks' saturation (1 - min/max). -eye and -slit set the rows
// by hand where a picture fools the search (glasses' rims are grey too,
// a moustache is darker than the parting); -draw writes each picture
// with its boxes outlined, to check where they fell.
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

	"github.com/kilnhq/kiln/assets/avatar/paint"
	"github.com/kilnhq/kiln/bench/internal/pngfile"
)

func main() {
	eye := flag.Int("eye", 0, "the eyes' row, when not searched for (0: search)")
	slit := flag.Int("slit", 0, "the lips' parting's row, when not searched for (0: search)")
	out := flag.String("draw", "", "write each picture with its boxes outlined into this folder")
	flag.Parse()
	pngfile.Each(flag.Args(), func(f string, im image.Image) {
		b := place(im, *eye, *slit)
		fmt.Println(report(filepath.Base(f), im, b))
		if *out != "" {
			if err := outline(filepath.Join(*out, filepath.Base(f)), im, b); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	})
}

type rgb [3]float64

func (c rgb) luma() float64 { return paint.Luma(c) }

// redness is how much red stands over green, per unit of light.
func (c rgb) redness() float64 { return (c[0] - c[1]) / c.luma() }

// saturation is HSV's: how far the darkest channel is below the lightest.
func (c rgb) saturation() float64 { return 1 - min(c[0], c[1], c[2])/max(c[0], c[1], c[2]) }

func at(im image.Image, x, y int) rgb {
	R, G, B, _ := im.At(x, y).RGBA()
	return rgb{float64(R) / 257, float64(G) / 257, float64(B) / 257}
}

// mean is the mean colour (0..255) over the rectangles' pixels.
func mean(im image.Image, rs ...image.Rectangle) rgb {
	var c rgb
	n := 0.0
	for _, r := range rs {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				p := at(im, x, y)
				c = rgb{c[0] + p[0], c[1] + p[1], c[2] + p[2]}
				n++
			}
		}
	}
	return rgb{c[0] / n, c[1] / n, c[2] / n}
}

// mid is the picture's middle column: look.mjs frames the face on it.
const mid = 256

// box is columns mid+dx0..mid+dx1 and rows y0..y1, both inclusive.
func box(dx0, dx1, y0, y1 int) image.Rectangle {
	return image.Rect(mid+dx0, y0, mid+dx1+1, y1+1)
}

// eyeRow is where the eyes' whites are: the mean row of the light, grey
// pixels (luma over 150, saturation under 0.2) in two bands 20 to 60
// columns either side of the middle, rows 170 to 270.
func eyeRow(im image.Image) int {
	var sum, n float64
	for y := 170; y <= 270; y++ {
		for dx := 20; dx <= 60; dx++ {
			for _, x := range []int{mid - dx, mid + dx} {
				if c := at(im, x, y); c.luma() > 150 && c.saturation() < 0.2 {
					sum += float64(y)
					n++
				}
			}
		}
	}
	if n == 0 {
		return 0
	}
	return int(math.Round(sum / n))
}

// slitRow is the lips' parting: the darkest row of the mouth's middle
// (21 columns) from 60 to 130 rows under the eyes (the nostrils lie
// nearer).
func slitRow(im image.Image, eye int) int {
	best, dark := 0, math.Inf(1)
	for y := eye + 60; y <= eye+130; y++ {
		if l := mean(im, box(-10, 10, y, y)).luma(); l < dark {
			best, dark = y, l
		}
	}
	return best
}

// chinRow is the chin's lower edge: from 0.3 to 1.0 s under the parting,
// the row where the face's middle (0.3 s either side) darkens most into
// the next few rows.
func chinRow(im image.Image, slit int, s float64) int {
	w := int(0.3 * s)
	best, drop := 0, math.Inf(-1)
	for y := slit + int(0.3*s); y <= slit+int(s); y++ {
		d := mean(im, box(-w, w, y-2, y)).luma() - mean(im, box(-w, w, y+1, y+3)).luma()
		if d > drop {
			best, drop = y, d
		}
	}
	return best
}

// boxes are where a face is measured, each one or two mirrored
// rectangles.
type boxes struct {
	eye, slit, chin                                      int
	cheek, forehead, socket, noseSide, underNose, throat []image.Rectangle
	bridge, side, neck                                   []image.Rectangle
}

// place finds the rows (eye and slit unless given) and the boxes.
func place(im image.Image, eye, slit int) boxes {
	if eye == 0 {
		eye = eyeRow(im)
	}
	if slit == 0 {
		slit = slitRow(im, eye)
	}
	s := float64(slit - eye)
	f := func(k float64) int { return int(math.Round(k * s)) }
	both := func(k0, k1 float64, y0, y1 int) []image.Rectangle {
		return []image.Rectangle{box(-f(k1), -f(k0), y0, y1), box(f(k0), f(k1), y0, y1)}
	}
	chin := chinRow(im, slit, s)
	return boxes{
		eye: eye, slit: slit, chin: chin,
		cheek:     both(0.45, 0.6, eye+f(0.45), eye+f(0.6)),
		forehead:  []image.Rectangle{box(-f(0.15), f(0.15), eye-f(0.62), eye-f(0.48))},
		socket:    both(0.12, 0.18, eye-f(0.02), eye+f(0.06)),
		noseSide:  both(0.1, 0.16, eye+f(0.28), eye+f(0.4)),
		underNose: both(0.05, 0.12, slit-f(0.3), slit-f(0.22)),
		throat:    []image.Rectangle{box(-f(0.15), f(0.15), chin+f(0.06), chin+f(0.2))},
		bridge:    []image.Rectangle{box(-f(0.03), f(0.03), eye+f(0.1), eye+f(0.25))},
		side:      both(0.8, 0.9, eye+f(0.45), eye+f(0.6)),
		neck:      []image.Rectangle{box(-f(0.1), f(0.1), chin+f(0.25), chin+f(0.35))},
	}
}

func report(name string, im image.Image, b boxes) string {
	cheek, forehead := mean(im, b.cheek...), mean(im, b.forehead...)
	c := cheek.luma()
	over := func(rs []image.Rectangle) float64 { return mean(im, rs...).luma() / c }
	side := mean(im, b.side...)
	return fmt.Sprintf("%s: eye %d slit %d chin %d; over the cheek (luma %.0f): socket %.3f nose side %.3f under nose %.3f throat %.3f neck %.3f forehead %.3f bridge %.3f face side %.3f; redness: cheek %.3f, minus the forehead's %+.3f, the face's side minus the cheek's %+.3f; cheek saturation %.3f",
		name, b.eye, b.slit, b.chin, c, over(b.socket), over(b.noseSide), over(b.underNose), over(b.throat), over(b.neck), over(b.forehead), over(b.bridge), side.luma()/c,
		cheek.redness(), cheek.redness()-forehead.redness(), side.redness()-cheek.redness(), cheek.saturation())
}

// outline writes im with every box's edge drawn in green.
func outline(f string, im image.Image, b boxes) error {
	out := image.NewRGBA(im.Bounds())
	draw.Draw(out, out.Bounds(), im, image.Point{}, draw.Src)
	green := color.RGBA{0, 255, 0, 255}
	for _, rs := range [][]image.Rectangle{b.cheek, b.forehead, b.socket, b.noseSide, b.underNose, b.throat, b.bridge, b.side, b.neck} {
		for _, r := range rs {
			for x := r.Min.X; x < r.Max.X; x++ {
				out.Set(x, r.Min.Y, green)
				out.Set(x, r.Max.Y-1, green)
			}
			for y := r.Min.Y; y < r.Max.Y; y++ {
				out.Set(r.Min.X, y, green)
				out.Set(r.Max.X-1, y, green)
			}
		}
	}
	return pngfile.Write(f, out)
}
