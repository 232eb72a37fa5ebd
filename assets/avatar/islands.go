package avatar

import (
	"cmp"
	"slices"

	"github.com/kilnhq/kiln/assets/disjoint"
)

// headUVGap is the room kept around each piece of the head's UV layout
// (UV units): six texels of the 512-px head texture, more than the
// painter's two of border growth and a mip level or two of bleeding.
const headUVGap = 6.0 / 512

// uvIsland is one piece of a part's UV layout: the vertices its
// triangles join (a part is split at its UV seams, so a piece shares no
// vertex with another) and their UV bounding box.
type uvIsland struct {
	verts  []int
	lo, hi [2]float64
}

func (is uvIsland) size() [2]float64 { return [2]float64{is.hi[0] - is.lo[0], is.hi[1] - is.lo[1]} }

// uvIslands are the part's UV pieces, largest box first (ties by their
// first vertex, so the order is the same on every build).
func (p *part) uvIslands() []uvIsland {
	sets := disjoint.New[uint32](len(p.uv))
	used := make([]bool, len(p.uv))
	for _, t := range p.tris {
		for _, v := range t {
			used[v] = true
			sets.Union(t[0], v)
		}
	}
	at := map[uint32]int{}
	var out []uvIsland
	for v := range p.uv {
		if !used[v] {
			continue
		}
		r := sets.Find(uint32(v))
		k, ok := at[r]
		if !ok {
			k = len(out)
			at[r] = k
			out = append(out, uvIsland{lo: [2]float64{1e9, 1e9}, hi: [2]float64{-1e9, -1e9}})
		}
		is := &out[k]
		is.verts = append(is.verts, v)
		for c := range 2 {
			is.lo[c] = min(is.lo[c], float64(p.uv[v][c]))
			is.hi[c] = max(is.hi[c], float64(p.uv[v][c]))
		}
	}
	slices.SortStableFunc(out, func(a, b uvIsland) int {
		sa, sb := a.size(), b.size()
		if c := cmp.Compare(sb[0]*sb[1], sa[0]*sa[1]); c != 0 {
			return c
		}
		return cmp.Compare(a.verts[0], b.verts[0])
	})
	return out
}

// packIslands lays the part's UV pieces out anew in the unit square, all
// at one scale, as large as a guillotine packing fits them with gap
// (UV units) around each. The head's layout is MakeHuman's shared skin
// layout cut to the head: its pieces lie far apart, and stretched to
// their bounding box (surface) the head and face filled a third of the
// texture's width while the rest stayed empty. The face round the mouth
// got 2.35 to 2.6 mm texels, the mouth about 20 texels across: its
// lips' colour, the slit between them and their edges were blurred
// over two pixels of a 512-px portrait each (the panel's faint slit and
// lips barely apart from the skin); packed, 1.64 to 1.82 mm. The painter paints every texel from the surface point under
// it, so the pieces may move and scale freely; only their shapes (and
// so the mesh's seams) stay.
func (p *part) packIslands(gap float64) {
	isl := p.uvIslands()
	if len(isl) == 0 {
		return
	}
	big := max(isl[0].size()[0], isl[0].size()[1])
	if big <= 0 {
		return
	}
	var at [][2]float64
	s := (1 - 2*gap) / big
	for ; s > 0; s *= 0.98 {
		if at = guillotine(isl, s, gap); at != nil {
			break
		}
	}
	if at == nil {
		return
	}
	for k, is := range isl {
		for _, v := range is.verts {
			for c := range 2 {
				p.uv[v][c] = float32(at[k][c] + (float64(p.uv[v][c])-is.lo[c])*s)
			}
		}
	}
}

// guillotine places the islands, scaled by s, in the unit square: each
// (in order) into the free rectangle it fits most tightly, the rest of
// that rectangle cut in two along its shorter leftover side. It returns
// each island's corner, or nil if one does not fit.
func guillotine(isl []uvIsland, s, gap float64) [][2]float64 {
	type rect struct{ x, y, w, h float64 }
	free := []rect{{gap, gap, 1 - gap, 1 - gap}}
	out := make([][2]float64, len(isl))
	for k, is := range isl {
		w, h := is.size()[0]*s+gap, is.size()[1]*s+gap
		best, fit := -1, 2.0
		for i, r := range free {
			if w <= r.w && h <= r.h {
				if f := min(r.w-w, r.h-h); f < fit {
					best, fit = i, f
				}
			}
		}
		if best < 0 {
			return nil
		}
		r := free[best]
		free = slices.Delete(free, best, best+1)
		out[k] = [2]float64{r.x, r.y}
		if r.w-w < r.h-h {
			free = append(free, rect{r.x + w, r.y, r.w - w, h}, rect{r.x, r.y + h, r.w, r.h - h})
		} else {
			free = append(free, rect{r.x + w, r.y, r.w - w, r.h}, rect{r.x, r.y + h, w, r.h - h})
		}
	}
	return out
}
