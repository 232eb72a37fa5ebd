// Command hostile measures what the worker spends on the hostile uploads
// of issue 14 and on a normal large model: for each file it generates, it
// runs the worker's real object job (worker.ProcessObject with
// optimize=true: read, thumbnail, levels of detail) in a child process on
// an embedded Redis and a disk store, and reports the wall time, the
// child's peak RSS (getrusage maxrss) and the state the object ends in.
// A child is killed when its RSS passes -kill-rss or its time -timeout,
// so a run of the code before the budget does not take the machine down.
//
//	go run ./bench/hostile            # all cases
//	go run ./bench/hostile -case texref-8192
package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/jobs"
	"github.com/kilnhq/kiln/storage/disk"
	"github.com/kilnhq/kiln/storage/redis"
	"github.com/kilnhq/kiln/worker"
)

// A case is one generated upload.
type benchCase struct {
	name, ext string
	make      func() []byte
}

var cases = []benchCase{
	{"stacked-100k", "obj", func() []byte { return stackedOBJ(100_000) }},
	{"stacked-10M", "obj", func() []byte { return stackedOBJ(10_000_000) }},
	{"texref-8192", "glb", texrefGLB},
	{"fan-1M", "obj", func() []byte { return fanOBJ(1_000_000) }},
	{"grid-1.5M", "obj", func() []byte { return gridOBJ(866) }},
}

// result is what a child reports on stdout.
type result struct {
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}

func main() {
	child := flag.String("child", "", "internal: process this file as the worker would")
	ext := flag.String("ext", "", "internal: the file's extension")
	only := flag.String("case", "", "run only this case")
	timeout := flag.Duration("timeout", 10*time.Minute, "the task's timeout (the object job's), and when a child is killed")
	killRSS := flag.Int64("kill-rss", 6<<30, "kill a child whose RSS passes this many bytes")
	flag.Parse()
	if *child != "" {
		runChild(*child, *ext, *timeout)
		return
	}
	dir, err := os.MkdirTemp("", "kiln-hostile-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	tw := tabwriter.NewWriter(os.Stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "case\tupload\ttime\tpeak RSS\tends")
	for _, c := range cases {
		if *only != "" && c.name != *only {
			continue
		}
		data := c.make()
		path := filepath.Join(dir, c.name+"."+c.ext)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			log.Fatal(err)
		}
		start := time.Now()
		out, rss, note := runParent(path, c.ext, *timeout, *killRSS)
		ends := out.State
		if out.Error != "" {
			ends += ": " + out.Error
		}
		if note != "" {
			ends = note
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f s\t%d MB\t%s\n", c.name, size(len(data)), time.Since(start).Seconds(), rss>>20, ends)
		tw.Flush()
	}
}

func size(n int) string {
	if n < 1<<20 {
		return strconv.Itoa(n>>10) + " KB"
	}
	return strconv.Itoa(n>>20) + " MB"
}

// runParent starts a child on path and watches its RSS.
func runParent(path, ext string, timeout time.Duration, killRSS int64) (result, int64, string) {
	cmd := exec.Command(os.Args[0], "-child", path, "-ext", ext, "-timeout", timeout.String())
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	note := ""
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(timeout + 5*time.Second)
wait:
	for {
		select {
		case <-done:
			break wait
		case <-deadline:
			note = fmt.Sprintf("killed: still running after %s", timeout)
			_ = cmd.Process.Kill()
			<-done
			break wait
		case <-tick.C:
			if rss := currentRSS(cmd.Process.Pid); rss > killRSS {
				note = fmt.Sprintf("killed: RSS passed %d MB", killRSS>>20)
				_ = cmd.Process.Kill()
				<-done
				break wait
			}
		}
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss << 10 // kilobytes on Linux
	}
	var out result
	if note == "" {
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			note = fmt.Sprintf("child ended %v without a result", cmd.ProcessState)
		}
	}
	return out, rss, note
}

// currentRSS reads VmRSS of pid, 0 when it cannot.
func currentRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// runChild processes one upload as the worker's object job does, with
// the task's deadline on its context, and prints the object's end.
func runChild(path, ext string, timeout time.Duration) {
	ctx := context.Background()
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	mr, err := miniredis.Run()
	if err != nil {
		log.Fatal(err)
	}
	defer mr.Close()
	rdb, err := redis.Open(ctx, "redis://"+mr.Addr())
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "kiln-hostile-blobs-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	blobs, err := disk.New(dir)
	if err != nil {
		log.Fatal(err)
	}
	db := redis.New(rdb)
	w := worker.New(blobs, db, slog.New(slog.NewTextHandler(io.Discard, nil)), prometheus.NewRegistry())
	configure(w)
	o := &kiln.Object{ID: kiln.NewID("obj"), Account: "bench", Name: "hostile", Type: "mesh", Extension: ext,
		Optimize: true, State: kiln.StateProcessing, Uploaded: true, CreatedAt: time.Now()}
	if err := db.CreateObject(ctx, o); err != nil {
		log.Fatal(err)
	}
	if _, err := blobs.Put(ctx, o.SourceKey(), bytes.NewReader(data), int64(len(data)), ""); err != nil {
		log.Fatal(err)
	}
	data = nil
	task, err := jobs.ObjectProcess{ObjectID: o.ID}.Task()
	if err != nil {
		log.Fatal(err)
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	perr := w.ProcessObject(tctx, task)
	got, err := db.Object(ctx, o.ID)
	if err != nil {
		log.Fatal(err)
	}
	out := result{State: string(got.State), Error: got.Error}
	if got.State == kiln.StateProcessing && perr != nil {
		out.Error = "the attempt ended: " + perr.Error()
	}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}

// stackedOBJ is n faces on the same three vertices, zipped.
func stackedOBJ(n int) []byte {
	var b bytes.Buffer
	b.WriteString("v 0 0 0\nv 1 0 0\nv 0 1 0\n")
	for range n {
		b.WriteString("f 1 2 3\n")
	}
	return zipped("stacked.obj", b.Bytes())
}

// fanOBJ is n triangles around one vertex (a disk whose centre has
// valence n), zipped.
func fanOBJ(n int) []byte {
	var b bytes.Buffer
	b.WriteString("v 0 0 0\n")
	for i := 0; i <= n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n+1)
		fmt.Fprintf(&b, "v %.6f %.6f %.6f\n", math.Cos(a), math.Sin(a), 0.01*math.Sin(7*a))
	}
	for i := 2; i <= n+1; i++ {
		fmt.Fprintf(&b, "f 1 %d %d\n", i, i+1)
	}
	return zipped("fan.obj", b.Bytes())
}

// gridOBJ is a wavy n×n grid of quads, 2n² triangles: a normal, large
// scanned-surface model.
func gridOBJ(n int) []byte {
	var b bytes.Buffer
	for y := 0; y <= n; y++ {
		for x := 0; x <= n; x++ {
			fx, fy := float64(x)/float64(n), float64(y)/float64(n)
			fmt.Fprintf(&b, "v %.5f %.5f %.5f\n", fx, 0.05*math.Sin(12*fx)*math.Cos(9*fy), fy)
		}
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			i := y*(n+1) + x + 1
			fmt.Fprintf(&b, "f %d %d %d %d\n", i, i+n+1, i+n+2, i+1)
		}
	}
	return zipped("grid.obj", b.Bytes())
}

func zipped(name string, data []byte) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	f, err := zw.Create(name)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	return b.Bytes()
}

// texrefGLB is a GLB of 100 quads, each with its own material and
// texture, all textures pointing at one 8192² two-colour PNG.
func texrefGLB() []byte {
	const side, n = 8192, 100
	img := image.NewPaletted(image.Rect(0, 0, side, side), color.Palette{color.White, color.Black})
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			if (x/512+y/512)%2 == 0 {
				img.SetColorIndex(x, y, 1)
			}
		}
	}
	var png8 bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&png8, img); err != nil {
		log.Fatal(err)
	}
	zero := 0
	s := &scene.Scene{Asset: gltf.Asset{Version: "2.0"}, Images: []*scene.Image{{MimeType: "image/png", Data: png8.Bytes()}}}
	mesh := &scene.Mesh{}
	for i := range n {
		x := float32(i%10) * 1.1
		y := float32(i/10) * 1.1
		m := i
		mesh.Primitives = append(mesh.Primitives, &scene.Primitive{
			Mode: gltf.PrimitiveTriangles, Material: &m, Indices: []uint32{0, 1, 2, 0, 2, 3},
			Positions: [][3]float32{{x, y, 0}, {x + 1, y, 0}, {x + 1, y + 1, 0}, {x, y + 1, 0}},
			Normals:   [][3]float32{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
			TexCoords: [][][2]float32{{{0, 1}, {1, 1}, {1, 0}, {0, 0}}},
		})
		s.Materials = append(s.Materials, &gltf.Material{PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorTexture: &gltf.TextureInfo{Index: i}}})
		s.Textures = append(s.Textures, &gltf.Texture{Source: &zero})
	}
	s.Meshes = []*scene.Mesh{mesh}
	s.Nodes = []*gltf.Node{{Mesh: &zero}}
	s.Scenes = []*gltf.Scene{{Nodes: []int{0}}}
	s.DefaultScene = &zero
	glb, err := scene.Write(s)
	if err != nil {
		log.Fatal(err)
	}
	return glb
}
