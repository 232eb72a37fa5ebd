// Package paint makes the avatar's textures in code: skin, eyes, cloth
// and hair, each as the three images of a glTF PBR material (base colour,
// tangent-space normal map, and occlusion-roughness-metalness packed as
// the leader's files and glTF's ORM convention pack them). MakeHuman's
// textures are not available to Kiln, and painting from the mesh itself
// keeps the textures right for whatever UV layout an asset has.
//
// Painting works on a surface map: every texel that a triangle covers in
// UV space knows the 3D point it shows and per-vertex weights blended
// there (for example how much of the lips it is). Painters then work in
// 3D, where features have a size in metres and noise is continuous
// across UV seams. Every image is a pure function of its inputs and a
// seed, so the same avatar gives the same bytes.
package paint

import (
	"bytes"
	"image"
	"math"
	"runtime"
	"sync"

	"github.com/kilnhq/kiln/assets/pngenc"
)

// Surface is a mesh as the painter sees it: rest positions in metres, UVs
// (glTF convention, v down), triangles, and an optional per-vertex mask
// (0..1) blended across each triangle, whose meaning is the painter's
// (the lips for skin).
type Surface struct {
	Pos  [][3]float32
	UV   [][2]float32
	Tris [][3]uint32
	Mask []float32
	// Inner is, per vertex, how deep inside the mouth it is (0..1), for
	// the skin painter; nil for none.
	Inner []float32
	// Blush is, per vertex, how much blood shows under the skin (0..1:
	// cheeks, the nose, the ears), for the skin painter; nil for none.
	Blush []float32
	// Shade is, per vertex, how much the jaw overhead shades the skin
	// (0..1: the throat and the neck under the jaw line), for the skin
	// painter; nil for none.
	Shade []float32
	// Form is, per vertex, how much of a soft key light above and in
	// front the face's own form keeps from the skin (0..1: the nose's
	// sides, the eye sockets, the face's sides), for the skin painter;
	// nil for none.
	// (CurlyHair fills it itself with the surface's curvature.)
	Form []float32
	// Sheen is, per vertex, how squarely the skin faces that key light
	// with nothing of the face before it (0..1: the forehead, the nose's
	// bridge, the cheekbones, the lower lip), where the skin painter
	// gives deep skin its highlight; nil for none.
	Sheen []float32
	// Mouth is where the lips are, for the skin painter to shape their
	// colour; nil for a surface without them.
	Mouth *Mouth
	// Edges, on a shirt or a blouse, are its collar's seen edges, for
	// the cloth painter to shade the cloth under them where Mask is over
	// 0.5 (the shirt's pieces, not the collar's own); nil for none.
	Edges []Edge
}

// Maps are the images of one material: base colour (sRGB, with alpha
// where the painter makes one), the tangent-space normal map, and
// occlusion (R), roughness (G) and metalness (B, zero). The caller
// encodes the ones its material uses (Encode).
type Maps struct {
	Base, Normal, ORM *image.NRGBA
}

// texel is what a surface map holds for one texel.
type texel struct {
	ok   bool
	pos  [3]float64
	mask float64
	// blush is Surface.Blush, blended like mask.
	blush float64
	// shade is Surface.Shade, blended like mask.
	shade float64
	// form is Surface.Form, blended like mask.
	form float64
	// sheen is Surface.Sheen, blended like mask.
	sheen float64
	// flow is a per-vertex 2D attribute blended like mask (the UV
	// direction hair strands run in).
	flow [2]float64
}

// surfaceMap rasterizes s's triangles into an n×n grid, then grows the
// covered area by a few texels (copying the nearest covered texel) so
// that bilinear filtering and mipmaps at the UV borders do not pull in
// the background.
func surfaceMap(s Surface, n int, flow [][2]float64) []texel {
	m := texelPool.get(n * n) // the caller releases it when done
	// Which texels are covered is kept apart too, a byte a texel: the
	// texels are 88 bytes (23 MB at 512²), and asking each one whether a
	// triangle before covered it missed the cache at every texel of
	// every triangle's box.
	cov := boolPool.get(n * n)
	defer boolPool.put(cov)
	// Bands of rows are rasterized side by side, each going through
	// every triangle in order, so "the first wins" holds as in one pass.
	parallel(n, func(r0, r1 int) { rasterize(m, cov, s, n, flow, r0, r1) })
	grow(m, cov, n, 2)
	return m
}

// rasterize fills rows r0..r1 of the surface map m, marking in cov the
// texels it covers.
func rasterize(m []texel, cov []bool, s Surface, n int, flow [][2]float64, r0, r1 int) {
	for _, t := range s.Tris {
		var px, py [3]float64
		for k, v := range t {
			px[k] = float64(s.UV[v][0])*float64(n) - 0.5
			py[k] = float64(s.UV[v][1])*float64(n) - 0.5
		}
		area := (px[1]-px[0])*(py[2]-py[0]) - (px[2]-px[0])*(py[1]-py[0])
		if math.Abs(area) < 1e-12 {
			continue
		}
		x0 := max(0, int(math.Floor(min(px[0], px[1], px[2]))))
		x1 := min(n-1, int(math.Ceil(max(px[0], px[1], px[2]))))
		y0 := max(r0, int(math.Floor(min(py[0], py[1], py[2]))))
		y1 := min(r1-1, int(math.Ceil(max(py[0], py[1], py[2]))))
		for y := y0; y <= y1; y++ {
			row, covered := m[y*n:][:n], cov[y*n:][:n]
			for x := x0; x <= x1; x++ {
				if covered[x] {
					// Overlapping UV pieces (hair cards share their
					// strands) show one surface point: the first. Asked
					// before the weights: a texel inside a neighbour's
					// bounding box is mostly covered by then.
					continue
				}
				fx, fy := float64(x), float64(y)
				w0 := ((px[1]-fx)*(py[2]-fy) - (px[2]-fx)*(py[1]-fy)) / area
				w1 := ((px[2]-fx)*(py[0]-fy) - (px[0]-fx)*(py[2]-fy)) / area
				w2 := 1 - w0 - w1
				const e = -0.02
				if w0 < e || w1 < e || w2 < e {
					continue
				}
				covered[x] = true
				tx := &row[x]
				tx.ok = true
				w := [3]float64{w0, w1, w2}
				tx.pos = [3]float64{}
				for k, v := range t {
					for a := 0; a < 3; a++ {
						tx.pos[a] += w[k] * float64(s.Pos[v][a])
					}
				}
				tx.mask, tx.blush, tx.shade, tx.form, tx.sheen, tx.flow = 0, 0, 0, 0, 0, [2]float64{}
				if flow != nil {
					for k, v := range t {
						tx.flow[0] += w[k] * flow[v][0]
						tx.flow[1] += w[k] * flow[v][1]
					}
				}
				if s.Mask != nil {
					for k, v := range t {
						tx.mask += w[k] * float64(s.Mask[v])
					}
				}
				if s.Blush != nil {
					for k, v := range t {
						tx.blush += w[k] * float64(s.Blush[v])
					}
				}
				if s.Shade != nil {
					for k, v := range t {
						tx.shade += w[k] * float64(s.Shade[v])
					}
				}
				if s.Form != nil {
					for k, v := range t {
						tx.form += w[k] * float64(s.Form[v])
					}
				}
				if s.Sheen != nil {
					for k, v := range t {
						tx.sheen += w[k] * float64(s.Sheen[v])
					}
				}
			}
		}
	}
}

// grow copies covered texels (cov) into their uncovered neighbours, r
// times. Rows are done side by side: a step writes only texels that were
// uncovered and reads only ones that were covered. Each step marks the
// texels it fills for the next; cov is left as it was.
func grow(m []texel, cov []bool, n, r int) {
	prev, next := boolPool.get(len(m)), boolPool.get(len(m))
	defer boolPool.put(prev)
	defer boolPool.put(next)
	copy(prev, cov)
	for ; r > 0; r-- {
		copy(next, prev)
		parallel(n, func(y0, y1 int) { growRows(m, prev, next, n, y0, y1) })
		prev, next = next, prev
	}
}

// growRows is one step of grow over rows y0..y1: an uncovered texel
// takes its first covered neighbour of right, left, below, above, and is
// marked in next.
func growRows(m []texel, prev, next []bool, n, y0, y1 int) {
	for y := y0; y < y1; y++ {
		for x := 0; x < n; x++ {
			i := y*n + x
			if prev[i] {
				continue
			}
			j := -1
			switch {
			case x+1 < n && prev[i+1]:
				j = i + 1
			case x > 0 && prev[i-1]:
				j = i - 1
			case y+1 < n && prev[i+n]:
				j = i + n
			case y > 0 && prev[i-n]:
				j = i - n
			}
			if j >= 0 {
				m[i] = m[j]
				next[i] = true
			}
		}
	}
}

// rgb is a linear-light colour, what shading mixes; base colour images
// are written in sRGB as glTF requires.
type rgb [3]float64

func (c rgb) scale(s float64) rgb { return rgb{c[0] * s, c[1] * s, c[2] * s} }

// Luma is the Rec. 709 luminance of a linear colour: the one place its
// weights are written, for the painters here and the avatar's colour
// choices (how dark a brow, which ink on a print).
func Luma(c [3]float64) float64 { return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2] }

func (c rgb) luma() float64 { return Luma(c) }
func (c rgb) mix(d rgb, t float64) rgb {
	return rgb{c[0] + (d[0]-c[0])*t, c[1] + (d[1]-c[1])*t, c[2] + (d[2]-c[2])*t}
}

// srgbTable maps linear light in 4096 steps to sRGB bytes: the power
// function per texel and channel was most of a texture's cost.
var srgbTable = func() (t [4097]uint8) {
	for i := range t {
		v := float64(i) / 4096
		if v <= 0.0031308 {
			v *= 12.92
		} else {
			v = 1.055*math.Pow(v, 1/2.4) - 0.055
		}
		t[i] = uint8(math.Round(v * 255))
	}
	return t
}()

func linearToSRGB(v float64) uint8 {
	return srgbTable[int(clamp01(v)*4096+0.5)]
}

func smooth(e0, e1, x float64) float64 {
	t := clamp01((x - e0) / (e1 - e0))
	return t * t * (3 - 2*t)
}

// clamp01 is math.Max(0, math.Min(1, v)) in two comparisons: those two
// are calls (they order ±0 and NaN), and every texel of every image made
// several. The one difference, -0 for -0, is lost in every use here (a
// product, a sum with a positive number, a rounding to a byte); NaN stays
// NaN.
func clamp01(v float64) float64 {
	if v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

// round8 is uint8(math.Round(v)): a truncation and a comparison where v
// is in [0, 256) (the fraction v-trunc(v) is exact there; adding 0.5
// instead would round 0.49999999999999994 up), math.Round itself
// otherwise. Three of the four bytes of every texel of the normal and ORM
// maps go through it.
func round8(v float64) uint8 {
	if !(v >= 0 && v < 256) {
		return uint8(math.Round(v))
	}
	i := int(v)
	if v-float64(i) >= 0.5 {
		i++
	}
	return uint8(i)
}

// layer is one material's texel values before encoding: linear base
// colour and alpha, height (for the normal map, in texels of relief),
// occlusion and roughness.
type layer struct {
	n      int
	base   []rgb
	alpha  []float64
	height []float64
	ao     []float64
	rough  []float64
}

func newLayer(n int) *layer {
	l := &layer{n: n, base: rgbPool.get(n * n), height: floatPool.get(n * n), ao: floatPool.get(n * n), rough: floatPool.get(n * n)}
	for i := range l.ao {
		l.ao[i] = 1
	}
	return l
}

// maps encodes the layer: base colour (with alpha when set), the normal
// map from the height field's slopes, and ORM (metalness 0).
func (l *layer) maps(bump float64) Maps {
	n := l.n
	base, nrm, orm := newImage(n), newImage(n), newImage(n)
	parallel(n, func(y0, y1 int) { l.fill(base, nrm, orm, bump, y0, y1) })
	l.release()
	return Maps{Base: base, Normal: nrm, ORM: orm}
}

// fill writes rows y0..y1 of the three images, straight into their
// pixels (Set through the image.Image interface was a third of it).
func (l *layer) fill(base, nrm, orm *image.NRGBA, bump float64, y0, y1 int) {
	n := l.n
	for y := y0; y < y1; y++ {
		// Rows above and below, wrapping as h does.
		up, down := l.height[((y+1)%n)*n:][:n], l.height[((y-1+n)%n)*n:][:n]
		row := l.height[y*n:][:n]
		pb, pn, po := base.Pix[y*base.Stride:][:4*n], nrm.Pix[y*nrm.Stride:][:4*n], orm.Pix[y*orm.Stride:][:4*n]
		for x := 0; x < n; x++ {
			i := y*n + x
			c := l.base[i]
			a := uint8(255)
			if l.alpha != nil {
				a = round8(255 * clamp01(l.alpha[i]))
			}
			pb[4*x], pb[4*x+1], pb[4*x+2], pb[4*x+3] = linearToSRGB(c[0]), linearToSRGB(c[1]), linearToSRGB(c[2]), a
			// Tangent space: +X along u, +Y up the image (against v), as
			// glTF's normal textures are defined.
			right, left := x+1, x-1
			if right == n {
				right = 0
			}
			if left < 0 {
				left = n - 1
			}
			dx := (row[right] - row[left]) / 2 * bump
			dy := (up[x] - down[x]) / 2 * bump
			if dx == 0 && dy == 0 {
				// Flat (the clear texels round the pieces, most of a
				// map): the normal straight out, what the formula
				// below gives for it.
				pn[4*x], pn[4*x+1], pn[4*x+2], pn[4*x+3] = flatNormal[0], flatNormal[1], flatNormal[2], 255
			} else {
				nx, ny, nz := -dx, dy, 1.0
				s := 1 / math.Sqrt(nx*nx+ny*ny+nz*nz)
				pn[4*x], pn[4*x+1], pn[4*x+2], pn[4*x+3] = unit8(nx*s), unit8(ny*s), unit8(nz*s), 255
			}
			po[4*x], po[4*x+1], po[4*x+2], po[4*x+3] = byte8(l.ao[i]), byte8(l.rough[i]), 0, 255
		}
	}
}

// parallel runs f over [0, n) in one band per CPU: textures are made
// while a client waits for its avatar.
func parallel(n int, f func(lo, hi int)) {
	k := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for b := 0; b < k; b++ {
		lo, hi := n*b/k, n*(b+1)/k
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

func unit8(v float64) uint8 { return round8((v*0.5 + 0.5) * 255) }

func byte8(v float64) uint8 { return round8(clamp01(v) * 255) }

// flatNormal is the normal map's texel where the height does not slope:
// unit8 of (-0, 0, 1), as fill's formula gives it.
var flatNormal = [3]uint8{unit8(math.Copysign(0, -1)), unit8(0), unit8(1)}

// Encode writes an image as PNG, every row under the Up filter
// (pngenc.EncodeUp), deflated at BestSpeed: textures are made on every
// build and the variant pipeline re-encodes them anyway. The pixels are
// the ones image/png's heuristic filters would give (lossless either
// way: TestEncodePixels) in about half the CPU, for 1.3 % more bytes.
func Encode(m *image.NRGBA) []byte {
	// Written into a pooled buffer and copied out at its size: a fresh
	// buffer grew by doubling (copying and zeroing as it went) and was
	// kept with up to twice the file's bytes by the texture cache.
	b := encodeBuffers.Get().(*bytes.Buffer)
	defer encodeBuffers.Put(b)
	b.Reset()
	if err := pngenc.EncodeUp(b, m); err != nil {
		panic(err) // writing to memory cannot fail; the maps are never empty
	}
	return bytes.Clone(b.Bytes())
}

var encodeBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}
