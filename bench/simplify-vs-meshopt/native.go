package main

import (
	"fmt"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/simplify"
	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

// nativeModel is one model as both contenders get it: every triangle
// primitive welded, with its normals and first texture coordinates (those
// it has) interleaved as attributes, each at weight 1.
type nativeModel struct {
	name  string
	prims []simplify.Mesh
}

// nativeRatios are the targets: lod 1 and lod 2.
var nativeRatios = []float32{0.5, 0.25}

// compareNative runs native meshoptimizer (built from the sources in src
// with g++ -O3 -march=native and native/driver.cpp) and Kiln on the same
// models, alternated run by run, and prints per model and target the time
// ratio, the triangles reached against the target and the Hausdorff
// distance of each result to its source, computed by hausdorff for both.
func compareNative(src string, runs int, only string) {
	if src == "" {
		log.Printf("skipping the native comparison: set MESHOPT_SRC (or -native DIR) to a checkout of zeux/meshoptimizer (see README.md)")
		return
	}
	if _, err := os.Stat(filepath.Join(src, "src", "simplifier.cpp")); err != nil {
		log.Printf("skipping the native comparison: %s has no src/simplifier.cpp (%v)", src, err)
		return
	}
	gxx, err := exec.LookPath("g++")
	if err != nil {
		log.Printf("skipping the native comparison: no g++ (%v)", err)
		return
	}
	dir, err := os.MkdirTemp("", "simplify-vs-native-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	driver := filepath.Join(dir, "driver")
	build := exec.Command(gxx, "-O3", "-march=native", "-DNDEBUG", "-std=c++17",
		"-I", filepath.Join(src, "src"), "-o", driver, filepath.Join("native", "driver.cpp"),
		filepath.Join(src, "src", "simplifier.cpp"), filepath.Join(src, "src", "allocator.cpp"))
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	log.Printf("building the native driver: %s", strings.Join(build.Args, " "))
	if err := build.Run(); err != nil {
		log.Fatalf("g++: %v", err)
	}

	models := nativeModels()
	if only != "" {
		models = slices.DeleteFunc(models, func(m nativeModel) bool { return !strings.Contains(m.name, only) })
	}
	var manifest strings.Builder
	first := map[string]int{}
	n := 0
	for _, m := range models {
		first[m.name] = n
		for _, p := range m.prims {
			prefix := filepath.Join(dir, fmt.Sprintf("p%d", n))
			writeRaw(prefix+".u32", p.Indices)
			writeRaw(prefix+".f32", p.Positions)
			writeRaw(prefix+".attr.f32", p.Attributes)
			fmt.Fprintf(&manifest, "%s.u32 %s.f32 %s.attr.f32 %d %d\n", prefix, prefix, prefix, len(p.Positions)/3, p.AttrStride)
			n++
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.txt"), []byte(manifest.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	d := startDriver(driver, filepath.Join(dir, "manifest.txt"))
	defer d.close()

	printLoad("load average at start")
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "model\tprims\ttarget\tsource tris\ttarget tris\tnative tris\tkiln tris\tnative ms\tkiln ms\tspeed kiln/native median (best)\tcpu speed kiln/native\tnative hausdorff\tkiln hausdorff\terror kiln/native\tworst prim kiln/native\t")
	for _, m := range models {
		for _, ratio := range nativeRatios {
			out := filepath.Join(dir, "out")
			var nt, kt, nc, kc []float64
			var nIdx int
			var kRes [][]uint32
			for r := -1; r < runs; r++ { // r == -1 warms up
				time.Sleep(pause)
				sec, cpu, idx := d.run(first[m.name], len(m.prims), ratio, out)
				time.Sleep(pause)
				ksec, kcpu, res := runKilnModel(m, ratio)
				if r >= 0 {
					nt, kt = append(nt, sec), append(kt, ksec)
					nc, kc = append(nc, cpu), append(kc, kcpu)
				}
				nIdx, kRes = idx, res
			}
			// errors: the Hausdorff distance of each primitive's result to
			// its source, relative to the model's extent, largest over the
			// primitives; and the worst primitive's ratio
			extent := modelExtent(m)
			var srcTris, targetTris, kTris int
			var nH, kH, worst float64
			for k, p := range m.prims {
				nOut := readRaw[uint32](fmt.Sprintf("%s-%d.u32", out, k))
				step := extent / 400
				hn := hausdorff(p.Positions, p.Indices, nOut, step) / extent
				hk := hausdorff(p.Positions, p.Indices, kRes[k], step) / extent
				nH, kH = max(nH, hn), max(kH, hk)
				if hk > 1e-6 || hn > 1e-6 {
					worst = max(worst, hk/max(hn, 1e-6))
				}
				tris := len(p.Indices) / 3
				srcTris += tris
				targetTris += int(float64(tris) * float64(ratio))
				kTris += len(kRes[k]) / 3
			}
			nMed, kMed := median(nt), median(kt)
			fmt.Fprintf(tw, "%s\t%d\t%.0f%%\t%d\t%d\t%d\t%d\t%.2f\t%.2f\t%.2fx (%.2fx)\t%.2fx\t%.3g\t%.3g\t%.2fx\t%.2fx\t\n",
				m.name, len(m.prims), 100*ratio, srcTris, targetTris, nIdx/3, kTris,
				1e3*nMed, 1e3*kMed, nMed/kMed, slices.Min(nt)/slices.Min(kt), median(nc)/median(kc), nH, kH, kH/max(nH, 1e-9), worst)
		}
	}
	tw.Flush()
	printLoad("load average at end")
}

// runKilnModel simplifies every primitive of m as the driver does and
// returns the time of the calls alone (SimplifyAll, or Simplify per
// primitive with -serial): wall and the process's CPU time, the Go
// runtime's collector included; and the results.
func runKilnModel(m nativeModel, ratio float32) (float64, float64, [][]uint32) {
	out := make([][]uint32, len(m.prims))
	opts := make([]simplify.Options, len(m.prims))
	for k := range opts {
		opts[k] = simplify.Options{TargetRatio: ratio}
	}
	c0 := cpuSeconds()
	start := time.Now()
	if serial {
		for k, p := range m.prims {
			res, err := simplify.Simplify(p, opts[k])
			if err != nil {
				log.Fatalf("%s: %v", m.name, err)
			}
			out[k] = res.Indices
		}
	} else {
		res, err := simplify.SimplifyAll(m.prims, opts)
		if err != nil {
			log.Fatalf("%s: %v", m.name, err)
		}
		for k, r := range res {
			out[k] = r.Indices
		}
	}
	wall := time.Since(start).Seconds()
	return wall, cpuSeconds() - c0, out
}

// serial makes runKilnModel call Simplify once per primitive in turn
// (-serial) instead of SimplifyAll, which runs them in parallel.
var serial bool

// cpuSeconds is the CPU time this process has used, in seconds.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		log.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func modelExtent(m nativeModel) float64 {
	lo, hi := vec{math.Inf(1), math.Inf(1), math.Inf(1)}, vec{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range m.prims {
		for _, v := range p.Indices {
			q := vertex(p.Positions, v)
			for k := range q {
				lo[k], hi[k] = min(lo[k], q[k]), max(hi[k], q[k])
			}
		}
	}
	return max(hi[0]-lo[0], hi[1]-lo[1], hi[2]-lo[2])
}

func printLoad(what string) {
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		log.Printf("%s: %s", what, strings.TrimSpace(string(b)))
	}
}

// nativeModels loads the models of issue 26: RobotExpressive, both Ready
// Player Me avatars, a Kiln avatar (default-male, generated), the bunny
// (with smooth normals and planar texture coordinates computed here, as it
// has none) and DamagedHelmet.
func nativeModels() []nativeModel {
	testdata, err := sharedTestdata()
	if err != nil {
		log.Fatal(err)
	}
	var models []nativeModel
	for _, f := range []string{"RobotExpressive.glb", "rpm-avatar-casual.glb", "rpm-avatar-office.glb", "DamagedHelmet.glb"} {
		data, err := os.ReadFile(filepath.Join(testdata, f))
		if err != nil {
			log.Printf("skipping %s: %v", f, err)
			continue
		}
		models = append(models, gltfModel(strings.TrimSuffix(f, ".glb"), data))
	}
	s, err := avatar.Generate(avatar.Default(avatar.Masculine))
	if err != nil {
		log.Fatal(err)
	}
	glb, err := scene.Write(s)
	if err != nil {
		log.Fatal(err)
	}
	models = append(models, gltfModel("kiln-avatar", glb))
	idx, pos, err := simplifytest.LoadOBJ(filepath.Join(testdata, "bunny.obj"))
	if err != nil {
		log.Fatal(err)
	}
	models = append(models, nativeModel{name: "bunny", prims: []simplify.Mesh{withNormalsAndUVs(idx, pos)}})
	return models
}

func gltfModel(name string, data []byte) nativeModel {
	m := nativeModel{name: name}
	trianglePrims(name, data, func(_, _ int, p *scene.Primitive, idx []uint32) {
		pos, attr := interleave(p, false)
		stride := 0
		if p.Normals != nil {
			stride += 3
		}
		if len(p.TexCoords) > 0 {
			stride += 2
		}
		m.prims = append(m.prims, mesh3(idx, pos, attr, stride))
	})
	return m
}

func mesh3(idx []uint32, pos, attr []float32, stride int) simplify.Mesh {
	w := make([]float32, stride)
	for i := range w {
		w[i] = 1
	}
	if stride == 0 {
		attr, w = nil, nil
	}
	return simplify.Mesh{Indices: idx, Positions: pos, Attributes: attr, AttrStride: stride, AttrWeights: w}
}

// withNormalsAndUVs gives a position-only mesh area-weighted vertex normals
// and texture coordinates projected on its xy plane, so that it carries the
// same attributes as the other models.
func withNormalsAndUVs(idx []uint32, pos []float32) simplify.Mesh {
	nv := len(pos) / 3
	n := make([]vec, nv)
	for t := 0; t+2 < len(idx); t += 3 {
		a, b, c := vertex(pos, idx[t]), vertex(pos, idx[t+1]), vertex(pos, idx[t+2])
		e1, e2 := vec{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, vec{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		f := vec{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		for _, v := range idx[t : t+3] {
			for k := range f {
				n[v][k] += f[k]
			}
		}
	}
	lo, hi := [2]float32{math.MaxFloat32, math.MaxFloat32}, [2]float32{-math.MaxFloat32, -math.MaxFloat32}
	for v := range nv {
		for k := range 2 {
			lo[k], hi[k] = min(lo[k], pos[3*v+k]), max(hi[k], pos[3*v+k])
		}
	}
	ext := max(hi[0]-lo[0], hi[1]-lo[1])
	attr := make([]float32, 0, 5*nv)
	for v := range nv {
		l := math.Sqrt(n[v][0]*n[v][0] + n[v][1]*n[v][1] + n[v][2]*n[v][2])
		if l == 0 {
			l = 1
		}
		attr = append(attr, float32(n[v][0]/l), float32(n[v][1]/l), float32(n[v][2]/l),
			(pos[3*v]-lo[0])/ext, (pos[3*v+1]-lo[1])/ext)
	}
	return mesh3(idx, pos, attr, 5)
}

// driver is the running native driver, one request a line.
type driver struct{ *child }

func startDriver(path, manifest string) *driver {
	return &driver{startChild("native driver", path, manifest)}
}

// run simplifies count primitives from first at ratio with no error bound
// and returns the seconds of the calls (wall and CPU) and the indices
// written.
func (d *driver) run(first, count int, ratio float32, out string) (float64, float64, int) {
	line := d.ask("%d %d %g %g %s", first, count, ratio, 1e30, out)
	var sec, cpu, worst float64
	var idx int
	if _, err := fmt.Sscan(line, &sec, &cpu, &idx, &worst); err != nil {
		log.Fatalf("native driver printed %q: %v", line, err)
	}
	return sec, cpu, idx
}

// profileKiln simplifies the models of -native with Kiln alone, runs times
// each at both targets, under a CPU profile written to path: the native
// comparison says how far Kiln is, this says where its time goes.
func profileKiln(path string, runs int, only string) {
	models := nativeModels()
	if only != "" {
		models = slices.DeleteFunc(models, func(m nativeModel) bool { return !strings.Contains(m.name, only) })
	}
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	defer pprof.StopCPUProfile()
	for _, m := range models {
		for _, ratio := range nativeRatios {
			var cpu, wall float64
			for range runs {
				w, c, _ := runKilnModel(m, ratio)
				cpu, wall = cpu+c, wall+w
			}
			log.Printf("%s %.0f%%: %.2f ms CPU, %.2f ms wall per run", m.name, 100*ratio, 1e3*cpu/float64(runs), 1e3*wall/float64(runs))
		}
	}
}
