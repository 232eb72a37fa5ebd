package paint

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"testing"
)

// The helpers below replace math calls on every texel; each must give
// what the formula it replaces gives, to the bit, or the textures' bytes
// change (TestSameBytes in package avatar checks whole avatars; these
// check the edges whole avatars may not reach).

// edgeValues are inputs where rounding and clamping turn: halves, the
// double just under a half, the ends of the ranges, signed zeros, NaN.
var edgeValues = []float64{
	0, math.Copysign(0, -1), 0.5, math.Nextafter(0.5, 0), math.Nextafter(0.5, 1),
	1, math.Nextafter(1, 0), math.Nextafter(1, 2), 1.5, 2.5, 127.5, 254.5, 254.49999999999997,
	255, 255.49999999999997, 255.5, 256, -0.3, -0.5, -0.7, -1, -1.5, 1e-300, -1e-300, 3e9, -3e9, math.NaN(),
}

func TestRound8(t *testing.T) {
	check := func(v float64) {
		if got, want := round8(v), uint8(math.Round(v)); got != want {
			t.Fatalf("round8(%v) = %d, uint8(math.Round) = %d", v, got, want)
		}
	}
	for _, v := range edgeValues {
		check(v)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1_000_000 {
		check(r.Float64() * 256)
		check(math.Round(r.Float64()*512) / 2) // halves
	}
}

func TestClampHelpers(t *testing.T) {
	oldSRGB := func(v float64) uint8 { return srgbTable[int(math.Max(0, math.Min(1, v))*4096+0.5)] }
	oldByte8 := func(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255)) }
	oldUnit8 := func(v float64) uint8 { return uint8(math.Round((v*0.5 + 0.5) * 255)) }
	oldSmooth := func(e0, e1, x float64) float64 {
		t := math.Max(0, math.Min(1, (x-e0)/(e1-e0)))
		return t * t * (3 - 2*t)
	}
	check := func(v float64) {
		if v == v { // NaN indexes the table out of range in both
			if got, want := linearToSRGB(v), oldSRGB(v); got != want {
				t.Fatalf("linearToSRGB(%v) = %d, want %d", v, got, want)
			}
		}
		if got, want := byte8(v), oldByte8(v); got != want {
			t.Fatalf("byte8(%v) = %d, want %d", v, got, want)
		}
		if v >= -1 && v <= 1 {
			if got, want := unit8(v), oldUnit8(v); got != want {
				t.Fatalf("unit8(%v) = %d, want %d", v, got, want)
			}
		}
		got, want := smooth(0.2, 0.7, v), oldSmooth(0.2, 0.7, v)
		if math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
			t.Fatalf("smooth(0.2, 0.7, %v) = %v, want %v", v, got, want)
		}
	}
	for _, v := range edgeValues {
		check(v)
		check(v / 255)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 1_000_000 {
		check(r.Float64()*1.4 - 0.2)
		check(r.Float64()*2 - 1)
	}
}

// TestEncodePixels decodes the maps of a painted skin as Encode writes
// them and as image/png writes them (at BestSpeed, what Encode wrote
// before it filtered every row with Up): the pixels must be the maps'
// own, so the change of encoder changed the files' bytes, not the
// textures.
func TestEncodePixels(t *testing.T) {
	mp := Skin(sphere([3]float32{0, 1.6, 0}, 0.1, 32), RGB{0.6, 0.4, 0.3}, 3, 256)
	std := png.Encoder{CompressionLevel: png.BestSpeed}
	for name, img := range map[string]*image.NRGBA{"base": mp.Base, "normal": mp.Normal, "orm": mp.ORM} {
		var ref bytes.Buffer
		if err := std.Encode(&ref, img); err != nil {
			t.Fatal(err)
		}
		enc := Encode(img)
		if bytes.Equal(enc, ref.Bytes()) {
			t.Logf("%s: the same bytes as image/png", name)
		}
		a, err := png.Decode(bytes.NewReader(enc))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, err := png.Decode(bytes.NewReader(ref.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		for y := 0; y < img.Rect.Dy(); y++ {
			for x := 0; x < img.Rect.Dx(); x++ {
				want := img.NRGBAAt(x, y)
				for _, got := range []color.Color{a.At(x, y), b.At(x, y)} {
					if c := color.NRGBAModel.Convert(got).(color.NRGBA); c != want {
						t.Fatalf("%s: pixel (%d, %d) decodes to %v, the map has %v", name, x, y, c, want)
					}
				}
			}
		}
		t.Logf("%s: %d bytes (image/png %d)", name, len(enc), ref.Len())
	}
}

// TestSquareAsPow: the hair's sheen band squares with a product where it
// called math.Pow(z, 2); the two must agree to the bit.
func TestSquareAsPow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	check := func(z float64) {
		if got, want := z*z, math.Pow(z, 2); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("z %v: z*z %v, math.Pow %v", z, got, want)
		}
	}
	for _, z := range edgeValues {
		if z == z {
			check(z)
		}
	}
	for range 2_000_000 {
		check((r.Float64()*2 - 1) * 20) // the band's (cos-0.82)/0.13 lies in -14..1.4
		check((r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(60)-30))
	}
}

// TestSincosAsSinCos: the hair's locks take the cosine and sine of their
// angle round the head from math.Sincos where they called math.Cos and
// math.Sin; the two must agree to the bit.
func TestSincosAsSinCos(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	check := func(phi float64) {
		s, c := math.Sincos(phi)
		if math.Float64bits(s) != math.Float64bits(math.Sin(phi)) || math.Float64bits(c) != math.Float64bits(math.Cos(phi)) {
			t.Fatalf("phi %v: Sincos %v %v, Sin %v Cos %v", phi, s, c, math.Sin(phi), math.Cos(phi))
		}
	}
	for _, phi := range []float64{0, math.Copysign(0, -1), math.Pi, -math.Pi, math.Pi / 2, -math.Pi / 2, math.Pi / 4, math.Nextafter(math.Pi, 0)} {
		check(phi)
	}
	for range 2_000_000 {
		check((r.Float64()*2 - 1) * math.Pi) // atan2's range
	}
}

// TestFlatNormal: fill writes flatNormal where the height does not slope
// instead of normalising (0, 0, 1); it must be what the formula gives.
func TestFlatNormal(t *testing.T) {
	for _, dx := range []float64{0, math.Copysign(0, -1)} {
		nx, ny, nz := -dx, dx, 1.0
		s := 1 / math.Sqrt(nx*nx+ny*ny+nz*nz)
		if got := [3]uint8{unit8(nx * s), unit8(ny * s), unit8(nz * s)}; got != flatNormal {
			t.Fatalf("dx %v: the formula gives %v, flatNormal %v", dx, got, flatNormal)
		}
	}
	if flatNormal != [3]uint8{128, 128, 255} {
		t.Fatalf("flatNormal %v, want 128 128 255 (straight out)", flatNormal)
	}
}

// TestNoiseMemo: noiseMemo and fbmMemo give noise3's and fbm3's values
// to the bit, along walks that stay in a cell for a while and leave it
// (as a band of texels does) and at scattered points.
func TestNoiseMemo(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, step := range []float64{0.01, 0.3, 3} {
		m, fm := newNoiseMemo(42), newFbmMemo(3, 7)
		p := [3]float64{r.Float64() * 10, -r.Float64() * 10, r.Float64()}
		hits := 0
		last := [3]int{}
		for range 100_000 {
			for a := range p {
				p[a] += (r.Float64()*2 - 1) * step
			}
			if got, want := m.at(p), noise3(p, 42); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("step %v, p %v: noiseMemo %v, noise3 %v", step, p, got, want)
			}
			if got, want := fm.at(p, 0.9), fbm3(p, 0.9, 3, 7); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("step %v, p %v: fbmMemo %v, fbm3 %v", step, p, got, want)
			}
			if i := [3]int{int(math.Floor(p[0])), int(math.Floor(p[1])), int(math.Floor(p[2]))}; i == last {
				hits++
			} else {
				last = i
			}
		}
		if step == 0.01 && hits < 90_000 || step == 3 && hits > 10_000 {
			t.Fatalf("step %v: %d of 100000 points in the cell before: the walks do not test both cases", step, hits)
		}
	}
}

// BenchmarkNoise3 is noise3 at points a texel apart in a slow noise, with
// and without the memo.
func BenchmarkNoise3(b *testing.B) {
	for _, memo := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "memo"}[memo], func(b *testing.B) {
			m := newNoiseMemo(3)
			p := [3]float64{0.1, 0.2, 0.3}
			s := 0.0
			for b.Loop() {
				p[0] += 0.02
				if memo {
					s += m.at(p)
				} else {
					s += noise3(p, 3)
				}
			}
			sink = s
		})
	}
}

var sink float64
