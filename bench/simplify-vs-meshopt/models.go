package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"text/tabwriter"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/lod"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

// The models of the level-of-detail comparison: the shared test data by
// file name, then a Kiln avatar and the generated faceted rock.
var modelFiles = []string{
	"rpm-avatar-casual.glb", "rpm-avatar-office.glb", "DamagedHelmet.glb",
	"RobotExpressive.glb", "ShapeCollection.glb", "chr_knight.glb",
}

// Attribute weights as assets/lod gives them to Kiln's simplifier.
const (
	normalWeight = 0.5
	uvWeight     = 1.0
	colorWeight  = 0.5
)

// modelPrimitive is one primitive as both sides see it: welded and
// indexed as the lod package does before simplifying, with normals,
// first texture coordinates and first colours as attributes, and a lock
// file that protects (2) every vertex whose position has copies that
// differ in more than their normal: meshoptimizer's permissive mode then
// collapses across normal creases but not across texture seams.
type modelPrimitive struct {
	Indices    string    `json:"indices"`
	Positions  string    `json:"positions"`
	Attributes string    `json:"attributes"`
	Stride     int       `json:"stride"`
	Weights    []float32 `json:"weights"`
	Protect    string    `json:"protect"`
	Triangles  int       `json:"triangles"`
}

type modelCase struct {
	Name       string           `json:"name"`
	Primitives []modelPrimitive `json:"primitives"`
}

// levelResult is one level of one side: triangles summed over the
// primitives, error the largest, summed along the chain.
type levelResult struct {
	Triangles int     `json:"triangles"`
	Error     float64 `json:"error"`
}

// compareModels runs Kiln's lod chain (assets/lod, the worker's own code)
// and meshoptimizer's simplifyWithAttributes, plain and permissive, chained
// the same way (lod 2 simplified from lod 1, errors added), on every model
// and prints triangles and errors side by side.
func compareModels(dir string) {
	testdata, err := sharedTestdata()
	if err != nil {
		log.Fatal(err)
	}
	var names []string
	var sources [][]byte
	for _, f := range modelFiles {
		data, err := os.ReadFile(filepath.Join(testdata, f))
		if err != nil {
			log.Printf("skipping %s: %v", f, err)
			continue
		}
		names, sources = append(names, f), append(sources, data)
	}
	kilnAvatar, err := avatar.Generate(avatar.Default(avatar.Masculine))
	if err != nil {
		log.Fatal(err)
	}
	glb, err := scene.Write(kilnAvatar)
	if err != nil {
		log.Fatal(err)
	}
	names, sources = append(names, "kiln avatar (default-male)"), append(sources, glb)
	names, sources = append(names, "faceted-rock (generated)"), append(sources, scenetest.FacetedRock())

	var cases []modelCase
	for i, data := range sources {
		cases = append(cases, exportModel(dir, i, names[i], data))
	}
	manifest := filepath.Join(dir, "models.json")
	buf, err := json.Marshal(map[string]any{"models": cases})
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(manifest, buf, 0o644); err != nil {
		log.Fatal(err)
	}
	cmd := exec.Command("node", "models.mjs", manifest)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		log.Fatalf("node models.mjs: %v", err)
	}
	var mo struct {
		Models []struct {
			Plain, Permissive [3]levelResult
		} `json:"models"`
	}
	if err := json.Unmarshal(out, &mo); err != nil {
		log.Fatalf("node models.mjs printed %q: %v", out, err)
	}

	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "model\tsource tris\tlod\tkiln tris\tkiln error\tmeshopt tris\tmeshopt error\tmeshopt permissive tris\tmeshopt permissive error\t")
	for i, data := range sources {
		k := kilnLevels(data)
		m := mo.Models[i]
		for l := 1; l <= lod.Max; l++ {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d (%.1f%%)\t%.3g\t%d (%.1f%%)\t%.3g\t%d (%.1f%%)\t%.3g\t\n", names[i], k[0].Triangles, l,
				k[l].Triangles, pct(k[l].Triangles, k[0].Triangles), k[l].Error,
				m.Plain[l].Triangles, pct(m.Plain[l].Triangles, k[0].Triangles), m.Plain[l].Error,
				m.Permissive[l].Triangles, pct(m.Permissive[l].Triangles, k[0].Triangles), m.Permissive[l].Error)
		}
	}
	tw.Flush()
}

func pct(n, of int) float64 { return 100 * float64(n) / float64(of) }

// sharedTestdata is ../shared/testdata beside the repository root, found
// the way simplifytest finds the bunny.
func sharedTestdata() (string, error) {
	bunny, err := simplifytest.BunnyPath()
	if err != nil {
		return "", err
	}
	return filepath.Dir(bunny), nil
}

func kilnLevels(data []byte) [lod.Max + 1]levelResult {
	s, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	var out [lod.Max + 1]levelResult
	err = lod.Chain(context.Background(), s, lod.Max, func(l lod.Level, _ *scene.Scene) error {
		out[l.Level] = levelResult{Triangles: l.Triangles, Error: l.Error}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	return out
}

// exportModel writes every triangle primitive of a model for models.mjs.
func exportModel(dir string, model int, name string, data []byte) modelCase {
	c := modelCase{Name: name}
	trianglePrims(name, data, func(mi, pi int, p *scene.Primitive, idx []uint32) {
		pos, attr := interleave(p, true)
		var weights []float32
		if p.Normals != nil {
			weights = append(weights, normalWeight, normalWeight, normalWeight)
		}
		if len(p.TexCoords) > 0 {
			weights = append(weights, uvWeight, uvWeight)
		}
		if len(p.Colors) > 0 {
			weights = append(weights, colorWeight, colorWeight, colorWeight, colorWeight)
		}
		// protect the positions that hold more than one shading site
		sites, _ := p.ShadingSites()
		first := map[[3]float32]uint32{}
		multi := map[[3]float32]bool{}
		for v, site := range sites {
			if site != uint32(v) {
				continue
			}
			if _, ok := first[p.Positions[v]]; ok {
				multi[p.Positions[v]] = true
			}
			first[p.Positions[v]] = uint32(v)
		}
		protect := make([]byte, p.VertexCount())
		for v, q := range p.Positions {
			if multi[q] {
				protect[v] = 2
			}
		}
		prefix := fmt.Sprintf("model%d-%d-%d", model, mi, pi)
		writeRaw(filepath.Join(dir, prefix+".u32"), idx)
		writeRaw(filepath.Join(dir, prefix+".f32"), pos)
		writeRaw(filepath.Join(dir, prefix+".attr.f32"), attr)
		if err := os.WriteFile(filepath.Join(dir, prefix+".lock"), protect, 0o644); err != nil {
			log.Fatal(err)
		}
		c.Primitives = append(c.Primitives, modelPrimitive{
			Indices: prefix + ".u32", Positions: prefix + ".f32", Attributes: prefix + ".attr.f32",
			Stride: len(weights), Weights: weights, Protect: prefix + ".lock", Triangles: len(idx) / 3,
		})
	})
	return c
}

// trianglePrims calls fn with every triangle primitive of a glTF model,
// welded, and its indices (0 to n-1 for a primitive without).
func trianglePrims(name string, data []byte, fn func(mesh, prim int, p *scene.Primitive, idx []uint32)) {
	s, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		log.Fatalf("%s: %v", name, err)
	}
	for mi, m := range s.Meshes {
		for pi, p := range m.Primitives {
			if p.Mode != gltf.PrimitiveTriangles {
				continue
			}
			if err := p.Weld(); err != nil {
				log.Fatal(err)
			}
			idx := p.Indices
			if idx == nil {
				idx = make([]uint32, p.VertexCount())
				for i := range idx {
					idx[i] = uint32(i)
				}
			}
			fn(mi, pi, p, idx)
		}
	}
}

// interleave flattens a primitive's positions, and per vertex its normal,
// first texture coordinates and, with colors, first colour: the
// attributes both contenders simplify with.
func interleave(p *scene.Primitive, colors bool) (pos, attr []float32) {
	for i, v := range p.Positions {
		pos = append(pos, v[:]...)
		if p.Normals != nil {
			attr = append(attr, p.Normals[i][:]...)
		}
		if len(p.TexCoords) > 0 {
			attr = append(attr, p.TexCoords[0][i][:]...)
		}
		if colors && len(p.Colors) > 0 {
			attr = append(attr, p.Colors[0][i][:]...)
		}
	}
	return pos, attr
}
