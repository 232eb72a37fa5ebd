// Package render draws preview images of Kiln scenes on the CPU, in pure
// Go: a rasterizer with a depth buffer and supersampling, glTF's
// metallic-roughness shading under a fixed studio light, and framing
// computed from the model. Previews are rendered by workers that may run
// anywhere, so the renderer needs no GPU, no cgo and no window system.
package render

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/srgb"
)

// Options choose the picture. Size is the side of the square image;
// Camera is "full" (the whole model) or "portrait" (head and shoulders);
// a nil Background leaves the background transparent.
type Options struct {
	Size       int
	Camera     string
	Background *color.NRGBA
}

// MaxSize bounds the image side: previews are thumbnails, and the
// supersampled buffers take 128 bytes a pixel (134 MB at 1024²).
const MaxSize = 1024

// ss is the supersampling factor per axis: 2×2 samples per pixel smooth
// silhouettes at a quarter of the cost of 4×4.
const ss = 2

// fovY is the vertical field of view: a portrait lens, so that faces are
// not distorted as a wide angle would.
const fovY = 30 * math.Pi / 180

// Render draws s. It fails only on bad options or a cancelled context; a
// scene with nothing to draw gives an empty (background) image.
func Render(ctx context.Context, s *scene.Scene, opt Options) (*image.NRGBA, error) {
	if opt.Size < 1 || opt.Size > MaxSize {
		return nil, fmt.Errorf("render: size %d outside 1..%d", opt.Size, MaxSize)
	}
	if opt.Camera == "" {
		opt.Camera = "full"
	}
	if opt.Camera != "full" && opt.Camera != "portrait" {
		return nil, fmt.Errorf("render: camera %q is not full or portrait", opt.Camera)
	}
	mats := resolveMaterials(s)
	prims := pose(s, mats)
	cam := frame(s, prims, opt.Camera)
	f := newFrame(opt.Size, cam)
	f.setup(prims)
	if limit := maxOverdraw * float64(f.w*f.h); f.cost > limit {
		return nil, fmt.Errorf("%w: its triangles cover the picture %.0f times over; at most %d are drawn",
			ErrTooCostly, f.cost/float64(f.w*f.h), maxOverdraw)
	}
	if err := f.draw(ctx, opt.Background); err != nil {
		return nil, err
	}
	return f.out, nil
}

// camera is a look-at perspective camera.
type camera struct {
	eye, target  vec3
	right, up, z vec3 // z points from the target to the eye
	near, far    float64
	focal        float64 // 1/tan(fovY/2)
}

func lookAt(eye, target vec3, near, far float64) camera {
	z := eye.sub(target).norm()
	right := vec3{0, 1, 0}.cross(z).norm()
	up := z.cross(right)
	return camera{eye: eye, target: target, right: right, up: up, z: z, near: near, far: far, focal: 1 / math.Tan(fovY/2)}
}

// elevation tilts the camera down a little, as a photographer standing
// slightly above the subject would: a straight-on view looks flat.
const elevation = 8 * math.Pi / 180

// frame places the camera. glTF models face +Z, so the camera sits on +Z
// looking toward -Z. For full, the posed vertices' box is fitted with a
// margin; for portrait, the head: the middle between the Neck joint and
// HeadTop_End, about half a metre tall, or the top 40% of the box when
// the model has no Head joint.
func frame(s *scene.Scene, prims []*posed, mode string) camera {
	lo, hi, ok := bounds(prims)
	if !ok {
		return lookAt(vec3{0, 0, 3}, vec3{}, 0.1, 10)
	}
	if mode == "portrait" {
		if c, h, ok := headFrame(s, hi[1]); ok {
			return fit(c, vec3{h * 0.8, h, h * 0.6}, lo, hi)
		}
		lo[1] = hi[1] - 0.4*(hi[1]-lo[1])
	}
	size := hi.sub(lo)
	return fit(lo.add(hi).mul(0.5), size, lo, hi)
}

// fit centres the box (centre c, extent size) and backs off until its
// corners take up 1/margin of the frame; the near and far planes cover
// the whole model (lo..hi) so that nothing in front of the head is cut.
func fit(c, size vec3, lo, hi vec3) camera {
	const margin = 1.15
	dir := vec3{0, math.Sin(elevation), math.Cos(elevation)}
	radius := math.Max(size.length()/2, 1e-6)
	cam := lookAt(c.add(dir.mul(radius*4)), c, 1e-3, 1)
	// Scale the distance so that the widest projected corner fits.
	var need float64
	for i := 0; i < 8; i++ {
		p := c.add(vec3{
			size[0] * (float64(i&1) - 0.5),
			size[1] * (float64(i>>1&1) - 0.5),
			size[2] * (float64(i>>2&1) - 0.5),
		})
		d := p.sub(c)
		x, y, depth := d.dot(cam.right), d.dot(cam.up), d.dot(cam.z)
		// Distance from c at which this corner sits at the frame edge.
		need = math.Max(need, math.Max(math.Abs(x), math.Abs(y))*cam.focal*margin+depth)
	}
	dist := math.Max(need, radius*0.1)
	eye := c.add(dir.mul(dist))
	extent := hi.sub(lo).length()
	far := dist + extent + radius
	near := math.Max(far*1e-4, dist-extent-radius)
	return lookAt(eye, c, near, far)
}

// headFrame finds the Head joint and returns the portrait centre and
// frame height in world units. Without a HeadTop_End joint (rigs other
// than Ready Player Me's) the crown is taken at the top of the model,
// above the head joint.
func headFrame(s *scene.Scene, topY float64) (centre vec3, height float64, ok bool) {
	world := worldMatrices(s)
	find := func(name string) (vec3, bool) {
		for i, n := range s.Nodes {
			if world[i] != nil && (n.Name == name || strings.HasSuffix(n.Name, ":"+name)) {
				return world[i].Translation(), true
			}
		}
		return vec3{}, false
	}
	head, ok := find("Head")
	if !ok {
		return vec3{}, 0, false
	}
	neck, okNeck := find("Neck")
	top, okTop := find("HeadTop_End")
	if !okNeck {
		neck = head
	}
	if !okTop {
		top = vec3{head[0], math.Max(topY, head[1]), head[2]}
	}
	// Half a metre, in the model's units: the head's height (neck to
	// crown, about 0.25 m on an adult) gives the scale even when the
	// armature is in centimetres.
	scale := top.sub(neck).length() / 0.25
	if scale <= 0 || math.IsNaN(scale) {
		scale = 1
	}
	return lerp3(neck, top, 0.5).sub(vec3{0, 0.04 * scale, 0}), 0.5 * scale, true
}

// frameBuf is the supersampled frame: depth, the triangle seen at each
// sample with its perspective-correct barycentrics (shaded afterwards,
// once per sample, however much overdraw there was), and the colour.
type frameBuf struct {
	size, w, h int
	cam        camera
	depth      []float32
	tri        []int32
	bary       [][2]float32
	col        [][4]float32 // linear HDR, premultiplied alpha
	out        *image.NRGBA

	tris   []tri
	opaque []int32 // OPAQUE and MASK triangles
	blend  []int32 // BLEND triangles, back to front
	// cost is the samples the triangles' bounding boxes cover, summed:
	// what rasterizing them costs, known before any is drawn.
	cost float64
}

// maxOverdraw bounds the rendering cost (triangles × covered samples) as
// a multiple of the picture: a real model covers its picture a few times
// over (hair cards, layered clothes), while 100,000 faces stacked on one
// large triangle cover it tens of thousands of times and would take
// minutes to draw a thumbnail of nothing more.
const maxOverdraw = 256

// ErrTooCostly says a scene would take too long to draw; nothing is drawn.
var ErrTooCostly = errors.New("render: the scene is too costly to draw")

// tri is one projected triangle.
type tri struct {
	p       *posed
	v       [3]uint32
	sx, sy  [3]float64 // sample-space coordinates
	z, invW [3]float64 // z in 0..1 (near..far), 1/w for perspective
	minY    int
	maxY    int
}

func newFrame(size int, cam camera) *frameBuf {
	w := size * ss
	n := w * w
	f := &frameBuf{size: size, w: w, h: w, cam: cam,
		depth: make([]float32, n), tri: make([]int32, n), bary: make([][2]float32, n),
		col: make([][4]float32, n), out: image.NewNRGBA(image.Rect(0, 0, size, size))}
	for i := range f.depth {
		f.depth[i] = math.MaxFloat32
		f.tri[i] = -1
	}
	return f
}

// setup projects every triangle once; triangles crossing the near plane
// are dropped (the framing keeps the model in front of the camera).
func (f *frameBuf) setup(prims []*posed) {
	type keyed struct {
		i     int32
		depth float64
	}
	var blend []keyed
	for _, p := range prims {
		sx := make([]float64, len(p.pos))
		sy := make([]float64, len(p.pos))
		sz := make([]float64, len(p.pos))
		iw := make([]float64, len(p.pos))
		for i, v := range p.pos {
			d := v.sub(f.cam.eye)
			x, y, z := d.dot(f.cam.right), d.dot(f.cam.up), -d.dot(f.cam.z)
			if z < f.cam.near {
				iw[i] = -1
				continue
			}
			iw[i] = 1 / z
			sx[i] = (x*f.cam.focal/z*0.5 + 0.5) * float64(f.w)
			sy[i] = (0.5 - y*f.cam.focal/z*0.5) * float64(f.h)
			sz[i] = (z - f.cam.near) / (f.cam.far - f.cam.near)
		}
		for k := 0; k+2 < len(p.index); k += 3 {
			a, b, c := p.index[k], p.index[k+1], p.index[k+2]
			if iw[a] <= 0 || iw[b] <= 0 || iw[c] <= 0 {
				continue
			}
			t := tri{p: p, v: [3]uint32{a, b, c},
				sx: [3]float64{sx[a], sx[b], sx[c]}, sy: [3]float64{sy[a], sy[b], sy[c]},
				z: [3]float64{sz[a], sz[b], sz[c]}, invW: [3]float64{iw[a], iw[b], iw[c]}}
			area := (t.sx[1]-t.sx[0])*(t.sy[2]-t.sy[0]) - (t.sx[2]-t.sx[0])*(t.sy[1]-t.sy[0])
			if area == 0 || math.IsNaN(area) || math.IsInf(area, 0) {
				continue
			}
			t.minY = int(math.Max(0, math.Floor(math.Min(t.sy[0], math.Min(t.sy[1], t.sy[2])))))
			t.maxY = int(math.Min(float64(f.h-1), math.Ceil(math.Max(t.sy[0], math.Max(t.sy[1], t.sy[2])))))
			if t.minY > t.maxY {
				continue
			}
			minX := math.Max(0, math.Floor(math.Min(t.sx[0], math.Min(t.sx[1], t.sx[2]))))
			maxX := math.Min(float64(f.w-1), math.Ceil(math.Max(t.sx[0], math.Max(t.sx[1], t.sx[2]))))
			f.cost += math.Max(1, maxX-minX+1) * float64(t.maxY-t.minY+1)
			i := int32(len(f.tris))
			f.tris = append(f.tris, t)
			if p.mat.alphaMode == 2 { // BLEND
				blend = append(blend, keyed{i, t.z[0] + t.z[1] + t.z[2]})
			} else {
				f.opaque = append(f.opaque, i)
			}
		}
	}
	sort.SliceStable(blend, func(i, j int) bool { return blend[i].depth > blend[j].depth })
	for _, b := range blend {
		f.blend = append(f.blend, b.i)
	}
}

// draw splits the image into horizontal bands, one goroutine each over
// the CPUs; each band rasterizes, shades and resolves its own rows, so
// bands share nothing they write.
func (f *frameBuf) draw(ctx context.Context, bg *color.NRGBA) error {
	workers := runtime.NumCPU()
	// More bands than workers balance the load: the model rarely fills
	// the frame evenly.
	bands := min(f.size, workers*4)
	var wg sync.WaitGroup
	next := make(chan int, bands)
	for b := 0; b < bands; b++ {
		next <- b
	}
	close(next)
	var mu sync.Mutex
	var firstErr error
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range next {
				if err := ctx.Err(); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				y0 := b * f.size / bands * ss
				y1 := (b + 1) * f.size / bands * ss
				if err := f.band(ctx, y0, y1, bg); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// band draws rows y0..y1, looking at ctx every ctxEvery triangles so a
// deadline stops even a band full of large ones.
func (f *frameBuf) band(ctx context.Context, y0, y1 int, bg *color.NRGBA) error {
	for n, i := range f.opaque {
		if n%ctxEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		t := &f.tris[i]
		if t.maxY < y0 || t.minY >= y1 {
			continue
		}
		f.raster(t, i, y0, y1, false)
	}
	l := newLights(f.cam)
	for y := y0; y < y1; y++ {
		for x := 0; x < f.w; x++ {
			k := y*f.w + x
			if ti := f.tri[k]; ti >= 0 {
				b := f.bary[k]
				c := shade(&f.tris[ti], [3]float64{1 - float64(b[0]) - float64(b[1]), float64(b[0]), float64(b[1])}, l)
				f.col[k] = [4]float32{float32(c[0]), float32(c[1]), float32(c[2]), 1}
			}
		}
	}
	for n, i := range f.blend {
		if n%ctxEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		t := &f.tris[i]
		if t.maxY < y0 || t.minY >= y1 {
			continue
		}
		f.raster(t, i, y0, y1, true)
	}
	f.resolve(y0/ss, y1/ss, bg)
	return nil
}

// ctxEvery is how many triangles a band draws between looks at its ctx.
const ctxEvery = 1024

// raster walks the samples of t inside rows y0..y1. Opaque triangles
// write depth and their id (MASK ones only where alpha passes the
// cutoff); blended ones are shaded at once and composited over what is
// there, behind the opaque depth and without writing it.
func (f *frameBuf) raster(t *tri, id int32, y0, y1 int, blend bool) {
	minX := int(math.Max(0, math.Floor(math.Min(t.sx[0], math.Min(t.sx[1], t.sx[2])))))
	maxX := int(math.Min(float64(f.w-1), math.Ceil(math.Max(t.sx[0], math.Max(t.sx[1], t.sx[2])))))
	ys, ye := max(t.minY, y0), min(t.maxY, y1-1)
	area := (t.sx[1]-t.sx[0])*(t.sy[2]-t.sy[0]) - (t.sx[2]-t.sx[0])*(t.sy[1]-t.sy[0])
	inv := 1 / area
	mask := t.p.mat.alphaMode == 1
	var l *lights
	if blend {
		l = newLights(f.cam)
	}
	for y := ys; y <= ye; y++ {
		py := float64(y) + 0.5
		for x := minX; x <= maxX; x++ {
			px := float64(x) + 0.5
			w0 := ((t.sx[1]-px)*(t.sy[2]-py) - (t.sx[2]-px)*(t.sy[1]-py)) * inv
			w1 := ((t.sx[2]-px)*(t.sy[0]-py) - (t.sx[0]-px)*(t.sy[2]-py)) * inv
			w2 := 1 - w0 - w1
			if w0 < 0 || w1 < 0 || w2 < 0 {
				continue
			}
			z := w0*t.z[0] + w1*t.z[1] + w2*t.z[2]
			k := y*f.w + x
			if z >= float64(f.depth[k]) || z < 0 {
				continue
			}
			// Perspective-correct barycentrics.
			p0, p1, p2 := w0*t.invW[0], w1*t.invW[1], w2*t.invW[2]
			s := 1 / (p0 + p1 + p2)
			b := [3]float64{p0 * s, p1 * s, p2 * s}
			if blend {
				c := shade(t, b, l)
				a := float32(clamp(c[3], 0, 1))
				d := &f.col[k]
				d[0] = float32(c[0])*a + d[0]*(1-a)
				d[1] = float32(c[1])*a + d[1]*(1-a)
				d[2] = float32(c[2])*a + d[2]*(1-a)
				d[3] = a + d[3]*(1-a)
				continue
			}
			if mask && baseAlpha(t, b) < t.p.mat.cutoff {
				continue
			}
			f.depth[k] = float32(z)
			f.tri[k] = id
			f.bary[k] = [2]float32{float32(b[1]), float32(b[2])}
		}
	}
}

// resolve averages each pixel's samples (premultiplied, after tone
// mapping) and writes sRGB; with a background, each sample is composited
// over it first, so edges blend into the background colour.
func (f *frameBuf) resolve(r0, r1 int, bg *color.NRGBA) {
	var bgLin [3]float64
	if bg != nil {
		for c, v := range [3]uint8{bg.R, bg.G, bg.B} {
			bgLin[c] = float64(srgb.Linear(v))
		}
	}
	for y := r0; y < r1; y++ {
		for x := 0; x < f.size; x++ {
			var acc [4]float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					c := f.col[(y*ss+sy)*f.w+x*ss+sx]
					a := float64(c[3])
					var rgb [3]float64
					if a > 0 {
						rgb = toneMap([3]float64{float64(c[0]) / a, float64(c[1]) / a, float64(c[2]) / a})
					}
					for i := 0; i < 3; i++ {
						acc[i] += rgb[i] * a
						if bg != nil {
							acc[i] += bgLin[i] * (1 - a)
						}
					}
					acc[3] += a
				}
			}
			n := float64(ss * ss)
			o := f.out.PixOffset(x, y)
			if bg != nil {
				for i := 0; i < 3; i++ {
					f.out.Pix[o+i] = srgb.Encode(acc[i] / n)
				}
				// An opaque background is exactly its colour where
				// nothing covers it, without a round trip through linear.
				if acc[3] == 0 {
					f.out.Pix[o], f.out.Pix[o+1], f.out.Pix[o+2] = bg.R, bg.G, bg.B
				}
				f.out.Pix[o+3] = 255
				continue
			}
			if acc[3] > 0 {
				for i := 0; i < 3; i++ {
					f.out.Pix[o+i] = srgb.Encode(acc[i] / acc[3])
				}
			}
			f.out.Pix[o+3] = uint8(math.Round(clamp(acc[3]/n, 0, 1) * 255))
		}
	}
}

// toneMap is Khronos PBR Neutral: it keeps base colours as authored up to
// a highlight shoulder, which is what a product or avatar preview should
// show (ACES would shift hues and darken).
func toneMap(c [3]float64) [3]float64 {
	const start = 0.8 - 0.04
	const desat = 0.15
	x := math.Min(c[0], math.Min(c[1], c[2]))
	offset := 0.04
	if x < 0.08 {
		offset = x - 6.25*x*x
	}
	for i := range c {
		c[i] -= offset
	}
	peak := math.Max(c[0], math.Max(c[1], c[2]))
	if peak < start {
		return c
	}
	d := 1 - start
	newPeak := 1 - d*d/(peak+d-start)
	for i := range c {
		c[i] *= newPeak / peak
	}
	g := 1 - 1/(desat*(peak-newPeak)+1)
	for i := range c {
		c[i] = c[i]*(1-g) + newPeak*g
	}
	return c
}
