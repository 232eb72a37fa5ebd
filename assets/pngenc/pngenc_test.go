package pngenc

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"image"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"testing"
)

// testImages are images on which each of the five filters wins some
// rows: flat, gradients across and down, diagonal ramps, smooth noise
// like the painters' and white noise; opaque and not, odd sizes, a
// sub-image.
func testImages() map[string]*image.NRGBA {
	r := rand.New(rand.NewPCG(7, 8))
	make := func(w, h int, f func(x, y, c int) float64) *image.NRGBA {
		m := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				for c := 0; c < 4; c++ {
					m.Pix[y*m.Stride+4*x+c] = byte(max(0, min(255, f(x, y, c))))
				}
			}
		}
		return m
	}
	opaque := func(f func(x, y, c int) float64) func(x, y, c int) float64 {
		return func(x, y, c int) float64 {
			if c == 3 {
				return 255
			}
			return f(x, y, c)
		}
	}
	smooth := func(x, y, c int) float64 {
		return 128 + 60*math.Sin(float64(x)/7+float64(c)) + 50*math.Cos(float64(y)/5+float64(x*c)/30) + 10*r.Float64()
	}
	imgs := map[string]*image.NRGBA{
		"1x1":           make(1, 1, func(x, y, c int) float64 { return 200 }),
		"flat":          make(64, 48, opaque(func(x, y, c int) float64 { return 90 })),
		"across":        make(300, 40, opaque(func(x, y, c int) float64 { return float64(x*(c+1)) * 0.7 })),
		"down":          make(40, 300, opaque(func(x, y, c int) float64 { return float64(y*(c+1)) * 0.8 })),
		"diagonal":      make(129, 131, opaque(func(x, y, c int) float64 { return float64(x+2*y+c*40) * 0.9 })),
		"smooth":        make(256, 256, opaque(smooth)),
		"smooth-alpha":  make(256, 200, smooth),
		"noise":         make(97, 33, func(x, y, c int) float64 { return 256 * r.Float64() }),
		"noise-opaque":  make(33, 97, opaque(func(x, y, c int) float64 { return 256 * r.Float64() })),
		"stripes-alpha": make(200, 64, func(x, y, c int) float64 { return float64((x/3+y)%7) * 40 }),
	}
	imgs["sub"] = imgs["smooth-alpha"].SubImage(image.Rect(13, 17, 201, 190)).(*image.NRGBA)
	return imgs
}

// TestSameBytesAsImagePNG encodes each test image with Encode and with
// image/png at BestSpeed and compares the files byte for byte; the files
// must also decode to the image's pixels, and between them the images
// must have rows under each of the five filters (else the choice of
// filter is not what is being compared).
func TestSameBytesAsImagePNG(t *testing.T) {
	std := png.Encoder{CompressionLevel: png.BestSpeed}
	var used [5]int
	for name, m := range testImages() {
		var want, got bytes.Buffer
		if err := std.Encode(&want, m); err != nil {
			t.Fatal(err)
		}
		if err := Encode(&got, m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: %d bytes, image/png wrote %d; first difference at %d", name, got.Len(), want.Len(), firstDiff(got.Bytes(), want.Bytes()))
			continue
		}
		d, err := png.Decode(bytes.NewReader(got.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b := m.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r0, g0, b0, a0 := m.At(x, y).RGBA()
				r1, g1, b1, a1 := d.At(x-b.Min.X, y-b.Min.Y).RGBA()
				if r0 != r1 || g0 != g1 || b0 != b1 || a0 != a1 {
					t.Fatalf("%s: pixel (%d, %d) decodes to %v, was %v", name, x, y, d.At(x-b.Min.X, y-b.Min.Y), m.At(x, y))
				}
			}
		}
		for _, f := range rowFilters(t, got.Bytes(), b.Dx(), b.Dy(), m.Opaque()) {
			used[f]++
		}
	}
	for f, k := range used {
		if k == 0 {
			t.Errorf("no row of the test images took filter %d", f)
		}
	}
	t.Logf("rows per filter (none, sub, up, average, paeth): %v", used)
}

// TestEncodeUp checks that EncodeUp's files decode to the image's pixels
// (the same as image/png's files of it decode to) with every row under
// the Up filter, and that they differ from Encode's where the heuristic
// chose other filters.
func TestEncodeUp(t *testing.T) {
	differ := 0
	for name, m := range testImages() {
		var up, adaptive bytes.Buffer
		if err := EncodeUp(&up, m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := Encode(&adaptive, m); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(up.Bytes(), adaptive.Bytes()) {
			differ++
		}
		d, err := png.Decode(bytes.NewReader(up.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		std, err := png.Decode(bytes.NewReader(adaptive.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		b := m.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				p := d.At(x-b.Min.X, y-b.Min.Y)
				if p != std.At(x-b.Min.X, y-b.Min.Y) || !sameColor(p, m.At(x, y)) {
					t.Fatalf("%s: pixel (%d, %d) decodes to %v, was %v", name, x, y, p, m.At(x, y))
				}
			}
		}
		for _, f := range rowFilters(t, up.Bytes(), b.Dx(), b.Dy(), m.Opaque()) {
			if f != ftUp {
				t.Fatalf("%s: a row under filter %d", name, f)
			}
		}
	}
	if differ == 0 {
		t.Error("EncodeUp wrote Encode's bytes for every image: the test images do not tell them apart")
	}
}

func sameColor(a, b interface{ RGBA() (r, g, b, a uint32) }) bool {
	r0, g0, b0, a0 := a.RGBA()
	r1, g1, b1, a1 := b.RGBA()
	return r0 == r1 && g0 == g1 && b0 == b1 && a0 == a1
}

// TestReuse encodes images of different sizes and kinds one after the
// other with the pooled encoder: leftovers of one must not reach the next.
func TestReuse(t *testing.T) {
	std := png.Encoder{CompressionLevel: png.BestSpeed}
	imgs := testImages()
	for _, name := range []string{"smooth", "1x1", "noise", "smooth", "sub", "across", "noise-opaque", "down"} {
		var want, got bytes.Buffer
		if err := std.Encode(&want, imgs[name]); err != nil {
			t.Fatal(err)
		}
		if err := Encode(&got, imgs[name]); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("%s after others: not image/png's bytes", name)
		}
	}
}

func TestEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := Encode(&b, image.NewNRGBA(image.Rect(0, 0, 0, 5))); err == nil {
		t.Fatal("a 0×5 image encoded")
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// rowFilters reads the filter type of every row of a PNG file.
func rowFilters(t *testing.T, file []byte, w, h int, opaque bool) []byte {
	t.Helper()
	var idat []byte
	for p := file[8:]; len(p) >= 12; {
		n := binary.BigEndian.Uint32(p)
		if string(p[4:8]) == "IDAT" {
			idat = append(idat, p[8:8+n]...)
		}
		p = p[12+n:]
	}
	zr, err := zlib.NewReader(bytes.NewReader(idat))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	bpp := 4
	if opaque {
		bpp = 3
	}
	var fs []byte
	for y := 0; y < h; y++ {
		fs = append(fs, raw[y*(1+w*bpp)])
	}
	return fs
}

// BenchmarkEncode compares Encode with image/png at BestSpeed on a
// 512×512 opaque texture of smooth noise, as the painters make.
func BenchmarkEncode(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	m := image.NewNRGBA(image.Rect(0, 0, 512, 512))
	for i := range m.Pix {
		x, y := (i/4)%512, i/4/512
		m.Pix[i] = byte(128 + 50*math.Sin(float64(x)/9+float64(i%4)) + 40*math.Cos(float64(y)/13) + 8*r.Float64())
		if i%4 == 3 {
			m.Pix[i] = 255
		}
	}
	var buf bytes.Buffer
	b.Run("pngenc", func(b *testing.B) {
		for b.Loop() {
			buf.Reset()
			if err := Encode(&buf, m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pngenc-up", func(b *testing.B) {
		for b.Loop() {
			buf.Reset()
			if err := EncodeUp(&buf, m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("image-png", func(b *testing.B) {
		enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pool{}}
		for b.Loop() {
			buf.Reset()
			if err := enc.Encode(&buf, m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

type pool struct{ b *png.EncoderBuffer }

func (p *pool) Get() *png.EncoderBuffer  { return p.b }
func (p *pool) Put(b *png.EncoderBuffer) { p.b = b }
