package avatar

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
)

// rgb is a linear-light colour in 0..1, what shading mixes; textures are
// written in sRGB as glTF's base colour requires.
type rgb [3]float64

// hexColor parses "#rrggbb" into linear light.
func hexColor(s string) rgb {
	var c rgb
	for i := range 3 {
		v := hexByte(s[1+2*i])<<4 | hexByte(s[2+2*i])
		c[i] = srgbToLinear(float64(v) / 255)
	}
	return c
}

func hexByte(b byte) int {
	switch {
	case b >= '0' && b <= '9':
		return int(b - '0')
	case b >= 'a' && b <= 'f':
		return int(b-'a') + 10
	case b >= 'A' && b <= 'F':
		return int(b-'A') + 10
	}
	return 0
}

func srgbToLinear(v float64) float64 {
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

func linearToSRGB(v float64) uint8 {
	v = math.Max(0, math.Min(1, v))
	if v <= 0.0031308 {
		v *= 12.92
	} else {
		v = 1.055*math.Pow(v, 1/2.4) - 0.055
	}
	return uint8(math.Round(v * 255))
}

func (c rgb) scale(s float64) rgb { return rgb{c[0] * s, c[1] * s, c[2] * s} }
func (c rgb) mix(d rgb, t float64) rgb {
	return rgb{lerp(c[0], d[0], t), lerp(c[1], d[1], t), lerp(c[2], d[2], t)}
}

// hash is a deterministic pseudo-random value in 0..1 for integer
// coordinates and a seed, so that textures are identical on every run.
func hash(x, y, seed int) float64 {
	h := uint32(x)*374761393 + uint32(y)*668265263 + uint32(seed)*2246822519
	h = (h ^ (h >> 13)) * 1274126177
	h ^= h >> 16
	return float64(h&0xffffff) / float64(0xffffff)
}

// noise is tileable value noise with the given period in cells.
func noise(x, y float64, period, seed int) float64 {
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	fx, fy = fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	ix, iy := int(x0), int(y0)
	m := func(v int) int { return ((v % period) + period) % period }
	a := hash(m(ix), m(iy), seed)
	b := hash(m(ix+1), m(iy), seed)
	c := hash(m(ix), m(iy+1), seed)
	d := hash(m(ix+1), m(iy+1), seed)
	return lerp(lerp(a, b, fx), lerp(c, d, fx), fy)
}

// fbm sums octaves of tileable noise on a square texture of side n.
func fbm(px, py, n int, cells, octaves, seed int) float64 {
	sum, amp, norm := 0.0, 1.0, 0.0
	for o := 0; o < octaves; o++ {
		c := cells << o
		sum += amp * noise(float64(px)*float64(c)/float64(n), float64(py)*float64(c)/float64(n), c, seed+o)
		norm += amp
		amp /= 2
	}
	return sum / norm
}

// paint fills an n×n image from f and encodes it as PNG.
func paint(n int, f func(x, y int) rgb) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			c := f(x, y)
			img.SetNRGBA(x, y, color.NRGBA{linearToSRGB(c[0]), linearToSRGB(c[1]), linearToSRGB(c[2]), 255})
		}
	}
	var b bytes.Buffer
	// Fast compression: these textures are generated on every build, and
	// the variant pipeline re-encodes them anyway.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		panic(err) // writing to memory cannot fail
	}
	return b.Bytes()
}

// skinAt is the skin with a subtle mottling, shared by body and head so
// that the two meshes match where they meet.
func skinAt(tone rgb, x, y, n int) rgb {
	v := fbm(x, y, n, 8, 4, 7)
	red := fbm(x, y, n, 5, 2, 11)
	c := tone.scale(0.94 + 0.1*v)
	return c.mix(rgb{c[0] * 1.08, c[1] * 0.95, c[2] * 0.95}, 0.5*red)
}

func bodyTexture(tone rgb) []byte {
	const n = 256
	return paint(n, func(x, y int) rgb { return skinAt(tone, x, y, n) })
}

// headTexture paints the face onto the head's longitude-latitude
// layout: eyebrows, lash lines, lips and a blush, each drawn in face
// coordinates (metres across and up the face), so that their sizes do
// not depend on the mapping.
func headTexture(hs headShape, tone, brow rgb) []byte {
	const n = 512
	h := hs.h
	lip := tone.mix(rgb{0.42, 0.07, 0.07}, 0.6)
	return paint(n, func(px, py int) rgb {
		c := skinAt(tone, px, py, n)
		lon := (float64(px)+0.5)/n*2*math.Pi - math.Pi
		lat := (float64(py) + 0.5) / n * math.Pi
		u := unit(lon, lat)
		if u[2] < 0.2 {
			return c
		}
		x := u[0] * hs.ax * jaw(u[1])
		y := u[1]*hs.by + hs.c[1]
		// Lips: an upper lip with a cupid's bow and a fuller lower lip,
		// on either side of a dark mouth line that rises at the corners.
		w := 0.0135 * h
		if hs.fem {
			w = 0.0128 * h
		}
		if ax := math.Abs(x); ax < w*1.2 {
			q := math.Min(1, ax/w)
			line := hs.mouthY + 0.0008*h*q*q
			up := line + 0.0050*h*math.Sqrt(math.Max(0, 1-q*q))*(1-0.25*math.Exp(-math.Pow(x/(0.0025*h), 2)))
			lo := line - 0.0065*h*math.Pow(math.Max(0, 1-q*q), 0.6)
			if hs.fem {
				up += 0.0008 * h * math.Sqrt(math.Max(0, 1-q*q))
				lip = tone.mix(rgb{0.5, 0.06, 0.1}, 0.7)
			}
			edge := 0.0006 * h
			a := smooth(lo-edge, lo+edge, y) * (1 - smooth(up-edge, up+edge, y)) * (1 - smooth(w*0.9, w*1.05, ax))
			c = c.mix(lip, a)
			d := math.Abs(y - line)
			c = c.mix(lip.scale(0.35), (1-smooth(0.0003*h, 0.0009*h, d))*(1-smooth(w*0.85, w*1.02, ax)))
		}
		for _, e := range []vec3{hs.eyeL, hs.eyeR} {
			sx := math.Copysign(1, e[0])
			dx := (x - e[0]) * sx // positive toward the outer side
			// Eyebrow: an arch above the eye, thick inside, thin outside.
			if dx > -0.014*h && dx < 0.016*h {
				s := (dx + 0.014*h) / (0.030 * h)
				cy := e[1] + 0.0155*h + 0.004*h*math.Sin(math.Pi*math.Pow(s, 0.8))
				th := lerp(0.0032, 0.0014, s) * h
				if hs.fem {
					th *= 0.75
					cy += 0.001 * h
				}
				a := 1 - smooth(th*0.6, th, math.Abs(y-cy))
				a *= 0.85 * (0.75 + 0.25*hash(px, py, 3))
				c = c.mix(brow, a)
			}
			// Lash line along the upper rim of the socket, and a soft
			// shadow in it.
			d := math.Hypot(x-e[0], y-e[1])
			r := hs.eyeR0
			if y > e[1]-0.3*r {
				ring := 1 - smooth(0.0006*h, 0.0014*h, math.Abs(d-1.05*r))
				c = c.mix(brow.scale(0.4), 0.85*ring)
			}
			c = c.scale(1 - 0.12*math.Exp(-math.Pow((d-1.4*r)/(0.5*r), 2)))
			// Blush on the cheeks.
			b := math.Exp(-math.Pow((x-e[0]*1.25)/(0.012*h), 2) - math.Pow((y-e[1]+0.022*h)/(0.01*h), 2))
			c = c.mix(rgb{c[0] * 1.1, c[1] * 0.85, c[2] * 0.85}, 0.35*b)
		}
		return c
	})
}

// eyeTexture runs from the pupil (v=0) to the back of the eyeball (v=1):
// pupil, an iris with radial fibres and a dark limbal ring, then the
// white.
func eyeTexture(iris rgb) []byte {
	const n = 128
	iv := math.Asin(0.55) / math.Pi
	pv := math.Asin(0.22) / math.Pi
	white := rgb{0.82, 0.79, 0.74}
	return paint(n, func(x, y int) rgb {
		v := (float64(y) + 0.5) / n
		switch {
		case v < pv:
			return rgb{0.01, 0.01, 0.01}
		case v < iv:
			f := 0.75 + 0.35*noise(float64(x)*0.5, 0, 64, 5) + 0.15*(v-pv)/(iv-pv)
			c := iris.scale(f)
			rim := smooth(iv*0.8, iv, v)
			return c.mix(iris.scale(0.25), rim)
		}
		return white.mix(rgb{0.8, 0.5, 0.45}, 0.25*smooth(0.35, 0.6, v))
	})
}

// hairTexture is strands along v with light and dark variation.
func hairTexture(base rgb) []byte {
	const n = 256
	return paint(n, func(x, y int) rgb {
		s := noise(float64(x)*0.6, float64(y)*0.03, 154, 21)
		f := 0.7 + 0.45*s + 0.1*hash(x, 0, 22)
		return base.scale(f)
	})
}

// clothTexture weaves the garment colour: knit ribs, denim twill, plain
// weave, or the footwear's upper and sole (the column u > 0.8).
func clothTexture(kind string, base, sole rgb) []byte {
	const n = 256
	return paint(n, func(x, y int) rgb {
		v := fbm(x, y, n, 16, 3, 31)
		var f float64
		c := base
		switch kind {
		case "knit":
			f = 0.9 + 0.08*math.Abs(math.Sin(float64(x)*math.Pi/2)) + 0.08*v
		case "twill":
			t := (x + y) % 4
			f = 0.82 + 0.1*float64(boolToInt(t < 2)) + 0.12*v
			c = c.mix(rgb{0.75, 0.75, 0.78}, 0.12*hash(x, y, 32))
		case "weave":
			f = 0.9 + 0.06*float64(boolToInt((x+y/2)%2 == 0)) + 0.08*v
		case "footwear":
			if float64(x)/n > 0.8 {
				return sole.scale(0.95 + 0.05*v)
			}
			f = 0.88 + 0.16*v
		}
		return c.scale(f)
	})
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
