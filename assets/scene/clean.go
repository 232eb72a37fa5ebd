package scene

import (
	"context"

	"github.com/qmuntal/gltf"
)

// DropDegenerate removes from every triangle list the triangles that can
// never show: those with two corners at the same position (zero area)
// and repeats of a triangle already drawn (the same three positions in
// the same turning order, so a two-sided pair stays). It reports how many
// it removed. Hostile uploads are made of such triangles (100,000 faces
// on the same three vertices): cleaned first, the work that follows
// (rendering, simplifying) is bounded by what the model really holds,
// and nothing visible changes. Positions are compared exactly; the
// vertices no triangle uses any more are dropped.
func (s *Scene) DropDegenerate(ctx context.Context) (int, error) {
	dropped := 0
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			n, err := p.dropDegenerate(ctx)
			if err != nil {
				return dropped, err
			}
			if n > 0 {
				dropped += n
				if err := p.Compact(); err != nil {
					return dropped, err
				}
			}
		}
	}
	return dropped, nil
}

// dropDegenerate cleans one triangle list; other modes are left as they
// are. A non-indexed primitive gets indices, which Write keeps. It looks
// at ctx every checkTriangles triangles: a primitive of millions takes
// seconds on a busy machine, past a job's deadline.
func (p *Primitive) dropDegenerate(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if p.Mode != gltf.PrimitiveTriangles {
		return 0, nil
	}
	idx := p.Indices
	n := len(idx)
	if idx == nil {
		n = len(p.Positions)
	}
	n -= n % 3
	at := func(i int) uint32 {
		if idx == nil {
			return uint32(i)
		}
		return idx[i]
	}
	// Positions are welded to ids first, so that an unindexed or
	// split-vertex duplicate is still seen as one. A morphed or skinned
	// vertex may leave its twin when it moves (an eyelid seam that opens),
	// so there only the same vertex counts as the same corner.
	pid := make([]uint32, len(p.Positions))
	if len(p.Targets) > 0 || len(p.Joints) > 0 {
		for i := range pid {
			pid[i] = uint32(i)
		}
	} else {
		ids := make(map[[3]float32]uint32, len(p.Positions))
		for i, v := range p.Positions {
			id, ok := ids[v]
			if !ok {
				id = uint32(len(ids))
				ids[v] = id
			}
			pid[i] = id
		}
	}
	seen := make(map[[3]uint32]struct{}, n/3)
	out := make([]uint32, 0, n)
	dropped := 0
	for t := 0; t < n; t += 3 {
		if t%(3*checkTriangles) == 0 && t > 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		a, b, c := at(t), at(t+1), at(t+2)
		if int(a) >= len(pid) || int(b) >= len(pid) || int(c) >= len(pid) {
			// Out of range indices are the reader's to refuse; keep them.
			out = append(out, a, b, c)
			continue
		}
		pa, pb, pc := pid[a], pid[b], pid[c]
		if pa == pb || pb == pc || pa == pc {
			dropped++
			continue
		}
		// The rotation starting at the smallest id keeps the turning
		// order: (1 2 3), (2 3 1) and (3 1 2) are one triangle, (1 3 2)
		// its back.
		k := [3]uint32{pa, pb, pc}
		switch {
		case pb < pa && pb < pc:
			k = [3]uint32{pb, pc, pa}
		case pc < pa && pc < pb:
			k = [3]uint32{pc, pa, pb}
		}
		if _, dup := seen[k]; dup {
			dropped++
			continue
		}
		seen[k] = struct{}{}
		out = append(out, a, b, c)
	}
	if dropped == 0 {
		return 0, nil
	}
	if len(out) == 0 {
		// glTF has no empty primitive: one invisible triangle stays.
		out = append(out, at(0), at(1), at(2))
		dropped--
	}
	p.Indices = out
	return dropped, nil
}

// checkTriangles is how many triangles a pass handles between two looks
// at its context: a few milliseconds of work.
const checkTriangles = 1 << 16
