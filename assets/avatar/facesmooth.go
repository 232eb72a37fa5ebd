package avatar

import (
	"math"
	"slices"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// faceSmoothing is the region of the face whose skin is smoothed, by base
// vertex, with each vertex's neighbours on the body mesh.
type faceSmoothing struct {
	vert   []int32   // base vertices smoothed, rising
	weight []float64 // how much each is smoothed (0..1)
	nbr    [][]int32 // each one's neighbours (base vertices)
}

// smoothRegion is where MakeHuman's average face has its creases: the
// bags under the eyes, the folds from the nose's wings to the mouth's
// corners and the hollows under the cheekbones (the regions its eye-bag,
// laugh-lines and cheek dials move). In a room light they shaded as dark
// patches and lines the panel called blotchy, gaunt and muddy skin
// (face7 found the albedo's noise was not the cause: halving it left the
// cheek's unevenness as it was). The lips, the nose and the lids are left
// out: their edges are the features themselves, and the lid and lip
// measures read them. Built once on the average body; base vertices are
// the same on every body.
var smoothRegion = sync.OnceValue(func() faceSmoothing {
	area := moveMask(map[string]float64{
		"eyes/eye-bag": 1, "mouth/mouth-laugh-lines": 1, "cheek/cheek-volume": 1, "cheek/cheek-inner": 1,
		"eyes/eye-bag-height": 1, "cheek/cheek-bones": 1,
	})
	lips, nose := lipMask(), noseMask()
	body := human.Shape(human.Average(0.5))
	joints := body.Joints()
	eyes := [2][3]float32{joints["LeftEye"], joints["RightEye"]}
	bodyMesh := human.BodyMesh()
	nbr := map[int32][]int32{}
	inBody := map[int32]bool{}
	for _, t := range bodyMesh.Tris {
		for k := range 3 {
			a, b := bodyMesh.Base[t[k]], bodyMesh.Base[t[(k+1)%3]]
			inBody[a] = true
			if a == b {
				continue
			}
			if !slices.Contains(nbr[a], b) {
				nbr[a] = append(nbr[a], b)
			}
			if !slices.Contains(nbr[b], a) {
				nbr[b] = append(nbr[b], a)
			}
		}
	}
	var s faceSmoothing
	for v := range area {
		if !inBody[int32(v)] || area[v] == 0 {
			continue
		}
		// The lids and the skin just round them keep their shape: full
		// smoothing from 2.6 cm off the eye's centre, none within 1.9 cm.
		near := math.Inf(1)
		for _, e := range eyes {
			var d float64
			for a := range 3 {
				d += float64(body.Pos[v][a]-e[a]) * float64(body.Pos[v][a]-e[a])
			}
			near = math.Min(near, math.Sqrt(d))
		}
		w := math.Min(1, 4*float64(area[v])) * (1 - float64(lips[v])) * (1 - float64(nose[v]))
		w *= math.Max(0, math.Min(1, (near-0.019)/0.007))
		if w < 0.02 || len(nbr[int32(v)]) == 0 {
			continue
		}
		n := nbr[int32(v)]
		slices.Sort(n)
		s.vert = append(s.vert, int32(v))
		s.weight = append(s.weight, w)
		s.nbr = append(s.nbr, n)
	}
	return s
})

// smoothFace evens the skin of the face's creases (smoothRegion) on a
// shaped body: Taubin's smoothing (a shrinking step and an inflating one,
// so the cheeks keep their volume), each vertex moved by its weight. Face
// shapes (ARKit, visemes) are offsets from the rest face and carry over
// unchanged.
func smoothFace(b *human.Body) {
	s := smoothRegion()
	next := make([][3]float32, len(s.vert))
	for it := range 2 * faceSmoothSteps {
		f := 0.5
		if it%2 == 1 {
			f = -0.53
		}
		for i, v := range s.vert {
			var m [3]float64
			for _, u := range s.nbr[i] {
				for a := range 3 {
					m[a] += float64(b.Pos[u][a])
				}
			}
			k := f * s.weight[i] / float64(len(s.nbr[i]))
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

// faceSmoothSteps is how many pairs of Taubin steps smoothFace takes.
const faceSmoothSteps = 30
