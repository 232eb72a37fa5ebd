// Package obj imports Wavefront OBJ models, with their MTL materials and
// textures, into a scene.Scene: the format scanners, CAD exports and older
// tools still produce, so Kiln converts it to glTF on upload.
package obj

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
)

func invalid(format string, args ...any) error {
	return kiln.Errorf(kiln.KindUnprocessable, "invalid_model", format, args...)
}

// corner is one face vertex: indices into the positions, texture
// coordinates and normals, -1 when absent.
type corner struct{ v, vt, vn int }

// part collects the triangles of one material within one group.
type part struct {
	material string
	corners  []corner // three per triangle
}

// group is one OBJ group or object, its parts in the order first used.
// byMaterial finds a part in constant time: a file can switch material
// on every face, and a scan of the parts made such a file quadratic.
type group struct {
	name       string
	parts      []*part
	byMaterial map[string]*part
}

type parser struct {
	ctx       context.Context
	files     func(string) ([]byte, error)
	positions [][3]float32
	colors    [][3]float32 // parallel to positions when any vertex has a colour
	hasColor  bool
	texcoords [][2]float32
	normals   [][3]float32
	groups    []*group
	byName    map[string]*group
	current   *group
	material  string
	libs      []string
	libNamed  map[string]bool
}

// Read converts an OBJ into a scene: each group or object becomes a mesh
// (drawn by a node of the same name), each material used within it a
// primitive. Polygons are triangulated as fans, which is exact for the
// convex faces exporters write. Missing normals are computed, smooth,
// from the faces around each position. files returns the MTL libraries
// and textures the OBJ names (nil: none were uploaded); a missing one is
// an error, as a silently grey model would be.
func Read(data []byte, files func(name string) ([]byte, error)) (*scene.Scene, error) {
	return ReadContext(context.Background(), data, files)
}

// ReadContext is Read that stops when ctx ends: it looks at ctx every
// checkLines lines and while indexing the faces, so that a job past
// its deadline does not parse a large file to the end. The error then
// wraps ctx.Err() and is not of kind Unprocessable: the file is not at
// fault.
func ReadContext(ctx context.Context, data []byte, files func(name string) ([]byte, error)) (*scene.Scene, error) {
	if len(data) == 0 {
		return nil, invalid("the OBJ file is empty")
	}
	p := &parser{ctx: ctx, files: files, byName: map[string]*group{}, libNamed: map[string]bool{}}
	if err := p.parse(data); err != nil {
		return nil, err
	}
	mats, err := p.materials()
	if err != nil {
		return nil, err
	}
	return p.scene(mats)
}

// lines splits data into logical lines, joining those continued with a
// trailing backslash, and reports each with its 1-based number.
func lines(data []byte, fn func(n int, line string) error) error {
	n := 0
	// A continued line is gathered in one buffer: appending to a string
	// copies it, quadratic in the lines continued.
	var pending []byte
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		n++
		line = bytes.TrimRight(line, "\r \t")
		if rest, ok := bytes.CutSuffix(line, []byte("\\")); ok {
			pending = append(append(pending, rest...), ' ')
			continue
		}
		var s string
		if pending != nil {
			s = string(append(pending, line...))
			pending = pending[:0]
		} else {
			s = string(line)
		}
		if i := strings.IndexByte(s, '#'); i >= 0 {
			s = s[:i]
		}
		if err := fn(n, s); err != nil {
			return err
		}
	}
	return nil
}

func floats(fields []string, n int, line int) ([]float32, error) {
	if len(fields) < n {
		return nil, invalid("line %d: expected %d numbers, found %d", line, n, len(fields))
	}
	out := make([]float32, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseFloat(f, 32)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, invalid("line %d: %q is not a finite number", line, f)
		}
		out[i] = float32(v)
	}
	return out, nil
}

func clamp(v float32) float32 { return min(max(v, 0), 1) }

// checkLines is how often the parser looks at its context: a few
// thousand lines take well under a millisecond, and ctx.Err() takes a
// lock.
const checkLines = 4096

// stopped reports, as an error wrapping ctx.Err(), that the reading was
// stopped before what the format and args say; they are formatted only
// then, as it is asked once per part, and a file can hold a million.
func (p *parser) stopped(format string, args ...any) error {
	if err := p.ctx.Err(); err != nil {
		return fmt.Errorf("obj.Read: stopped before %s: %w", fmt.Sprintf(format, args...), err)
	}
	return nil
}

func (p *parser) parse(data []byte) error {
	return lines(data, func(n int, line string) error {
		if n%checkLines == 0 {
			if err := p.stopped("line %d", n); err != nil {
				return err
			}
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			return nil
		}
		args := fields[1:]
		switch fields[0] {
		case "v":
			v, err := floats(args, 3, n)
			if err != nil {
				return err
			}
			p.positions = append(p.positions, [3]float32{v[0], v[1], v[2]})
			// "v x y z r g b" is the common vertex-colour extension.
			c := [3]float32{1, 1, 1}
			if len(v) >= 6 {
				c = [3]float32{clamp(v[3]), clamp(v[4]), clamp(v[5])}
				p.hasColor = true
			}
			p.colors = append(p.colors, c)
		case "vt":
			v, err := floats(args, 1, n)
			if err != nil {
				return err
			}
			var t [2]float32
			t[0] = v[0]
			if len(v) > 1 {
				t[1] = v[1]
			}
			// OBJ puts v = 0 at the bottom of the image, glTF at the top.
			p.texcoords = append(p.texcoords, [2]float32{t[0], 1 - t[1]})
		case "vn":
			v, err := floats(args, 3, n)
			if err != nil {
				return err
			}
			p.normals = append(p.normals, [3]float32{v[0], v[1], v[2]})
		case "f":
			return p.face(args, n)
		case "o", "g":
			name := strings.Join(args, " ")
			g, ok := p.byName[name]
			if !ok {
				g = &group{name: name, byMaterial: map[string]*part{}}
				p.byName[name] = g
				p.groups = append(p.groups, g)
			}
			p.current = g
		case "usemtl":
			p.material = strings.Join(args, " ")
		case "mtllib":
			if lib := strings.Join(args, " "); !p.libNamed[lib] {
				p.libNamed[lib] = true
				p.libs = append(p.libs, lib)
			}
		}
		// Points, lines, free-form surfaces and smoothing groups are
		// ignored: glTF triangles cannot carry them.
		return nil
	})
}

// index resolves a 1-based or negative (relative) OBJ index.
func index(s string, count, line int, what string) (int, error) {
	i, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return 0, invalid("line %d: %q is not a %s index", line, s, what)
	case i > 0 && i <= count:
		return i - 1, nil
	case i < 0 && -i <= count:
		return count + i, nil
	}
	return 0, invalid("line %d: %s index %d is out of range (there are %d so far)", line, what, i, count)
}

func (p *parser) face(args []string, line int) error {
	if len(args) < 3 {
		return invalid("line %d: a face needs at least 3 vertices", line)
	}
	cs := make([]corner, len(args))
	for i, a := range args {
		parts := strings.Split(a, "/")
		c := corner{vt: -1, vn: -1}
		var err error
		if c.v, err = index(parts[0], len(p.positions), line, "vertex"); err != nil {
			return err
		}
		if len(parts) > 1 && parts[1] != "" {
			if c.vt, err = index(parts[1], len(p.texcoords), line, "texture coordinate"); err != nil {
				return err
			}
		}
		if len(parts) > 2 && parts[2] != "" {
			if c.vn, err = index(parts[2], len(p.normals), line, "normal"); err != nil {
				return err
			}
		}
		cs[i] = c
	}
	if p.current == nil {
		p.current = &group{byMaterial: map[string]*part{}}
		p.byName[""] = p.current
		p.groups = append(p.groups, p.current)
	}
	pt := p.current.byMaterial[p.material]
	if pt == nil {
		pt = &part{material: p.material}
		p.current.byMaterial[p.material] = pt
		p.current.parts = append(p.current.parts, pt)
	}
	for i := 1; i+1 < len(cs); i++ {
		pt.corners = append(pt.corners, cs[0], cs[i], cs[i+1])
	}
	return nil
}

// smoothNormals sums the area-weighted normals of the triangles around
// each position, for corners that come without one.
func (p *parser) smoothNormals() [][3]float32 {
	acc := make([][3]float64, len(p.positions))
	for _, g := range p.groups {
		for _, pt := range g.parts {
			for t := 0; t+2 < len(pt.corners); t += 3 {
				a, b, c := p.positions[pt.corners[t].v], p.positions[pt.corners[t+1].v], p.positions[pt.corners[t+2].v]
				u := [3]float64{float64(b[0] - a[0]), float64(b[1] - a[1]), float64(b[2] - a[2])}
				v := [3]float64{float64(c[0] - a[0]), float64(c[1] - a[1]), float64(c[2] - a[2])}
				n := [3]float64{u[1]*v[2] - u[2]*v[1], u[2]*v[0] - u[0]*v[2], u[0]*v[1] - u[1]*v[0]}
				for k := 0; k < 3; k++ {
					for j := range acc[pt.corners[t+k].v] {
						acc[pt.corners[t+k].v][j] += n[j]
					}
				}
			}
		}
	}
	out := make([][3]float32, len(acc))
	for i, n := range acc {
		out[i] = unit(n)
	}
	return out
}

// unit normalizes n; a degenerate normal (a position only used by
// zero-area triangles) points up, since glTF requires unit normals.
func unit(n [3]float64) [3]float32 {
	l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
	if l == 0 || math.IsNaN(l) || math.IsInf(l, 0) {
		return [3]float32{0, 1, 0}
	}
	return [3]float32{float32(n[0] / l), float32(n[1] / l), float32(n[2] / l)}
}

func (p *parser) scene(mats *library) (*scene.Scene, error) {
	s := &scene.Scene{Asset: gltf.Asset{Version: "2.0"}}
	var smooth [][3]float32
	root := &gltf.Scene{Name: "Scene"}
	for _, g := range p.groups {
		mesh := &scene.Mesh{Name: g.name}
		for _, pt := range g.parts {
			prim, err := p.primitive(pt, mats, &smooth)
			if err != nil {
				return nil, err
			}
			mesh.Primitives = append(mesh.Primitives, prim)
		}
		if len(mesh.Primitives) == 0 {
			continue
		}
		s.Meshes = append(s.Meshes, mesh)
		s.Nodes = append(s.Nodes, &gltf.Node{Name: g.name, Mesh: gltf.Index(len(s.Meshes) - 1)})
		root.Nodes = append(root.Nodes, len(s.Nodes)-1)
	}
	if len(s.Meshes) == 0 {
		return nil, invalid("the OBJ file has no faces")
	}
	// After the primitives: they add the materials the MTL lacks.
	s.Materials, s.Textures, s.Images = mats.materials, mats.textures, mats.images
	s.Scenes = []*gltf.Scene{root}
	s.DefaultScene = gltf.Index(0)
	s.Prune() // materials defined in the MTL but never used
	return s, nil
}

func (p *parser) primitive(pt *part, mats *library, smooth *[][3]float32) (*scene.Primitive, error) {
	prim := &scene.Primitive{Mode: gltf.PrimitiveTriangles}
	if pt.material != "" {
		prim.Material = gltf.Index(mats.index(pt.material))
	}
	hasUV, needNormals := false, false
	for _, c := range pt.corners {
		hasUV = hasUV || c.vt >= 0
		needNormals = needNormals || c.vn < 0
	}
	if needNormals && *smooth == nil {
		*smooth = p.smoothNormals()
	}
	var uvs [][2]float32
	var colors [][4]float32
	seen := make(map[corner]uint32)
	for k, c := range pt.corners {
		// A part of millions of faces takes seconds to index.
		if k%(checkLines*16) == 0 {
			if err := p.stopped("corner %d of material %q", k, pt.material); err != nil {
				return nil, err
			}
		}
		if i, ok := seen[c]; ok {
			prim.Indices = append(prim.Indices, i)
			continue
		}
		i := uint32(len(prim.Positions))
		seen[c] = i
		prim.Indices = append(prim.Indices, i)
		prim.Positions = append(prim.Positions, p.positions[c.v])
		if c.vn >= 0 {
			n := p.normals[c.vn]
			prim.Normals = append(prim.Normals, unit([3]float64{float64(n[0]), float64(n[1]), float64(n[2])}))
		} else {
			prim.Normals = append(prim.Normals, (*smooth)[c.v])
		}
		if hasUV {
			var t [2]float32
			if c.vt >= 0 {
				t = p.texcoords[c.vt]
			}
			uvs = append(uvs, t)
		}
		if p.hasColor {
			col := p.colors[c.v]
			colors = append(colors, [4]float32{col[0], col[1], col[2], 1})
		}
	}
	if hasUV {
		prim.TexCoords = [][][2]float32{uvs}
	}
	if p.hasColor {
		prim.Colors = [][][4]float32{colors}
	}
	return prim, nil
}
