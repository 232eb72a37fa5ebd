package avatar

import (
	"math"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// neckFade is how far up from the head's border (metres) the face shapes
// fade in.
const neckFade = 0.04

// neckSeamFade is, per base vertex, how much of the face shapes it takes
// (0..1): none on the border between the head (Wolf3D_Head, which carries
// the face shapes) and the body (Wolf3D_Body, which carries none), all
// of them neckFade above it. Without it jawOpen moved the head's edge
// 2.2 mm off the body's (and the lips' rest shape 0.35 mm): a crack and a
// step at the base of the neck, the seam line the blind panel saw. The
// jaw and lips are 8 cm and more above the border, so the fade takes
// nothing from the mouth; the throat under the chin still follows it.
var neckSeamFade = sync.OnceValue(func() []float32 {
	m := human.BodyMesh()
	body := human.Shape(human.Average(0.5))
	head := make([]bool, len(body.Pos))
	rest := make([]bool, len(body.Pos))
	for t, tri := range m.Tris {
		for _, c := range tri {
			if m.Head[t] {
				head[m.Base[c]] = true
			} else {
				rest[m.Base[c]] = true
			}
		}
	}
	var seam [][3]float32
	for v := range head {
		if head[v] && rest[v] {
			seam = append(seam, body.Pos[v])
		}
	}
	out := make([]float32, len(body.Pos))
	for v, p := range body.Pos {
		d := math.Inf(1)
		for _, s := range seam {
			e := sub3(p, s)
			d = math.Min(d, math.Sqrt(e[0]*e[0]+e[1]*e[1]+e[2]*e[2]))
		}
		out[v] = float32(smoothstep(0, neckFade, d))
	}
	return out
})

// scale3f is v times s.
func scale3f(v [3]float32, s float32) [3]float32 { return [3]float32{v[0] * s, v[1] * s, v[2] * s} }
