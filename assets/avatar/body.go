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
// creases evened (smoothFace), its mouth bent round the face
// (wrapMouth), its eyes grown (growEyes) and the hollow under them
// filled (smoothEyeRing).
func shapeBody(c Config) *human.Body {
	b := human.Shape(params(c))
	smoothFace(b)
	wrapMouth(b)
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
// dial, which moves them and nothing else), the tip and wings of the
// nose (noseMask) and, less, the ears.
var blushMask = sync.OnceValue(func() []float32 {
	cheek := moveMask(map[string]float64{"cheek/cheek-volume": 1})
	ear := moveMask(map[string]float64{"ears/ear-scale": 1})
	nose := noseMask()
	out := make([]float32, len(cheek))
	for v := range out {
		c := float64(cheek[v])
		out[v] = float32(max(0.9*c*math.Sqrt(c), 0.7*float64(nose[v]), 0.45*float64(ear[v])))
	}
	return out
})
