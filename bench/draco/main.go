// Command draco compares Kiln's useDracoMeshCompression writer
// (Scene.Weld, scene.OptimizeOrder, then scene.WriteWith with Draco: assets/draco,
// Kiln's own Go encoder) with Google's encoder (draco3dgltf 1.5.7 through
// glTF-Transform 4.5.1, tools/draco/encode.mjs: edgebreaker at speed 5,
// sequential where a primitive has morph targets), the anchor of issue
// 21, at the same quantization bits (positions 14, normals 10, texture
// coordinates 12, colours 8, the rest 12), on the same input: Kiln's
// plain GLB of each model. Models: the leader's two avatars and
// DamagedHelmet from ../shared/testdata, the Stanford bunny (bunny.obj
// there) and a Kiln avatar as the default download serves it.
//
// "Draco bytes" are the bytes of the compressed streams alone (the
// buffer views the extension names), the part the encoders decide; the
// files add JSON, morph targets and textures, which both leave alone.
// Times are encode times in-process, after a warm-up, median of -runs:
// Kiln's of Weld, OptimizeOrder and WriteWith, Google's of glTF-Transform's
// writeBinary with the WebAssembly encoder loaded. "validator" is the
// Khronos glTF Validator's error count on Kiln's file.
//
// Run it through run.sh, which installs the node packages first.
package main

import (
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

	"github.com/kilnhq/kiln/assets/obj"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/bench/internal/benchfiles"
)

func main() {
	runs := flag.Int("runs", 5, "timed runs of each side per model")
	shared := flag.String("shared", "../../../shared/testdata", "folder of the third-party models")
	flag.Parse()
	dir, err := os.MkdirTemp("", "kiln-draco-bench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	inputs, err := models(*shared)
	if err != nil {
		log.Fatal(err)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "model\ttriangles\tplain\tKiln file\tGoogle file\tKiln Draco bytes\tGoogle Draco bytes\tKiln/Google\tKiln seq/eb/eb-seams\tGoogle seq/eb/eb-seams\tKiln ms\tGoogle ms\tvalidator errors\t")
	for _, in := range inputs {
		s, err := scene.Read(in.GLB, scene.ReadOptions{})
		if err != nil {
			log.Fatal(err)
		}
		plain, err := scene.Write(s)
		if err != nil {
			log.Fatal(err)
		}
		plainPath := filepath.Join(dir, in.Name+".glb")
		if err := os.WriteFile(plainPath, plain, 0o644); err != nil {
			log.Fatal(err)
		}
		var kiln []byte
		var kt []time.Duration
		for i := 0; i <= *runs; i++ {
			s, err := scene.Read(plain, scene.ReadOptions{})
			if err != nil {
				log.Fatal(err)
			}
			start := time.Now()
			if err := s.Weld(); err != nil {
				log.Fatal(err)
			}
			s.OptimizeOrder()
			if kiln, err = scene.WriteWith(s, scene.WriteOptions{Draco: true}); err != nil {
				log.Fatal(err)
			}
			if i > 0 {
				kt = append(kt, time.Since(start))
			}
		}
		kilnPath := filepath.Join(dir, in.Name+".kiln.glb")
		if err := os.WriteFile(kilnPath, kiln, 0o644); err != nil {
			log.Fatal(err)
		}
		googlePath := filepath.Join(dir, in.Name+".google.glb")
		out, err := exec.Command("node", "../../tools/draco/encode.mjs", plainPath, googlePath, fmt.Sprint(*runs)).Output()
		if err != nil {
			log.Fatalf("%s: encode.mjs: %v", in.Name, err)
		}
		var g struct{ MS []float64 }
		if err := json.Unmarshal(out, &g); err != nil {
			log.Fatal(err)
		}
		google, err := os.ReadFile(googlePath)
		if err != nil {
			log.Fatal(err)
		}
		kd, gd := dracoBytes(kiln), dracoBytes(google)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.3f\t%s\t%s\t%.0f\t%.0f\t%s\t\n", in.Name, s.Stats().Triangles, len(plain), len(kiln), len(google),
			kd, gd, float64(kd)/float64(gd), methods(kiln), methods(google), median(kt).Seconds()*1000, medianMS(g.MS), benchfiles.Validate(kilnPath))
	}
	tw.Flush()
}

// models reads the shared files that exist and builds the others.
func models(shared string) ([]benchfiles.Model, error) {
	out := benchfiles.Shared(shared, "rpm-avatar-casual", "rpm-avatar-office", "DamagedHelmet")
	if data, err := os.ReadFile(filepath.Join(shared, "bunny.obj")); err != nil {
		log.Printf("bunny: %v (skipped)", err)
	} else {
		s, err := obj.Read(data, nil)
		if err != nil {
			return nil, err
		}
		glb, err := scene.Write(s)
		if err != nil {
			return nil, err
		}
		out = append(out, benchfiles.Model{Name: "bunny", GLB: glb})
	}
	a, err := benchfiles.KilnAvatar()
	if err != nil {
		return nil, err
	}
	return append(out, a), nil
}

// dracoBytes sums the buffer views that KHR_draco_mesh_compression names.
func dracoBytes(glb []byte) int {
	total, _ := dracoStreams(glb)
	return total
}

// methods counts the streams by how their connectivity is coded:
// sequential, edgebreaker with every attribute on one connectivity,
// edgebreaker with a connectivity per attribute (Google's default).
func methods(glb []byte) string {
	_, streams := dracoStreams(glb)
	var seq, single, seams int
	for _, s := range streams {
		switch {
		case s[8] == 0:
			seq++
		case attributeData(s) == 0:
			single++
		default:
			seams++
		}
	}
	return fmt.Sprintf("%d/%d/%d", seq, single, seams)
}

// attributeData reads an edgebreaker stream's number of attribute
// connectivities (after the header, the traversal type, the vertex and
// face counts).
func attributeData(b []byte) int {
	i := 12
	for range 2 {
		for b[i] >= 0x80 {
			i++
		}
		i++
	}
	return int(b[i])
}

// dracoStreams returns the total size and the bytes of the streams that
// KHR_draco_mesh_compression names.
func dracoStreams(glb []byte) (int, [][]byte) {
	n := binary.LittleEndian.Uint32(glb[12:])
	var doc struct {
		BufferViews []struct {
			ByteOffset int `json:"byteOffset"`
			ByteLength int `json:"byteLength"`
		} `json:"bufferViews"`
		Meshes []struct {
			Primitives []struct {
				Extensions struct {
					Draco *struct {
						BufferView int `json:"bufferView"`
					} `json:"KHR_draco_mesh_compression"`
				} `json:"extensions"`
			} `json:"primitives"`
		} `json:"meshes"`
	}
	if err := json.Unmarshal(glb[20:20+n], &doc); err != nil {
		log.Fatal(err)
	}
	bin := glb[20+n+8:]
	seen := map[int]bool{}
	total := 0
	var streams [][]byte
	for _, m := range doc.Meshes {
		for _, p := range m.Primitives {
			if d := p.Extensions.Draco; d != nil && !seen[d.BufferView] {
				seen[d.BufferView] = true
				v := doc.BufferViews[d.BufferView]
				total += v.ByteLength
				streams = append(streams, bin[v.ByteOffset:v.ByteOffset+v.ByteLength])
			}
		}
	}
	return total, streams
}

func median(ts []time.Duration) time.Duration {
	slices.Sort(ts)
	return ts[len(ts)/2]
}

func medianMS(ms []float64) float64 {
	slices.Sort(ms)
	return ms[len(ms)/2]
}
