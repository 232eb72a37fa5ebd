package scene

import (
	"fmt"
	"maps"
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/draco"
)

const dracoExt = "KHR_draco_mesh_compression"

// DracoBits are the quantization bits of WriteOptions.Draco by attribute,
// glTF-Transform's defaults for its Draco stage (and so what clients that
// compressed with it are used to): positions 14, normals 10 (on Draco's
// octahedral grid), texture coordinates 12, colours 8, the rest
// (tangents, weights) 12.
var DracoBits = struct{ Position, Normal, TexCoord, Color, Generic int }{14, 10, 12, 8, 12}

// dracoPrimitive writes p's indices and base attributes (position,
// normal, tangent, texture coordinates, colours, joints, weights) as one
// Draco stream and their accessors without buffer views, as
// KHR_draco_mesh_compression has them; morph targets and application
// attributes stay plain accessors, valid beside it because the
// sequential method keeps the vertex order; a primitive without them may
// be coded with edgebreaker, which renumbers its vertices. It reports false, leaving gp
// untouched, for what the extension does not cover (points, lines, an
// empty primitive).
func (w *writer) dracoPrimitive(p *Primitive, gp *gltf.Primitive) (bool, error) {
	n := len(p.Positions)
	if p.Mode != gltf.PrimitiveTriangles || n == 0 {
		return false, nil
	}
	indices := p.Indices
	if indices == nil {
		indices = make([]uint32, n)
		for i := range indices {
			indices[i] = uint32(i)
		}
	}
	// Google's decoder refuses more points than corners (vertices no
	// triangle uses): such a primitive stays uncompressed.
	if len(indices)%3 != 0 || n > len(indices) {
		return false, nil
	}
	var (
		mesh  = draco.Mesh{Indices: indices, Points: n}
		names []string
		accs  []*gltf.Accessor
	)
	float := func(name string, kind draco.Kind, v []float32, comps, bits int, minmax bool) {
		acc := &gltf.Accessor{ComponentType: gltf.ComponentFloat, Type: vecType[comps], Count: n}
		if minmax {
			acc.Min, acc.Max = bounds(draco.Dequantized(v, comps, bits), comps)
		}
		// Normals on the octahedral grid: two values a vertex, decoded
		// to unit length.
		mesh.Attributes = append(mesh.Attributes, draco.Attribute{Kind: kind, Components: comps, Float: v, Bits: bits, Octahedral: kind == draco.Normal})
		names, accs = append(names, name), append(accs, acc)
	}
	float(gltf.POSITION, draco.Position, flat3(p.Positions), 3, DracoBits.Position, true)
	if p.Normals != nil {
		float(gltf.NORMAL, draco.Normal, flat3(unitNormals(p.Normals)), 3, DracoBits.Normal, false)
	}
	if p.Tangents != nil {
		float(gltf.TANGENT, draco.Generic, flat4(unitTangents(p.Tangents), 4), 4, DracoBits.Generic, false)
	}
	for i, t := range p.TexCoords {
		if t != nil {
			float(fmt.Sprintf("TEXCOORD_%d", i), draco.TexCoord, flat2(t), 2, DracoBits.TexCoord, false)
		}
	}
	for i, c := range p.Colors {
		if c == nil {
			continue
		}
		comps := 3
		if slices.ContainsFunc(c, func(e [4]float32) bool { return e[3] != 1 }) {
			comps = 4
		}
		float(fmt.Sprintf("COLOR_%d", i), draco.Color, flat4(c, comps), comps, DracoBits.Color, false)
	}
	for i, j := range p.Joints {
		if j == nil {
			continue
		}
		vals := make([]uint32, 0, 4*len(j))
		wide := false
		for _, e := range j {
			for _, v := range e {
				vals = append(vals, uint32(v))
				wide = wide || v > 255
			}
		}
		ct := gltf.ComponentUbyte
		if wide {
			ct = gltf.ComponentUshort
		}
		mesh.Attributes = append(mesh.Attributes, draco.Attribute{Kind: draco.Generic, Components: 4, Int: vals, Wide: wide})
		names = append(names, fmt.Sprintf("JOINTS_%d", i))
		accs = append(accs, &gltf.Accessor{ComponentType: ct, Type: gltf.AccessorVec4, Count: n})
	}
	for i, wt := range p.Weights {
		if wt != nil {
			float(fmt.Sprintf("WEIGHTS_%d", i), draco.Generic, flat4(wt, 4), 4, DracoBits.Generic, false)
		}
	}
	// Without morph targets or application attributes nothing outside the
	// stream counts on the vertex order, so the encoder may renumber the
	// vertices for edgebreaker when that is smaller, and the accessors
	// take the number of vertices the decoder gives back.
	var data []byte
	var err error
	if len(p.Targets) == 0 && len(p.Custom) == 0 {
		data, n, err = draco.EncodeReordered(mesh)
	} else {
		data, err = draco.Encode(mesh)
	}
	if err != nil {
		return false, err
	}
	ids := map[string]any{}
	for i, name := range names {
		accs[i].Count = n
		w.doc.Accessors = append(w.doc.Accessors, accs[i])
		gp.Attributes[name] = len(w.doc.Accessors) - 1
		ids[name] = i
	}
	idx := &gltf.Accessor{ComponentType: gltf.ComponentUint, Type: gltf.AccessorScalar, Count: len(indices)}
	if n <= 65535 {
		idx.ComponentType = gltf.ComponentUshort
	}
	w.doc.Accessors = append(w.doc.Accessors, idx)
	gp.Indices = gltf.Index(len(w.doc.Accessors) - 1)
	view := w.view(data, gltf.TargetNone, 0, viewInfo{})
	if gp.Extensions == nil {
		gp.Extensions = gltf.Extensions{}
	} else {
		gp.Extensions = maps.Clone(gp.Extensions)
	}
	gp.Extensions[dracoExt] = map[string]any{"bufferView": view, "attributes": ids}
	return true, nil
}
