package avatar

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// chinPlateNear and chinPlateFar are the half-widths over which
// chinPlate compares the normal's turn, metres: a crease turns it
// within a few millimetres, a rounded chin turns it evenly over
// centimetres.
const (
	chinPlateNear = 0.002
	chinPlateFar  = 0.008
)

// chinPlate is how sharply the lower face's skin turns from the front to
// its sides, in degrees, as a viewer's shading interpolates its normals:
// the head drawn from the front (frontNormals), and along each row of the
// chin's front (from 0.35 eye-distances under the mouth's middle, below
// the lower lip's underside, to a quarter eye-distance over the chin's
// lowest point, above the jaw's edge: the leader shades both, as it
// should), within 0.9 eye-distances of the middle, the most the normal
// turns across 2·chinPlateNear beyond its even share of the turn across
// 2·chinPlateFar round it; the mean over the rows. A rounded chin turns
// evenly (0 for a circle); a flat chin plate meeting the jaw's sides at
// an edge (p16's "blotchy jaw", "colour band on the jaw": a lighter chin
// between two lines from the mouth's corners, a darker band beside each)
// turns all at once at the edge.
func chinPlate(t *testing.T, s *scene.Scene) float64 {
	t.Helper()
	head, mouth, chin, ipd := chinFrame(t, s)
	top, bottom, half := mouth-0.35*ipd, chin+0.25*ipd, 0.9*ipd
	img := frontNormals(head, -half, bottom, half, top, chinLinePixel)
	near := int(math.Round(chinPlateNear / chinLinePixel))
	far := int(math.Round(chinPlateFar / chinLinePixel))
	angle := func(n vec3) float64 { return math.Atan2(n[0], n[2]) }
	var sum float64
	for _, row := range img {
		worst := 0.0
		for i := far; i < len(row)-far; i++ {
			a, b, c, d := row[i-far], row[i-near], row[i+near], row[i+far]
			// Only on skin facing the viewer: past the jaw's edge the
			// normal turns away and the shading is the silhouette's.
			if a[2] < 0.3 || b[2] < 0.3 || c[2] < 0.3 || d[2] < 0.3 {
				continue
			}
			turn := math.Abs(angle(c)-angle(b)) - float64(near)/float64(far)*math.Abs(angle(d)-angle(a))
			worst = math.Max(worst, turn)
		}
		sum += worst
	}
	return sum / float64(len(img)) * 180 / math.Pi
}

// TestChinShading asks every panel face (the defaults and random-01..18 of
// configs -n 18 -seed 1) for a chin's front that turns evenly to the
// jaw's sides (chinPlate), as the leader's does (casual 2.63°, office
// 2.94°). With smoothChinNormals averaging each normal with its mesh
// neighbours' (p16, 226fe3d) every one of the 20 was a flat plate with a
// crease each side from the mouth's corners to the jaw: 3.88° (random-04)
// to 6.29° (default-female), default-male 5.59°. KILN_CHIN_PLATE_BEFORE,
// a folder of GLBs built before (a panel's glb/), logs theirs beside.
//
// It also asks each face for skin under the mouth that bends only
// outward, as a rounded chin does and as the leader's does (chinLines:
// casual and office 0.41 degrees): MakeHuman's shaped faces folded from
// the mouth's corners to the jaw, lines the judges called a "jaw seam"
// and "smudgy chin shading" (before smoothChinNormals random-01, -13 and
// -15 4.53, 6.15 and 5.45 degrees, 16 of the 20 over chinLinesMax,
// default-male and -female 0.28 and 0.35).
//
// And it asks each face for a chin rounded across its middle
// (chinSeam), as the leader's are (casual 0.65 degrees, office 0.45):
// at p24 the judges saw "a seam down the chin" on random-13, -15, -17
// and -18, from the groove the seed's chin cleft cut (random-15 2.89,
// -18 1.32, -17 1.10, random-03 1.86) and the ridge of pointed chins
// that one pass of smoothChinNormals left (random-01 1.87, -13 1.41,
// -16 1.62): 13 of the 20 over chinSeamMax, now 0.23-0.78.
// All three are measured on one build of each face.
func TestChinShading(t *testing.T) {
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if l, ok := optionalLeaderScene(t, n); ok {
			t.Logf("%s: chin plate %.2f°, chin lines %.2f°, chin seam %.2f°", n, chinPlate(t, l), chinLines(t, l), chinSeam(t, l))
		}
	}
	before := os.Getenv("KILN_CHIN_PLATE_BEFORE")
	for _, c := range panelFaces() {
		t.Run(c.name, func(t *testing.T) {
			if before != "" {
				if data, err := os.ReadFile(filepath.Join(before, c.name+".glb")); err == nil {
					if s, err := scene.Read(data, scene.ReadOptions{}); err == nil {
						t.Logf("before: chin plate %.2f°", chinPlate(t, s))
					}
				}
			}
			s, err := Generate(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			p, l, m := chinPlate(t, s), chinLines(t, s), chinSeam(t, s)
			t.Logf("chin plate %.2f°, chin lines %.2f°, chin seam %.2f°", p, l, m)
			if p > chinPlateMax {
				t.Errorf("chin plate %.2f°, want %.1f° or less (a crease between the chin's front and the jaw's sides; the leader's 2.63-2.94°)", p, chinPlateMax)
			}
			if l > chinLinesMax {
				t.Errorf("chin lines %.2f°, want %.1f° or less (a fold shading as a line; the leader's 0.41°)", l, chinLinesMax)
			}
			if m > chinSeamMax {
				t.Errorf("chin seam %.2f°, want %.1f° or less (a ridge or groove down the chin's middle, a seam in a room light; the leader's 0.45-0.65°)", m, chinSeamMax)
			}
		})
	}
}

// chinPlateMax is the most TestChinShading allows of chinPlate: the leader's office
// face's, rounded up.
const chinPlateMax = 3.0
