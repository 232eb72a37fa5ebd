package meshopt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// grid returns the triangles of an n×n quad grid and its vertex count.
func grid(n int) ([]uint32, int) {
	var idx []uint32
	w := uint32(n + 1)
	for y := uint32(0); y < uint32(n); y++ {
		for x := uint32(0); x < uint32(n); x++ {
			a, b, c, d := y*w+x, y*w+x+1, (y+1)*w+x, (y+1)*w+x+1
			idx = append(idx, a, b, c, b, d, c)
		}
	}
	return idx, int(w * w)
}

func TestVertexRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	smooth := make([]byte, 1000*12)
	for i := 0; i < 1000; i++ {
		for c := 0; c < 3; c++ {
			binary.LittleEndian.PutUint32(smooth[12*i+4*c:], math.Float32bits(float32(math.Sin(float64(i)/50+float64(c)))))
		}
	}
	noise := make([]byte, 777*16)
	for i := range noise {
		noise[i] = byte(rng.IntN(256))
	}
	small := make([]byte, 300*8)
	for i := range small {
		small[i] = byte(i / 64 % 5)
	}
	for _, tc := range []struct {
		name          string
		data          []byte
		count, stride int
	}{
		{"empty", nil, 0, 4},
		{"one", []byte{1, 2, 3, 4}, 1, 4},
		{"smooth floats", smooth, 1000, 12},
		{"noise", noise, 777, 16},
		{"small deltas", small, 300, 8},
		{"wide", bytes.Repeat([]byte{7, 9, 200, 1}, 64*40), 40, 256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			enc := EncodeVertexBuffer(tc.data, tc.count, tc.stride)
			dec, err := DecodeVertexBuffer(enc, tc.count, tc.stride)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(dec, tc.data) && len(tc.data) > 0 {
				t.Fatalf("round trip differs")
			}
			t.Logf("%d → %d bytes", len(tc.data), len(enc))
		})
	}
	// Smooth data must compress; noise may not, but costs at most the
	// headers and the tail.
	if enc := EncodeVertexBuffer(small, 300, 8); len(enc) > len(small)/3 {
		t.Errorf("small deltas: %d bytes of %d", len(enc), len(small))
	}
}

// The worked example of the specification: a 4-bit group.
func TestVertexSpecExample(t *testing.T) {
	src := []byte{0x17, 0x5f, 0xf0, 0xbc, 0x77, 0xa9, 0x21, 0x00, 0x34, 0xb5}
	var d [16]byte
	end, err := decodeGroup(src, 0, 2, d[:])
	if err != nil || end != len(src) {
		t.Fatalf("end %d err %v", end, err)
	}
	want := []int8{-1, -4, -3, 26, -91, 0, -6, 6, -4, -4, 5, -5, 1, -1, 0, 0}
	for i, v := range d {
		if int8(unzigzag8(v)) != want[i] {
			t.Fatalf("delta %d = %d, want %d", i, int8(unzigzag8(v)), want[i])
		}
	}
}

func TestTrianglesRoundTrip(t *testing.T) {
	g, gv := grid(40)
	opt := OptimizeVertexCache(g, gv)
	optIdx, _ := OptimizeVertexFetch(opt, gv)
	rng := rand.New(rand.NewPCG(3, 4))
	random := make([]uint32, 3*500)
	for i := range random {
		random[i] = uint32(rng.IntN(2000))
	}
	for _, tc := range []struct {
		name string
		idx  []uint32
		// bytes per triangle the stream may take at most
		perTri float64
	}{
		{"grid as built", g, 4},
		{"grid optimized", optIdx, 1.6},
		{"random", random, 12},
		{"degenerate", []uint32{0, 0, 0, 1, 1, 2, 5, 5, 5}, 12},
		// Two primitives in one view: the second starts again at 0.
		{"concatenated", append(slices.Clone(optIdx), optIdx...), 1.6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			enc := EncodeTriangles(tc.idx)
			dec, err := DecodeTriangles(enc, len(tc.idx))
			if err != nil {
				t.Fatal(err)
			}
			if !sameTriangles(dec, tc.idx) {
				t.Fatalf("round trip differs:\n%v\n%v", dec[:min(30, len(dec))], tc.idx[:min(30, len(tc.idx))])
			}
			per := float64(len(enc)) / float64(len(tc.idx)/3)
			t.Logf("%d triangles → %d bytes (%.2f a triangle)", len(tc.idx)/3, len(enc), per)
			if per > tc.perTri {
				t.Errorf("%.2f bytes a triangle, want at most %v", per, tc.perTri)
			}
		})
	}
}

// sameTriangles compares triangle lists up to the rotation of each
// triangle, which keeps its winding.
func sameTriangles(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i += 3 {
		x, y := a[i:i+3], b[i:i+3]
		if !(slices.Equal(x, y) || (x[0] == y[1] && x[1] == y[2] && x[2] == y[0]) || (x[0] == y[2] && x[1] == y[0] && x[2] == y[1])) {
			return false
		}
	}
	return true
}

func TestIndexSequenceRoundTrip(t *testing.T) {
	seq := []uint32{0, 1, 2, 3, 100000, 4, 100001, 5, 100002, 0, 0, 4000000000}
	enc := EncodeIndexSequence(seq)
	dec, err := DecodeIndexSequence(enc, len(seq))
	if err != nil || !slices.Equal(dec, seq) {
		t.Fatalf("%v %v", dec, err)
	}
}

// TestVertexCacheKeepsTriangles: from a grid in random triangle order the
// optimizer keeps every triangle (corners in order) and recovers the
// locality the codecs need: far fewer cache misses, a much shorter
// triangle stream.
func TestVertexCacheKeepsTriangles(t *testing.T) {
	g, gv := grid(30)
	rng := rand.New(rand.NewPCG(7, 8))
	shuffled := make([]uint32, 0, len(g))
	for _, k := range rng.Perm(len(g) / 3) {
		shuffled = append(shuffled, g[3*k:3*k+3]...)
	}
	opt := OptimizeVertexCache(shuffled, gv)
	key := func(idx []uint32) []string {
		var out []string
		for i := 0; i < len(idx); i += 3 {
			tri := idx[i : i+3]
			m := 0
			for k := 1; k < 3; k++ {
				if tri[k] < tri[m] {
					m = k
				}
			}
			out = append(out, string(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, tri[m]), tri[(m+1)%3]), tri[(m+2)%3])))
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(key(g), key(opt)) {
		t.Fatal("the optimized list has other triangles")
	}
	if r, r0 := missRatio(opt), missRatio(shuffled); r > r0*0.5 {
		t.Errorf("ACMR %.2f, shuffled %.2f", r, r0)
	}
	a, _ := OptimizeVertexFetch(opt, gv)
	b, _ := OptimizeVertexFetch(shuffled, gv)
	if x, y := len(EncodeTriangles(a)), len(EncodeTriangles(b)); x > y/2 {
		t.Errorf("optimized %d bytes, shuffled %d", x, y)
	}
}

func missRatio(idx []uint32) float64 {
	var cache []uint32
	misses := 0
	for _, v := range idx {
		if !slices.Contains(cache, v) {
			misses++
			cache = append(cache, v)
			if len(cache) > cacheSize {
				cache = cache[1:]
			}
		}
	}
	return float64(misses) / float64(len(idx)/3)
}

func TestFilters(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var normals [][4]float32
	var quats [][4]float32
	for i := 0; i < 500; i++ {
		v := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
		normals = append(normals, [4]float32{float32(v[0] / l), float32(v[1] / l), float32(v[2] / l), float32(1 - 2*(i%2))})
		q := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		l = math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		quats = append(quats, [4]float32{float32(q[0] / l), float32(q[1] / l), float32(q[2] / l), float32(q[3] / l)})
	}
	for _, tc := range []struct {
		stride, bits int
		tol          float64
	}{{4, 8, 0.02}, {8, 12, 0.002}, {8, 16, 0.0002}} {
		enc := EncodeOctahedral(normals, tc.stride, tc.bits)
		dec, err := Decode(ModeAttributes, FilterOctahedral, len(normals), tc.stride, EncodeVertexBuffer(enc, len(normals), tc.stride))
		if err != nil {
			t.Fatal(err)
		}
		full := 127.0
		if tc.stride == 8 {
			full = 32767
		}
		for i, n := range normals {
			for c := 0; c < 4; c++ {
				got := float64(readSigned(dec[i*tc.stride:], c, tc.stride/4)) / full
				if math.Abs(got-float64(n[c])) > tc.tol {
					t.Fatalf("octahedral %d/%d: vector %d component %d: %v, want %v", tc.stride, tc.bits, i, c, got, n[c])
				}
			}
		}
	}
	for _, bits := range []int{12, 16} {
		dec, err := Decode(ModeAttributes, FilterQuaternion, len(quats), 8, EncodeVertexBuffer(EncodeQuaternion(quats, bits), len(quats), 8))
		if err != nil {
			t.Fatal(err)
		}
		for i, q := range quats {
			var dot float64
			for c := 0; c < 4; c++ {
				dot += float64(readSigned(dec[8*i:], c, 2)) / 32767 * float64(q[c])
			}
			if math.Abs(dot) < 1-1e-4*float64(int(1)<<(16-bits)) {
				t.Fatalf("quaternion %d bits %d: dot %v", i, bits, dot)
			}
		}
	}
	vals := []float32{0, 1, -1, 0.5, 3.25, -1234.5, 0.375, 65504, 1.5e-5}
	enc, exact := EncodeExponential(vals, 1, 24)
	if !exact {
		t.Error("24-bit mantissas should hold these values exactly")
	}
	dec, err := Decode(ModeAttributes, FilterExponential, len(vals), 4, EncodeVertexBuffer(enc, len(vals), 4))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(dec[4*i:])); got != v {
			t.Errorf("exponential %v → %v", v, got)
		}
	}
	times := []float32{0, 0.25, 0.5, 0.75, 1, 1.25, 100.5}
	enc, ok := EncodeExponentialShared(times)
	if !ok {
		t.Fatal("times on a quarter-second grid need one exponent")
	}
	DecodeExponential(enc)
	for i, v := range times {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(enc[4*i:])); got != v {
			t.Errorf("shared exponent: %v → %v", v, got)
		}
	}
	if _, ok := EncodeExponentialShared([]float32{1e-6, 1e6}); ok {
		t.Error("1e-6 and 1e6 cannot share a 24-bit mantissa")
	}
	if _, exact := EncodeExponential([]float32{0.1}, 1, 12); exact {
		t.Error("0.1 with 12 bits cannot be exact")
	}
}

func TestDecodeRejectsDamage(t *testing.T) {
	g, gv := grid(10)
	tri := EncodeTriangles(g)
	vtx := EncodeVertexBuffer(bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8}, gv), gv, 8)
	for _, tc := range []struct {
		name          string
		mode          Mode
		filter        Filter
		count, stride int
		src           []byte
	}{
		{"truncated triangles", ModeTriangles, "", len(g), 2, tri[:len(tri)-20]},
		{"wrong header", ModeTriangles, "", len(g), 2, append([]byte{0xe0}, tri[1:]...)},
		{"truncated vertices", ModeAttributes, "", gv, 8, vtx[:len(vtx)/2]},
		{"extra vertices", ModeAttributes, "", gv - 64, 8, vtx},
		{"bad stride", ModeAttributes, "", gv, 6, vtx},
		{"filter on indices", ModeIndices, FilterOctahedral, 3, 2, EncodeIndexSequence([]uint32{1, 2, 3})},
		{"empty", ModeIndices, "", 3, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Decode(tc.mode, tc.filter, tc.count, tc.stride, tc.src); !errors.Is(err, ErrMalformed) {
				t.Fatalf("err %v", err)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	g, _ := grid(3)
	f.Add(EncodeTriangles(g), uint8(0), uint16(len(g)))
	f.Add(EncodeVertexBuffer(make([]byte, 64), 16, 4), uint8(1), uint16(16))
	f.Add(EncodeIndexSequence([]uint32{5, 6, 7}), uint8(2), uint16(3))
	f.Fuzz(func(t *testing.T, src []byte, mode uint8, count uint16) {
		switch mode % 3 {
		case 0:
			_, _ = DecodeTriangles(src, int(count)/3*3)
		case 1:
			_, _ = DecodeVertexBuffer(src, int(count), 4)
		default:
			_, _ = DecodeIndexSequence(src, int(count))
		}
	})
}
