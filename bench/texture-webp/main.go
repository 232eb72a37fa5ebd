// Command texture-webp compares Kiln's WebP conversion (assets/texture)
// with glTF-Transform's `gltf-transform webp` (4.5.1, sharp and libvips
// underneath) on DamagedHelmet.glb: five JPEG
// textures of 2048².
//
// Both sides run as processes from a GLB on disk to a GLB on disk, so the
// wall times include start-up, parsing and writing: glTF-Transform through
// its CLI, Kiln through this program re-executed with -convert (scene.Read,
// texture.Convert, scene.Write). They run in turn, one at a time, so that
// both see the same load on a machine shared with other work; after a
// warm-up run of each, the median and best of -runs are printed.
//
// Fidelity is the SSIM (texture.SSIM: luminance, 8×8 windows) of every
// texture against its source, scaled to the output's size with
// texture.Scale when it differs. The source JPEGs are decoded twice, by
// Go's image/jpeg (with the fancy chroma upsampling Kiln uses) and by
// libjpeg-turbo through sharp, since each side decodes with its own and
// either reference favours one side slightly; both means are printed.
//
// Run it through run.sh, which installs glTF-Transform first.
package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/texture"
)

// pause is the idle time before each timed run.
const pause = 200 * time.Millisecond

func main() {
	in := flag.String("in", filepath.Join("..", "..", "..", "shared", "testdata", "DamagedHelmet.glb"), "model to convert")
	runs := flag.Int("runs", 5, "timed runs of each configuration")
	convert := flag.Bool("convert", false, "internal: convert -in to the file argument with Kiln and exit")
	maxSize := flag.Int("max", 0, "with -convert: texture size cap (0: Kiln's default)")
	quality := flag.Float64("quality", 0, "with -convert: one WebP quality for every texture (0: Kiln's per-role choice)")
	flag.Parse()
	log.SetFlags(0)
	if *convert {
		if err := kilnConvert(*in, flag.Arg(0), *maxSize, float32(*quality)); err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := run(*in, *runs); err != nil {
		log.Fatal(err)
	}
}

// kilnConvert is the Kiln side of one run: what `kiln optimize
// --texture-format webp` does to the textures, without its lod pass.
func kilnConvert(in, out string, maxSize int, quality float32) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	s, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		return err
	}
	if _, err := texture.Convert(context.Background(), s, texture.Options{Format: texture.FormatWebP, MaxSize: maxSize, Quality: quality}); err != nil {
		return err
	}
	glb, err := scene.Write(s)
	if err != nil {
		return err
	}
	return os.WriteFile(out, glb, 0o644)
}

type config struct {
	name string
	args []string // OUT is replaced by the output path
}

type outcome struct {
	walls []time.Duration
	bytes int
	ssimG []float64 // per texture, against the Go-decoded source
	ssimT []float64 // against the libjpeg-turbo-decoded source
}

func run(in string, runs int) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "kiln-texture-webp")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	src, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		return err
	}
	refG, refT, err := references(src, tmp)
	if err != nil {
		return err
	}
	configs := []config{
		{"gltf-transform webp --quality 80", []string{filepath.Join("node_modules", ".bin", "gltf-transform"), "webp", in, "OUT", "--quality", "80"}},
		{"kiln webp, 2048, quality per role", []string{self, "-convert", "-in", in, "-max", "2048", "OUT"}},
		{"kiln webp, 2048, quality 80", []string{self, "-convert", "-in", in, "-max", "2048", "-quality", "80", "OUT"}},
		{"kiln webp, default cap 1024", []string{self, "-convert", "-in", in, "OUT"}},
	}
	outs := make([]outcome, len(configs))
	for round := -1; round < runs; round++ { // round -1 warms up
		for i, c := range configs {
			out := filepath.Join(tmp, fmt.Sprintf("out%d.glb", i))
			args := slices.Clone(c.args)
			args[slices.Index(args, "OUT")] = out
			time.Sleep(pause)
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Stderr = os.Stderr
			start := time.Now()
			if b, err := cmd.Output(); err != nil {
				return fmt.Errorf("%s: %v\n%s", c.name, err, b)
			}
			if round >= 0 {
				outs[i].walls = append(outs[i].walls, time.Since(start))
			}
		}
	}
	for i := range configs {
		glb, err := os.ReadFile(filepath.Join(tmp, fmt.Sprintf("out%d.glb", i)))
		if err != nil {
			return err
		}
		outs[i].bytes = len(glb)
		if outs[i].ssimG, outs[i].ssimT, err = fidelity(src, glb, refG, refT); err != nil {
			return fmt.Errorf("%s: %v", configs[i].name, err)
		}
	}
	fmt.Printf("%s (%d bytes), %d runs each after a warm-up, NumCPU %d\n", filepath.Base(in), len(data), runs, runtime.NumCPU())
	var agree []float64
	for k := range refG {
		agree = append(agree, texture.SSIM(refG[k].m, refT[k].m))
	}
	fmt.Printf("SSIM of Go's decode against libjpeg-turbo's, per texture: %s\n", list(agree))
	fmt.Println("textures in material slot order: base colour, metallic-roughness, normal, occlusion, emissive")
	fmt.Println()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(tw, "configuration\twall median\twall best\toutput bytes\tmean SSIM (Go decode)\tmean SSIM (libjpeg-turbo decode)\tSSIM per texture (Go decode)\t")
	for i, c := range configs {
		o := outs[i]
		w := slices.Clone(o.walls)
		slices.Sort(w)
		fmt.Fprintf(tw, "%s\t%.2f s\t%.2f s\t%d\t%.4f\t%.4f\t%s\t\n", c.name, w[len(w)/2].Seconds(), w[0].Seconds(), o.bytes, mean(o.ssimG), mean(o.ssimT), list(o.ssimG))
	}
	return tw.Flush()
}

// references decodes the source image of every texture with Go and with
// libjpeg-turbo (sharp, via decode.mjs).
func references(s *scene.Scene, tmp string) (goRef, turboRef []*ref, err error) {
	var files []string
	for k, ti := range slots(s) {
		im := s.Images[*s.Textures[ti].Source]
		m, err := texture.Decode(im.Data)
		if err != nil {
			return nil, nil, fmt.Errorf("texture %d: %v", ti, err)
		}
		goRef = append(goRef, &ref{m, role(s, ti)})
		f := filepath.Join(tmp, fmt.Sprintf("src%d.img", k))
		if err := os.WriteFile(f, im.Data, 0o644); err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	cmd := exec.Command("node", append([]string{"decode.mjs"}, files...)...)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, nil, fmt.Errorf("decode.mjs: %v", err)
	}
	for k, f := range files {
		png, err := os.ReadFile(strings.TrimSuffix(f, ".img") + ".png")
		if err != nil {
			return nil, nil, err
		}
		m, err := texture.Decode(png)
		if err != nil {
			return nil, nil, err
		}
		turboRef = append(turboRef, &ref{m, goRef[k].role})
	}
	return goRef, turboRef, nil
}

// ref is a decoded source texture.
type ref struct {
	m    *image.NRGBA
	role texture.Role
}

// scaledTo returns the reference at the size of out, scaled as Kiln
// scales that role.
func (r *ref) scaledTo(out *image.NRGBA) *image.NRGBA {
	if r.m.Rect.Size() == out.Rect.Size() {
		return r.m
	}
	return texture.Scale(r.m, out.Rect.Dx(), out.Rect.Dy(), r.role, false)
}

// role is what the scale reference needs to know of a texture.
func role(s *scene.Scene, ti int) texture.Role {
	for _, m := range s.Materials {
		if m.NormalTexture != nil && m.NormalTexture.Index != nil && *m.NormalTexture.Index == ti {
			return texture.RoleNormal
		}
		if pbr := m.PBRMetallicRoughness; pbr != nil && pbr.MetallicRoughnessTexture != nil && pbr.MetallicRoughnessTexture.Index == ti {
			return texture.RoleData
		}
		if m.OcclusionTexture != nil && m.OcclusionTexture.Index != nil && *m.OcclusionTexture.Index == ti {
			return texture.RoleData
		}
	}
	return texture.RoleColor
}

// slots lists the texture of every material slot, material by material,
// in a fixed order.
func slots(s *scene.Scene) []int {
	var out []int
	for _, m := range s.Materials {
		if pbr := m.PBRMetallicRoughness; pbr != nil {
			if pbr.BaseColorTexture != nil {
				out = append(out, pbr.BaseColorTexture.Index)
			}
			if pbr.MetallicRoughnessTexture != nil {
				out = append(out, pbr.MetallicRoughnessTexture.Index)
			}
		}
		if m.NormalTexture != nil && m.NormalTexture.Index != nil {
			out = append(out, *m.NormalTexture.Index)
		}
		if m.OcclusionTexture != nil && m.OcclusionTexture.Index != nil {
			out = append(out, *m.OcclusionTexture.Index)
		}
		if m.EmissiveTexture != nil {
			out = append(out, m.EmissiveTexture.Index)
		}
	}
	return out
}

// fidelity compares every texture of an output with its reference.
func fidelity(src *scene.Scene, glb []byte, refG, refT []*ref) (g, t []float64, err error) {
	out, err := scene.Read(glb, scene.ReadOptions{})
	if err != nil {
		return nil, nil, err
	}
	// Textures are matched by the material slot that uses them: a tool
	// may renumber textures.
	srcSlots, outSlots := slots(src), slots(out)
	if len(outSlots) != len(srcSlots) {
		return nil, nil, fmt.Errorf("%d texture slots, the source has %d", len(outSlots), len(srcSlots))
	}
	for k := range srcSlots {
		tx := out.Textures[outSlots[k]]
		i, ok := webpSource(tx)
		if !ok {
			return nil, nil, fmt.Errorf("texture %d has no WebP source", outSlots[k])
		}
		m, err := texture.Decode(out.Images[i].Data)
		if err != nil {
			return nil, nil, fmt.Errorf("texture %d: %v", outSlots[k], err)
		}
		g = append(g, texture.SSIM(refG[k].scaledTo(m), m))
		t = append(t, texture.SSIM(refT[k].scaledTo(m), m))
	}
	return g, t, nil
}

func webpSource(t *gltf.Texture) (int, bool) {
	ext, ok := t.Extensions["EXT_texture_webp"].(map[string]any)
	if !ok {
		return 0, false
	}
	switch v := ext["source"].(type) {
	case int:
		return v, true
	case float64:
		return int(v), true
	}
	return 0, false
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func list(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.4f", x)
	}
	return strings.Join(parts, " ")
}
