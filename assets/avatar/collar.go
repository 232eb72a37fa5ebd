package avatar

import "math"

// Collar shade: how much light the cloth under another layer of the
// same garment loses (a collar's point over the placket, a lapel over
// the chest), and how far above it that layer may be.
const (
	layerShade = 0.42
	layerReach = 0.03
)

// shadeLayers darkens, by a vertex colour, the cloth of a garment that
// lies under another layer of itself: the front of a shirt under its
// collar's points, the placket under the lapel. Kiln paints cloth flat,
// so a white collar over a white shirt showed no edge of its own; its
// outline and the V below it merged into one stepped cut that read as a
// torn collar. The shade is the share of a few rays from the vertex,
// around its outward normal, that meet the garment again within
// layerReach: a soft band under each edge, as a viewer's ambient
// occlusion would draw it. Only the neck's and chest's cloth is looked
// at (chestTop and chestHalf round the neck joint); elsewhere the colour is
// white, and a garment with nothing shaded gets no colours at all.
func shadeLayers(g *part, neck [3]float32) {
	c := newTriCells(g, underRadius)
	shade := make([]float32, len(g.pos))
	any := false
	for v, p := range g.pos {
		if p[1] < neck[1]-chestTop || math.Abs(float64(p[0]-neck[0])) > chestHalf {
			continue
		}
		// Not behind the neck: there a collar's band lies under its
		// folded leaf, and the band's inside, which the front's opening
		// shows, took the shade of its outside (one colour per vertex)
		// and read as a grey lining. (Round the sides, where the band
		// still shows a little from three quarters, the shade stays: it
		// draws the collar's points over the front.)
		if p[2] < neck[2] || p[2] < neck[2]+bandFront && math.Abs(float64(p[0]-neck[0])) < bandHalf {
			continue
		}
		n := [3]float64{float64(g.nrm[v][0]), float64(g.nrm[v][1]), float64(g.nrm[v][2])}
		// Rays along the normal and tilted 35° towards four sides.
		t1 := cross3(n, [3]float64{0, 1, 0})
		if t1[0]*t1[0]+t1[1]*t1[1]+t1[2]*t1[2] < 1e-6 {
			t1 = [3]float64{1, 0, 0}
		}
		u1 := unit3(t1)
		t1 = [3]float64{float64(u1[0]), float64(u1[1]), float64(u1[2])}
		t2 := cross3(n, t1)
		hits, rays := 0, 0
		for _, d := range [][2]float64{{0, 0}, {0.7, 0}, {-0.7, 0}, {0, 0.7}, {0, -0.7}} {
			r := unit3([3]float64{n[0] + d[0]*t1[0] + d[1]*t2[0], n[1] + d[0]*t1[1] + d[1]*t2[1], n[2] + d[0]*t1[2] + d[1]*t2[2]})
			o := [3]float32{p[0] + 0.0003*r[0], p[1] + 0.0003*r[1], p[2] + 0.0003*r[2]}
			rays++
			if c.layerOver(o, r, g, uint32(v), layerReach) {
				hits++
			}
		}
		if hits > 0 {
			shade[v] = float32(hits) / float32(rays)
			any = true
		}
	}
	if !any {
		return
	}
	g.color = make([][4]float32, len(g.pos))
	for v, s := range shade {
		l := 1 - layerShade*s
		g.color[v] = [4]float32{l, l, l, 1}
	}
}

// bandFront is how far in front of the neck joint, and bandHalf to
// either side of it, the collar's band is still not shaded: with the
// skin in the V kept (keepSeenSkin) the opening shows less of the band's
// inside, and the part of it just in front of the joint, shaded, was a
// tenth of what showed (farther to the sides the shade draws the
// collar's points over the front).
const (
	bandFront = 0.015
	bandHalf  = 0.07
)

// chestTop is how far below the neck joint shadeLayers looks, and
// chestHalf how far to either side (the collar, not the armpits, where
// a sleeve over the side would shade a T-shirt).
const (
	chestTop  = 0.3
	chestHalf = 0.12
)

// layerOver tells whether the ray from p (near vertex v) along unit d
// meets, within reach, cloth of the garment that faces the same way as
// v's: another layer over it, not a sleeve beside it (which faces it).
func (c *triCells) layerOver(p, d [3]float32, g *part, v uint32, reach float64) bool {
	hit := false
	o, dd := v3(p), v3(d)
	// The cells hold triangles near the ray's start; reach is under a
	// cell's size, so its neighbours hold every triangle it can meet.
	op := [3]float64{o[0], o[1], o[2]}
	c.around(p, func(t int) {
		if hit {
			return
		}
		// A triangle wholly beyond reach cannot be met within it: most of
		// the 27 cells' triangles (shadeLayers was most of a top part's
		// time). The margin covers rayCross's float32 edges.
		if triBoxFar(&c.box[t], op, reach+levelSlack) {
			return
		}
		tri := g.tris[t]
		if tri[0] == v || tri[1] == v || tri[2] == v {
			return
		}
		var fn [3]float32
		for _, k := range tri {
			for a := range 3 {
				fn[a] += g.nrm[k][a]
			}
		}
		if fn[0]*g.nrm[v][0]+fn[1]*g.nrm[v][1]+fn[2]*g.nrm[v][2] < 0.5*3 {
			return
		}
		if dist, _, _, ok := g.rayCross(o, dd, tri); ok && dist < reach {
			hit = true
		}
	})
	return hit
}

// neckSkinBelow is how far under the neck joint (metres) keepSeenSkin
// looks at the skin.
const neckSkinBelow = 0.25

// seenSlopes are the directions, up per unit toward the viewer, from
// which keepSeenSkin looks at the skin: straight ahead and from a
// portrait camera at eye height.
var seenSlopes = []float64{0, 0.2}

// keepSeenSkin marks as not covered the body's vertices round the front
// of the neck that a viewer in front sees: rays from them toward the
// viewer cross no cloth of the top. followGarments counts skin in a V
// opening as under the collar when its nearest cloth is the collar's
// band beside it, and hide dropped those triangles: the opening showed
// the inside of the collar's back through the holes, as white tabs and
// a stair along the V (the blind panel's "torn collar").
func keepSeenSkin(body, top *part, covered []bool, neck [3]float32) {
	var near [][3]uint32
	for _, t := range top.tris {
		p := top.pos[t[0]]
		if p[1] > neck[1]-neckSkinBelow-0.05 && math.Abs(float64(p[0]-neck[0])) < chestHalf+0.05 && p[2] > neck[2]-0.02 {
			near = append(near, t)
		}
	}
	for v, p := range body.pos {
		if !covered[v] || p[1] < neck[1]-neckSkinBelow || math.Abs(float64(p[0]-neck[0])) > chestHalf || p[2] < neck[2] {
			continue
		}
		o := v3(p)
		seen := false
		for _, s := range seenSlopes {
			d := vec3{0, s, 1}.norm()
			hit := false
			for _, t := range near {
				if _, _, _, ok := rayTriangle(o, d, v3(top.pos[t[0]]), v3(top.pos[t[1]]), v3(top.pos[t[2]])); ok {
					hit = true
					break
				}
			}
			if !hit {
				seen = true
				break
			}
		}
		if seen {
			covered[v] = false
		}
	}
}
