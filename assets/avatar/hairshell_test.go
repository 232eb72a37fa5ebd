package avatar

import (
	"math"
	"os"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// cutShape is how a scalp cut sits on the head, in units of the
// distance between the eyes' middles (so the leader's avatar, drawn at
// its own scale, measures alike): forehead is the height of the hair's
// front edge over the eyes, near the face's middle; top how far the hair
// stands over the crown; side how far it stands out beside the head at
// 4 to 5 cm over the eyes (above the ears).
type cutShape struct{ forehead, top, side float64 }

// cutFrame is what the hair measures (measureCut, frontArch) are drawn
// in: the hair's and the head's vertices, the distance between the eyes'
// middles (iod, their unit), the eyes' height, the face's middle (x) and
// the head's front (the largest z).
type cutFrame struct {
	hair, head           []vec3
	iod, eye, mid, front float64
}

func newCutFrame(t *testing.T, s *scene.Scene) cutFrame {
	t.Helper()
	l, _ := meshPositions(s, "EyeLeft")
	r, _ := meshPositions(s, "EyeRight")
	hair, _ := meshPositions(s, "Wolf3D_Hair")
	head, _ := meshPositions(s, "Wolf3D_Head")
	if len(l) == 0 || len(r) == 0 || len(hair) == 0 || len(head) == 0 {
		t.Fatal("no eyes, hair or head")
	}
	el, er := centroid(l), centroid(r)
	f := cutFrame{hair: hair, head: head, iod: el.sub(er).len(), eye: (el[1] + er[1]) / 2, mid: (el[0] + er[0]) / 2, front: -math.MaxFloat64}
	for _, p := range head {
		f.front = math.Max(f.front, p[2])
	}
	return f
}

func measureCut(t *testing.T, s *scene.Scene) cutShape {
	t.Helper()
	f := newCutFrame(t, s)
	hair, head, iod, eye, mid, front := f.hair, f.head, f.iod, f.eye, f.mid, f.front
	var c cutShape
	c.forehead = math.Inf(1)
	topHair, topHead := -math.MaxFloat64, -math.MaxFloat64
	sideHair, sideHead := 0.0, 0.0
	lo, hi := eye+0.6*iod, eye+0.8*iod
	for _, p := range hair {
		if math.Abs(p[0]-mid) < 0.25*iod && p[2] > front-0.6*iod && p[1] > eye {
			c.forehead = math.Min(c.forehead, p[1]-eye)
		}
		topHair = math.Max(topHair, p[1])
		if p[1] > lo && p[1] < hi {
			sideHair = math.Max(sideHair, math.Abs(p[0]-mid))
		}
	}
	for _, p := range head {
		topHead = math.Max(topHead, p[1])
		if p[1] > lo && p[1] < hi {
			sideHead = math.Max(sideHead, math.Abs(p[0]-mid))
		}
	}
	c.forehead /= iod
	c.top = (topHair - topHead) / iod
	c.side = (sideHair - sideHead) / iod
	return c
}

// TestShortCutShape: the short cut is a modern one, like the leader's
// masculine hair, not a bowl. Issue 22's panel called MakeHuman's short
// hair a "bowl cut", "a helmet": a straight fringe down to the brows and
// sides as thick as its top. Measured on default-male (measureCut, in
// eye distances): the forehead shows (the hair's front edge at least as
// high over the eyes as the leader's, less 0.1), the top stands up (at
// least 0.3, about 2 cm) and the sides lie close (less than half the
// top). Before, MakeHuman's cut (the panel's default-male of e1a1824):
// forehead 0.72, top 0.39, side 0.44, sides thicker than the top. The
// leader's, when ../shared is there, is logged beside: forehead 0.75,
// top 0.55, side 0.60 (its locks flick out over the temples).
func TestShortCutShape(t *testing.T) {
	s, err := Generate(Default(Masculine))
	if err != nil {
		t.Fatal(err)
	}
	ours := measureCut(t, s)
	t.Logf("default-male: forehead %.2f, top %.2f, side %.2f eye distances", ours.forehead, ours.top, ours.side)
	leaderForehead := 0.8
	if data, err := os.ReadFile(rpmPath); err == nil {
		ls, err := scene.Read(data, scene.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lc := measureCut(t, ls)
		t.Logf("leader's: forehead %.2f, top %.2f, side %.2f eye distances", lc.forehead, lc.top, lc.side)
		leaderForehead = lc.forehead
	}
	if ours.forehead < leaderForehead-0.1 {
		t.Errorf("the hair's front edge %.2f eye distances over the eyes, want at least %.2f (the leader's less 0.1)", ours.forehead, leaderForehead-0.1)
	}
	if ours.top < 0.3 {
		t.Errorf("hair over the crown %.2f eye distances, want at least 0.3", ours.top)
	}
	if ours.side > 0.5*ours.top {
		t.Errorf("hair beside the head %.2f eye distances, over half the top's %.2f", ours.side, ours.top)
	}
}

// TestCurlyHairLumpy: curly hair is a mass of curls, not a smooth cap.
// Issue 22's panel saw MakeHuman's curly cards, under an alpha cut-out,
// as "see-through, glitchy cross-hatched cards" (random-18); the curls
// are now an opaque shell (TestHairStandsOffScalp/curly: opaque, no ray
// onto the crown without hair) raised in lumps. Measured by hairLumps on
// default-male with curly hair: at least 1 mm (1.16); the short cut's
// tousled locks measure 1.04 mm (0.70 before TestShortCutOutlineBroken),
// the old cards 2.71 mm (their ragged edges, seen through).
func TestCurlyHairLumpy(t *testing.T) {
	cfg := Default(Masculine)
	cfg.Hair.Style = "curly"
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l := hairLumps(t, s)
	t.Logf("curly: lumps %.2f mm", 1000*l)
	if l < 0.001 {
		t.Errorf("curly hair's lumps %.2f mm, want at least 1", 1000*l)
	}
}

// TestShortCutOldGLB logs measureCut on a GLB named by KILN_CUT_GLB, to
// compare a build from before.
func TestShortCutOldGLB(t *testing.T) {
	s, path := envGLB(t, "KILN_CUT_GLB")
	c := measureCut(t, s)
	t.Logf("%s: forehead %.2f, top %.2f, side %.2f eye distances; lumps %.2f mm; outline %d lobes", path, c.forehead, c.top, c.side, 1000*hairLumps(t, s), outlineLobes(hairOutline(t, s)))
}

// hairReach is the set-up hairLumps and hairLumpsAlong share: the
// hair's farthest crossing (metres, NaN for none) along the ray from the
// head's centre (its middle, at the eyes' height, 8 cm behind them) at
// azimuth az and elevation el (degrees).
func hairReach(t *testing.T, s *scene.Scene) func(az, el float64) float64 {
	t.Helper()
	hp, ht := meshPositions(s, "Wolf3D_Hair")
	l, _ := meshPositions(s, "EyeLeft")
	r, _ := meshPositions(s, "EyeRight")
	kp, _ := meshPositions(s, "Wolf3D_Head")
	if len(ht) == 0 || len(l) == 0 || len(kp) == 0 {
		t.Fatal("no hair, eyes or head")
	}
	e := centroid(append(slices.Clone(l), r...))
	c := vec3{centroid(kp)[0], e[1], e[2] - 0.08}
	return func(az, el float64) float64 {
		a, b := az*math.Pi/180, el*math.Pi/180
		u := vec3{math.Cos(b) * math.Sin(a), math.Sin(b), math.Cos(b) * math.Cos(a)}
		f, ok := farthest(c, u, hp, ht)
		if !ok {
			return math.NaN()
		}
		return f
	}
}

// hairLumps is how lumpy the hair's outer surface is over the top of
// the head: along rays from the head's centre every 2° of azimuth at
// elevations 40° to 70°, the hair's farthest crossing, less the mean of
// the crossings 6° either side (which a smooth shell matches); the root
// mean square of that, metres.
func hairLumps(t *testing.T, s *scene.Scene) float64 {
	t.Helper()
	reach := hairReach(t, s)
	sum, n := 0.0, 0
	for el := 40.0; el <= 70; el += 10 {
		var d []float64
		for az := 0.0; az < 360; az += 2 {
			d = append(d, reach(az, el))
		}
		for i := range d {
			m := (d[(i+len(d)-3)%len(d)] + d[(i+3)%len(d)]) / 2
			if x := d[i] - m; !math.IsNaN(x) {
				sum += x * x
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no ray meets the hair")
	}
	return math.Sqrt(sum / float64(n))
}

// TestShortCutTousle: the short cut's locks lie in tiers and cross, as
// a tousle's do, not combed in one sweep from the forehead to the crown
// (issue 22's panel: default-male's "smooth helmet"). Measured on the
// mesh by hairLumpsAlong (steps of the surface going front to back over
// the top, where a lock's tip lies over the next one's root) beside
// hairLumps (round the head, across the locks). Before the tousle
// (locks combed in one sweep), default-male: along 0.51 mm, across
// 0.59 mm, short on the feminine body 0.56, 0.57; with it 0.73, 0.70
// and 0.81, 0.72.
func TestShortCutTousle(t *testing.T) {
	for _, c := range []struct {
		body        string
		along, lump float64 // at least, mm
	}{
		{Masculine, 0.65, 0.65},
		{Feminine, 0.65, 0.65},
	} {
		t.Run(c.body, func(t *testing.T) {
			cfg := Default(c.body)
			cfg.Hair.Style = "short"
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			along, lump := 1000*hairLumpsAlong(t, s), 1000*hairLumps(t, s)
			t.Logf("%s short: lumps along the sweep %.2f mm, across it %.2f mm", c.body, along, lump)
			if along < c.along || lump < c.lump {
				t.Errorf("%s short: lumps along %.2f mm (want %.1f or more), across %.2f mm (want %.1f or more): a combed shell, not a tousle", c.body, along, c.along, lump, c.lump)
			}
		})
	}
}

// hairLumpsAlong is hairLumps going front to back: along rays from the
// head's centre every 1° of elevation from 35° to 85° at azimuths
// within 40° of the front and the back, the hair's farthest crossing
// less the mean of the crossings 4° either side; the root mean square,
// metres.
func hairLumpsAlong(t *testing.T, s *scene.Scene) float64 {
	t.Helper()
	reach := hairReach(t, s)
	sum, n := 0.0, 0
	for az := -40.0; az <= 40; az += 4 {
		var d []float64
		for el := 35.0; el <= 85; el++ {
			d = append(d, reach(az, el))
		}
		for i := 4; i+4 < len(d); i++ {
			if x := d[i] - (d[i-4]+d[i+4])/2; !math.IsNaN(x) {
				sum += x * x
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no ray meets the hair")
	}
	return math.Sqrt(sum / float64(n))
}
