package avatar

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// TestBobEndsInLocks: the bob's ends break into locks and its fringe
// clears the brows. Issue 22's panel (p16) read the bob as a "helmet":
// one smooth dome whose lower edge is one even curve round the head,
// and on random-05 a "bowl cut" whose fringe "covers the eyebrows". The
// leader's hair ends in clumps of different lengths with gaps between
// them. Measured on the built hair of the four bun avatars (hats off):
//   - relief: the lowest hair per 5° round the sides and back of the
//     head less its own mean over ±5°, RMS
//     (mm): how far lock tips hang below the gaps between them. A
//     smooth edge has next to none;
//   - brows: across the brows (2 mm columns where the brows lie, out
//     to 5 cm from the middle, in front of the face), the least height of the fringe's lower edge
//     over the brows' top (mm): negative where the fringe covers a brow.
//
// Before (main 7a7e93b, one smooth edge, the fringe at raiseFringe's
// floor): relief 0.3 mm on all four; brows -7.2 to -6.2 mm (the fringe's
// sweep over the brows' outer halves). With the locks (hairboblocks.go):
// relief 1.0-1.1 mm, brows 2.0-3.8 mm.
func TestBobEndsInLocks(t *testing.T) {
	for _, seed := range []int64{2, 4, 5, 17} {
		t.Run(fmt.Sprintf("random-%02d", seed), func(t *testing.T) {
			cfg := Random(seed)
			cfg.Headwear.Style = "none"
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			hp, ht := meshPositions(s, "Wolf3D_Hair")
			lp, _ := meshPositions(s, "EyeLeft")
			rp, _ := meshPositions(s, "EyeRight")
			eyes := centroid(append(slices.Clone(lp), rp...))
			kp, _ := meshPositions(s, "Wolf3D_Head")
			relief := edgeRelief(hp, ht, vec3{centroid(kp)[0], eyes[1], eyes[2] - 0.08})
			bp, _ := meshPositions(s, "Wolf3D_Eyebrows")
			clear := fringeOverBrows(hp, ht, bp, eyes[1], maxZ(meshNamed(s, "Wolf3D_Head"))-0.04)
			t.Logf("random-%02d: lock relief %.1f mm; fringe over the brows %.1f mm", seed, relief, clear)
			if relief < 0.7 {
				t.Errorf("lock relief: the lower edge's tips hang %.1f mm (RMS) from its mean over ±5°, want at least 0.7 mm (ends in locks, not one even curve)", relief)
			}
			if clear < 1 {
				t.Errorf("brows: the fringe's lower edge lies %.1f mm over the brows' top, want at least 1 mm (the fringe clear of the brows)", clear)
			}
		})
	}
}

// edgeRelief is the RMS (mm) of the hair's lowest point per 5° of
// azimuth round c less its mean over the 3 bins round it (±5°: a lock is 20°, the cut's own
// rise behind the ears some 70°), over the sides
// and back of the head (60° and more from the front), where the ends
// hang about level: in front the fringe's sweep rises steeply and is
// measured against the brows instead.
func edgeRelief(pos []vec3, tris [][3]uint32, c vec3) float64 {
	const bins = 144
	low := make([]float64, bins)
	for i := range low {
		low[i] = math.Inf(1)
	}
	// Points over the triangles (sampleTris, 4 mm apart), not only the
	// vertices: a bin that holds no vertex of the lowest row read a row
	// higher, a step of a centimetre.
	f32 := make([][3]float32, len(pos))
	for i, p := range pos {
		f32[i] = p.f32()
	}
	sampleTris(f32, tris, func(p vec3) {
		a := math.Atan2(p[0]-c[0], p[2]-c[2])
		i := min(bins-1, int((a+math.Pi)/(2*math.Pi)*bins))
		low[i] = math.Min(low[i], p[1])
	})
	sum, n := 0.0, 0
	for i := range bins {
		a := (float64(i)+0.5)/bins*2*math.Pi - math.Pi
		if math.Abs(a) < 60*math.Pi/180 {
			continue
		}
		m, ok := 0.0, true
		for d := -2; d <= 2; d++ {
			v := low[(i+d+bins)%bins]
			m += v
			ok = ok && !math.IsInf(v, 0)
		}
		if !ok {
			continue
		}
		d := (low[i] - m/5) * 1000
		sum += d * d
		n++
	}
	return math.Sqrt(sum / float64(max(n, 1)))
}

// fringeOverBrows is the least height (mm), over the 2 mm columns out
// to fringeInner either side where the brows (vertices brows) lie, of the hair's lower edge in front of
// z0 (fringeEdgeHeights, above the eyes at height eye) over the brows'
// top in that column.
func fringeOverBrows(hp []vec3, ht [][3]uint32, brows []vec3, eye, z0 float64) float64 {
	// Out to fringeInner either side: beyond it the hair hangs beside
	// the face and frames it, over the brows' tails as the leader's
	// does.
	const column = 0.002
	half := int(math.Round(fringeInner / column))
	low := fringeEdgeHeights(hp, ht, eye, z0, column, half)
	top := make([]float64, len(low))
	for k := range top {
		top[k] = math.Inf(-1)
	}
	for _, p := range brows {
		if k := int(math.Round(p[0]/column)) + half; k >= 0 && k < len(top) {
			top[k] = math.Max(top[k], p[1]-eye)
		}
	}
	least := math.Inf(1)
	for k := range low {
		if !math.IsInf(top[k], -1) && !math.IsInf(low[k], 1) {
			least = math.Min(least, (low[k]-top[k])*1000)
		}
	}
	return least
}
