// Command simplify-vs-meshopt compares Kiln's simplifier (assets/simplify)
// with meshoptimizer's npm build on the four meshes of BenchmarkSimplify:
// the Stanford bunny at 50% and 25%, the bunny subdivided twice at 50% and
// four times at 25%. It writes each mesh as raw little-endian files
// (uint32 indices, float32 positions) into a temporary directory, runs
// meshopt.mjs with node on them, runs Kiln on the same files, and prints
// both side by side. Times are medians of several runs, after a warm-up.
//
// Run it through run.sh, which installs meshoptimizer first.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/kilnhq/kiln/assets/simplify"
	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

type benchCase struct {
	Name          string  `json:"name"`
	Indices       string  `json:"indices"`
	Positions     string  `json:"positions"`
	Triangles     int     `json:"triangles"`
	Ratio         float32 `json:"ratio"`
	TargetIndices int     `json:"target_indices"`
	MaxError      float32 `json:"max_error"`
	Runs          int     `json:"runs"`
}

type outcome struct {
	Name    string    `json:"name"`
	Seconds []float64 `json:"seconds"`
	Indices int       `json:"indices"`
	Error   float32   `json:"error"`
}

func main() {
	short := flag.Bool("short", false, "skip the bunny subdivided 4 times (7.1 M triangles)")
	maxError := flag.Float64("maxerror", 1e-2, "error bound given to both simplifiers")
	keep := flag.Bool("keep", false, "keep the exported meshes (the directory is printed)")
	flag.Parse()
	log.SetFlags(0)

	bunny, err := simplifytest.BunnyPath()
	if err != nil {
		log.Fatal(err)
	}
	idx, pos, err := simplifytest.LoadOBJ(bunny)
	if err != nil {
		log.Fatalf("the bunny is needed (%v)", err)
	}
	dir, err := os.MkdirTemp("", "simplify-vs-meshopt-")
	if err != nil {
		log.Fatal(err)
	}
	if *keep {
		log.Printf("meshes in %s", dir)
	} else {
		defer os.RemoveAll(dir)
	}

	type source struct {
		name    string
		ratio   float32
		subdivs int
		runs    int
	}
	sources := []source{
		{"bunny", 0.5, 0, 11},
		{"bunny", 0.25, 0, 11},
		{"bunny/sub2", 0.5, 2, 5},
		{"bunny/sub4", 0.25, 4, 3},
	}
	if *short {
		sources = sources[:3]
	}
	var cases []benchCase
	meshes := map[int]string{} // subdivisions -> file prefix
	for _, s := range sources {
		prefix, ok := meshes[s.subdivs]
		if !ok {
			i, p := idx, pos
			for range s.subdivs {
				i, p = simplifytest.Subdivide(i, p)
			}
			prefix = fmt.Sprintf("mesh%d", s.subdivs)
			writeRaw(filepath.Join(dir, prefix+".u32"), i)
			writeRaw(filepath.Join(dir, prefix+".f32"), p)
			meshes[s.subdivs] = prefix
		}
		tris := int(fileSize(filepath.Join(dir, prefix+".u32")) / 12)
		cases = append(cases, benchCase{
			Name: s.name, Indices: prefix + ".u32", Positions: prefix + ".f32",
			Triangles: tris, Ratio: s.ratio,
			TargetIndices: int(float64(tris)*float64(s.ratio)) * 3,
			MaxError:      float32(*maxError), Runs: s.runs,
		})
	}
	manifest := filepath.Join(dir, "manifest.json")
	data, err := json.Marshal(map[string]any{"cases": cases})
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(manifest, data, 0o644); err != nil {
		log.Fatal(err)
	}

	log.Printf("running meshoptimizer (node)...")
	mo := runMeshopt(manifest)
	log.Printf("running Kiln...")
	var kiln []outcome
	for _, c := range cases {
		kiln = append(kiln, runKiln(dir, c))
	}

	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mesh\ttarget\tsource tris\tmeshopt tris\tkiln tris\tmeshopt Mtri/s\tkiln Mtri/s\tspeed kiln/meshopt\tmeshopt error\tkiln error\terror kiln/meshopt\t")
	for i, c := range cases {
		m, k := mo[i], kiln[i]
		ms, ks := median(m.Seconds), median(k.Seconds)
		mt, kt := float64(c.Triangles)/ms/1e6, float64(c.Triangles)/ks/1e6
		fmt.Fprintf(tw, "%s\t%.0f%%\t%d\t%d\t%d\t%.2f\t%.2f\t%.2fx\t%.3g\t%.3g\t%.2fx\t\n",
			c.Name, 100*c.Ratio, c.Triangles, m.Indices/3, k.Indices/3, mt, kt, kt/mt, m.Error, k.Error, float64(k.Error)/float64(m.Error))
	}
	tw.Flush()
}

func writeRaw[T uint32 | float32](path string, v []T) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if err := binary.Write(w, binary.LittleEndian, v); err != nil {
		log.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

func readRaw[T uint32 | float32](path string) []T {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	v := make([]T, len(data)/4)
	if err := binary.Read(bytes.NewReader(data), binary.LittleEndian, v); err != nil {
		log.Fatal(err)
	}
	return v
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		log.Fatal(err)
	}
	return st.Size()
}

func runMeshopt(manifest string) []outcome {
	cmd := exec.Command("node", "meshopt.mjs", manifest)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		log.Fatalf("node meshopt.mjs: %v", err)
	}
	var res []outcome
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var o outcome
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			log.Fatalf("node meshopt.mjs printed %q: %v", sc.Text(), err)
		}
		res = append(res, o)
	}
	return res
}

func runKiln(dir string, c benchCase) outcome {
	m := simplify.Mesh{
		Indices:   readRaw[uint32](filepath.Join(dir, c.Indices)),
		Positions: readRaw[float32](filepath.Join(dir, c.Positions)),
	}
	opt := simplify.Options{TargetRatio: c.Ratio, MaxError: c.MaxError}
	o := outcome{Name: c.Name}
	first := 0
	if c.Runs > 3 {
		first = -1 // one warm-up run, as for node, unless the mesh is huge
	}
	for r := first; r < c.Runs; r++ {
		start := time.Now()
		res, err := simplify.Simplify(m, opt)
		d := time.Since(start)
		if err != nil {
			log.Fatalf("%s: %v", c.Name, err)
		}
		if r >= 0 {
			o.Seconds = append(o.Seconds, d.Seconds())
		}
		o.Indices, o.Error = len(res.Indices), res.Error
	}
	return o
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
