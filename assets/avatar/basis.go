package avatar

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/human"
	"github.com/kilnhq/kiln/assets/scene"
)

// A slider is one number of the configuration a person drags in the
// creator: "body.height", "body.build", "body.age", "body.muscle",
// "body.weight", "body.proportions", or a face dial "face.nose.width1".
// Basis ships, for the avatar being edited, how every vertex moves per
// unit of each slider, so that the page can move the model in the frame
// of the input event and only later swap in the real build.

// bodySliders are the body's sliders, in the creator's order.
var bodySliders = []string{"body.height", "body.build", "body.age", "body.muscle", "body.weight", "body.proportions"}

// Sliders lists every slider name: the body's, then each face dial.
func Sliders() []string {
	out := slices.Clone(bodySliders)
	for _, reg := range faceRegions {
		for _, d := range faceDials[reg.name] {
			out = append(out, "face."+reg.name+"."+d)
		}
	}
	return out
}

// SliderSet is the sliders named, in Sliders' order and once each:
// "face.<feature>.*" stands for every dial of the feature, so a page asks
// for a feature's dials without knowing them, and two pages that name
// the same sliders in another order ask for the same build.
func SliderSet(names []string) ([]string, error) {
	want := map[string]bool{}
	for _, name := range names {
		if feature, ok := strings.CutSuffix(strings.TrimPrefix(name, "face."), ".*"); ok && strings.HasPrefix(name, "face.") && len(faceDials[feature]) > 0 {
			for _, d := range faceDials[feature] {
				want["face."+feature+"."+d] = true
			}
			continue
		}
		if _, _, ok := SliderRange(name); !ok {
			return nil, invalidf("sliders", "%q is not a slider; give body.height, body.build, body.age, body.muscle, body.weight, body.proportions, face.<feature>.<dial> or face.<feature>.*", name)
		}
		want[name] = true
	}
	out := make([]string, 0, len(want))
	for _, name := range Sliders() {
		if want[name] {
			out = append(out, name)
		}
	}
	return out, nil
}

// SliderRange is the values a slider takes.
func SliderRange(name string) (lo, hi float64, ok bool) {
	switch name {
	case "body.height":
		return MinHeight, MaxHeight, true
	case "body.age":
		return MinAge, MaxAge, true
	case "body.build", "body.muscle", "body.weight", "body.proportions":
		return 0, 1, true
	}
	feature, dial, found := strings.Cut(strings.TrimPrefix(name, "face."), ".")
	if !strings.HasPrefix(name, "face.") || !found || !slices.Contains(faceDials[feature], dial) {
		return 0, 0, false
	}
	if oneSided[feature+"."+dial] {
		return 0, 1, true
	}
	return -1, 1, true
}

// SliderValue is a slider's value in a resolved configuration: what the
// generator uses, also where the configuration leaves the number out
// (muscle from the build, a face dial drawn from the seed).
func SliderValue(c Config, name string) float64 {
	switch name {
	case "body.height":
		return c.Body.Height
	case "body.build":
		return c.Body.Build
	case "body.age":
		return c.Body.AgeYears()
	case "body.muscle":
		m, _ := c.Body.MuscleWeight()
		return m
	case "body.weight":
		_, w := c.Body.MuscleWeight()
		return w
	case "body.proportions":
		return c.Body.ProportionsValue()
	}
	feature, dial, _ := strings.Cut(strings.TrimPrefix(name, "face."), ".")
	for _, reg := range faceRegions {
		if reg.name == feature {
			return c.Face.Modifiers()[reg.folder+"/"+reg.stem+"-"+dial]
		}
	}
	return 0
}

// withSlider is the configuration with one slider set. Setting the build
// lets it drive muscle and weight again, as the creator's build slider
// does.
func withSlider(c Config, name string, v float64) Config {
	switch name {
	case "body.height":
		c.Body.Height = v
	case "body.build":
		c.Body.Build, c.Body.Muscle, c.Body.Weight = v, nil, nil
	case "body.age":
		c.Body.Age = v
	case "body.muscle":
		c.Body.Muscle = &v
	case "body.weight":
		c.Body.Weight = &v
	case "body.proportions":
		c.Body.Proportions = &v
	default:
		feature, dial, _ := strings.Cut(strings.TrimPrefix(name, "face."), ".")
		m := c.Face.feature(feature)
		*m = maps.Clone(*m)
		if *m == nil {
			*m = map[string]float64{}
		}
		(*m)[dial] = v
	}
	return c
}

// sliderStep is the finite difference a slider's target is measured
// over: small against its range, large against float32 noise.
func sliderStep(name string) float64 {
	switch name {
	case "body.height":
		return 0.02
	case "body.age":
		return 2
	}
	return 0.05
}

// sliderShape is the avatar's body with one slider moved by a step: the
// standing body and, fitted on demand, its assets.
type sliderShape struct {
	name string
	// per is 1/step: targets are offsets per unit of the slider.
	per  float32
	body *human.Body
	mu   sync.Mutex
	fits map[string]*human.Fitted
}

func (s *sliderShape) fit(id string) *human.Fitted {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.fits[id]; ok {
		return f
	}
	f, err := s.body.Fit(id)
	if err != nil {
		f = nil // the asset fitted once on the real body, so it is known
	}
	s.fits[id] = f
	return f
}

// Basis is the avatar of cfg as Generate builds it, with one morph target
// per named slider (as SliderSet reads the names) in place of the face shapes: how far each vertex moves
// per unit of the slider around cfg (a forward difference of the body and
// its fitted assets, one step towards the inside of the range). The
// scene's extras hold each slider's value in cfg under "sliders", so a
// page knows where the targets are measured from, and the resolved
// configuration under "configuration". What the page shows
// with influences set is then cfg's model moved to first order; the real
// build of the new values differs by the curvature and by what is placed
// anew per body (the rig, the glasses).
func Basis(cfg Config, sliders []string) (*scene.Scene, error) {
	cfg = cfg.resolve()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	sliders, err := SliderSet(sliders)
	if err != nil {
		return nil, err
	}
	values := map[string]any{}
	shapes := make([]*sliderShape, len(sliders))
	var wg sync.WaitGroup
	var firstErr error
	var mu sync.Mutex
	for i, name := range sliders {
		v := SliderValue(cfg, name)
		values[name] = v
		_, hi, _ := SliderRange(name)
		h := sliderStep(name)
		if v+h > hi {
			h = -h
		}
		next := withSlider(cfg, name, v+h)
		if name == "body.build" {
			// The build only moves muscle and weight that the
			// configuration leaves to it; measure it that way.
			base := withSlider(cfg, name, v)
			m0, w0 := base.Body.MuscleWeight()
			m1, w1 := next.Body.MuscleWeight()
			next = withSlider(withSlider(cfg, "body.muscle", SliderValue(cfg, "body.muscle")+m1-m0), "body.weight", SliderValue(cfg, "body.weight")+w1-w0)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := standingBody(next)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			shapes[i] = &sliderShape{name: name, per: float32(1 / h), body: b, fits: map[string]*human.Fitted{}}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	sc, err := generate(cfg, shapes)
	if err != nil {
		return nil, err
	}
	sc.Scenes[0].Extras = map[string]any{"sliders": values, "configuration": cfg}
	return sc, nil
}

// standingBody is the shaped body of a resolved configuration standing
// on its shoes: soles are thicker than bare feet.
func standingBody(cfg Config) (*human.Body, error) {
	body := shapeBody(cfg)
	shoes, err := body.Fit("footwear/" + cfg.Outfit.Footwear.Style)
	if err != nil {
		return nil, fmt.Errorf("avatar: %w", err)
	}
	var low float32
	for _, p := range shoes.Pos {
		low = min(low, p[1])
	}
	for i := range body.Pos {
		body.Pos[i][1] -= low
	}
	return body, nil
}

// sliderOffsets is how the part's vertices move per unit of the slider,
// nil when none moves by a tenth of a millimetre per unit: a body vertex
// as its base vertex, a fitted one as the same asset vertex fitted on the
// moved body. Parts placed otherwise (the glasses) do not move.
func (p *part) sliderOffsets(body *human.Body, s *sliderShape) [][3]float32 {
	var out [][3]float32
	switch {
	case p.fit != nil:
		f := s.fit(p.fit.ID)
		if f == nil {
			return nil
		}
		out = make([][3]float32, len(p.src))
		for i, v := range p.src {
			for k := range 3 {
				out[i][k] = (f.Pos[v][k] - p.fit.Pos[v][k]) * s.per
			}
		}
	case p.base != nil:
		out = make([][3]float32, len(p.base))
		for i, v := range p.base {
			for k := range 3 {
				out[i][k] = (s.body.Pos[v][k] - body.Pos[v][k]) * s.per
			}
		}
	default:
		return nil
	}
	return p.settle(out)
}
