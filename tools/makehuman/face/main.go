// Command face builds Kiln's face morph targets from MakeHuman's face rig
// (CC0): the default skeleton's joints (vertex groups of the base mesh),
// its skin weights and the 60 face pose units. Each pose unit is one
// frame of rotations of the face bones; a recipe blends units into one
// ARKit blendshape, Oculus viseme or Kiln default shape, the face bones
// are posed by linear blend skinning on the base mesh, and the vertex
// offsets are the morph target. The result is written in the compact form
// that package assets/avatar/face embeds, plus the rest positions of the
// moved vertices for that package's tests.
//
//	go run ./tools/makehuman/face -src ../shared/makehuman -out assets/avatar/face
//
// The shared data is read only here, never at run time.
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	src := flag.String("src", "../shared/makehuman", "MakeHuman data (the folder holding data/)")
	out := flag.String("out", "assets/avatar/face", "package folder: writes data/shapes.bin.gz and testdata/rest.bin.gz")
	verbose := flag.Bool("v", false, "print each shape's size and largest offset")
	flag.Parse()
	if err := run(*src, *out, *verbose); err != nil {
		log.Fatal(err)
	}
}

func run(src, out string, verbose bool) error {
	rig, err := loadRig(filepath.Join(src, "data"))
	if err != nil {
		return err
	}
	var shapes []shape
	for _, r := range recipes {
		sh, err := rig.build(r)
		if err != nil {
			return err
		}
		shapes = append(shapes, sh)
		if verbose {
			maxd, arg := 0.0, 0
			for i, d := range sh.d {
				if l := d.length(); l > maxd {
					maxd, arg = l, sh.idx[i]
				}
			}
			fmt.Printf("%-20s %5d vertices, largest %5.1f mm at %d %v\n", sh.name, len(sh.idx), maxd*1000, arg, rig.groupOf(arg))
		}
	}
	if err := os.MkdirAll(filepath.Join(out, "data"), 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "testdata"), 0o755); err != nil {
		return err
	}
	data, err := encodeShapes(shapes)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "data", "shapes.bin.gz"), data, 0o644); err != nil {
		return err
	}
	rest, err := encodeRest(rig, shapes)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "testdata", "rest.bin.gz"), rest, 0o644); err != nil {
		return err
	}
	fmt.Printf("%d shapes, %d bytes of shapes, %d bytes of test data\n", len(shapes), len(data), len(rest))
	return nil
}

// rig is what posing needs: the base mesh, where each face bone's head
// sits on it, its parent, its weights, and the rotations of each pose unit.
type rig struct {
	mesh    *mesh
	bones   []string // the face bones (under "head"), parents first
	parent  map[string]string
	head    map[string]vec3
	weights map[string][][2]float64
	units   map[string]map[string]rotvec // unit -> bone -> rotation (MakeHuman axes)
	skip    []bool                       // vertices of the joint marker cubes, never rendered
}

// bvhToMH maps BVH axes (Z up, -Y forward, as the pose units are stored)
// to the base mesh's (Y up, +Z forward).
var bvhToMH = mat3{{1, 0, 0}, {0, 0, 1}, {0, -1, 0}}

func loadRig(dir string) (*rig, error) {
	m, err := readOBJ(filepath.Join(dir, "3dobjs", "base.obj"))
	if err != nil {
		return nil, err
	}
	var s skeleton
	if err := readJSON(filepath.Join(dir, "rigs", "default.mhskel"), &s); err != nil {
		return nil, err
	}
	var w struct {
		Weights map[string][][2]float64 `json:"weights"`
	}
	if err := readJSON(filepath.Join(dir, "rigs", "default_weights.mhw"), &w); err != nil {
		return nil, err
	}
	h, err := readBVH(filepath.Join(dir, "poseunits", "face-poseunits.bvh"))
	if err != nil {
		return nil, err
	}
	var fm struct {
		Framemapping []string `json:"framemapping"`
	}
	if err := readJSON(filepath.Join(dir, "poseunits", "face-poseunits.json"), &fm); err != nil {
		return nil, err
	}
	if len(fm.Framemapping) != len(h.frames) {
		return nil, fmt.Errorf("pose units: %d names for %d frames", len(fm.Framemapping), len(h.frames))
	}
	r := &rig{mesh: m, parent: map[string]string{}, head: map[string]vec3{}, weights: w.Weights, units: map[string]map[string]rotvec{}}
	// Only bones under the head are posed: a face shape never moves the
	// neck or the body.
	under := map[string]bool{"head": true}
	for _, n := range h.names {
		if _, ok := s.Bones[n]; !ok {
			return nil, fmt.Errorf("pose units: bone %q is not in the skeleton", n)
		}
		if under[h.parent[n]] {
			under[n] = true
			r.bones = append(r.bones, n)
			r.parent[n] = h.parent[n]
		}
	}
	for _, n := range append([]string{"head"}, r.bones...) {
		r.head[n] = s.joint(m, s.Bones[n].Head)
	}
	for fi, f := range h.frames {
		unit := map[string]rotvec{}
		for _, n := range r.bones {
			ch := h.channels[n]
			rot := ident()
			k := 0
			for _, c := range ch {
				if strings.HasSuffix(c, "rotation") {
					rot = rot.mul(axisRot(c[0], f[n][k]))
					k++
				}
			}
			if v := bvhToMH.mul(rot).mul(bvhToMH.transpose()).log(); v.length() > 1e-6 {
				unit[n] = v
			}
		}
		r.units[fm.Framemapping[fi]] = unit
	}
	r.skip = make([]bool, len(m.pos))
	for g, vs := range m.groups {
		if strings.HasPrefix(g, "joint-") {
			for _, v := range vs {
				r.skip[v] = true
			}
		}
	}
	return r, nil
}

func (r *rig) groupOf(v int) []string {
	var gs []string
	for g, vs := range r.mesh.groups {
		if slices.Contains(vs, v) {
			gs = append(gs, g)
		}
	}
	slices.Sort(gs)
	return gs
}

// pose skins the base mesh with the given local rotations (bone ->
// rotation about its head, MakeHuman axes) and returns each vertex's
// offset in decimetres.
func (r *rig) pose(local map[string]rotvec) []vec3 {
	glob := map[string]mat3{"head": ident()}
	at := map[string]vec3{"head": r.head["head"]}
	for _, n := range r.bones {
		p := r.parent[n]
		glob[n] = glob[p].mul(exp(local[n]))
		at[n] = at[p].add(glob[p].apply(r.head[n].sub(r.head[p])))
	}
	disp := make([]vec3, len(r.mesh.pos))
	for _, n := range r.bones {
		g := glob[n]
		if g == ident() {
			continue
		}
		for _, vw := range r.weights[n] {
			v := int(vw[0])
			x := r.mesh.pos[v]
			y := at[n].add(g.apply(x.sub(r.head[n])))
			disp[v] = disp[v].add(y.sub(x).scale(vw[1]))
		}
	}
	return disp
}

// shape is a finished morph target: sparse offsets in metres.
type shape struct {
	name string
	idx  []int
	d    []vec3
}

// minOffset drops offsets under 0.05 mm: invisible, and they would only
// make the data larger.
const minOffset = 0.05e-3

func (r *rig) build(rc recipe) (shape, error) {
	total := make([]vec3, len(r.mesh.pos))
	// Unmasked terms blend at the pose level (their rotations add per
	// bone, as MakeHuman blends units into expressions); a masked term is
	// posed alone and its offsets faded to one side of the face.
	blend := map[string]rotvec{}
	for _, t := range rc.terms {
		u, ok := r.units[t.unit]
		if !ok {
			return shape{}, fmt.Errorf("%s: no pose unit %q", rc.name, t.unit)
		}
		if t.side == 0 {
			for b, v := range u {
				blend[b] = blend[b].add(v.scale(t.w))
			}
			continue
		}
		scaled := map[string]rotvec{}
		for b, v := range u {
			scaled[b] = v.scale(t.w)
		}
		for i, d := range r.pose(scaled) {
			total[i] = total[i].add(d.scale(sideWeight(t.side, r.mesh.pos[i][0])))
		}
	}
	for i, d := range r.pose(blend) {
		total[i] = total[i].add(d)
	}
	sh := shape{name: rc.name}
	for i, d := range total {
		d = d.scale(0.1) // decimetres to metres
		if r.skip[i] || d.length() < minOffset {
			continue
		}
		sh.idx = append(sh.idx, i)
		sh.d = append(sh.d, d)
	}
	return sh, nil
}

// sideWeight fades a one-sided term across the midline over 1 cm each way
// (x in decimetres; the face's left is +x).
func sideWeight(side int, x float64) float64 {
	t := math.Max(0, math.Min(1, (float64(side)*x+0.1)/0.2))
	return t * t * (3 - 2*t)
}
