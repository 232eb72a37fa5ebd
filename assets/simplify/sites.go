package simplify

// This file is the flat-shaded and hard-edged path (Mesh.Sites), in three
// steps: weld the copies of each site, simplify the welded mesh, and pick
// each corner's copy by its normal.

func validateSites(m *Mesh, nv int) error {
	if m.Sites == nil {
		if m.Normals != nil {
			return invalid("normals given without sites")
		}
		return nil
	}
	if len(m.Sites) != nv {
		return invalid("%d sites for %d vertices", len(m.Sites), nv)
	}
	if len(m.Normals) != 3*nv {
		return invalid("%d normal floats for %d vertices", len(m.Normals), nv)
	}
	for v, r := range m.Sites {
		if int(r) >= nv || m.Sites[r] != r {
			return invalid("site %d of vertex %d is not a site of its own", r, v)
		}
	}
	if i := firstNonFinite(m.Normals); i >= 0 {
		return invalid("normal of vertex %d is not finite (%v)", i/3, m.Normals[i])
	}
	return nil
}

// simplifySites simplifies m welded by m.Sites, then gives the copies
// back; see Mesh.Sites.
func simplifySites(m Mesh, opt Options) (Result, error) {
	welded := weldSites(m)
	res, err := Simplify(welded, opt)
	if err != nil {
		return Result{}, err
	}
	res.Indices = pickSides(res.Indices, m)
	return res, nil
}

// weldSites maps every index to its site. A lock on any copy locks the
// site: the caller locked a position, whichever copy it named.
func weldSites(m Mesh) Mesh {
	w := m
	w.Sites, w.Normals = nil, nil
	w.Indices = make([]uint32, len(m.Indices))
	for i, v := range m.Indices {
		w.Indices[i] = m.Sites[v]
	}
	if m.Locked != nil {
		w.Locked = make([]bool, len(m.Locked))
		for v, l := range m.Locked {
			w.Locked[m.Sites[v]] = w.Locked[m.Sites[v]] || l
		}
	}
	return w
}

// pickSides replaces, in place, each corner (a site) with the copy of
// that site whose normal is closest in direction to the triangle's face
// normal: the side of the hard edge the triangle is on. A copy that no
// triangle of the source used is still a vertex of the caller's, so it
// may be picked. Degenerate triangles keep the site itself.
func pickSides(indices []uint32, m Mesh) []uint32 {
	nv := len(m.Sites)
	// next links the copies of each site into a cycle, as wedges are
	next := make([]uint32, nv)
	for v := range next {
		next[v] = uint32(v)
	}
	for v, r := range m.Sites {
		if r != uint32(v) {
			next[v], next[r] = next[r], uint32(v)
		}
	}
	pos, nrm := m.Positions, m.Normals
	for t := 0; t+2 < len(indices); t += 3 {
		a, b, c := indices[t], indices[t+1], indices[t+2]
		e1 := vec3{pos[3*b] - pos[3*a], pos[3*b+1] - pos[3*a+1], pos[3*b+2] - pos[3*a+2]}
		e2 := vec3{pos[3*c] - pos[3*a], pos[3*c+1] - pos[3*a+1], pos[3*c+2] - pos[3*a+2]}
		face := vec3{e1.y*e2.z - e1.z*e2.y, e1.z*e2.x - e1.x*e2.z, e1.x*e2.y - e1.y*e2.x}
		if normalize(&face) == 0 {
			continue
		}
		for k := t; k < t+3; k++ {
			site := indices[k]
			best, bestDot := site, float32(-2)
			for v := site; ; {
				n := vec3{nrm[3*v], nrm[3*v+1], nrm[3*v+2]}
				normalize(&n)
				if d := n.x*face.x + n.y*face.y + n.z*face.z; d > bestDot {
					best, bestDot = v, d
				}
				if v = next[v]; v == site {
					break
				}
			}
			indices[k] = best
		}
	}
	return indices
}
