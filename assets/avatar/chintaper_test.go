package avatar

import (
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/facemeasure"
	"github.com/kilnhq/kiln/assets/avatar/human"
	"github.com/kilnhq/kiln/assets/scene"
)

// chinTaper is how far a face narrows from its cheekbones to its chin,
// seen from the front: the face's width (the head mesh in front of the
// eyes' depth less 0.6 eye-distances, facemeasure.SliceWidth) a tenth of
// the way up from the chin's lowest point to the eyes, over its widest
// between 0.3 and 0.9 eye-distances under the eyes (the cheekbones, as
// facemeasure.Props.Cheek). A V-shaped face, wide at the cheekbones over
// a defined chin, is low; a face that stays wide down to a broad, round
// chin is high.
//
// The chin's lowest point is the lowest middle-line vertex (within 2 mm
// of x = 0) more than an eye-distance under the eyes and less than 0.3
// eye-distances behind their centres: the throat under the chin lies
// further back. (facemeasure's chin, in front of the nose's tip less 0.55
// eye-distances, missed the receding chins of some feminine random faces
// and took the lips for it.)
func chinTaper(head *scene.Primitive, eyeL, eyeR vec3) float64 {
	ipd := math.Abs(eyeL[0] - eyeR[0])
	eyeY, eyeZ := (eyeL[1]+eyeR[1])/2, (eyeL[2]+eyeR[2])/2
	zmin := eyeZ - 0.6*ipd
	menY := math.Inf(1)
	for _, q := range head.Positions {
		x, y, z := float64(q[0]), float64(q[1]), float64(q[2])
		if math.Abs(x) < 0.002 && z > eyeZ-0.3*ipd && y < eyeY-ipd && y > eyeY-3*ipd {
			menY = math.Min(menY, y)
		}
	}
	cheek := 0.0
	for y := eyeY - 0.9*ipd; y <= eyeY-0.3*ipd; y += 0.01 * ipd {
		cheek = math.Max(cheek, facemeasure.SliceWidth(head, y, zmin))
	}
	if math.IsInf(menY, 1) || cheek == 0 {
		return math.NaN()
	}
	return facemeasure.SliceWidth(head, menY+0.1*(eyeY-menY), zmin) / cheek
}

// sceneHead is a built avatar's Wolf3D_Head and its eyes, the centres
// of the EyeLeft and EyeRight meshes' boxes (as facemeasure takes them),
// Kiln's and the leader's alike: what the face measures (chinTaper,
// measureEars) take.
func sceneHead(t *testing.T, s *scene.Scene) (head *scene.Primitive, eyeL, eyeR vec3) {
	t.Helper()
	box := func(p *scene.Primitive) vec3 { return vec3(facemeasure.Centre(p)) }
	return meshOf(t, s, "Wolf3D_Head"), box(meshOf(t, s, "EyeLeft")), box(meshOf(t, s, "EyeRight"))
}

// shapedHead is a configuration's shaped head (shapeBody: no build, so
// that hundreds of random faces measure in seconds), the head and neck
// as bodyParts cuts them, and its eyeballs' centres.
func shapedHead(cfg Config) (head *scene.Primitive, eyeL, eyeR vec3) {
	b := shapeBody(cfg.resolve())
	part, _ := bodyParts(b, make([]bool, len(human.BodyMesh().Tris)))
	p := &scene.Primitive{Positions: part.pos}
	for _, tri := range part.tris {
		p.Indices = append(p.Indices, tri[:]...)
	}
	eyes := eyeCentres(b)
	return p, eyes[0].centre, eyes[1].centre
}

// chinTaperBand bounds a set of faces' chinTaper: its mean between lo
// and hi, and every face under max.
type chinTaperBand struct{ lo, hi, max float64 }

var (
	// chinTaperBuilt bounds built avatars. The leader's casual and office
	// measure 0.50 and 0.51; ours stay above them while the house chin
	// stays round (see houseFace), so hi and max only hold what the
	// random draw won, and lo keeps the mean off a spike.
	chinTaperBuilt = chinTaperBand{0.44, 0.60, 0.66}
	// chinTaperShaped bounds shaped bodies (chinTaper of shapedHead), which
	// measure 0.02 to 0.04 under their builds (the panel's twenty, each
	// both ways), with room for the wider spread of hundreds of faces.
	chinTaperShaped = chinTaperBand{0.42, 0.57, 0.72}
)

// TestChinTaper holds the face's narrowing from the cheekbones to the
// chin (chinTaper) on the panel's twenty built faces and on 300 random
// draws' shaped bodies. At every panel the judges called our faces
// "broad", "plain", "puffy": beside the leader's, which narrow to a
// defined chin (a V from the front, 0.50 and 0.51), ours stay wide down
// to a broad, round one. Before a seed drew head-triangular (a head wide
// at the jaw) at a quarter of the spread (heavy): the panel's twenty
// 0.56 to 0.73, mean 0.62 (default-male 0.62, default-female 0.63),
// failing both the mean and the broadest; the random draws 0.37 to 0.83,
// mean 0.58, failing both. Then the panel 0.50 to 0.65 (random-07, as
// before), mean 0.58; the draws 0.34 to 0.69, mean 0.55.
func TestChinTaper(t *testing.T) {
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if l, ok := optionalLeaderScene(t, n); ok {
			t.Logf("leader %s: %.3f", n, chinTaper(sceneHead(t, l)))
		}
	}
	check := func(t *testing.T, what string, band chinTaperBand, tapers []float64) {
		t.Helper()
		mean := 0.0
		for _, v := range tapers {
			mean += v / float64(len(tapers))
		}
		worst := slices.Max(tapers)
		t.Logf("%s: %d faces, mean %.3f, %.3f to %.3f", what, len(tapers), mean, slices.Min(tapers), worst)
		if !(mean >= band.lo && mean <= band.hi) {
			t.Errorf("%s: mean chin taper %.3f, want %.2f to %.2f (the leader's 0.50-0.51)", what, mean, band.lo, band.hi)
		}
		if worst > band.max {
			t.Errorf("%s: a chin taper of %.3f, want %.2f or less: a face wide down to a broad chin", what, worst, band.max)
		}
	}
	t.Run("panel", func(t *testing.T) {
		if testing.Short() {
			t.Skip("20 builds")
		}
		var tapers []float64
		for _, c := range panelFaces() {
			s, err := Generate(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			v := chinTaper(sceneHead(t, s))
			if math.IsNaN(v) {
				t.Fatalf("%s: no chin or cheekbones found", c.name)
			}
			t.Logf("%s: %.3f", c.name, v)
			tapers = append(tapers, v)
		}
		check(t, "panel", chinTaperBuilt, tapers)
	})
	t.Run("random", func(t *testing.T) {
		var tapers []float64
		for seed := int64(5000); seed < 5300; seed++ {
			v := chinTaper(shapedHead(Random(seed)))
			if math.IsNaN(v) {
				t.Fatalf("seed %d: no chin or cheekbones found", seed)
			}
			tapers = append(tapers, v)
		}
		check(t, "random draws", chinTaperShaped, tapers)
	})
}
