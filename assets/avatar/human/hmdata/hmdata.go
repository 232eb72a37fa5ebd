// Package hmdata is the file format of Kiln's converted MakeHuman data:
// tools/makehuman writes it from the CC0 MakeHuman sources and package
// human embeds and reads it. It lives apart from both so that the writer
// and the reader share one definition and cannot drift.
//
// The file is a gzip-compressed gob of Data. Lengths in the MakeHuman
// frame are decimetres (Y up, facing +Z); shape deltas are int16 counts of
// DeltaUnit so that ~190 dense targets stay a few MB.
package hmdata

import (
	"compress/gzip"
	"encoding/gob"
	"fmt"
	"io"
)

// Version changes whenever Data's meaning changes; Read refuses other
// versions so a stale data file fails loudly instead of shaping nonsense.
const Version = 1

// DeltaUnit is the size of one count of a target delta, in decimetres
// (0.1 mm): fine below what a viewer can see, coarse enough for int16 to
// hold the largest macro delta (±3.2 m).
const DeltaUnit = 0.001

// Data is everything the product takes from MakeHuman.
type Data struct {
	Version int
	// Positions holds x, y, z of every base-mesh vertex (body, helpers and
	// joint markers alike, so indices are MakeHuman's own).
	Positions []float32
	// Body is the triangulated `body` group; Mesh.Src are base indices.
	Body Mesh
	// Groups are the base mesh's helper groups (name and base indices),
	// kept for fitting and for tests; never rendered.
	Groups []Group
	// Targets are sparse shape deltas; see Target.
	Targets []Target
	// Joints are the 67 joints of Kiln's (Ready Player Me's) rig, in
	// its order, each placed from base vertices.
	Joints []Joint
	// WeightJoint and WeightValue hold four influences per base vertex:
	// an index into Joints and a weight out of 65535 (the four sum to
	// 65535; unused slots have weight 0).
	WeightJoint []uint8
	WeightValue []uint16
	// Assets are the fitted meshes (clothes, hair, eyes, teeth...).
	Assets []Asset
}

// Mesh is a triangulated surface with its own vertices: one per distinct
// (source vertex, UV) pair of the source polygons, so UV seams split
// vertices as glTF needs.
type Mesh struct {
	Src  []int32   // per vertex: the source vertex (base index or asset .obj vertex)
	UV   []float32 // per vertex: u, v (OBJ convention, v up)
	Tri  []int32   // three vertex indices per triangle, counter-clockwise seen from outside
	Poly []int32   // per triangle: the source polygon it came from
}

// Group is a named set of base vertices.
type Group struct {
	Name  string
	Verts []int32
}

// Target is one MakeHuman .target: base vertices and their deltas.
// D holds dx, dy, dz per index in DeltaUnit. In the file, Index is
// stored as first differences and D as three planes (all dx, all dy, all
// dz) of first differences: neighbouring vertices move alike, so gob
// writes small numbers that gzip packs well.
type Target struct {
	Name  string // path under data/targets without extension, e.g. "nose/nose-scale-horiz-incr"
	Index []int32
	D     []int16
}

// Joint places one rig joint at the average of the means of its parts
// (each part a MakeHuman joint vertex group).
type Joint struct {
	Name  string
	Parts [][]int32
}

// Asset is a fitted mesh and its MakeHuman binding (.mhclo).
type Asset struct {
	ID     string // Kiln's name, "kind/style", e.g. "top/tshirt"
	Source string // MakeHuman asset it came from, e.g. "clothes/male_casualsuit02"
	ZDepth int    // layering order, higher is outer
	Mesh   Mesh   // Mesh.Src are asset vertex indices (into Ref/W/Off)
	// Per asset vertex: three base vertices, their weights (out of
	// 65535, stored as int32 since MakeHuman's may be slightly negative)
	// and an offset in DeltaUnit scaled by Scale (see the mhclo format in
	// MakeHuman's README).
	Ref []int32
	W   []int32
	Off []int16
	// Scale gives x, y, z: the offset is multiplied by the current
	// distance between base vertices A and B along that axis over Ref.
	Scale [3]ScaleRef
	// Delete lists base vertices the asset covers (body faces to hide).
	Delete []int32
}

// ScaleRef is one axis of an asset's offset scale.
type ScaleRef struct {
	A, B int32
	Ref  float32
}

// Write encodes d (after packing target indices) to w.
func Write(w io.Writer, d *Data) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	p := *d
	p.Version = Version
	p.Targets = make([]Target, len(d.Targets))
	for i, t := range d.Targets {
		t.Index = diff(t.Index)
		t.D = planar(t.D)
		p.Targets[i] = t
	}
	if err := gob.NewEncoder(zw).Encode(&p); err != nil {
		return err
	}
	return zw.Close()
}

// Read decodes what Write wrote.
func Read(r io.Reader) (*Data, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("hmdata: %w", err)
	}
	var d Data
	if err := gob.NewDecoder(zr).Decode(&d); err != nil {
		return nil, fmt.Errorf("hmdata: %w", err)
	}
	if d.Version != Version {
		return nil, fmt.Errorf("hmdata: version %d, want %d (re-run tools/makehuman)", d.Version, Version)
	}
	for i := range d.Targets {
		t := &d.Targets[i]
		undiff(t.Index)
		if len(t.D) != 3*len(t.Index) {
			return nil, fmt.Errorf("hmdata: target %s: %d deltas for %d vertices", t.Name, len(t.D), len(t.Index))
		}
		t.D = interleaved(t.D)
	}
	return &d, nil
}

// diff returns the first differences of ascending indices.
func diff(a []int32) []int32 {
	out := make([]int32, len(a))
	prev := int32(0)
	for i, v := range a {
		out[i] = v - prev
		prev = v
	}
	return out
}

// undiff turns first differences back into indices, in place.
func undiff(a []int32) {
	for i := 1; i < len(a); i++ {
		a[i] += a[i-1]
	}
}

// planar turns interleaved x, y, z deltas into three planes of first
// differences.
func planar(d []int16) []int16 {
	n := len(d) / 3
	out := make([]int16, len(d))
	for a := 0; a < 3; a++ {
		prev := int16(0)
		for i := 0; i < n; i++ {
			v := d[3*i+a]
			out[a*n+i] = v - prev
			prev = v
		}
	}
	return out
}

// interleaved undoes planar.
func interleaved(p []int16) []int16 {
	n := len(p) / 3
	out := make([]int16, len(p))
	for a := 0; a < 3; a++ {
		prev := int16(0)
		for i := 0; i < n; i++ {
			prev += p[a*n+i]
			out[3*i+a] = prev
		}
	}
	return out
}
