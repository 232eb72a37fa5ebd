package avatar

import (
	"math"
	"slices"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// eyeRingSmoothing is the skin under the grown eyes that smoothEyeRing
// evens, by base vertex, with each vertex's neighbours on the body mesh.
type eyeRingSmoothing struct {
	vert   []int32
	weight []float64
	nbr    [][]int32
}

// The under-eye ring smoothEyeRing evens, metres from the eyeball's
// centre on the average body with its eyes grown: none within ringIn,
// fully from ringIn+ringInFade, fully to ringOut-ringOutFade and none
// past ringOut (the cheek), and only below the centre (fully from
// ringBelow under it). ringIn keeps the smoothing off the lower lid's
// rim: from 1.3 cm (eyes10's first try, eyes grown 1.15) the rim sank
// back 2.6 mm and a blink on random-2 left 0.176 of the eye showing
// (TestEyesOpenAndClosing asks 0.17 at most); from 1.5 cm it leaves
// 0.161, the under-eye skin smoothed about as much (TestUnderEyeLit).
// Those distances were found on eyes grown by ringFoundAt; the lid's rim
// and the hollow under it lie further out on larger eyes, so every
// distance grows with the eyes (ringGrown): left at 1.5 cm with the eyes
// grown 1.27, the smoothing would reach the rim again.
const (
	ringIn      = 0.015 * ringGrown
	ringInFade  = 0.004 * ringGrown
	ringOut     = 0.030 * ringGrown
	ringOutFade = 0.006 * ringGrown
	ringBelow   = 0.008 * ringGrown

	ringFoundAt = 1.15
	ringGrown   = eyeGrowth / ringFoundAt
)

// eyeRingRegion is the skin below each eye, from the lower lid's fold to
// the cheek (ringIn to ringOut), found on the average body with its eyes
// grown; base vertices are the same on every body. There MakeHuman's
// hollow under the lower lid, grown with the eyes (growEyes) and left out
// of smoothFace (which keeps off the lids, within 1.9 cm), faces down, so
// a room light shaded it as a dark band under each eye that the panel
// read as eye bags.
var eyeRingRegion = sync.OnceValue(func() eyeRingSmoothing {
	b := human.Shape(human.Average(0.5))
	growEyes(b)
	cs := eyeCentres(b)
	m := human.BodyMesh()
	nbr := map[int32][]int32{}
	for _, t := range m.Tris {
		for k := range 3 {
			a, c := m.Base[t[k]], m.Base[t[(k+1)%3]]
			if a == c {
				continue
			}
			if !slices.Contains(nbr[a], c) {
				nbr[a] = append(nbr[a], c)
			}
			if !slices.Contains(nbr[c], a) {
				nbr[c] = append(nbr[c], a)
			}
		}
	}
	var s eyeRingSmoothing
	for v, p := range b.Pos {
		n := nbr[int32(v)]
		if len(n) == 0 {
			continue
		}
		w := 0.0
		for _, e := range cs {
			off := v3(p).sub(e.centre)
			d := off.len()
			in := math.Min(1, math.Max(0, (d-ringIn)/ringInFade)) * math.Min(1, math.Max(0, (ringOut-d)/ringOutFade))
			below := math.Min(1, math.Max(0, -off[1]/ringBelow))
			w = math.Max(w, in*below)
		}
		if w < 0.02 {
			continue
		}
		slices.Sort(n)
		s.vert = append(s.vert, int32(v))
		s.weight = append(s.weight, w)
		s.nbr = append(s.nbr, n)
	}
	return s
})

// smoothEyeRing fills the hollow under the grown eyes (eyeRingRegion):
// plain Laplacian steps, each vertex moved toward its neighbours' mean by
// its weight. Taubin's steps (smoothFace's) keep a hollow a few edges
// wide, as this one is on the base mesh: 20 pairs of them left the band's
// luma in a room portrait as it was. Face shapes are offsets from the
// rest face and carry over unchanged.
func smoothEyeRing(b *human.Body) {
	s := eyeRingRegion()
	next := make([][3]float32, len(s.vert))
	for range eyeRingSteps {
		for i, v := range s.vert {
			var m [3]float64
			for _, u := range s.nbr[i] {
				for a := range 3 {
					m[a] += float64(b.Pos[u][a])
				}
			}
			k := 0.5 * s.weight[i] / float64(len(s.nbr[i]))
			for a := range 3 {
				p := float64(b.Pos[v][a])
				next[i][a] = float32(p + k*(m[a]-float64(len(s.nbr[i]))*p))
			}
		}
		for i, v := range s.vert {
			b.Pos[v] = next[i]
		}
	}
}

// eyeRingSteps is how many Laplacian steps smoothEyeRing takes.
const eyeRingSteps = 12
