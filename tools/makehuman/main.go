// Command makehuman converts the CC0 MakeHuman data (../shared/makehuman)
// into the compact file package human embeds:
//
//	go run ./tools/makehuman -src ../shared/makehuman -out assets/avatar/human/data
//
// It keeps only what Kiln's avatars use (see rig.go and assets.go for the
// choices) so that a fresh clone builds and runs without the sources.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar/human/hmdata"
)

func main() {
	src := flag.String("src", "../shared/makehuman", "MakeHuman data directory")
	out := flag.String("out", "assets/avatar/human/data", "output directory")
	flag.Parse()
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "makehuman:", err)
		os.Exit(1)
	}
}

func run(src, out string) error {
	d, err := convert(src)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := hmdata.Write(&buf, d); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	path := filepath.Join(out, "makehuman.gob.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d bytes, %d vertices, %d body triangles, %d targets, %d joints, %d assets\n",
		path, buf.Len(), len(d.Positions)/3, len(d.Body.Tri)/3, len(d.Targets), len(d.Joints), len(d.Assets))
	return nil
}

// convert reads every source the product needs.
func convert(src string) (*hmdata.Data, error) {
	data := filepath.Join(src, "data")
	base, err := readOBJ(filepath.Join(data, "3dobjs", "base.obj"))
	if err != nil {
		return nil, err
	}
	d := &hmdata.Data{}
	for _, p := range base.pos {
		d.Positions = append(d.Positions, p[0], p[1], p[2])
	}
	d.Body = base.mesh(func(_ int, p poly) bool { return p.group == "body" })
	d.Groups = helperGroups(base)

	if d.Targets, err = readTargets(filepath.Join(data, "targets")); err != nil {
		return nil, err
	}
	var skel skeleton
	if err := readJSON(filepath.Join(data, "rigs", "default.mhskel"), &skel); err != nil {
		return nil, err
	}
	if d.Joints, err = rigJoints(skel); err != nil {
		return nil, err
	}
	var weights struct {
		Weights map[string][][2]float64 `json:"weights"`
	}
	if err := readJSON(filepath.Join(data, "rigs", "default_weights.mhw"), &weights); err != nil {
		return nil, err
	}
	if d.WeightJoint, d.WeightValue, err = rigWeights(skel, weights.Weights, len(base.pos)); err != nil {
		return nil, err
	}
	lowerBody := lowerShare(d.Joints, d.WeightJoint, d.WeightValue)
	if d.Assets, err = readAssets(src, base, lowerBody); err != nil {
		return nil, err
	}
	return d, nil
}

// helperGroups lists each helper group's base vertices (joint markers
// are left out: the rig reads its own vertex lists).
func helperGroups(base *obj) []hmdata.Group {
	sets := map[string]map[int32]bool{}
	for _, p := range base.polys {
		if !strings.HasPrefix(p.group, "helper-") {
			continue
		}
		if sets[p.group] == nil {
			sets[p.group] = map[int32]bool{}
		}
		for _, v := range p.v {
			sets[p.group][v] = true
		}
	}
	var gs []hmdata.Group
	for name, set := range sets {
		gs = append(gs, hmdata.Group{Name: name, Verts: sorted(set)})
	}
	sort.Slice(gs, func(i, j int) bool { return gs[i].Name < gs[j].Name })
	return gs
}

func sorted(set map[int32]bool) []int32 {
	out := make([]int32, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
