// Command meshopt compares Kiln's useMeshOptCompression pipeline
// (assets/quantize, scene.OptimizeOrder, scene.WriteWith with
// EXT_meshopt_compression) with gltfpack 1.3 `-cc`, the anchor of issue
// 16, on the same files: both Ready Player Me avatars, DamagedHelmet,
// RobotExpressive and the textureless RocketShip and ShapeCollection from
// ../shared/testdata, a Kiln avatar (the default download: lod 0, WebP
// textures) and a generated flat-shaded rock.
//
// Both sides run as processes from a GLB on disk to a GLB on disk,
// alternately run by run (the first of a pair changes each run), after a
// warm-up run of each; the median of -runs is printed, so
// the times include start-up, parsing and writing on both sides (Kiln
// through this program re-executed with -encode). The sizes are the
// files' bytes; "validator" is the Khronos glTF Validator's error count
// on Kiln's output (tools/gltf-validator).
//
// Run it through run.sh, which installs gltfpack first.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/kilnhq/kiln/assets/quantize"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/bench/internal/benchfiles"
)

func main() {
	encode := flag.Bool("encode", false, "internal: compress IN to OUT the way useMeshOptCompression does")
	runs := flag.Int("runs", 5, "timed runs of each side per model")
	shared := flag.String("shared", "../../../shared/testdata", "folder of the third-party models")
	flag.Parse()
	if *encode {
		if err := compress(flag.Arg(0), flag.Arg(1)); err != nil {
			log.Fatal(err)
		}
		return
	}
	dir, err := os.MkdirTemp("", "kiln-meshopt-bench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	inputs, err := models(dir, *shared)
	if err != nil {
		log.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("load average at start:", benchfiles.LoadAverage())
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "model\tsource\tKiln plain\tKiln meshopt\tgltfpack -cc\tKiln/gltfpack\tKiln ms\tgltfpack ms\tvalidator errors\t")
	for _, in := range inputs {
		src, err := os.ReadFile(in.path)
		if err != nil {
			log.Fatal(err)
		}
		s, err := scene.Read(src, scene.ReadOptions{})
		if err != nil {
			log.Fatal(err)
		}
		plain, err := scene.Write(s)
		if err != nil {
			log.Fatal(err)
		}
		kilnOut := filepath.Join(dir, in.name+".kiln.glb")
		packOut := filepath.Join(dir, in.name+".gltfpack.glb")
		kilnCmd := []string{self, "-encode", in.path, kilnOut}
		packCmd := []string{"node", "../../tools/meshopt/node_modules/gltfpack/cli.js", "-cc", "-i", in.path, "-o", packOut}
		kt, pt, err := timed(kilnCmd, packCmd, *runs)
		if err != nil {
			log.Fatal(err)
		}
		ks, ps := size(kilnOut), size(packOut)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.3f\t%.0f\t%.0f\t%s\t\n", in.name, len(src), len(plain), ks, ps,
			float64(ks)/float64(ps), kt.Seconds()*1000, pt.Seconds()*1000, benchfiles.Validate(kilnOut))
	}
	tw.Flush()
	fmt.Println("load average at end:", benchfiles.LoadAverage())
}

type input struct{ name, path string }

// models lists the shared files that exist and writes the generated ones.
func models(dir, shared string) ([]input, error) {
	var out []input
	for _, name := range []string{"rpm-avatar-casual", "rpm-avatar-office", "DamagedHelmet", "RobotExpressive", "RocketShip", "ShapeCollection"} {
		p := filepath.Join(shared, name+".glb")
		if _, err := os.Stat(p); err == nil {
			out = append(out, input{name, p})
		} else {
			log.Printf("%s: %v (skipped)", name, err)
		}
	}
	a, err := benchfiles.KilnAvatar()
	if err != nil {
		return nil, err
	}
	for _, g := range []benchfiles.Model{a, {Name: "faceted-rock", GLB: scenetest.FacetedRock()}} {
		p := filepath.Join(dir, g.Name+".glb")
		if err := os.WriteFile(p, g.GLB, 0o644); err != nil {
			return nil, err
		}
		out = append(out, input{g.Name, p})
	}
	return out, nil
}

// compress is the pipeline of useMeshOptCompression=true after the
// variant's other stages.
func compress(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	s, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		return err
	}
	quantize.Apply(s, quantize.Options{})
	if err := s.Weld(); err != nil {
		return err
	}
	s.OptimizeOrder()
	glb, err := scene.WriteWith(s, scene.WriteOptions{Meshopt: true})
	if err != nil {
		return err
	}
	return os.WriteFile(out, glb, 0o644)
}

// timed runs a and b once each to warm up, then alternately runs times
// each (so that both see the same load on a shared machine), and returns
// their medians.
func timed(a, b []string, runs int) (time.Duration, time.Duration, error) {
	var ta, tb []time.Duration
	run := func(cmd []string, into *[]time.Duration, keep bool) error {
		start := time.Now()
		if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%v: %v: %s", cmd, err, out)
		}
		if keep {
			*into = append(*into, time.Since(start))
		}
		return nil
	}
	for i := 0; i <= runs; i++ {
		first, second, fa, fb := a, b, &ta, &tb
		if i%2 == 1 {
			first, second, fa, fb = b, a, &tb, &ta
		}
		if err := run(first, fa, i > 0); err != nil {
			return 0, 0, err
		}
		if err := run(second, fb, i > 0); err != nil {
			return 0, 0, err
		}
	}
	slices.Sort(ta)
	slices.Sort(tb)
	return ta[len(ta)/2], tb[len(tb)/2], nil
}

func size(path string) int {
	st, err := os.Stat(path)
	if err != nil {
		log.Fatal(err)
	}
	return int(st.Size())
}
