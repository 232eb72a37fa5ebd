package avatar

import (
	"math"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// formLight is the soft key light whose shade the face's form bakes into
// the skin (formShade): above and in front of the face, as a room's
// brightest light is and as the leader bakes its faces.
var formLight = vec3{0, 0.5, 1}

// formSpread is the half-angle of the cone of rays toward the key light
// (radians): a broad light, so shadows are soft and a nose casts no hard
// edge.
const formSpread = 0.75

// formReach is how far along a ray toward the light a part of the face
// still shades the skin, metres: the nose and the brow ridge stand 2-3
// cm off the skin they shade; farther parts (the chin over the chest)
// are the jaw shade's.
const formReach = 0.04

// formRays are the directions formShade casts from each vertex: the key
// light's own direction and two rings around it, out to formSpread.
var formRays = sync.OnceValue(func() []vec3 {
	l := formLight.norm()
	// Two axes across the light.
	a := l.cross(vec3{1, 0, 0}).norm()
	b := l.cross(a)
	out := []vec3{l}
	for ring, n := range []int{6, 9} {
		th := formSpread * float64(ring+1) / 2
		for i := range n {
			ph := 2*math.Pi*float64(i)/float64(n) + float64(ring)*0.35
			d := vec3{}
			for k := range 3 {
				d[k] = math.Cos(th)*l[k] + math.Sin(th)*(math.Cos(ph)*a[k]+math.Sin(ph)*b[k])
			}
			out = append(out, d)
		}
	}
	return out
})

// formShade is, per vertex of the head part, how much of the key light
// (formLight, a cone of formRays) the face's own form keeps from the skin
// there, 0 (lit as skin facing the light) to 1 (none): the skin turning
// away from the light (the face's sides, the temples, under the nose,
// the lips and the chin) by its normal, and the skin the nose, the brow
// ridge and the cheeks overhang (the nose's sides, the eye sockets, the
// creases) by rays that meet the face within formReach. The leader bakes
// this shading into its skin texture, and in a room light (lit from
// every side, which leaves a face nearly even) it is most of what gives
// its faces their form: its nose sides are 0.90 of its nose bridge's
// luma and its temples 0.83-0.89 of its cheeks', ours were even (0.99
// to 1.01), the flat, waxy faces of the blind panel. The shade fades out
// over the part's lowest 3 cm, where the body's skin, unshaded, meets it.
func formShade(p *part) []float32 {
	rays := formRays()
	hit := make([][]bool, len(rays))
	var wg sync.WaitGroup
	for k, d := range rays {
		wg.Go(func() { hit[k] = occludedAlong(p, d) })
	}
	wg.Wait()
	l := formLight.norm()
	var full float64
	for _, d := range rays {
		full += math.Max(0, l.dot(d))
	}
	bottom := math.Inf(1)
	for _, q := range p.pos {
		bottom = math.Min(bottom, float64(q[1]))
	}
	out := make([]float32, len(p.pos))
	for v, q := range p.pos {
		n := v3(p.nrm[v])
		var lit float64
		for k, d := range rays {
			if !hit[k][v] {
				lit += math.Max(0, n.dot(d))
			}
		}
		shade := math.Max(0, 1-lit/full)
		out[v] = float32(shade * smoothstep(bottom, bottom+0.03, float64(q[1])))
	}
	return out
}

// occludedAlong is, per vertex of p, whether a triangle of p facing
// against the ray d lies across it within formReach: found, as jawShade
// does, in the plane across the ray, where the ray is a point, so each
// vertex looks only at the triangles in its own cell of a grid. Vertices
// facing away from the ray are not looked at (they take none of its
// light anyway).
func occludedAlong(p *part, d vec3) []bool {
	const cell = 0.004
	a := d.cross(vec3{1, 0, 0}).norm()
	b := d.cross(a)
	// The vertices in the plane across the ray, and their height up it.
	fx, fy, fh := make([]float64, len(p.pos)), make([]float64, len(p.pos)), make([]float64, len(p.pos))
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for v, q := range p.pos {
		w := v3(q)
		fx[v], fy[v], fh[v] = w.dot(a), w.dot(b), w.dot(d)
		lo = [2]float64{math.Min(lo[0], fx[v]), math.Min(lo[1], fy[v])}
		hi = [2]float64{math.Max(hi[0], fx[v]), math.Max(hi[1], fy[v])}
	}
	nx, ny := int(math.Floor((hi[0]-lo[0])/cell))+1, int(math.Floor((hi[1]-lo[1])/cell))+1
	at := func(x, y float64) (int, int) { return int((x - lo[0]) / cell), int((y - lo[1]) / cell) }
	// Only triangles facing against the ray cast a shade on the skin
	// behind them (the skin's inside is never seen from it); each is
	// listed in every cell its box covers, the lists in one array
	// (counted, then filled).
	casts := func(t [3]uint32) (c0x, c0y, c1x, c1y int, ok bool) {
		var facing float64
		for _, v := range t {
			facing += v3(p.nrm[v]).dot(d)
		}
		if facing > 0 {
			return 0, 0, 0, 0, false
		}
		c0x, c0y = at(min(fx[t[0]], fx[t[1]], fx[t[2]]), min(fy[t[0]], fy[t[1]], fy[t[2]]))
		c1x, c1y = at(max(fx[t[0]], fx[t[1]], fx[t[2]]), max(fy[t[0]], fy[t[1]], fy[t[2]]))
		return c0x, c0y, c1x, c1y, true
	}
	start := make([]int32, nx*ny+1)
	for _, t := range p.tris {
		if c0x, c0y, c1x, c1y, ok := casts(t); ok {
			for j := c0y; j <= c1y; j++ {
				for i := c0x; i <= c1x; i++ {
					start[j*nx+i+1]++
				}
			}
		}
	}
	for c := range nx * ny {
		start[c+1] += start[c]
	}
	list := make([]int32, start[nx*ny])
	fill := append([]int32(nil), start[:nx*ny]...)
	for ti, t := range p.tris {
		if c0x, c0y, c1x, c1y, ok := casts(t); ok {
			for j := c0y; j <= c1y; j++ {
				for i := c0x; i <= c1x; i++ {
					list[fill[j*nx+i]] = int32(ti)
					fill[j*nx+i]++
				}
			}
		}
	}
	out := make([]bool, len(p.pos))
	for v := range p.pos {
		if v3(p.nrm[v]).dot(d) <= 0 {
			continue
		}
		x, y, h := fx[v], fy[v], fh[v]
		i, j := at(x, y)
		for _, ti := range list[start[j*nx+i]:start[j*nx+i+1]] {
			t := p.tris[ti]
			ax, ay, ah := fx[t[0]], fy[t[0]], fh[t[0]]
			bx, by, bh := fx[t[1]], fy[t[1]], fh[t[1]]
			cx, cy, ch := fx[t[2]], fy[t[2]], fh[t[2]]
			det := (bx-ax)*(cy-ay) - (cx-ax)*(by-ay)
			if math.Abs(det) < 1e-12 {
				continue
			}
			u := ((x-ax)*(cy-ay) - (cx-ax)*(y-ay)) / det
			w := ((bx-ax)*(y-ay) - (x-ax)*(by-ay)) / det
			if u < 0 || w < 0 || u+w > 1 {
				continue
			}
			// At least 2 mm up the ray: the skin around a vertex is
			// not in front of it.
			if up := ah + u*(bh-ah) + w*(ch-ah) - h; up > 0.002 && up < formReach {
				out[v] = true
				break
			}
		}
	}
	return out
}

// keySheen is, per vertex of the head part, how squarely the skin faces
// the key light (formLight) with nothing of the face before it, 0 to 1,
// from formShade's shade (before easeLowerFace and shadeLids change it),
// on the brow and forehead and down the face's middle (sheenWhere): the
// planes a room's light from above and in front catches most. Deep skin
// shows its form by a soft sheen on them more than by shade (paint.Skin);
// the blind panel saw deep faces shaded alone as flat ("dark skin's flat
// shading erases the nose and mouth"). The lit share is about the cosine
// between the normal and the light: skin facing straight ahead is 0.89
// lit and takes little of it (sheenFrom), the brow, turned up toward the
// light, all of it. Like the shade it fades out over the part's lowest
// 3 cm, where the body's skin, which has none, meets it. mo is where the
// lips are (nil: the sheen is not bounded to the face's middle). hair
// (nil: none) keeps it off the skin by the hair's edge (sheenHairFrom):
// a buzz cut's shell paints its edge in the skin's colour without the
// sheen, and skin lit under a hanging fringe undid its contact shade.
func keySheen(p *part, shade []float32, mo *paint.Mouth, hair *part) []float32 {
	bottom := math.Inf(1)
	for _, q := range p.pos {
		bottom = math.Min(bottom, float64(q[1]))
	}
	var nearHair []float64
	if hair != nil {
		nearHair = hairDistance(hair, p, sheenHairFull)
	}
	out := make([]float32, len(p.pos))
	for v, q := range p.pos {
		fade := smoothstep(bottom, bottom+0.03, float64(q[1]))
		if fade <= 0 {
			continue
		}
		lit := 1 - float64(shade[v])/fade
		out[v] = float32(fade * smoothstep(sheenFrom, sheenFull, lit) * sheenWhere(q, mo))
		if nearHair != nil {
			out[v] *= float32(smoothstep(sheenHairFrom, sheenHairFull, nearHair[v]))
		}
	}
	return out
}

// sheenHairFrom and sheenHairFull are distances from the hair's nearest
// vertex (metres) at which keySheen's sheen starts and is whole. With
// the sheen up to the hair's edge a buzz cut's hairline stood 7.6 sRGB
// levels off the skin under it (TestBuzzHairlineMeetsTheSkin, random-12)
// and a bob's fringe shaded the skin under it to 0.952 of the forehead's
// (TestHairContactShade, random-04).
const (
	sheenHairFrom = 0.008
	sheenHairFull = 0.018
)

// sheenFrom and sheenFull are the lit shares (formShade's 1 - shade) at
// which keySheen's sheen starts and is whole.
const (
	sheenFrom = 0.86
	sheenFull = 0.97
)

// sheenWhere is how much of keySheen's sheen the skin at q takes by its
// place on the face: all of it on the brow and forehead (from
// sheenBrowFrom above the mouth's middle, whole sheenBrowFull above it),
// and below them only down the face's middle, the nose's bridge and tip,
// the lips and the chin (within sheenMidFull of the mouth's middle
// across, none past sheenMidFrom). The cheekbones take none: lighter
// there, the lower face beside them read muddy (TestLowerFaceNotMuddy,
// dark skin's lower cheek 0.874 of the cheek with it, the bound 0.96).
func sheenWhere(q [3]float32, mo *paint.Mouth) float64 {
	if mo == nil {
		return 1
	}
	up := smoothstep(mo.Centre[1]+sheenBrowFrom, mo.Centre[1]+sheenBrowFull, float64(q[1]))
	mid := smoothstep(sheenMidFrom, sheenMidFull, math.Abs(float64(q[0])-mo.Centre[0]))
	return math.Max(up, mid)
}

// sheenBrowFrom and sheenBrowFull are heights over the mouth's middle
// (metres; the eyes are about 6.5 cm over it), sheenMidFrom and
// sheenMidFull distances across from it (the nose is about 3.5 cm wide,
// the skinRegions' cheek starts 1.9 cm off the middle).
const (
	sheenBrowFrom = 0.075
	sheenBrowFull = 0.09
	sheenMidFrom  = 0.016
	sheenMidFull  = 0.008
)
