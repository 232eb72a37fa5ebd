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

// shapeBody is the shaped human of a resolved configuration.
func shapeBody(c Config) *human.Body { return human.Shape(params(c)) }

// lipMask is, per base vertex, how much of the lips it is (0..1): the
// displacement of MakeHuman's lip volume targets, which move the lips
// and nothing else, normalised. The skin painter colours by it.
var lipMask = sync.OnceValue(func() []float32 {
	return moveMask(map[string]float64{"mouth/mouth-upperlip-volume": 1, "mouth/mouth-lowerlip-volume": 1})
})
