package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar/human/hmdata"
)

// obj is what the converter needs of a Wavefront OBJ: positions, UVs and
// polygons (vertex and UV indices, zero-based) with their group.
type obj struct {
	pos   [][3]float32
	uv    [][2]float32
	polys []poly
}

type poly struct {
	group string
	v, t  []int32
}

// readOBJ parses an OBJ file; faces without UVs get UV index -1.
func readOBJ(path string) (*obj, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	o := &obj{}
	group := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		switch fs[0] {
		case "v", "vt":
			var c [3]float32
			for i := 1; i < len(fs) && i <= 3; i++ {
				x, err := strconv.ParseFloat(fs[i], 32)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %v", path, n, err)
				}
				c[i-1] = float32(x)
			}
			if fs[0] == "v" {
				o.pos = append(o.pos, c)
			} else {
				o.uv = append(o.uv, [2]float32{c[0], c[1]})
			}
		case "g":
			group = ""
			if len(fs) > 1 {
				group = fs[1]
			}
		case "f":
			p := poly{group: group}
			for _, c := range fs[1:] {
				parts := strings.Split(c, "/")
				vi, err := strconv.Atoi(parts[0])
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %v", path, n, err)
				}
				ti := 0
				if len(parts) > 1 && parts[1] != "" {
					if ti, err = strconv.Atoi(parts[1]); err != nil {
						return nil, fmt.Errorf("%s:%d: %v", path, n, err)
					}
				}
				p.v = append(p.v, int32(vi-1))
				p.t = append(p.t, int32(ti-1))
			}
			o.polys = append(o.polys, p)
		}
	}
	return o, sc.Err()
}

// mesh triangulates the polygons keep accepts (given their index) into an hmdata.Mesh whose
// vertices are the distinct (vertex, UV) pairs. Polygons are fanned from
// their first corner (MakeHuman's are quads and triangles).
func (o *obj) mesh(keep func(i int, p poly) bool) hmdata.Mesh {
	var m hmdata.Mesh
	type key struct{ v, t int32 }
	index := map[key]int32{}
	at := func(v, t int32) int32 {
		k := key{v, t}
		if i, ok := index[k]; ok {
			return i
		}
		i := int32(len(m.Src))
		index[k] = i
		m.Src = append(m.Src, v)
		var uv [2]float32
		if t >= 0 {
			uv = o.uv[t]
		}
		m.UV = append(m.UV, uv[0], uv[1])
		return i
	}
	for pi, p := range o.polys {
		if !keep(pi, p) {
			continue
		}
		for k := 1; k+1 < len(p.v); k++ {
			m.Tri = append(m.Tri, at(p.v[0], p.t[0]), at(p.v[k], p.t[k]), at(p.v[k+1], p.t[k+1]))
			m.Poly = append(m.Poly, int32(pi))
		}
	}
	return m
}

// readTarget parses a .target into quantized sparse deltas, dropping
// vertices that move less than one DeltaUnit on every axis.
func readTarget(path, name string) (hmdata.Target, error) {
	t := hmdata.Target{Name: name}
	f, err := os.Open(path)
	if err != nil {
		return t, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	last := int32(-1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 4 {
			return t, fmt.Errorf("%s:%d: want index dx dy dz", path, n)
		}
		i, err := strconv.Atoi(fs[0])
		if err != nil {
			return t, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if int32(i) <= last {
			return t, fmt.Errorf("%s:%d: indices not ascending", path, n)
		}
		var q [3]int16
		zero := true
		for k := 0; k < 3; k++ {
			d, err := strconv.ParseFloat(fs[k+1], 64)
			if err != nil {
				return t, fmt.Errorf("%s:%d: %v", path, n, err)
			}
			c := math.Round(d / hmdata.DeltaUnit)
			if math.Abs(c) > math.MaxInt16 {
				return t, fmt.Errorf("%s:%d: delta %g out of range", path, n, d)
			}
			q[k] = int16(c)
			zero = zero && q[k] == 0
		}
		if zero {
			continue
		}
		last = int32(i)
		t.Index = append(t.Index, int32(i))
		t.D = append(t.D, q[0], q[1], q[2])
	}
	return t, sc.Err()
}

// mhclo is a parsed MakeHuman fitting file.
type mhclo struct {
	objFile string
	zDepth  int
	scale   [3]hmdata.ScaleRef
	ref     []int32
	w, off  []float32
	delete  []int32
}

// readMhclo parses a .mhclo: its header, one binding line per asset
// vertex (a single base index or v1 v2 v3 w1 w2 w3 d1 d2 d3) and the
// delete_verts list (indices and "a - b" ranges).
func readMhclo(path string) (*mhclo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := &mhclo{}
	state := ""
	var delTokens []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		bad := func(err error) error { return fmt.Errorf("%s:%d: %v", path, n, err) }
		numeric := fs[0][0] == '-' || (fs[0][0] >= '0' && fs[0][0] <= '9')
		if !numeric {
			// Header keys may follow "verts 0" (material, weights
			// file...): only the two list keys change the state.
			switch fs[0] {
			case "obj_file":
				c.objFile = fs[1]
			case "z_depth":
				c.zDepth, _ = strconv.Atoi(fs[1])
			case "x_scale", "y_scale", "z_scale":
				a, err1 := strconv.Atoi(fs[1])
				b, err2 := strconv.Atoi(fs[2])
				s, err3 := strconv.ParseFloat(fs[3], 32)
				if err1 != nil || err2 != nil || err3 != nil {
					return nil, bad(fmt.Errorf("bad %s", fs[0]))
				}
				c.scale[fs[0][0]-'x'] = hmdata.ScaleRef{A: int32(a), B: int32(b), Ref: float32(s)}
			case "verts":
				state = "verts"
			case "delete_verts":
				state = "delete"
			}
			continue
		}
		switch state {
		case "verts":
			nums := make([]float64, len(fs))
			for i, s := range fs {
				x, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return nil, bad(err)
				}
				nums[i] = x
			}
			switch len(nums) {
			case 1:
				c.ref = append(c.ref, int32(nums[0]), int32(nums[0]), int32(nums[0]))
				c.w = append(c.w, 1, 0, 0)
				c.off = append(c.off, 0, 0, 0)
			case 9:
				c.ref = append(c.ref, int32(nums[0]), int32(nums[1]), int32(nums[2]))
				c.w = append(c.w, float32(nums[3]), float32(nums[4]), float32(nums[5]))
				c.off = append(c.off, float32(nums[6]), float32(nums[7]), float32(nums[8]))
			default:
				return nil, bad(fmt.Errorf("binding with %d numbers", len(nums)))
			}
		case "delete":
			// A range may wrap across lines, so the list is read whole.
			delTokens = append(delTokens, fs...)
		default:
			return nil, bad(fmt.Errorf("numbers outside verts or delete_verts"))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for i := 0; i < len(delTokens); i++ {
		a, err := strconv.Atoi(delTokens[i])
		if err != nil {
			return nil, fmt.Errorf("%s: delete_verts: %v", path, err)
		}
		b := a
		if i+2 < len(delTokens) && delTokens[i+1] == "-" {
			if b, err = strconv.Atoi(delTokens[i+2]); err != nil {
				return nil, fmt.Errorf("%s: delete_verts: %v", path, err)
			}
			i += 2
		}
		for v := a; v <= b; v++ {
			c.delete = append(c.delete, int32(v))
		}
	}
	return c, nil
}
