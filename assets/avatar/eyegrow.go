package avatar

import (
	"math"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/assets/avatar/human"
)

// eyeGrowth is how much larger the eyes are than MakeHuman's: the
// eyeball, the lids and the skin just round them, scaled together so the
// lids still lie on the eyeball. MakeHuman's eyeball was 0.50 of the
// distance between the eyes' centres (TestFaceFullAndEven's faceLook),
// the leader's 0.63 to 0.66: small eyes the panel read as a flat, plain,
// mask-like face, and its eye-scale dial moves the lids but not the
// eyeball. At 1.15 ours were 0.578; at 1.27 they are 0.633 to 0.644.
const eyeGrowth = 1.27

// growCore and growEdge are where the eyes' growth fades, metres from
// the eyeball's centre on the average body: the whole growth within
// growCore (the eyeball, the lids and their folds), none beyond growEdge.
// The skin between is pushed out from the eye by up to
// (eyeGrowth-1)*growCore (4.6 mm) against the skin past growEdge, which
// does not move, so this ring must widen as the eyes grow: with the 1.15
// eyes' 2.8 cm edge, the 1.27 eyes squeezed a triangle above random-1's
// eye to 0.02 of its area and turned others over, up to 148 degrees
// (TestEyeGrowthNoFold). The nose's bridge is 3.4 cm or more from the
// eyes' centres on the faces tested, so a 3.6 cm edge moves it 0.1 mm.
const (
	growCore = 0.017
	growEdge = 0.036
)

// eyeGrow is, per base vertex, the eyes' scale there (1 outside the
// eye's ring) and which eye's (0 left, 1 right), found on the average
// body; base vertices are the same on every body.
type eyeGrow struct {
	scale []float32
	side  []uint8
}

var eyeGrowField = sync.OnceValue(func() eyeGrow {
	b := human.Shape(human.Average(0.5))
	cs := eyeCentres(b)
	g := eyeGrow{scale: make([]float32, len(b.Pos)), side: make([]uint8, len(b.Pos))}
	for v, p := range b.Pos {
		g.scale[v] = 1
		for s, e := range cs {
			d := v3(p).sub(e.centre).len()
			if d >= growEdge {
				continue
			}
			t := math.Max(0, (d-growCore)/(growEdge-growCore))
			g.scale[v] = float32(eyeGrowth - (eyeGrowth-1)*t*t*(3-2*t))
			g.side[v] = uint8(s)
		}
	}
	return g
})

// eyeCentre is an eyeball's centre (its helper's mean) and its front
// (the helper's foremost point), on a shaped body.
type eyeCentre struct {
	centre, front vec3
}

func eyeCentres(b *human.Body) [2]eyeCentre {
	var out [2]eyeCentre
	for s, name := range []string{"helper-l-eye", "helper-r-eye"} {
		vs := human.Group(name)
		var c vec3
		front := math.Inf(-1)
		for _, v := range vs {
			p := v3(b.Pos[v])
			for a := range 3 {
				c[a] += p[a] / float64(len(vs))
			}
			front = math.Max(front, p[2])
		}
		out[s] = eyeCentre{centre: c, front: vec3{c[0], c[1], front}}
	}
	return out
}

// growEyes scales each eye's region (eyeGrowField) about the front of
// its eyeball, so the eye grows back into the head and out across the
// face but its cornea stays where it was: the lids, scaled with it, do
// not stand forward of the brow and cheek.
func growEyes(b *human.Body) {
	g := eyeGrowField()
	cs := eyeCentres(b)
	for v, s := range g.scale {
		if s == 1 {
			continue
		}
		a := cs[g.side[v]].front
		for k := range 3 {
			b.Pos[v][k] = float32(a[k] + (float64(b.Pos[v][k])-a[k])*float64(s))
		}
	}
}

// faceDeltas is a face shape's offsets (face.Deltas) on the grown eyes:
// scaled as the eyes' region is, so a blink still closes the larger
// lids and a glance turns the larger eyeball.
func faceDeltas(name string) ([]int32, [][3]float32) {
	idx, d := face.Deltas(name)
	g := eyeGrowField()
	out := make([][3]float32, len(d))
	for i, v := range idx {
		out[i] = scale3f(d[i], g.scale[v])
	}
	return idx, out
}
