package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human/hmdata"
)

// src is the MakeHuman data beside the repository (../shared); the
// tests that need it skip without it.
const src = "../../../shared/makehuman"

// embedded is the converted file package human embeds.
const embedded = "../../assets/avatar/human/data/makehuman.gob.gz"

// converted converts the sources once for all tests, or skips.
func converted(t *testing.T) *hmdata.Data {
	t.Helper()
	if _, err := os.Stat(filepath.Join(src, "data", "3dobjs", "base.obj")); err != nil {
		t.Skip("../shared/makehuman absent")
	}
	d, err := convertOnce()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var convertOnce = sync.OnceValues(func() (*hmdata.Data, error) { return convert(src) })

// countLines counts the lines of a file that start with prefix.
func countLines(t *testing.T, path, prefix string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), prefix) {
			n++
		}
	}
	return n
}

// The committed file is what the converter makes of the sources today,
// byte for byte (the conversion is deterministic), and it reads back.
func TestEmbeddedDataIsCurrent(t *testing.T) {
	d := converted(t)
	var buf bytes.Buffer
	if err := hmdata.Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(embedded)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), committed) {
		t.Errorf("assets/avatar/human/data is stale (%d bytes made, %d committed): run go run ./tools/makehuman", buf.Len(), len(committed))
	}
	back, err := hmdata.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Targets) != len(d.Targets) {
		t.Fatalf("%d targets back, %d written", len(back.Targets), len(d.Targets))
	}
	for i, tg := range d.Targets {
		b := back.Targets[i]
		if b.Name != tg.Name || !equal(b.Index, tg.Index) || !equal(b.D, tg.D) {
			t.Fatalf("target %s does not round-trip", tg.Name)
		}
	}
	if len(buf.Bytes()) > 6<<20 {
		t.Errorf("converted data is %d bytes, more than 6 MB", buf.Len())
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Counts in the converted data match the sources.
func TestCountsMatchSources(t *testing.T) {
	d := converted(t)
	base := filepath.Join(src, "data", "3dobjs", "base.obj")
	if got, want := len(d.Positions)/3, countLines(t, base, "v "); got != want {
		t.Errorf("%d base vertices, the OBJ has %d", got, want)
	}
	// Body quads become two triangles each.
	if got := len(d.Body.Tri) / 3; got != 2*13378 {
		t.Errorf("%d body triangles, want %d", got, 2*13378)
	}
	// A target keeps every vertex the source moves by 0.1 mm or more.
	for _, name := range []string{"nose/nose-scale-horiz-incr", "macrodetails/universal-male-young-maxmuscle-maxweight", "macrodetails/height/female-old-averagemuscle-averageweight-minheight"} {
		path := filepath.Join(src, "data", "targets", filepath.FromSlash(name)+".target")
		lines := 0
		for _, p := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"} {
			lines += countLines(t, path, p)
		}
		var got *hmdata.Target
		for i := range d.Targets {
			if d.Targets[i].Name == name {
				got = &d.Targets[i]
			}
		}
		if got == nil {
			t.Errorf("target %s missing", name)
			continue
		}
		if len(got.Index) > lines || len(got.Index) < lines*9/10 {
			t.Errorf("target %s: %d vertices kept of %d", name, len(got.Index), lines)
		}
	}
	// Each asset binds every vertex of its OBJ (and, when cut above the
	// knee, the vertices made where the cut crosses its edges), and
	// keeps all its polygons when whole.
	cut := map[string]bool{}
	for _, s := range sources {
		cut[s.id] = s.part == aboveKnee
	}
	for _, a := range d.Assets {
		if strings.HasPrefix(a.Source, "helper-") {
			continue
		}
		dir := filepath.Join(src, "assets", a.Source)
		objs, _ := filepath.Glob(filepath.Join(dir, "*.obj"))
		if len(objs) == 0 {
			t.Fatalf("%s: no OBJ in %s", a.ID, dir)
		}
		obj := filepath.Join(dir, filepath.Base(a.Source)+".obj")
		if _, err := os.Stat(obj); err != nil {
			obj = objs[0]
		}
		if got, want := len(a.Ref)/3, countLines(t, obj, "v "); got != want && !(cut[a.ID] && got > want) {
			t.Errorf("%s: %d bindings, the OBJ has %d vertices", a.ID, got, want)
		}
		if len(a.Mesh.Tri) == 0 {
			t.Errorf("%s: no triangles", a.ID)
		}
	}
	if len(d.Joints) != 67 {
		t.Errorf("%d joints", len(d.Joints))
	}
	// Every base vertex has weights summing to 65535.
	for v := 0; v < len(d.Positions)/3; v++ {
		sum := 0
		for k := 0; k < 4; k++ {
			sum += int(d.WeightValue[4*v+k])
		}
		if sum != 65535 {
			t.Fatalf("vertex %d: weights sum to %d", v, sum)
		}
	}
}

// Outfits split into a top and a bottom that share no polygon and
// together make the whole outfit.
func TestOutfitSplit(t *testing.T) {
	d := converted(t)
	by := map[string]hmdata.Asset{}
	for _, a := range d.Assets {
		by[a.ID] = a
	}
	top, bottom := by["top/blouse"], by["bottom/skirt"]
	if top.Source != bottom.Source {
		t.Fatalf("blouse from %s, skirt from %s", top.Source, bottom.Source)
	}
	o, err := readOBJ(filepath.Join(src, "assets", top.Source, filepath.Base(top.Source)+".obj"))
	if err != nil {
		t.Fatal(err)
	}
	polys := map[int32]int{}
	for _, p := range top.Mesh.Poly {
		polys[p] |= 1
	}
	for _, p := range bottom.Mesh.Poly {
		polys[p] |= 2
	}
	for p, m := range polys {
		if m == 3 {
			t.Fatalf("polygon %d in both the blouse and the skirt", p)
		}
	}
	if len(polys) != len(o.polys) {
		t.Errorf("blouse and skirt hold %d of %d polygons", len(polys), len(o.polys))
	}
	// The blouse is above the skirt: its mean bound height is higher.
	mean := func(a hmdata.Asset) float32 {
		var s float32
		for _, v := range a.Mesh.Src {
			s += d.Positions[3*a.Ref[3*v]+1]
		}
		return s / float32(len(a.Mesh.Src))
	}
	if mean(top) <= mean(bottom)+2 {
		t.Errorf("blouse at %.2f dm, skirt at %.2f dm", mean(top), mean(bottom))
	}
}

// Every piece (UV island) of a bottom reaches below the hem of the top
// from the same outfit: pieces bound to the hips that hang no lower than
// the top's hem are the top's (a jacket's pockets stuck out of the jeans'
// waistband while they were the bottom's).
func TestBottomPiecesReachBelowTop(t *testing.T) {
	d := converted(t)
	height := func(a hmdata.Asset, v int32) float32 { return d.Positions[3*a.Ref[3*a.Mesh.Src[v]]+1] }
	hem := map[string]float32{}
	for _, a := range d.Assets {
		if !strings.HasPrefix(a.ID, "top/") {
			continue
		}
		lo := float32(1e9)
		for v := range a.Mesh.Src {
			lo = min(lo, height(a, int32(v)))
		}
		hem[a.Source] = lo
	}
	checked := 0
	for _, a := range d.Assets {
		h, ok := hem[a.Source]
		if !strings.HasPrefix(a.ID, "bottom/") || !ok {
			continue
		}
		checked++
		parent := make([]int32, len(a.Mesh.Src))
		for i := range parent {
			parent[i] = int32(i)
		}
		find := func(i int32) int32 {
			for parent[i] != i {
				i = parent[i]
			}
			return i
		}
		for i := 0; i < len(a.Mesh.Tri); i += 3 {
			for k := 1; k < 3; k++ {
				parent[find(a.Mesh.Tri[i+k])] = find(a.Mesh.Tri[i])
			}
		}
		lowest := map[int32]float32{}
		for v := range a.Mesh.Src {
			r := find(int32(v))
			if l, ok := lowest[r]; !ok || height(a, int32(v)) < l {
				lowest[r] = height(a, int32(v))
			}
		}
		for _, l := range lowest {
			if l > h {
				t.Errorf("%s: a piece whose lowest point (%.2f dm) is above the top's hem (%.2f dm)", a.ID, l, h)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no bottom shares an outfit with a top")
	}
}
