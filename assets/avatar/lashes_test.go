package avatar

import (
	"image"
	"math"
	"testing"
)

// lashLine is the left eye's lash line as a viewer in front of the face
// sees it, read on a grid of lashCell cells over the eye (x across, y
// up) where the lashes' base colour texture, sampled bilinearly as a
// viewer does, passes the material's alpha cut-off (0.5): per column, the
// covered cells' count (the line's width) and its highest covered cell
// (the line's top edge), or -1 where a column has none. x0 is the
// column of the eyeball's inner side, x1 of its outer side.
type lashLine struct {
	width, top []int
	x0, x1     int
}

const lashCell = 0.0001

func measureLashLine(t *testing.T, cfg Config) lashLine {
	t.Helper()
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	eye := meshOf(t, s, "EyeLeft")
	lo, hi := math.Inf(1), math.Inf(-1)
	var c vec3
	for _, p := range eye.Positions {
		lo, hi = math.Min(lo, float64(p[0])), math.Max(hi, float64(p[0]))
		for k := range 3 {
			c[k] += float64(p[k]) / float64(len(eye.Positions))
		}
	}
	lash := meshOf(t, s, "Wolf3D_Eyelashes")
	img := baseColorImage(t, s, "Wolf3D_Eyelashes")
	// The grid: from 5 mm inside the eyeball's inner side to 10 mm past
	// its outer side, from the eye's centre to 15 mm over it.
	gx0, gy0 := lo-0.005, c[1]
	nx, ny := int((hi-lo+0.015)/lashCell), int(0.015/lashCell)
	hit := make([]bool, nx*ny)
	// The skin in front: the head's nearest depth per cell, so the
	// lashes' roots behind the lid do not count.
	skin := make([]float64, nx*ny)
	for k := range skin {
		skin[k] = math.Inf(-1)
	}
	head := meshOf(t, s, "Wolf3D_Head")
	raster(head.Positions, head.Indices, gx0, gy0, nx, ny, func(x, y int, w [3]float64, z float64, _ [3]uint32) {
		skin[y*nx+x] = math.Max(skin[y*nx+x], z)
	})
	uv := lash.TexCoords[0]
	raster(lash.Positions, lash.Indices, gx0, gy0, nx, ny, func(x, y int, w [3]float64, z float64, tri [3]uint32) {
		if z < skin[y*nx+x] {
			return
		}
		var u, v float64
		for k := range 3 {
			u += w[k] * float64(uv[tri[k]][0])
			v += w[k] * float64(uv[tri[k]][1])
		}
		if bilinearAlpha(img, u, v) >= 0.5 {
			hit[y*nx+x] = true
		}
	})
	m := lashLine{width: make([]int, nx), top: make([]int, nx), x0: int(0.005 / lashCell), x1: int((hi - gx0) / lashCell)}
	for x := range nx {
		m.top[x] = -1
		for y := range ny {
			if hit[y*nx+x] {
				m.width[x]++
				m.top[x] = y
			}
		}
	}
	return m
}

// raster calls f for each lashCell cell of the nx×ny grid from (gx0,
// gy0) whose centre a triangle of x > 0 covers, seen from the front,
// with the centre's barycentric weights, its depth and the triangle.
func raster(pos [][3]float32, idx []uint32, gx0, gy0 float64, nx, ny int, f func(x, y int, w [3]float64, z float64, tri [3]uint32)) {
	for k := 0; k+2 < len(idx); k += 3 {
		tri := [3]uint32{idx[k], idx[k+1], idx[k+2]}
		a, b, d := pos[tri[0]], pos[tri[1]], pos[tri[2]]
		if a[0] < 0 {
			continue
		}
		den := float64((b[1]-d[1])*(a[0]-d[0]) + (d[0]-b[0])*(a[1]-d[1]))
		if math.Abs(den) < 1e-14 {
			continue
		}
		cx0 := int((float64(min(a[0], b[0], d[0])) - gx0) / lashCell)
		cx1 := int((float64(max(a[0], b[0], d[0]))-gx0)/lashCell) + 1
		cy0 := int((float64(min(a[1], b[1], d[1])) - gy0) / lashCell)
		cy1 := int((float64(max(a[1], b[1], d[1]))-gy0)/lashCell) + 1
		for y := max(cy0, 0); y < min(cy1, ny); y++ {
			for x := max(cx0, 0); x < min(cx1, nx); x++ {
				px, py := gx0+(float64(x)+0.5)*lashCell, gy0+(float64(y)+0.5)*lashCell
				w0 := (float64(b[1]-d[1])*(px-float64(d[0])) + float64(d[0]-b[0])*(py-float64(d[1]))) / den
				w1 := (float64(d[1]-a[1])*(px-float64(d[0])) + float64(a[0]-d[0])*(py-float64(d[1]))) / den
				w2 := 1 - w0 - w1
				if w0 < 0 || w1 < 0 || w2 < 0 {
					continue
				}
				f(x, y, [3]float64{w0, w1, w2}, w0*float64(a[2])+w1*float64(b[2])+w2*float64(d[2]), tri)
			}
		}
	}
}

// bilinearAlpha is the image's alpha at (u, v), filtered between the four
// nearest texels as a viewer's sampler does (wrapping).
func bilinearAlpha(img image.Image, u, v float64) float64 {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	fx, fy := u*float64(w)-0.5, v*float64(h)-0.5
	x0, y0 := int(math.Floor(fx)), int(math.Floor(fy))
	tx, ty := fx-float64(x0), fy-float64(y0)
	at := func(x, y int) float64 {
		x, y = (x%w+w)%w, (y%h+h)%h
		_, _, _, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
		return float64(a) / 65535
	}
	return (at(x0, y0)*(1-tx)+at(x0+1, y0)*tx)*(1-ty) + (at(x0, y0+1)*(1-tx)+at(x0+1, y0+1)*tx)*ty
}

// jag is how ragged the line's top edge is, mm: the mean distance of
// the top edge from its own mean over the columns within lashSpan, over
// the columns whose neighbours within lashSpan are all covered. A smooth
// curve stays within a cell or two of its mean; strand tips stand out.
func (m lashLine) jag() float64 {
	const span = int(lashSpan / lashCell)
	var sum float64
	n := 0
	for x := span; x+span < len(m.top); x++ {
		mean, ok := 0.0, true
		for k := x - span; k <= x+span; k++ {
			ok = ok && m.top[k] >= 0
			mean += float64(m.top[k]) / float64(2*span+1)
		}
		if !ok {
			continue
		}
		sum += math.Abs(float64(m.top[x]) - mean)
		n++
	}
	return 1000 * lashCell * sum / float64(max(n, 1))
}

// lashSpan is the half width of the columns jag reads a top edge's mean
// over.
const lashSpan = 0.0008

// widths is the line's mean width, mm, over the inner and the outer
// third of the eyeball's span across.
func (m lashLine) widths() (inner, outer float64) {
	third := (m.x1 - m.x0) / 3
	mean := func(a, b int) float64 {
		s := 0
		for x := a; x < b; x++ {
			s += m.width[x]
		}
		return 1000 * lashCell * float64(s) / float64(b-a)
	}
	return mean(m.x0, m.x0+third), mean(m.x1-third, m.x1)
}

// wing is how far the line runs past the eyeball's outer side, mm.
func (m lashLine) wing() float64 {
	last := m.x1
	for x := m.x1; x < len(m.width); x++ {
		if m.width[x] > 0 {
			last = x
		}
	}
	return 1000 * lashCell * float64(last-m.x1)
}

// TestLashLine checks the upper lash line on the panel's twenty faces
// (panelFaces) as a viewer in front sees it (measureLashLine): its top
// edge smooth (jag at most lashJagMax) and no wing past the eyeball's
// outer side (wing at most lashWingMax). MakeHuman's lashes painted as
// hair (paint.Hair, its alpha broken into strand tips at every border)
// were the close-ups' "hard, jagged dark strip" of issue 22, the same
// band at both ends with a flick out past the outer corner: jag 0.047 to
// 0.087 mm, wing 0.3 to 6.0 mm (more than 2 mm on 13 of the twenty).
// Painted by paint.Lashes (a line whose width tapers along the lid,
// lashReach) they are 0.026 to 0.035 mm and 0 to 2.8 mm: random-05's
// 2.8 mm is a thin tapered tail past the corner, not the old strip's
// flick; with ddb22b0's lower resting lid (reverted: blind A/Bs, 53 of
// 92 judgements for the higher lid) the wings were 0 to 1.7 mm.
func TestLashLine(t *testing.T) {
	const lashJagMax, lashWingMax = 0.04, 3.0
	for _, f := range panelFaces() {
		m := measureLashLine(t, f.cfg)
		in, out := m.widths()
		t.Logf("%s: top edge's jag %.3f mm, width %.2f mm over the inner third, %.2f over the outer, wing %.1f mm", f.name, m.jag(), in, out, m.wing())
		if j := m.jag(); j > lashJagMax {
			t.Errorf("%s: the lash line's top edge is ragged by %.3f mm, want at most %.3f (strand tips: a jagged strip)", f.name, j, lashJagMax)
		}
		if w := m.wing(); w > lashWingMax {
			t.Errorf("%s: the lash line runs %.1f mm past the eye's outer side, want at most %.1f (a wing)", f.name, w, lashWingMax)
		}
	}
}
