// Command simplify-vs-meshopt compares Kiln's simplifier (assets/simplify)
// with meshoptimizer's npm build on the four meshes of BenchmarkSimplify:
// the Stanford bunny at 50% and 25%, the bunny subdivided twice at 50% and
// four times at 25%. It writes each mesh as raw little-endian files
// (uint32 indices, float32 positions) into a temporary directory, starts
// meshopt.mjs with node on them, reads the same files for Kiln, and runs
// the two in turn, one run each at a time, so that both see the same load
// on a machine shared with other work. After a warm-up run of each, it
// prints the best and the median time of each side and their ratios.
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
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/kilnhq/kiln/assets/simplify"
	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

// pause is the idle time before each timed run.
const pause = 50 * time.Millisecond

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
	Seconds []float64
	Indices int
	Error   float32
}

func main() {
	short := flag.Bool("short", false, "skip the bunny subdivided 4 times (7.1 M triangles)")
	maxError := flag.Float64("maxerror", 1e-2, "error bound given to both simplifiers")
	keep := flag.Bool("keep", false, "keep the exported meshes (the directory is printed)")
	models := flag.Bool("models", false, "compare levels of detail of the shared models instead (triangles and error, not speed)")
	pictures := flag.String("pictures", "", "render lod 0, 1 and 2 of the flat-shaded models into this directory instead")
	native := flag.Bool("native", false, "compare with native meshoptimizer (g++ -O3 -march=native) on the models of issue 26 instead")
	meshoptSrc := flag.String("meshopt-src", os.Getenv("MESHOPT_SRC"), "with -native: a checkout of zeux/meshoptimizer (default $MESHOPT_SRC)")
	runs := flag.Int("runs", 11, "with -native: timed runs of each contender per model and target")
	only := flag.String("only", "", "with -native: only the models whose name contains this")
	profile := flag.String("profile", "", "run Kiln alone on the models of -native (-runs times, -only) with a CPU profile written to this file, for go tool pprof")
	flag.BoolVar(&serial, "serial", false, "with -native or -profile: Kiln simplifies one primitive after the other (Simplify per primitive, on one core but for its own bands) instead of SimplifyAll")
	flag.Parse()
	log.SetFlags(0)
	if *profile != "" {
		profileKiln(*profile, *runs, *only)
		return
	}
	if *native {
		compareNative(*meshoptSrc, *runs, *only)
		return
	}
	if *pictures != "" {
		drawPictures(*pictures)
		return
	}
	if *models {
		dir, err := os.MkdirTemp("", "simplify-vs-meshopt-models-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(dir)
		compareModels(dir)
		return
	}

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
		{"bunny", 0.5, 0, 21},
		{"bunny", 0.25, 0, 21},
		{"bunny/sub2", 0.5, 2, 7},
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

	node := startMeshopt(manifest)
	defer node.close()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mesh\ttarget\tsource tris\tmeshopt tris\tkiln tris\tmeshopt Mtri/s\tkiln Mtri/s\tspeed kiln/meshopt\tmeshopt error\tkiln error\terror kiln/meshopt\t")
	for i, c := range cases {
		log.Printf("%s %.0f%%: %d runs each...", c.Name, 100*c.Ratio, c.Runs)
		m := simplify.Mesh{
			Indices:   readRaw[uint32](filepath.Join(dir, c.Indices)),
			Positions: readRaw[float32](filepath.Join(dir, c.Positions)),
		}
		opt := simplify.Options{TargetRatio: c.Ratio, MaxError: c.MaxError}
		var mo, k outcome
		for r := -1; r < c.Runs; r++ { // r == -1 warms up
			// a pause before each run lets the other side's background
			// work (V8's compiler and collector, Go's collector) finish
			time.Sleep(pause)
			a := node.run(i)
			time.Sleep(pause)
			b := runKiln(m, opt)
			if r >= 0 {
				mo.Seconds = append(mo.Seconds, a.Seconds...)
				k.Seconds = append(k.Seconds, b.Seconds...)
			}
			mo.Indices, mo.Error = a.Indices, a.Error
			k.Indices, k.Error = b.Indices, b.Error
		}
		mBest, kBest := slices.Min(mo.Seconds), slices.Min(k.Seconds)
		mMed, kMed := median(mo.Seconds), median(k.Seconds)
		tris := float64(c.Triangles) / 1e6
		fmt.Fprintf(tw, "%s\t%.0f%%\t%d\t%d\t%d\t%.2f (median %.2f)\t%.2f (median %.2f)\t%.2fx (median %.2fx)\t%.3g\t%.3g\t%.2fx\t\n",
			c.Name, 100*c.Ratio, c.Triangles, mo.Indices/3, k.Indices/3,
			tris/mBest, tris/mMed, tris/kBest, tris/kMed, mBest/kBest, mMed/kMed,
			mo.Error, k.Error, float64(k.Error)/float64(mo.Error))
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

// meshopt is the node process that runs meshoptimizer, one case per request.
type meshopt struct{ *child }

func startMeshopt(manifest string) *meshopt {
	return &meshopt{startChild("node meshopt.mjs", "node", "meshopt.mjs", manifest)}
}

func (m *meshopt) run(i int) outcome {
	line := m.ask("%d", i)
	var r struct {
		Seconds float64 `json:"seconds"`
		Indices int     `json:"indices"`
		Error   float32 `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		log.Fatalf("node meshopt.mjs printed %q: %v", line, err)
	}
	return outcome{Seconds: []float64{r.Seconds}, Indices: r.Indices, Error: r.Error}
}

func runKiln(m simplify.Mesh, opt simplify.Options) outcome {
	start := time.Now()
	res, err := simplify.Simplify(m, opt)
	d := time.Since(start)
	if err != nil {
		log.Fatal(err)
	}
	return outcome{Seconds: []float64{d.Seconds()}, Indices: len(res.Indices), Error: res.Error}
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
