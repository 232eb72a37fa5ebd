package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

type vec3 [3]float64

func (a vec3) add(b vec3) vec3      { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec3) sub(b vec3) vec3      { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec3) scale(s float64) vec3 { return vec3{a[0] * s, a[1] * s, a[2] * s} }
func (a vec3) dot(b vec3) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec3) length() float64      { return math.Sqrt(a.dot(a)) }

// mesh is the base mesh: positions (decimetres, Y up, facing +Z) and the
// vertices of each face group, which name the helpers (teeth, tongue, eyes).
type mesh struct {
	pos    []vec3
	groups map[string][]int
}

func readOBJ(path string) (*mesh, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := &mesh{groups: map[string][]int{}}
	seen := map[string]map[int]bool{}
	group := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "v":
			var p vec3
			for i := range 3 {
				if p[i], err = strconv.ParseFloat(fields[1+i], 64); err != nil {
					return nil, fmt.Errorf("%s: %w", path, err)
				}
			}
			m.pos = append(m.pos, p)
		case "g":
			group = fields[1]
			if seen[group] == nil {
				seen[group] = map[int]bool{}
			}
		case "f":
			for _, c := range fields[1:] {
				v, err := strconv.Atoi(strings.Split(c, "/")[0])
				if err != nil {
					return nil, fmt.Errorf("%s: %w", path, err)
				}
				if !seen[group][v-1] {
					seen[group][v-1] = true
					m.groups[group] = append(m.groups[group], v-1)
				}
			}
		}
	}
	return m, sc.Err()
}

// skeleton is the part of a .mhskel file posing needs: each joint's
// vertex group and each bone's head joint.
type skeleton struct {
	Joints map[string][]int `json:"joints"`
	Bones  map[string]struct {
		Head string `json:"head"`
	} `json:"bones"`
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// joint is the position of a skeleton joint on the mesh: the mean of its
// vertex group.
func (s *skeleton) joint(m *mesh, name string) vec3 {
	var p vec3
	vs := s.Joints[name]
	for _, v := range vs {
		p = p.add(m.pos[v])
	}
	return p.scale(1 / float64(len(vs)))
}

// bvh is a BVH file: its joints in file order, and its frames as one
// rotation (degrees, in channel order) per joint.
type bvh struct {
	names    []string
	parent   map[string]string
	offset   map[string]vec3
	channels map[string][]string
	frames   []map[string][]float64
}

func readBVH(path string) (*bvh, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	toks := strings.Fields(string(b))
	h := &bvh{parent: map[string]string{}, offset: map[string]vec3{}, channels: map[string][]string{}}
	var stack []string
	cur := ""
	num := func(s string) float64 {
		f, e := strconv.ParseFloat(s, 64)
		if e != nil && err == nil {
			err = fmt.Errorf("%s: %w", path, e)
		}
		return f
	}
	i := 0
	for i < len(toks) && toks[i] != "MOTION" {
		switch toks[i] {
		case "ROOT", "JOINT":
			cur = toks[i+1]
			if len(stack) > 0 {
				h.parent[cur] = stack[len(stack)-1]
			}
			h.names = append(h.names, cur)
			i += 2
		case "End":
			cur = stack[len(stack)-1] + "/end"
			i += 2
		case "{":
			stack = append(stack, cur)
			i++
		case "}":
			stack = stack[:len(stack)-1]
			i++
		case "OFFSET":
			h.offset[cur] = vec3{num(toks[i+1]), num(toks[i+2]), num(toks[i+3])}
			i += 4
		case "CHANNELS":
			n := int(num(toks[i+1]))
			h.channels[cur] = toks[i+2 : i+2+n]
			i += 2 + n
		default:
			i++
		}
	}
	if i+6 > len(toks) || toks[i+1] != "Frames:" {
		return nil, fmt.Errorf("%s: no MOTION section", path)
	}
	frames := int(num(toks[i+2]))
	i += 6 // MOTION Frames: n Frame Time: t
	for range frames {
		f := map[string][]float64{}
		for _, name := range h.names {
			ch := h.channels[name]
			vals := make([]float64, 0, 3)
			for k, c := range ch {
				if i+k >= len(toks) {
					return nil, fmt.Errorf("%s: frames end early", path)
				}
				if strings.HasSuffix(c, "rotation") {
					vals = append(vals, num(toks[i+k]))
				}
			}
			f[name] = vals
			i += len(ch)
		}
		h.frames = append(h.frames, f)
	}
	return h, err
}
