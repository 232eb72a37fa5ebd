package avatar

// vspan is a run of a part's vertices [v0, v1) and triangles [t0, t1).
type vspan struct{ v0, v1, t0, t1 int }

// visorSpans is where the cap's visor lies in its part: all of it (top,
// underside and the edge between them) and its underside.
type visorSpans struct{ all, under vspan }

// faceVisor turns the visor's underside to face down and every visor
// triangle to face the way its normals do. Built on one grid, the top
// and the underside were both wound facing down and hatNormals turned
// both's normals up (away from the head's centre, which is below the
// visor): a viewer's light from above lit the underside as brightly as
// the top, and the top, seen from above, was a back face, which a
// double-sided material lights with its normal flipped, as if facing
// away from every light: the black band a portrait camera at eye
// level saw, the visor's top sloping down toward it. It runs after
// hatNormals, whose sums weld the top and the underside where they meet
// at the crown.
func (p *part) faceVisor(v visorSpans) {
	for i := v.under.v0; i < v.under.v1; i++ {
		if p.nrm[i][1] > 0 {
			p.nrm[i] = [3]float32{-p.nrm[i][0], -p.nrm[i][1], -p.nrm[i][2]}
		}
	}
	p.windToNormals(v.all)
}

// windToNormals turns each triangle of span s to face the way its
// vertices' normals do: a double-sided material lights a triangle seen
// from its back with the normals flipped.
func (p *part) windToNormals(s vspan) {
	for t := s.t0; t < s.t1; t++ {
		tri := p.tris[t]
		a, b, c := v3(p.pos[tri[0]]), v3(p.pos[tri[1]]), v3(p.pos[tri[2]])
		n := v3(p.nrm[tri[0]]).add(v3(p.nrm[tri[1]])).add(v3(p.nrm[tri[2]]))
		if b.sub(a).cross(c.sub(a)).dot(n) < 0 {
			p.tris[t][1], p.tris[t][2] = tri[2], tri[1]
		}
	}
}

// faceUp turns the normals of span s (a fedora's brim) up and its
// triangles with them. hatNormals turns them away from the head's
// centre, which lies level with the brim: where it curls up at the
// sides, away was nearly along it, and the normals turned over from row
// to row, a sawtooth of dark and light along the brim's edge (issue
// 22's panel: "a jagged fedora brim").
func (p *part) faceUp(s vspan) {
	for i := s.v0; i < s.v1; i++ {
		if p.nrm[i][1] < 0 {
			p.nrm[i] = [3]float32{-p.nrm[i][0], -p.nrm[i][1], -p.nrm[i][2]}
		}
	}
	p.windToNormals(s)
}
