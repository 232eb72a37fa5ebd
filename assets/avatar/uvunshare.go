package avatar

import (
	"cmp"
	"math"
	"slices"

	"github.com/kilnhq/kiln/assets/disjoint"
)

// unshareUV gives every UV piece of p (a connected set of triangles) its
// own texels. MakeHuman's long hair lays its thirty layered side cards
// over one another in the texture, to share one painting of strands;
// Kiln paints each texel from the 3D point it shows (paint.Hair), so a
// texel two cards share is right on one of them and on the other shows
// locks 3 to 5 cm away. Along the bands where neighbouring cards
// overlapped, a card showed its own locks and a neighbour's by turns: a
// dotted line down each card, seen from the crown down the side of the
// head as a "braid" (issue 22's panels: "beads", "braid seam ridges").
//
// The pieces that overlap no other keep their place; the others are
// packed, each whole and all at one scale (so their texels stay alike
// in size), into the largest empty rectangle of the texture that the
// kept pieces leave.
func unshareUV(p *part) {
	pieces := uvPieces(p)
	move := overlapping(p, pieces)
	// A piece left in place among the ones that move would break up the
	// room they are packed into: pieces whose boxes meet a moving one's
	// move too.
	for grown := true; grown; {
		grown = false
		for i := range pieces {
			for j := range pieces {
				if move[j] && !move[i] && boxesMeet(pieces[i], pieces[j]) {
					move[i], grown = true, true
				}
			}
		}
	}
	var kept, moved []uvPiece
	for i, pc := range pieces {
		if move[i] {
			moved = append(moved, pc)
		} else {
			kept = append(kept, pc)
		}
	}
	if len(moved) == 0 {
		return
	}
	free := largestFree(kept)
	place, s := shelfPack(moved, free)
	// The UVs may be the proxy's own, shared by every build.
	p.uv = slices.Clone(p.uv)
	for i, pc := range moved {
		for _, v := range pc.verts {
			uv := p.uv[v]
			p.uv[v] = [2]float32{
				float32(place[i][0] + (float64(uv[0])-pc.lo[0])*s),
				float32(place[i][1] + (float64(uv[1])-pc.lo[1])*s),
			}
		}
	}
}

// uvPiece is a connected set of p's triangles: its vertices and the box
// of their UVs.
type uvPiece struct {
	tris, verts []int
	lo, hi      [2]float64
}

// boxesMeet is whether the UV boxes of a and b overlap.
func boxesMeet(a, b uvPiece) bool {
	return a.lo[0] < b.hi[0] && b.lo[0] < a.hi[0] && a.lo[1] < b.hi[1] && b.lo[1] < a.hi[1]
}

// uvPieces is p's triangles grouped by the vertices they share (a UV
// seam splits vertices, so a piece is one island of the texture).
func uvPieces(p *part) []uvPiece {
	sets := disjoint.New[int](len(p.pos))
	for _, t := range p.tris {
		for _, v := range t[1:] {
			sets.Union(int(t[0]), int(v))
		}
	}
	index := map[int]int{}
	var out []uvPiece
	seen := make([]bool, len(p.pos))
	for ti, t := range p.tris {
		r := sets.Find(int(t[0]))
		k, ok := index[r]
		if !ok {
			k = len(out)
			index[r] = k
			out = append(out, uvPiece{lo: [2]float64{math.Inf(1), math.Inf(1)}, hi: [2]float64{math.Inf(-1), math.Inf(-1)}})
		}
		pc := &out[k]
		pc.tris = append(pc.tris, ti)
		for _, v := range t {
			if seen[v] {
				continue
			}
			seen[v] = true
			pc.verts = append(pc.verts, int(v))
			for a := range 2 {
				pc.lo[a] = math.Min(pc.lo[a], float64(p.uv[v][a]))
				pc.hi[a] = math.Max(pc.hi[a], float64(p.uv[v][a]))
			}
		}
	}
	return out
}

// unshareGrid is the texels a side over which pieces are asked whether
// they overlap: coarse enough to be quick, fine enough that the cards'
// overlapping bands (a few hundredths of the texture wide) are seen.
const unshareGrid = 256

// overlapping is, per piece, whether any texel's centre of an
// unshareGrid-texel texture falls in one of its triangles and in a
// triangle of another piece.
func overlapping(p *part, pieces []uvPiece) []bool {
	const n = unshareGrid
	owner := make([]int32, n*n)
	for i := range owner {
		owner[i] = -1
	}
	shared := make([]bool, len(pieces))
	for k, pc := range pieces {
		for _, ti := range pc.tris {
			t := p.tris[ti]
			var px, py [3]float64
			for j, v := range t {
				px[j], py[j] = float64(p.uv[v][0])*n-0.5, float64(p.uv[v][1])*n-0.5
			}
			area := (px[1]-px[0])*(py[2]-py[0]) - (px[2]-px[0])*(py[1]-py[0])
			if math.Abs(area) < 1e-12 {
				continue
			}
			x0, x1 := max(0, int(math.Ceil(min(px[0], px[1], px[2])))), min(n-1, int(math.Floor(max(px[0], px[1], px[2]))))
			y0, y1 := max(0, int(math.Ceil(min(py[0], py[1], py[2])))), min(n-1, int(math.Floor(max(py[0], py[1], py[2]))))
			for y := y0; y <= y1; y++ {
				for x := x0; x <= x1; x++ {
					fx, fy := float64(x), float64(y)
					w0 := ((px[1]-fx)*(py[2]-fy) - (px[2]-fx)*(py[1]-fy)) / area
					w1 := ((px[2]-fx)*(py[0]-fy) - (px[0]-fx)*(py[2]-fy)) / area
					if w0 < 0 || w1 < 0 || w0+w1 > 1 {
						continue
					}
					switch o := owner[y*n+x]; {
					case o < 0:
						owner[y*n+x] = int32(k)
					case int(o) != k:
						shared[o], shared[k] = true, true
					}
				}
			}
		}
	}
	return shared
}

// uvRect is a rectangle of the texture: its lower corner and size.
type uvRect struct{ x, y, w, h float64 }

// largestFree is the largest rectangle of the texture (on a 64-cell
// grid) that no box of the pieces kept, each a cell larger all round,
// touches.
func largestFree(kept []uvPiece) uvRect {
	const n = 64
	used := make([]bool, n*n)
	for _, pc := range kept {
		x0, x1 := max(0, int(pc.lo[0]*n)-1), min(n-1, int(pc.hi[0]*n)+1)
		y0, y1 := max(0, int(pc.lo[1]*n)-1), min(n-1, int(pc.hi[1]*n)+1)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				used[y*n+x] = true
			}
		}
	}
	// The largest rectangle under the histogram of free cells above each
	// row, row by row.
	height := make([]int, n)
	var best uvRect
	for y := range n {
		for x := range n {
			if used[y*n+x] {
				height[x] = 0
			} else {
				height[x]++
			}
		}
		for x := range n {
			h := height[x]
			for x2 := x; x2 < n && h > 0; x2++ {
				h = min(h, height[x2])
				if w := x2 - x + 1; float64(w*h) > best.w*best.h*n*n {
					best = uvRect{float64(x) / n, float64(y-h+1) / n, float64(w) / n, float64(h) / n}
				}
			}
		}
	}
	return best
}

// unsharePad is the gap between two packed pieces and round the
// rectangle's edge (of the texture's width): four texels at 1024, so a
// viewer's filtering and the painter's spill (paint.spill) of one piece
// do not reach the next.
const unsharePad = 4.0 / 1024

// shelfPack places the pieces in r at the largest scale s (at most 1)
// at which they fit, tallest first, in rows: each piece's lower corner
// in the texture, in the order of pieces.
func shelfPack(pieces []uvPiece, r uvRect) ([][2]float64, float64) {
	order := make([]int, len(pieces))
	for i := range order {
		order[i] = i
	}
	height := func(i int) float64 { return pieces[i].hi[1] - pieces[i].lo[1] }
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(height(b), height(a)) })
	fit := func(s float64) ([][2]float64, bool) {
		place := make([][2]float64, len(pieces))
		x, y, row := r.x+unsharePad, r.y+unsharePad, 0.0
		for _, i := range order {
			w := (pieces[i].hi[0] - pieces[i].lo[0]) * s
			h := (pieces[i].hi[1] - pieces[i].lo[1]) * s
			if x+w > r.x+r.w-unsharePad {
				x, y, row = r.x+unsharePad, y+row+unsharePad, 0
			}
			if x+w > r.x+r.w-unsharePad || y+h > r.y+r.h-unsharePad {
				return nil, false
			}
			place[i] = [2]float64{x, y}
			x += w + unsharePad
			row = math.Max(row, h)
		}
		return place, true
	}
	lo, hi := 0.0, 1.0
	if place, ok := fit(hi); ok {
		return place, hi
	}
	for range 30 {
		mid := (lo + hi) / 2
		if _, ok := fit(mid); ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	place, _ := fit(lo)
	return place, lo
}
