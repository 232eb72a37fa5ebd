package avatar

import (
	"image"
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// TestBrowArch measures each brow's shape as a viewer in front of the
// face sees it, in eye-distances (the eyes' centres apart): how far its
// tail reaches out past the eye's centre, how long it is, and where its
// arch peaks (the middle of the stretch where its top edge is highest,
// as a share of the way from its head to its tail). On the panel's
// twenty faces MakeHuman's strip ran on past the eye's outer corner and
// was level on top from the head to past the eye's middle: tails
// 0.53-0.58 out, 0.90-0.95 long, peaks 0.13-0.61 of the way out (16
// of the 40 brows under 0.48). The leader's brows (painted in their skin, read
// here where the skin is darker than 0.8 of the forehead's luma; logged
// when the shared test data is there) end 0.42-0.44 out, over the eye's
// outer corner, are 0.73-0.78 long and peak 0.56-0.71 of the way out
// (brows20). Each bound is the leader's side of the old figure; now
// tails 0.36-0.46 out, 0.73-0.83 long, peaks 0.50-0.61.
func TestBrowArch(t *testing.T) {
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if s, ok := optionalLeaderScene(t, n); ok {
			for _, side := range []float64{1, -1} {
				a := leaderBrowArch(t, s, side)
				t.Logf("leader %s side %+.0f: tail %.3f out, %.3f long, peak %.2f of the way out", n, side, a.reach, a.length, a.peak)
			}
		}
	}
	for _, tc := range panelFaces() {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Generate(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			alpha := baseColorImage(t, s, "Wolf3D_Eyebrows")
			for _, side := range []float64{1, -1} {
				var pts [][3]float64
				frontPoints(s, "Wolf3D_Eyebrows", alpha, side, func(p [3]float64, c [4]uint32) {
					if c[3] >= 0x8000 {
						pts = append(pts, p)
					}
				})
				a := browArchOf(t, s, pts, side)
				t.Logf("side %+.0f: tail %.3f out, %.3f long, peak %.2f of the way out (eye-distances)", side, a.reach, a.length, a.peak)
				if a.reach > 0.48 {
					t.Errorf("side %+.0f: the brow's tail ends %.3f eye-distances out from the eye's centre, want at most 0.48 (the leader's 0.42-0.44, over the eye's outer corner)", side, a.reach)
				}
				if a.length > 0.85 {
					t.Errorf("side %+.0f: the brow is %.3f eye-distances long, want at most 0.85 (the leader's 0.73-0.78)", side, a.length)
				}
				if a.peak < 0.48 {
					t.Errorf("side %+.0f: the brow's arch peaks %.2f of the way from its head to its tail, want at least 0.48 (the leader's 0.56-0.71)", side, a.peak)
				}
			}
		})
	}
}

// archLook is one brow's shape: reach and length in eye-distances, peak
// a share of its length from its head.
type archLook struct{ reach, length, peak float64 }

// browArchOf measures the brow made of the points pts on side of the
// face (+1 or -1 in x), seen from the front: pts binned in 1 mm columns
// across x, each column's top edge its highest point (a median over
// three columns); the peak is the middle of the columns whose top edge
// is within half a millimetre of the highest.
func browArchOf(t *testing.T, s *scene.Scene, pts [][3]float64, side float64) archLook {
	t.Helper()
	el, er, ipd := sceneEyes(t, s)
	e := el
	if el[0]*side < 0 {
		e = er
	}
	if len(pts) == 0 {
		t.Fatalf("side %+.0f: no brow", side)
	}
	const col = 0.001
	inner, outer := math.Inf(1), math.Inf(-1)
	for _, q := range pts {
		inner, outer = math.Min(inner, math.Abs(q[0])), math.Max(outer, math.Abs(q[0]))
	}
	n := int((outer-inner)/col) + 1
	top := make([]float64, n)
	for i := range top {
		top[i] = math.NaN()
	}
	for _, q := range pts {
		i := min(n-1, int((math.Abs(q[0])-inner)/col))
		if math.IsNaN(top[i]) || q[1] > top[i] {
			top[i] = q[1]
		}
	}
	smooth := make([]float64, n)
	high := math.Inf(-1)
	for i := range n {
		var v []float64
		for _, x := range top[max(0, i-1):min(n, i+2)] {
			if !math.IsNaN(x) {
				v = append(v, x)
			}
		}
		smooth[i] = math.NaN()
		if len(v) > 0 {
			slices.Sort(v)
			smooth[i] = v[len(v)/2]
			high = math.Max(high, smooth[i])
		}
	}
	var sum, cnt float64
	for i, v := range smooth {
		if v >= high-0.0005 {
			sum += float64(i)
			cnt++
		}
	}
	return archLook{
		reach:  (outer - math.Abs(e[0])) / ipd,
		length: (outer - inner) / ipd,
		peak:   sum / cnt / math.Max(float64(n-1), 1),
	}
}

// leaderBrowArch is browArchOf for the leader's brows, which are painted
// in the head's skin: the points of the head in front of the eyes, from
// 0.05 to 0.6 eye-distances above them and within 0.8 of the eye's
// centre across, whose skin is darker than 0.8 of the forehead's (the
// upper quartile of their lumas).
func leaderBrowArch(t *testing.T, s *scene.Scene, side float64) archLook {
	t.Helper()
	el, er, ipd := sceneEyes(t, s)
	e := el
	if el[0]*side < 0 {
		e = er
	}
	var all [][3]float64
	var ls []float64
	frontPoints(s, "Wolf3D_Head", baseColorImage(t, s, "Wolf3D_Skin"), side, func(p [3]float64, c [4]uint32) {
		if p[1] < e[1]+0.05*ipd || p[1] > e[1]+0.6*ipd || math.Abs(p[0]-e[0]) > 0.8*ipd || p[2] < e[2] {
			return
		}
		all = append(all, p)
		ls = append(ls, (0.2126*float64(c[0])+0.7152*float64(c[1])+0.0722*float64(c[2]))/65535)
	})
	if len(ls) == 0 {
		t.Fatalf("side %+.0f: no skin over the eye", side)
	}
	sorted := slices.Clone(ls)
	slices.Sort(sorted)
	fore := sorted[len(sorted)*3/4]
	var pts [][3]float64
	for i, p := range all {
		if ls[i] < 0.8*fore {
			pts = append(pts, p)
		}
	}
	return browArchOf(t, s, pts, side)
}

// frontPoints calls keep with points spread over the triangles of the
// mesh named mesh on one side of the face (side +1 or -1 in x), 55 a
// triangle, each with its position and the texel of img its UV falls
// in (16-bit RGBA).
func frontPoints(s *scene.Scene, mesh string, img image.Image, side float64, keep func(p [3]float64, c [4]uint32)) {
	b := img.Bounds()
	for _, m := range s.Meshes {
		if m.Name != mesh {
			continue
		}
		for _, p := range m.Primitives {
			uv := p.TexCoords[0]
			for i := 0; i+2 < len(p.Indices); i += 3 {
				v := [3]uint32{p.Indices[i], p.Indices[i+1], p.Indices[i+2]}
				if float64(p.Positions[v[0]][0]+p.Positions[v[1]][0]+p.Positions[v[2]][0])*side < 0 {
					continue
				}
				for j := 0; j <= 9; j++ {
					for k := 0; k <= 9-j; k++ {
						w := [3]float64{0, (float64(j) + 0.33) / 10.5, (float64(k) + 0.33) / 10.5}
						w[0] = 1 - w[1] - w[2]
						var u, vv float64
						var q [3]float64
						for c := range 3 {
							u += w[c] * float64(uv[v[c]][0])
							vv += w[c] * float64(uv[v[c]][1])
							for a := range 3 {
								q[a] += w[c] * float64(p.Positions[v[c]][a])
							}
						}
						tx := b.Min.X + min(b.Dx()-1, max(0, int(u*float64(b.Dx()))))
						ty := b.Min.Y + min(b.Dy()-1, max(0, int(vv*float64(b.Dy()))))
						r, g, bl, al := img.At(tx, ty).RGBA()
						keep(q, [4]uint32{r, g, bl, al})
					}
				}
			}
		}
	}
}
