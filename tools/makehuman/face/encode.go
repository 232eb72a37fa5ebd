package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// The shapes file, gzip over little-endian binary:
//
//	"kilnface1" uint16(shapes)
//	per shape: uint8(len) name uint32(n) n×uint16 vertex-index gaps
//	           n×3×int16 offsets in units of 0.01 mm
//
// Indices rise within a shape, so gaps (the first from 0) compress well.
const (
	magic = "kilnface1"
	unit  = 1e-5 // metres per stored step
)

func encodeShapes(shapes []shape) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(magic)
	le := binary.LittleEndian
	b.Write(le.AppendUint16(nil, uint16(len(shapes))))
	for _, s := range shapes {
		if len(s.name) > 255 {
			return nil, fmt.Errorf("shape name %q too long", s.name)
		}
		b.WriteByte(byte(len(s.name)))
		b.WriteString(s.name)
		b.Write(le.AppendUint32(nil, uint32(len(s.idx))))
		prev := 0
		for _, v := range s.idx {
			if v-prev > math.MaxUint16 || v < prev {
				return nil, fmt.Errorf("%s: vertex %d out of order", s.name, v)
			}
			b.Write(le.AppendUint16(nil, uint16(v-prev)))
			prev = v
		}
		for _, d := range s.d {
			for _, c := range d {
				q := math.Round(c / unit)
				if q < math.MinInt16 || q > math.MaxInt16 {
					return nil, fmt.Errorf("%s: offset %.1f mm too large", s.name, c*1000)
				}
				b.Write(le.AppendUint16(nil, uint16(int16(q))))
			}
		}
	}
	return gzipped(b.Bytes())
}

// Regions of the rest file: which part of the head a vertex belongs to,
// so the face package's tests can say what a shape should move.
const (
	regionSkin = iota
	regionEyeLeft
	regionEyeRight
	regionUpperTeeth
	regionLowerTeeth
	regionTongue
	regionLashes
	regionOther
)

var regionGroups = map[string]byte{
	"helper-l-eye": regionEyeLeft, "helper-r-eye": regionEyeRight,
	"helper-upper-teeth": regionUpperTeeth, "helper-lower-teeth": regionLowerTeeth,
	"helper-tongue":        regionTongue,
	"helper-l-eyelashes-1": regionLashes, "helper-l-eyelashes-2": regionLashes,
	"helper-r-eyelashes-1": regionLashes, "helper-r-eyelashes-2": regionLashes,
}

// encodeRest writes, for every vertex some shape moves, its rest position
// in metres and its region: gzip over "kilnrest1" uint32(n), then per
// vertex uint16(index) 3×float32 uint8(region).
func encodeRest(r *rig, shapes []shape) ([]byte, error) {
	var all []int
	for _, s := range shapes {
		all = append(all, s.idx...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	region := make([]byte, len(r.mesh.pos))
	for g, vs := range r.mesh.groups {
		reg, ok := regionGroups[g]
		if !ok {
			if g == "body" {
				continue
			}
			reg = regionOther
		}
		for _, v := range vs {
			region[v] = reg
		}
	}
	var b bytes.Buffer
	le := binary.LittleEndian
	b.WriteString("kilnrest1")
	b.Write(le.AppendUint32(nil, uint32(len(all))))
	for _, v := range all {
		b.Write(le.AppendUint16(nil, uint16(v)))
		for _, c := range r.mesh.pos[v] {
			b.Write(le.AppendUint32(nil, math.Float32bits(float32(c*0.1))))
		}
		b.WriteByte(region[v])
	}
	return gzipped(b.Bytes())
}

func gzipped(p []byte) ([]byte, error) {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(p); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
