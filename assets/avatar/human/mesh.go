package human

import (
	"math"
	"slices"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar/human/hmdata"
)

// Mesh is the body's render mesh, the same for every shape (positions
// come from Body.Pos through Base).
type Mesh struct {
	// Base is each render vertex's base-mesh vertex (index into Body.Pos,
	// Weights and any sparse base-vertex deltas).
	Base []int32
	// UV per render vertex, glTF convention (origin top left, v down).
	UV [][2]float32
	// Tris are render-vertex indices, counter-clockwise seen from outside.
	Tris [][3]uint32
	// Head marks the triangles of the head and neck (Ready Player Me's
	// Wolf3D_Head, which runs down to the base of the neck); the others
	// are Wolf3D_Body. The seam follows the skin weights: a quad of the
	// base mesh (both its triangles) is head when its corners' weight on
	// Neck, Head and the eyes averages at least one half. The two parts
	// share the seam's vertices: compute normals on the whole body before
	// splitting so the seam does not show.
	Head []bool
}

// BodyMesh returns the body's render mesh (shared: do not modify).
func BodyMesh() *Mesh {
	return load().body
}

// toMesh converts a stored mesh; base maps its Src to base vertices.
func toMesh(h hmdata.Mesh, base func(src int32) int32) *Mesh {
	m := &Mesh{
		Base: make([]int32, len(h.Src)),
		UV:   make([][2]float32, len(h.Src)),
		Tris: make([][3]uint32, len(h.Tri)/3),
	}
	for i, s := range h.Src {
		m.Base[i] = base(s)
		m.UV[i] = [2]float32{h.UV[2*i], 1 - h.UV[2*i+1]}
	}
	for t := range m.Tris {
		m.Tris[t] = [3]uint32{uint32(h.Tri[3*t]), uint32(h.Tri[3*t+1]), uint32(h.Tri[3*t+2])}
	}
	return m
}

func (m *model) newBodyMesh() *Mesh {
	bm := toMesh(m.d.Body, func(s int32) int32 { return s })
	isHead := make([]bool, len(m.d.Joints))
	for _, n := range []string{"Neck", "Head", "LeftEye", "RightEye"} {
		isHead[m.joint[n]] = true
	}
	share := func(v int32) float32 {
		var s float32
		for k, j := range m.weights[v].Joint {
			if isHead[j] {
				s += m.weights[v].Weight[k]
			}
		}
		return s
	}
	// Decide per MakeHuman quad, so both of its triangles go together
	// and the seam runs along quad edges.
	sum := map[int32]float32{}
	n := map[int32]int{}
	for t, tri := range bm.Tris {
		q := m.d.Body.Poly[t]
		for _, c := range tri {
			sum[q] += share(bm.Base[c])
			n[q]++
		}
	}
	bm.Head = make([]bool, len(bm.Tris))
	for t := range bm.Tris {
		q := m.d.Body.Poly[t]
		bm.Head[t] = sum[q]/float32(n[q]) >= 0.5
	}
	return bm
}

// Influence is up to four joints (indices into JointNames) and their
// weights, which sum to 1; unused slots have weight 0.
type Influence struct {
	Joint  [4]uint8
	Weight [4]float32
}

// Weights returns the skin weights of every base vertex (shared: do not
// modify): MakeHuman's 163-bone weights mapped onto the 67 joints (face
// bones to Head, metacarpals to the hand, toes to the toe base), at most
// four per vertex, normalised.
func Weights() []Influence {
	return load().weights
}

// Binding ties a fitted vertex to the body: the weighted sum of three
// base vertices (plus an offset that scales with the body).
type Binding struct {
	V [3]int32
	W [3]float32
}

// Fitted is an asset placed on a body.
type Fitted struct {
	ID string
	// ZDepth orders layers: higher is outer (MakeHuman's z_depth).
	ZDepth int
	// Pos, UV and Bind are per render vertex; UV as in Mesh.
	Pos  [][3]float32
	UV   [][2]float32
	Bind []Binding
	Tris [][3]uint32
	// src is each render vertex's asset vertex (UV seams split asset
	// vertices into several render vertices).
	src []int32
	// Hides marks the body triangles (BodyMesh().Tris) the asset covers:
	// those whose corners are all in the asset's delete list. Leave them
	// out so skin cannot poke through.
	Hides []bool
}

// Fit places an asset (an ID from Assets) on the body: each vertex at
// its binding's weighted base vertices plus its offset, scaled by how
// much the body grew along each axis since the asset was made.
// Footwear soles reach below y = 0 (the bare soles, up to 3 cm for
// boots): lift the whole avatar by the lowest footwear vertex.
// Hair, skirts and loose tops may pass through the body where MakeHuman
// hides nothing; Hides lists the skin to leave out under each asset.
func (b *Body) Fit(id string) (*Fitted, error) {
	m := load()
	a, ok := m.assets[id]
	if !ok {
		return nil, errUnknown(id)
	}
	var scale [3]float64
	for k, s := range a.Scale {
		d := math.Abs(float64(b.Pos[s.A][k]-b.Pos[s.B][k])) * 10 // decimetres, as Ref
		scale[k] = d / float64(s.Ref) / 10                       // offsets in metres per decimetre
	}
	nv := len(a.Ref) / 3
	at := make([][3]float32, nv)
	bind := make([]Binding, nv)
	for v := 0; v < nv; v++ {
		var p [3]float64
		var bd Binding
		for k := 0; k < 3; k++ {
			r := a.Ref[3*v+k]
			w := float64(a.W[3*v+k]) / 65535
			bd.V[k], bd.W[k] = r, float32(w)
			for ax := 0; ax < 3; ax++ {
				p[ax] += w * float64(b.Pos[r][ax])
			}
		}
		for ax := 0; ax < 3; ax++ {
			p[ax] += float64(a.Off[3*v+ax]) * hmdata.DeltaUnit * scale[ax]
		}
		at[v] = [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}
		bind[v] = bd
	}
	mesh := toMesh(a.Mesh, func(s int32) int32 { return s })
	f := &Fitted{ID: id, ZDepth: a.ZDepth, UV: mesh.UV, Tris: mesh.Tris, src: mesh.Base}
	f.Pos = make([][3]float32, len(mesh.Base))
	f.Bind = make([]Binding, len(mesh.Base))
	for i, s := range mesh.Base {
		f.Pos[i], f.Bind[i] = at[s], bind[s]
	}
	f.Hides = m.hides(a.Delete)
	return f, nil
}

// hides marks the body triangles whose corners are all in del.
func (m *model) hides(del []int32) []bool {
	gone := make([]bool, len(m.weights))
	for _, v := range del {
		gone[v] = true
	}
	out := make([]bool, len(m.body.Tris))
	for t, tri := range m.body.Tris {
		out[t] = gone[m.body.Base[tri[0]]] && gone[m.body.Base[tri[1]]] && gone[m.body.Base[tri[2]]]
	}
	return out
}

// Weights carries the body's skin weights to the fitted vertices: each
// takes its binding's blend of its three base vertices' influences,
// keeps the four largest and renormalises. A top's hem hangs over the
// thighs but is not carried by them: on tops the legs' weights go to
// the Hips, so a stride does not drag the hem down between the legs.
func (f *Fitted) Weights() []Influence {
	m := load()
	w := m.weights
	remap := func(j uint8) uint8 { return j }
	if strings.HasPrefix(f.ID, "top/") {
		remap = func(j uint8) uint8 {
			if m.legJoint[j] {
				return uint8(m.joint["Hips"])
			}
			return j
		}
	}
	out := make([]Influence, len(f.Bind))
	for i, bd := range f.Bind {
		sum := map[uint8]float32{}
		for k := 0; k < 3; k++ {
			if bd.W[k] <= 0 {
				continue
			}
			inf := w[bd.V[k]]
			for s := 0; s < 4; s++ {
				if inf.Weight[s] > 0 {
					sum[remap(inf.Joint[s])] += bd.W[k] * inf.Weight[s]
				}
			}
		}
		out[i] = TopFour(sum)
	}
	return out
}

// TopFour keeps the four heaviest joints of a weight sum, normalised;
// ties go to the lower joint index so the result does not depend on map
// order. The generator sums weights the same way when it blends them.
func TopFour(sum map[uint8]float32) Influence {
	list := make([]JointWeight, 0, len(sum))
	for j, w := range sum {
		list = append(list, JointWeight{j, w})
	}
	return TopFourOf(list)
}

// JointWeight is one joint's weight, an entry of TopFourOf's list.
type JointWeight struct {
	Joint  uint8
	Weight float32
}

// TopFourOf is TopFour of a list of distinct joints (sorted in place), for
// hot loops that keep their sums in arrays rather than maps.
func TopFourOf(list []JointWeight) Influence {
	slices.SortFunc(list, func(a, b JointWeight) int {
		if a.Weight != b.Weight {
			if a.Weight > b.Weight {
				return -1
			}
			return 1
		}
		return int(a.Joint) - int(b.Joint)
	})
	if len(list) > 4 {
		list = list[:4]
	}
	var total float32
	for _, e := range list {
		total += e.Weight
	}
	var inf Influence
	if total <= 0 {
		inf.Weight[0] = 1 // Hips; cannot happen with the shipped data
		return inf
	}
	for k, e := range list {
		inf.Joint[k], inf.Weight[k] = e.Joint, e.Weight/total
	}
	return inf
}

// Carry moves sparse base-vertex offsets (metres, e.g. a face pose's
// deltas) onto the fitted vertices through their bindings: each fitted
// vertex moves by the weighted sum of its three base vertices' offsets.
// Vertices whose base vertices do not move get a zero offset.
func (f *Fitted) Carry(delta map[int32][3]float32) [][3]float32 {
	out := make([][3]float32, len(f.Bind))
	for i, bd := range f.Bind {
		for k := 0; k < 3; k++ {
			d, ok := delta[bd.V[k]]
			if !ok {
				continue
			}
			for a := 0; a < 3; a++ {
				out[i][a] += bd.W[k] * d[a]
			}
		}
	}
	return out
}

// CarryTo is Carry for the fitted vertices at only: out[i] is
// Carry(delta)[at[i]], the same sums in the same order. A part made of a
// few of the fitted vertices (the avatar's head parts, for each of some
// fifty face shapes) computed and allocated all of them.
func (f *Fitted) CarryTo(out [][3]float32, delta map[int32][3]float32, at []int32) {
	for i, s := range at {
		bd := &f.Bind[s]
		var o [3]float32
		for k := 0; k < 3; k++ {
			d, ok := delta[bd.V[k]]
			if !ok {
				continue
			}
			for a := 0; a < 3; a++ {
				o[a] += bd.W[k] * d[a]
			}
		}
		out[i] = o
	}
}

// Normals gives the body's smooth normals per render vertex of
// BodyMesh: area-weighted over the triangles around each base vertex,
// across UV seams and across the head/body split, so neither shows as a
// crease.
func (b *Body) Normals() [][3]float32 {
	m := BodyMesh()
	return smoothNormals(b.Pos, m.Base, m.Tris)
}

// Normals gives the asset's smooth normals per render vertex, shared
// across its UV seams.
func (f *Fitted) Normals() [][3]float32 {
	n := 0
	for _, s := range f.src {
		n = max(n, int(s)+1)
	}
	pos := make([][3]float32, n)
	for i, s := range f.src {
		pos[s] = f.Pos[i]
	}
	return smoothNormals(pos, f.src, f.Tris)
}

// smoothNormals sums each triangle's area-weighted normal onto the
// source vertex of its corners and hands the normalised sums back per
// render vertex. A vertex on no triangle (or on degenerate ones only)
// gets +Y.
func smoothNormals(pos [][3]float32, src []int32, tris [][3]uint32) [][3]float32 {
	acc := make([][3]float64, len(pos))
	for _, t := range tris {
		a, b, c := pos[src[t[0]]], pos[src[t[1]]], pos[src[t[2]]]
		u := [3]float64{float64(b[0] - a[0]), float64(b[1] - a[1]), float64(b[2] - a[2])}
		v := [3]float64{float64(c[0] - a[0]), float64(c[1] - a[1]), float64(c[2] - a[2])}
		n := [3]float64{u[1]*v[2] - u[2]*v[1], u[2]*v[0] - u[0]*v[2], u[0]*v[1] - u[1]*v[0]}
		for _, k := range t {
			s := src[k]
			acc[s][0] += n[0]
			acc[s][1] += n[1]
			acc[s][2] += n[2]
		}
	}
	out := make([][3]float32, len(src))
	for i, s := range src {
		n := acc[s]
		l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
		if l == 0 {
			out[i] = [3]float32{0, 1, 0}
			continue
		}
		out[i] = [3]float32{float32(n[0] / l), float32(n[1] / l), float32(n[2] / l)}
	}
	return out
}
