package avatar

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// params turns a resolved configuration into the parametric human's
// dials: gender from the body type, height in metres, muscle and weight
// (from the build unless given), age within adulthood, proportions, and
// the face over the house face of its body type. A face seed also mixes MakeHuman's ethnic skull and face
// shapes, so that seeded faces differ in their whole structure and not
// only in the local dials.
func params(c Config) human.Params {
	g := 1.0
	if c.Body.Type == Feminine {
		g = 0
	}
	p := human.Average(g)
	p.Stature = c.Body.Height
	p.Muscle, p.Weight = c.Body.MuscleWeight()
	p.Age = math.Max(0, (c.Body.AgeYears()-25)/65)
	p.Proportions = c.Body.ProportionsValue()
	p.Face = c.Face.Modifiers()
	p.Base = houseFace[c.Body.Type]
	if c.Face.Seed != 0 {
		r := rand.New(rand.NewPCG(c.Face.Seed, 0x65746e))
		p.African, p.Asian, p.Caucasian = r.Float64(), r.Float64(), r.Float64()
	}
	return p
}

// shapeBody is the shaped human of a resolved configuration, its face's
// creases evened (smoothFace), its eyes grown (growEyes) and the hollow
// under them filled (smoothEyeRing).
func shapeBody(c Config) *human.Body {
	b := human.Shape(params(c))
	smoothFace(b)
	growEyes(b)
	smoothEyeRing(b)
	return b
}

// lipMask is, per base vertex, how much of the lips it is (0..1): the
// displacement of MakeHuman's lip volume targets, which move the lips
// and nothing else, normalised. The skin painter colours by it.
var lipMask = sync.OnceValue(func() []float32 {
	return moveMask(map[string]float64{"mouth/mouth-upperlip-volume": 1, "mouth/mouth-lowerlip-volume": 1})
})

// blushMask is, per base vertex, how much blood shows under the skin
// (0..1), for the skin painter: the cheeks (MakeHuman's cheek volume
// dial, which moves them and nothing else), the chin (its prominence
// dial), the tip and wings of the nose (noseMask) and, less, the ears.
// Without the chin's, the chin's front was the one plain patch of the
// lower face, yellower and greyer than the flushed cheeks and the
// shaded jaw beside it (a room portrait of random-15: CIELAB chroma
// 18.5 and hue 46 degrees against the cheeks' 23.9 and 38; now 22.5
// and 40), a plate from the lips to the chin's edge that the panel
// (p23) called "a grey chin shadow", "a stubble patch" on pale faces.
// The leader's chin is its cheeks' hue (44.5 and 44.6 degrees in its
// texture).
var blushMask = sync.OnceValue(func() []float32 {
	cheek := moveMask(map[string]float64{"cheek/cheek-volume": 1})
	chin := moveMask(map[string]float64{"chin/chin-prominent": 1})
	ear := moveMask(map[string]float64{"ears/ear-scale": 1})
	nose := noseMask()
	out := make([]float32, len(cheek))
	for v := range out {
		c, n := float64(cheek[v]), float64(chin[v])
		out[v] = float32(max(0.9*c*math.Sqrt(c), chinBlush*n*math.Sqrt(n), 0.7*float64(nose[v]), 0.45*float64(ear[v])))
	}
	return out
})

// chinBlush is how much blood shows on the chin at its most, as on the
// cheeks (0.9).
const chinBlush = 0.9
