package face

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []string // nil: only the count is checked
		count   int
		errWord string
	}{
		{in: "ARKit", want: ARKit},
		{in: "Oculus Visemes", want: Visemes},
		{in: "Default", want: []string{"mouthOpen", "mouthSmile"}},
		{in: "none", want: []string{}},
		{in: "ARKit,Oculus Visemes", count: 67},
		{in: "arkit, oculus visemes ,default", count: 69},
		{in: "jawOpen,viseme_aa,jawOpen", want: []string{"jawOpen", "viseme_aa"}},
		{in: "Default,mouthOpen,eyeBlinkLeft", want: []string{"mouthOpen", "mouthSmile", "eyeBlinkLeft"}},
		{in: "Eyes Extra", want: []string{"eyesClosed", "eyesLookUp", "eyesLookDown"}},
		{in: "ARKit,Oculus Visemes,mouthOpen,mouthSmile,eyesClosed,eyesLookUp,eyesLookDown", count: 72},
		{in: "eyes extra,eyesClosed,eyeBlinkLeft", want: []string{"eyesClosed", "eyesLookUp", "eyesLookDown", "eyeBlinkLeft"}},
		{in: "jawopen", errWord: `"jawopen"`},
		{in: "eyesclosed,EyesExtra", errWord: `"eyesclosed", "EyesExtra"`},
		{in: "ARKit,smile,frown", errWord: `"smile", "frown"`},
		{in: "", errWord: `""`},
		{in: "ARKit,", errWord: `""`},
	} {
		got, err := Names(tc.in)
		switch {
		case tc.errWord != "":
			if err == nil || !strings.Contains(err.Error(), tc.errWord) {
				t.Errorf("Names(%q) = %v, %v; want an error naming %s", tc.in, got, err, tc.errWord)
			}
		case err != nil:
			t.Errorf("Names(%q): %v", tc.in, err)
		case tc.want != nil && !slices.Equal(got, tc.want):
			t.Errorf("Names(%q) = %v, want %v", tc.in, got, tc.want)
		case tc.want == nil && len(got) != tc.count:
			t.Errorf("Names(%q) gives %d names, want %d", tc.in, len(got), tc.count)
		}
	}
	if len(ARKit) != 52 || len(Visemes) != 15 {
		t.Errorf("%d ARKit names and %d visemes", len(ARKit), len(Visemes))
	}
	if n := len(All()); n != 72 {
		t.Errorf("All has %d names, want 52 ARKit, 15 visemes, 2 default, 3 eye shapes", n)
	}
	all := All()
	if s := slices.Compact(slices.Sorted(slices.Values(all))); len(s) != len(all) {
		t.Errorf("names repeat: %d unique of %d", len(s), len(all))
	}
}

// rest is a moved vertex of the base mesh: where it is (metres) and what
// part of the head it belongs to (the converter's regions).
type rest struct {
	p      [3]float32
	region byte
}

const (
	regionSkin = iota
	regionEyeLeft
	regionEyeRight
	regionUpperTeeth
	regionLowerTeeth
	regionTongue
	regionLashes
)

func loadRest(t *testing.T) map[int32]rest {
	t.Helper()
	gz, err := os.ReadFile("testdata/rest.bin.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil || string(raw[:9]) != "kilnrest1" {
		t.Fatalf("rest data: %v", err)
	}
	n := int(binary.LittleEndian.Uint32(raw[9:]))
	out := map[int32]rest{}
	for i := range n {
		b := raw[13+i*15:]
		var r rest
		for c := range 3 {
			r.p[c] = math.Float32frombits(binary.LittleEndian.Uint32(b[2+4*c:]))
		}
		r.region = b[14]
		out[int32(binary.LittleEndian.Uint16(b))] = r
	}
	return out
}

func length(d [3]float32) float64 {
	return math.Sqrt(float64(d[0]*d[0] + d[1]*d[1] + d[2]*d[2]))
}

// Every shape has data, of a size a face makes: the largest offset
// between 2 mm and 6 cm (the tongue out), and nothing below the top of
// the neck moves.
func TestShapesPlausible(t *testing.T) {
	base := loadRest(t)
	for _, name := range All() {
		idx, d := Deltas(name)
		if len(idx) != len(d) {
			t.Fatalf("%s: %d indices, %d offsets", name, len(idx), len(d))
		}
		if name == "viseme_sil" {
			if len(idx) != 0 {
				t.Errorf("viseme_sil is the rest face but moves %d vertices", len(idx))
			}
			continue
		}
		largest := 0.0
		for i, v := range idx {
			if i > 0 && v <= idx[i-1] {
				t.Fatalf("%s: indices not rising at %d", name, i)
			}
			r, ok := base[v]
			if !ok {
				t.Fatalf("%s moves vertex %d, which the rest data lacks", name, v)
			}
			l := length(d[i])
			largest = max(largest, l)
			if l > 0.5e-3 && r.p[1] < 0.54 {
				t.Errorf("%s moves vertex %d at height %.3f m (below the head) by %.1f mm", name, v, r.p[1], l*1000)
			}
		}
		if largest < 2e-3 || largest > 60e-3 {
			t.Errorf("%s: largest offset %.1f mm", name, largest*1000)
		}
	}
	if idx, d := Deltas("smile"); idx != nil || d != nil {
		t.Errorf("an unknown shape has offsets")
	}
}

// stats sums a shape's offsets over the vertices that pass keep.
type stats struct {
	n       int
	sum     [3]float64 // mean offset, mm
	largest float64    // mm
}

func measure(name string, base map[int32]rest, keep func(rest) bool) stats {
	var s stats
	idx, d := Deltas(name)
	for i, v := range idx {
		if !keep(base[v]) {
			continue
		}
		s.n++
		for c := range 3 {
			s.sum[c] += float64(d[i][c]) * 1000
		}
		s.largest = max(s.largest, length(d[i])*1000)
	}
	if s.n > 0 {
		for c := range 3 {
			s.sum[c] /= float64(s.n)
		}
	}
	return s
}

// Each shape moves what it names and nothing else.
func TestShapesMoveWhatTheyName(t *testing.T) {
	base := loadRest(t)
	const eyeY, mouthY = 0.728, 0.661 // heights of the eyes and the lips on the base mesh
	skin := func(r rest) bool { return r.region == regionSkin }
	// the skin around an eye: the lids and 1.5 cm above and below
	around := func(r rest, x float32) bool {
		return skin(r) && x > 0.01 && x < 0.05 && r.p[2] > 0.09 && math.Abs(float64(r.p[1]-eyeY)) < 0.015
	}
	leftEyeArea := func(r rest) bool { return around(r, r.p[0]) }
	rightEyeArea := func(r rest) bool { return around(r, -r.p[0]) }
	// the lips, the chin and the skin between them, in front
	mouthArea := func(r rest) bool {
		return skin(r) && r.p[1] < mouthY+0.015 && r.p[2] > 0.1 && math.Abs(float64(r.p[0])) < 0.04
	}
	lowerTeeth := func(r rest) bool { return r.region == regionLowerTeeth }
	upperTeeth := func(r rest) bool { return r.region == regionUpperTeeth }
	tongue := func(r rest) bool { return r.region == regionTongue }
	eyeLeft := func(r rest) bool { return r.region == regionEyeLeft }
	eyeRight := func(r rest) bool { return r.region == regionEyeRight }
	// the chin: skin below the lips in front
	chin := func(r rest) bool { return skin(r) && r.p[1] < mouthY-0.025 && r.p[2] > 0.12 }

	type check struct {
		what string
		keep func(rest) bool
		ok   func(stats) bool
	}
	moves := func(mm float64) func(stats) bool { return func(s stats) bool { return s.largest >= mm } }
	still := func(s stats) bool { return s.largest < 1 } // under a millimetre: unseen
	for _, tc := range []struct {
		name   string
		checks []check
	}{
		{"eyeBlinkLeft", []check{
			{"the left lids close (down) by 5 mm or more", leftEyeArea, func(s stats) bool { return s.largest >= 5 && s.sum[1] < 0 }},
			{"the right lids stay", rightEyeArea, still},
			{"the mouth stays", mouthArea, still},
			{"the eyeballs stay", func(r rest) bool { return eyeLeft(r) || eyeRight(r) }, still},
		}},
		{"eyeBlinkRight", []check{
			{"the right lids close", rightEyeArea, func(s stats) bool { return s.largest >= 5 && s.sum[1] < 0 }},
			{"the left lids stay", leftEyeArea, still},
			{"the mouth stays", mouthArea, still},
		}},
		{"jawOpen", []check{
			{"the lower teeth drop 1 cm or more", lowerTeeth, func(s stats) bool { return s.sum[1] < -10 }},
			{"the chin drops", chin, func(s stats) bool { return s.largest > 15 && s.sum[1] < -5 }},
			{"the tongue goes with the jaw", tongue, func(s stats) bool { return s.sum[1] < -5 }},
			{"the upper teeth stay", upperTeeth, still},
			{"the eyes stay", func(r rest) bool { return eyeLeft(r) || eyeRight(r) || leftEyeArea(r) || rightEyeArea(r) }, still},
		}},
		{"eyeLookInLeft", []check{
			{"the left eye turns", eyeLeft, moves(2)},
			{"the right eye stays", eyeRight, still},
			{"the mouth stays", mouthArea, still},
		}},
		{"eyeLookUpRight", []check{
			{"the right eye turns", eyeRight, moves(2)},
			{"the left eye stays", eyeLeft, still},
		}},
		{"tongueOut", []check{
			{"the tongue comes forward 2 cm or more", tongue, func(s stats) bool { return s.largest > 20 && s.sum[2] > 5 }},
			{"the lips part a little", lowerTeeth, func(s stats) bool { return s.sum[1] < -2 && s.sum[1] > -8 }},
			{"the upper teeth stay", upperTeeth, still},
			{"the eyes stay", func(r rest) bool { return leftEyeArea(r) || rightEyeArea(r) || eyeLeft(r) || eyeRight(r) }, still},
		}},
		{"viseme_aa", []check{
			{"the jaw opens", lowerTeeth, func(s stats) bool { return s.sum[1] < -5 }},
			{"the eyes stay", func(r rest) bool { return leftEyeArea(r) || rightEyeArea(r) }, still},
		}},
		{"viseme_PP", []check{
			{"the lips move", mouthArea, moves(2)},
			{"the jaw does not drop", lowerTeeth, func(s stats) bool { return s.sum[1] > -1 }},
		}},
		{"mouthSmileLeft", []check{
			{"the left corner rises", func(r rest) bool { return skin(r) && r.p[0] > 0.02 && math.Abs(float64(r.p[1]-mouthY)) < 0.01 }, func(s stats) bool { return s.largest > 5 && s.sum[1] > 0 }},
			{"the right corner stays", func(r rest) bool { return skin(r) && r.p[0] < -0.025 && math.Abs(float64(r.p[1]-mouthY)) < 0.01 }, func(s stats) bool { return s.largest < 2 }},
			{"the eyes stay", func(r rest) bool { return eyeLeft(r) || eyeRight(r) }, still},
		}},
		{"browInnerUp", []check{
			{"the brows rise", func(r rest) bool { return skin(r) && r.p[1] > eyeY+0.01 }, func(s stats) bool { return s.largest > 5 && s.sum[1] > 0 }},
			{"the mouth stays", mouthArea, still},
		}},
		{"mouthOpen", []check{
			{"the lower teeth drop", lowerTeeth, func(s stats) bool { return s.sum[1] < -10 }},
		}},
	} {
		for _, c := range tc.checks {
			if s := measure(tc.name, base, c.keep); !c.ok(s) {
				t.Errorf("%s: %s: %d vertices, mean offset %.1f mm, largest %.1f mm", tc.name, c.what, s.n, s.sum, s.largest)
			}
		}
	}
}

// A left shape moves the face's left (+x) far more than its right.
func TestSides(t *testing.T) {
	base := loadRest(t)
	for _, name := range All() {
		if !strings.HasSuffix(name, "Left") && !strings.HasSuffix(name, "Right") {
			continue
		}
		var l, r float64
		idx, d := Deltas(name)
		for i, v := range idx {
			if x := base[v].p[0]; x > 0.005 {
				l += length(d[i])
			} else if x < -0.005 {
				r += length(d[i])
			}
		}
		if strings.HasPrefix(name, "jaw") || name == "mouthLeft" || name == "mouthRight" {
			// the whole jaw or mouth goes sideways: check the direction
			s := measure(name, base, func(rest) bool { return true })
			if (s.sum[0] > 0) != strings.HasSuffix(name, "Left") {
				t.Errorf("%s moves toward x %.2f mm", name, s.sum[0])
			}
			continue
		}
		if strings.HasSuffix(name, "Right") {
			l, r = r, l
		}
		if l < 4*r {
			t.Errorf("%s: %.0f mm summed on its own side, %.0f on the other", name, l*1000, r*1000)
		}
	}
}

// Dense gives the same offsets by vertex.
func TestDense(t *testing.T) {
	idx, d := Deltas("jawOpen")
	dense := Dense("jawOpen", 20000)
	for i, v := range idx {
		if dense[v] != d[i] {
			t.Fatalf("vertex %d: %v, want %v", v, dense[v], d[i])
		}
	}
	var moved int
	for _, o := range dense {
		if o != [3]float32{} {
			moved++
		}
	}
	if moved != len(idx) {
		t.Errorf("%d vertices move in Dense, %d in Deltas", moved, len(idx))
	}
}

// Each of the leader's whole-eye shapes moves both eyes as its two ARKit
// halves do together: every vertex either half moves, by their sum.
func TestEyesExtra(t *testing.T) {
	for name, halves := range eyesExtraOf {
		want := map[int32][3]float32{}
		for _, h := range halves {
			idx, d := Deltas(h)
			if len(idx) == 0 {
				t.Fatalf("%s has no offsets", h)
			}
			for i, v := range idx {
				w := want[v]
				for c := range 3 {
					w[c] += d[i][c]
				}
				want[v] = w
			}
		}
		idx, d := Deltas(name)
		if len(idx) != len(want) {
			t.Errorf("%s moves %d vertices, its halves %d", name, len(idx), len(want))
		}
		for i, v := range idx {
			if w := want[v]; length([3]float32{d[i][0] - w[0], d[i][1] - w[1], d[i][2] - w[2]}) > 1e-9 {
				t.Errorf("%s: vertex %d moves %v, want %v", name, v, d[i], w)
			}
		}
	}
}
