package merge

import (
	"math"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
)

// triangleList returns the primitive's indices as a triangle list (strips
// and fans unrolled, alternate strip triangles re-wound), so primitives
// of every triangle mode can share one; points and lines keep theirs.
func triangleList(p *scene.Primitive) []uint32 {
	n := len(p.Indices)
	at := func(i int) uint32 { return p.Indices[i] }
	if p.Indices == nil {
		n = p.VertexCount()
		at = func(i int) uint32 { return uint32(i) }
	}
	var out []uint32
	switch p.Mode {
	case gltf.PrimitiveTriangleStrip:
		for i := 0; i+2 < n; i++ {
			if i%2 == 0 {
				out = append(out, at(i), at(i+1), at(i+2))
			} else {
				out = append(out, at(i+1), at(i), at(i+2))
			}
		}
	case gltf.PrimitiveTriangleFan:
		for i := 1; i+1 < n; i++ {
			out = append(out, at(0), at(i), at(i+1))
		}
	default:
		out = make([]uint32, n)
		for i := range out {
			out[i] = at(i)
		}
	}
	return out
}

// drawMode is the mode of the merged primitive a source primitive joins.
func drawMode(m gltf.PrimitiveMode) gltf.PrimitiveMode {
	if m == gltf.PrimitiveTriangleStrip || m == gltf.PrimitiveTriangleFan {
		return gltf.PrimitiveTriangles
	}
	return m
}

// vertexNormals computes smooth normals from the geometry (face normals
// weighted by area), for a source without NORMAL merged with sources
// that have it; a vertex on no triangle gets +Z.
func vertexNormals(pos [][3]float32, tris []uint32) [][3]float32 {
	acc := make([][3]float64, len(pos))
	for i := 0; i+2 < len(tris); i += 3 {
		a, b, c := pos[tris[i]], pos[tris[i+1]], pos[tris[i+2]]
		e1 := [3]float64{float64(b[0] - a[0]), float64(b[1] - a[1]), float64(b[2] - a[2])}
		e2 := [3]float64{float64(c[0] - a[0]), float64(c[1] - a[1]), float64(c[2] - a[2])}
		n := [3]float64{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		for _, v := range tris[i : i+3] {
			for k := range 3 {
				acc[v][k] += n[k]
			}
		}
	}
	out := make([][3]float32, len(pos))
	for i, n := range acc {
		out[i] = normalize([3]float32{float32(n[0]), float32(n[1]), float32(n[2])})
	}
	return out
}

// vertexTangents computes tangents from positions, normals and UVs
// (Lengyel's method: the UV gradient of each triangle, accumulated and
// orthogonalized against the normal, handedness in w). A source that had
// no TANGENT let the renderer derive them; once merged with sources that
// have tangents, the primitive must carry them for every vertex. Without
// UVs any perpendicular of the normal serves: the normal map there is
// flat.
func vertexTangents(pos, nrm [][3]float32, uv [][2]float32, tris []uint32) [][4]float32 {
	tan := make([][3]float64, len(pos))
	bit := make([][3]float64, len(pos))
	if uv != nil {
		for i := 0; i+2 < len(tris); i += 3 {
			i0, i1, i2 := tris[i], tris[i+1], tris[i+2]
			p0, p1, p2 := pos[i0], pos[i1], pos[i2]
			w0, w1, w2 := uv[i0], uv[i1], uv[i2]
			e1 := [3]float64{float64(p1[0] - p0[0]), float64(p1[1] - p0[1]), float64(p1[2] - p0[2])}
			e2 := [3]float64{float64(p2[0] - p0[0]), float64(p2[1] - p0[1]), float64(p2[2] - p0[2])}
			du1, dv1 := float64(w1[0]-w0[0]), float64(w1[1]-w0[1])
			du2, dv2 := float64(w2[0]-w0[0]), float64(w2[1]-w0[1])
			d := du1*dv2 - du2*dv1
			if d == 0 {
				continue
			}
			r := 1 / d
			for k := range 3 {
				t := (e1[k]*dv2 - e2[k]*dv1) * r
				b := (e2[k]*du1 - e1[k]*du2) * r
				for _, v := range [3]uint32{i0, i1, i2} {
					tan[v][k] += t
					bit[v][k] += b
				}
			}
		}
	}
	out := make([][4]float32, len(pos))
	for i := range out {
		n := [3]float64{float64(nrm[i][0]), float64(nrm[i][1]), float64(nrm[i][2])}
		t := tan[i]
		// Gram-Schmidt against the normal.
		d := t[0]*n[0] + t[1]*n[1] + t[2]*n[2]
		t = [3]float64{t[0] - n[0]*d, t[1] - n[1]*d, t[2] - n[2]*d}
		l := math.Sqrt(t[0]*t[0] + t[1]*t[1] + t[2]*t[2])
		if l < 1e-12 {
			// Any perpendicular: cross with the axis least aligned.
			a := [3]float64{1, 0, 0}
			if math.Abs(n[0]) > 0.9 {
				a = [3]float64{0, 1, 0}
			}
			t = [3]float64{a[1]*n[2] - a[2]*n[1], a[2]*n[0] - a[0]*n[2], a[0]*n[1] - a[1]*n[0]}
			l = math.Sqrt(t[0]*t[0] + t[1]*t[1] + t[2]*t[2])
		}
		w := float32(1)
		c := [3]float64{n[1]*t[2] - n[2]*t[1], n[2]*t[0] - n[0]*t[2], n[0]*t[1] - n[1]*t[0]}
		if c[0]*bit[i][0]+c[1]*bit[i][1]+c[2]*bit[i][2] < 0 {
			w = -1
		}
		out[i] = [4]float32{float32(t[0] / l), float32(t[1] / l), float32(t[2] / l), w}
	}
	return out
}
