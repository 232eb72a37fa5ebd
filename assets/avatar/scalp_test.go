package avatar

import (
	"bytes"
	"image"
	_ "image/jpeg" // the leader's textures (templeBare)
	_ "image/png"
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// TestNoSkinThroughHair looks at the head from 16 directions (8 around
// it, level and from 30° above) along parallel rays, and takes the rays
// that meet the scalp: the head's skin more than 6 cm above the eyes
// (where the hairline is cut, trimHairline). Where the first opaque surface on
// such a ray (a hair texel at or over the alpha cut-off, or the head) is
// the head, it samples the head's painted colour: the share of the rays
// whose colour is nearer the skin tone than the hair colour is skin seen
// through the hair, which the blind panel of issue 22 saw as holes in
// long hair, a bare parting and a patchy hairline. Before the scalp was
// painted under the hair (paint.Scalp) it was 0.3% on both long-haired
// avatars (about 20 rays, in the notches of the hairline), now 0.0%.
// Less than the pictures suggest: the hairline's notches mostly reach
// below 6 cm, where forehead and gap cannot be told apart by height.
//
// random-02 (the panel's, `configs -n 18 -seed 1`) wears the bun, which
// the budget's simplification broke into strips over a bald scalp
// (hairMaxError): 89.0% of its rays saw skin; now 0.0%. random-16's bun
// broke the same way, but its beanie covers all of its scalp, so
// TestBudgetKeepsTheScalpCovered measures its hair instead.
func TestNoSkinThroughHair(t *testing.T) {
	dark := Default(Feminine)
	dark.Skin.Tone, dark.Hair.Color = "dark", "black"
	for _, c := range []struct {
		name string
		cfg  Config
		max  float64
	}{
		{"default-female", Default(Feminine), 0.001},
		{"long-black-on-dark", dark, 0.001},
		{"random-02-bun", Random(2), 0.001},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Generate(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			share, rays := skinThroughHair(t, s, colorOf(skinTones, c.cfg.Skin.Tone), colorOf(hairColors, c.cfg.Hair.Color))
			t.Logf("%s: %.1f%% of %d rays onto the scalp see skin", c.name, 100*share, rays)
			if rays < 2000 {
				t.Fatalf("only %d rays meet the scalp", rays)
			}
			if share > c.max {
				t.Errorf("%.1f%% of the rays onto the scalp see skin, want at most %.1f%%", 100*share, 100*c.max)
			}
		})
	}
}

// surfaceMesh is a mesh's triangles with the texture of its material's
// base colour, decoded.
type surfaceMesh struct {
	pos  [][3]float32
	uv   [][2]float32
	tris [][3]uint32
	img  image.Image
}

func surfaceOf(t *testing.T, s *scene.Scene, name string) surfaceMesh {
	m := meshNamed(s, name)
	if m == nil {
		t.Fatalf("no %s", name)
	}
	p := m.Primitives[0]
	tex := s.Materials[*p.Material].PBRMetallicRoughness.BaseColorTexture
	img, _, err := image.Decode(bytes.NewReader(s.Images[*s.Textures[tex.Index].Source].Data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sm := surfaceMesh{pos: p.Positions, uv: p.TexCoords[0], img: img}
	for k := 0; k+2 < len(p.Indices); k += 3 {
		sm.tris = append(sm.tris, [3]uint32{p.Indices[k], p.Indices[k+1], p.Indices[k+2]})
	}
	return sm
}

// sample is the texel (sRGB bytes and alpha, 0..1) at barycentric (u, v)
// of triangle tri.
func (m surfaceMesh) sample(tri int, u, v float64) [4]float64 {
	t := m.tris[tri]
	a, b, c := m.uv[t[0]], m.uv[t[1]], m.uv[t[2]]
	x := (1-u-v)*float64(a[0]) + u*float64(b[0]) + v*float64(c[0])
	y := (1-u-v)*float64(a[1]) + u*float64(b[1]) + v*float64(c[1])
	r := m.img.Bounds()
	px := r.Min.X + min(r.Dx()-1, max(0, int(x*float64(r.Dx()))))
	py := r.Min.Y + min(r.Dy()-1, max(0, int(y*float64(r.Dy()))))
	cr, cg, cb, ca := m.img.At(px, py).RGBA()
	if ca == 0 {
		return [4]float64{}
	}
	// Un-premultiply.
	return [4]float64{float64(cr) / float64(ca), float64(cg) / float64(ca), float64(cb) / float64(ca), float64(ca) / 0xffff}
}

// hit is the nearest crossing of a ray with m among the triangles of
// candidates: distance, triangle and barycentrics; ok false for none.
func (m surfaceMesh) hit(o, d vec3, candidates []int, opaque bool) (best float64, tri int, u, v float64, ok bool) {
	best = math.Inf(1)
	for _, ti := range candidates {
		t := m.tris[ti]
		a, b, c := v3(m.pos[t[0]]), v3(m.pos[t[1]]), v3(m.pos[t[2]])
		e1, e2 := b.sub(a), c.sub(a)
		pv := d.cross(e2)
		det := e1.dot(pv)
		if math.Abs(det) < 1e-14 {
			continue
		}
		tv := o.sub(a)
		bu := tv.dot(pv) / det
		if bu < 0 || bu > 1 {
			continue
		}
		qv := tv.cross(e1)
		bv := d.dot(qv) / det
		if bv < 0 || bu+bv > 1 {
			continue
		}
		dist := e2.dot(qv) / det
		if dist <= 0 || dist >= best {
			continue
		}
		if opaque && m.sample(ti, bu, bv)[3] < 0.5 {
			continue
		}
		best, tri, u, v, ok = dist, ti, bu, bv, true
	}
	return
}

// scalpAbove is how far above the eyes the scalp begins.
const scalpAbove = 0.06

// skinThroughHair casts the rays of TestNoSkinThroughHair: the share of
// the rays onto the scalp that see skin, and how many rays met the scalp.
func skinThroughHair(t *testing.T, s *scene.Scene, skin, hairC rgb) (float64, int) {
	head, hair := surfaceOf(t, s, "Wolf3D_Head"), surfaceOf(t, s, "Wolf3D_Hair")
	// The head's box, from the eyes up plus the hair hanging behind.
	eye := midY(meshNamed(s, "EyeLeft"))
	lo, hi := vec3{1e9, 1e9, 1e9}, vec3{-1e9, -1e9, -1e9}
	for _, p := range hair.pos {
		for k := range 3 {
			lo[k], hi[k] = math.Min(lo[k], float64(p[k])), math.Max(hi[k], float64(p[k]))
		}
	}
	lo[1] = math.Max(lo[1], eye-0.12)
	centre := lo.add(hi).scale(0.5)
	radius := hi.sub(lo).len() / 2
	const n = 96
	seen, skinny := 0, 0
	for view := range 16 {
		az := float64(view%8) * math.Pi / 4
		el := float64(view/8) * math.Pi / 6
		d := vec3{-math.Sin(az) * math.Cos(el), -math.Sin(el), -math.Cos(az) * math.Cos(el)}
		right := vec3{0, 1, 0}.cross(d).norm()
		up := d.cross(right)
		// Bin both meshes' triangles by the cells of the view plane their
		// boxes cover.
		bins := func(m surfaceMesh) map[[2]int][]int {
			out := map[[2]int][]int{}
			for ti, tr := range m.tris {
				x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
				for _, v := range tr {
					q := v3(m.pos[v]).sub(centre)
					x, y := q.dot(right), q.dot(up)
					x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
				}
				cx0, cy0 := int(math.Floor((x0+radius)/(2*radius)*n)), int(math.Floor((y0+radius)/(2*radius)*n))
				cx1, cy1 := int(math.Floor((x1+radius)/(2*radius)*n)), int(math.Floor((y1+radius)/(2*radius)*n))
				for cx := max(0, cx0); cx <= min(n-1, cx1); cx++ {
					for cy := max(0, cy0); cy <= min(n-1, cy1); cy++ {
						out[[2]int{cx, cy}] = append(out[[2]int{cx, cy}], ti)
					}
				}
			}
			return out
		}
		hb, db := bins(hair), bins(head)
		for cy := range n {
			for cx := range n {
				x := (float64(cx)+0.5)/n*2*radius - radius
				y := (float64(cy)+0.5)/n*2*radius - radius
				o := centre.add(right.scale(x)).add(up.scale(y)).sub(d.scale(2 * radius))
				k := [2]int{cx, cy}
				headAt, ht, hu, hv, onHead := head.hit(o, d, db[k], false)
				if !onHead || o.add(d.scale(headAt))[1] < eye+scalpAbove {
					continue
				}
				seen++
				if cut, _, _, _, ok := hair.hit(o, d, hb[k], true); ok && cut < headAt {
					continue
				}
				c := head.sample(ht, hu, hv)
				lin := rgb{srgbLinear(c[0]), srgbLinear(c[1]), srgbLinear(c[2])}
				if colorDist(lin, skin) < colorDist(lin, hairC) {
					skinny++
				}
			}
		}
	}
	if seen == 0 {
		return 0, 0
	}
	return float64(skinny) / float64(seen), seen
}

func srgbLinear(x float64) float64 {
	if x <= 0.04045 {
		return x / 12.92
	}
	return math.Pow((x+0.055)/1.055, 2.4)
}

func colorDist(a, b rgb) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}
