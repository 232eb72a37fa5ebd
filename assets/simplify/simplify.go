// Package simplify reduces the triangle count of one indexed triangle list
// for Kiln's level-of-detail pipeline (lod 1 keeps about 50% of the
// triangles, lod 2 about 25%).
//
// The algorithm is edge collapse driven by quadric error metrics (Garland
// and Heckbert 1997) with attribute quadrics in the style of Hoppe 1999,
// organised the way meshoptimizer organises it, because that is the fastest
// known layout for the job: instead of a priority queue that is updated
// after every collapse, each pass ranks every candidate edge, sorts them with
// a coarse counting sort and performs the cheapest ones that do not touch a
// vertex already moved in this pass. Passes repeat until the target is
// reached or nothing can collapse. Everything lives in flat slices that are
// allocated once per call; nothing is allocated per collapse and no map is
// used in a hot loop.
//
// A collapse never creates a vertex: it moves a vertex onto one of its
// neighbours, so the result indexes the caller's vertices. Skin weights,
// morph targets and every other stream therefore stay valid and normalized;
// the caller drops the vertices no longer used with [Compact].
//
// The package sees no glTF: the scene code calls [Simplify] once per
// primitive and passes the attributes (normals, texture coordinates,
// colours) it wants preserved, each with a weight.
package simplify

import (
	"errors"
	"fmt"
	"math"
)

// Mesh is one indexed triangle list. Vertices that are at the same position
// but have different attributes (a UV seam, a hard normal edge) are separate
// vertices, as in any GPU vertex buffer; Simplify finds them by comparing
// positions and keeps such seams intact.
type Mesh struct {
	// Indices holds three vertex indices per triangle.
	Indices []uint32
	// Positions holds x, y, z per vertex; its length defines the vertex count.
	Positions []float32
	// Attributes holds AttrStride floats per vertex (normals, texture
	// coordinates, colours...) and may be nil.
	Attributes []float32
	// AttrStride is the number of floats per vertex in Attributes.
	AttrStride int
	// AttrWeights has one weight per attribute component: how much a unit
	// change of that component counts against a change of position of one
	// mesh extent. Zero ignores the component. Typical weights: 0.5 to 1
	// for normals, 1 to 2 for texture coordinates in [0, 1].
	AttrWeights []float32
	// Locked, when not nil, has one flag per vertex: a locked vertex is
	// never moved nor removed (and neither are the other vertices at its
	// position).
	Locked []bool
	// Sites, when not nil, has one entry per vertex: the first vertex that
	// is the same as this one but for its normal (Sites[Sites[v]] ==
	// Sites[v]). Flat-shaded and hard-edged models split every position
	// into one vertex per face or per side of a hard edge; as seams, such
	// vertices would nearly all be locked and simplification would stall.
	// With Sites, Simplify welds the copies, simplifies the surface as one
	// piece (the position quadrics keep hard edges where they are), and
	// then gives each corner of the result the copy whose normal is
	// closest to its triangle's: normals stay per side of every hard edge,
	// and the result still indexes the caller's vertices. Attributes
	// should then leave normals out: a site has several.
	Sites []uint32
	// Normals holds x, y, z per vertex; required with Sites.
	Normals []float32
}

// Options says how far to simplify.
type Options struct {
	// TargetRatio is the fraction of triangles to keep, in [0, 1]: 0.5 for
	// lod 1, 0.25 for lod 2. Zero simplifies as far as MaxError allows.
	TargetRatio float32
	// MaxError bounds the error, relative to the mesh extent (the largest
	// side of the bounding box of the vertices the triangles use, so a
	// primitive that shares a vertex buffer is measured on its own): 1e-2
	// lets the surface move by about 1% of the primitive's size. Zero means
	// no bound, so that only TargetRatio stops the simplification, as for a
	// lod whose size is fixed in advance. To chain lods, simplify the
	// previous lod and add the errors.
	MaxError float32
	// LockBorder keeps every vertex on an open boundary in place. Set it
	// when primitives of different materials meet along a border, so that
	// no crack opens between them.
	LockBorder bool
	// Permissive lets Simplify go on when the error-bounded simplification
	// stalls before TargetRatio: first without the MaxError bound, then
	// collapsing across attribute seams (texture coordinates or normals may
	// then smear along what was a seam), and as a last resort by vertex
	// clustering. Locked vertices, and borders with LockBorder, are kept in
	// every stage. The reported Error tells how far this went.
	Permissive bool
	// Done stops the simplification between passes when it closes (a
	// job's ctx.Done(), so a deadline stops a large mesh too): Simplify
	// then returns ErrStopped. Nil never stops.
	Done <-chan struct{}
}

// Result is the simplified index buffer and the error reached.
type Result struct {
	// Indices index the vertices of the source Mesh.
	Indices []uint32
	// Error is the largest error of any collapse performed, relative to the
	// mesh extent, in the same unit as Options.MaxError. With attributes it
	// includes their weighted error, as meshoptimizer's does.
	Error float32
}

// ErrInvalidMesh is wrapped by every error that Simplify returns: the input
// is malformed and simplifying it cannot succeed.
var ErrInvalidMesh = errors.New("simplify: invalid mesh")

// ErrStopped is returned when Options.Done closed before the end.
var ErrStopped = errors.New("simplify: stopped")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidMesh, fmt.Sprintf(format, args...))
}

// maxVertices keeps every vertex index and the unused marker below 2^32.
const maxVertices = math.MaxUint32 - 1

// Simplify reduces m to about opt.TargetRatio of its triangles, stopping
// earlier when the next collapse would exceed opt.MaxError (unless
// opt.Permissive). It may also stop earlier when the topology allows no more
// collapses: locked vertices, borders that must stay borders, seams that must
// stay seams, collapses that would flip a triangle.
//
// Triangles whose corners are at the same position are dropped from the
// result, so it may have fewer triangles than the target even at a ratio of 1.
// Malformed input (indices out of range, NaN or infinite coordinates,
// inconsistent lengths) returns an error wrapping ErrInvalidMesh.
func Simplify(m Mesh, opt Options) (Result, error) {
	if err := validate(&m, &opt); err != nil {
		return Result{}, err
	}
	if len(m.Indices) == 0 {
		return Result{Indices: []uint32{}}, nil
	}
	if m.Sites != nil {
		return simplifySites(m, opt)
	}
	s := newSimplifier(&m, opt)
	defer s.release()
	s.run(opt, len(m.Indices)/3)
	if s.stopped() {
		return Result{}, ErrStopped
	}
	return s.result(), nil
}

// result is the run's triangles in the caller's vertex numbers, and its
// error.
func (s *simplifier) result() Result {
	out := make([]uint32, len(s.indices))
	for i, v := range s.indices {
		out[i] = s.old[v]
	}
	return Result{Indices: out, Error: float32(math.Sqrt(float64(s.resultError)))}
}

// firstNonFinite returns the index of the first NaN or infinity in v, or
// -1. It tests the exponent bits (all ones for both) with no branch per
// element, since it reads every float of the mesh.
func firstNonFinite(v []float32) int {
	const exp = 0x7f800000
	for lo := 0; lo < len(v); lo += 1024 {
		chunk := v[lo:min(lo+1024, len(v))]
		least := uint32(exp) // zero once a float has all exponent bits set
		for _, f := range chunk {
			least = min(least, math.Float32bits(f)&exp^exp)
		}
		if least == 0 {
			for i, f := range chunk {
				if math.Float32bits(f)&exp == exp {
					return lo + i
				}
			}
		}
	}
	return -1
}

func validate(m *Mesh, opt *Options) error {
	if !(opt.TargetRatio >= 0 && opt.TargetRatio <= 1) {
		return invalid("target ratio %v is outside [0, 1]", opt.TargetRatio)
	}
	if !(opt.MaxError >= 0) || math.IsInf(float64(opt.MaxError), 0) {
		return invalid("max error %v is negative or not finite", opt.MaxError)
	}
	if len(m.Positions)%3 != 0 {
		return invalid("%d position floats is not a multiple of 3", len(m.Positions))
	}
	if len(m.Indices)%3 != 0 {
		return invalid("%d indices is not a multiple of 3", len(m.Indices))
	}
	nv := len(m.Positions) / 3
	if nv > maxVertices {
		return invalid("%d vertices is too many", nv)
	}
	for i, v := range m.Indices {
		if int(v) >= nv {
			return invalid("index %d at position %d is out of range (%d vertices)", v, i, nv)
		}
	}
	if i := firstNonFinite(m.Positions); i >= 0 {
		return invalid("position of vertex %d is not finite (%v)", i/3, m.Positions[i])
	}
	if m.AttrStride < 0 {
		return invalid("negative attribute stride %d", m.AttrStride)
	}
	if m.AttrStride == 0 {
		if len(m.Attributes) != 0 {
			return invalid("attributes given with a stride of 0")
		}
	} else {
		if len(m.Attributes) != nv*m.AttrStride {
			return invalid("%d attribute floats for %d vertices of stride %d", len(m.Attributes), nv, m.AttrStride)
		}
		if len(m.AttrWeights) != m.AttrStride {
			return invalid("%d attribute weights for a stride of %d", len(m.AttrWeights), m.AttrStride)
		}
		for i, w := range m.AttrWeights {
			if !(w >= 0) || math.IsInf(float64(w), 0) {
				return invalid("attribute weight %d is %v", i, w)
			}
		}
		if i := firstNonFinite(m.Attributes); i >= 0 {
			return invalid("attribute %d of vertex %d is not finite (%v)", i%m.AttrStride, i/m.AttrStride, m.Attributes[i])
		}
	}
	if m.Locked != nil && len(m.Locked) != nv {
		return invalid("%d lock flags for %d vertices", len(m.Locked), nv)
	}
	return validateSites(m, nv)
}
