package avatar

import (
	"fmt"
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// meshGeom is one mesh's positions and triangles (meshPositions).
type meshGeom struct {
	pos  []vec3
	tris [][3]uint32
}

// generatedMeshes builds cfg, failing the test on an error, and gives
// each of its meshes' positions and triangles by name: how glassesFit
// and measureCap both begin. The glasses' lenses are left out
// (frameOnly): the tests built on it measure solid geometry (a frame's
// rims and temples); glassesGLB reads the lenses.
func generatedMeshes(t *testing.T, cfg Config) map[string]meshGeom {
	t.Helper()
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range s.Meshes {
		if m.Name == "Wolf3D_Glasses" {
			for i, p := range m.Primitives {
				m.Primitives[i] = frameOnly(p)
			}
		}
	}
	out := map[string]meshGeom{}
	for _, m := range s.Meshes {
		pos, tris := meshPositions(s, m.Name)
		out[m.Name] = meshGeom{pos, tris}
	}
	return out
}

// frameOnly is a copy of a glasses primitive with only its frame's
// vertices (those whose texture coordinate is not in the lens's square,
// isLensUV) and the triangles between them.
func frameOnly(p *scene.Primitive) *scene.Primitive {
	return glassesPiece(p, func(uv [2]float32) bool { return !isLensUV(uv) })
}

// lensOnly is a copy of a glasses primitive with only its lenses.
func lensOnly(p *scene.Primitive) *scene.Primitive {
	return glassesPiece(p, isLensUV)
}

// glassesPiece is a copy of p with the vertices whose texture
// coordinate keep accepts and the triangles between them: positions,
// normals, UVs, the first joints and weights and indices (the other
// streams left out).
func glassesPiece(p *scene.Primitive, keep func([2]float32) bool) *scene.Primitive {
	q := &scene.Primitive{Mode: p.Mode, Material: p.Material}
	var uv [][2]float32
	var joints [][4]uint16
	var weights [][4]float32
	at := make([]int, len(p.Positions))
	for i, t := range p.TexCoords[0] {
		at[i] = -1
		if !keep(t) {
			continue
		}
		at[i] = len(q.Positions)
		q.Positions = append(q.Positions, p.Positions[i])
		q.Normals = append(q.Normals, p.Normals[i])
		uv = append(uv, t)
		if len(p.Joints) > 0 && len(p.Weights) > 0 {
			joints = append(joints, p.Joints[0][i])
			weights = append(weights, p.Weights[0][i])
		}
	}
	q.TexCoords = [][][2]float32{uv}
	if joints != nil {
		q.Joints, q.Weights = [][][4]uint16{joints}, [][][4]float32{weights}
	}
	for i := 0; i+2 < len(p.Indices); i += 3 {
		a, b, c := at[p.Indices[i]], at[p.Indices[i+1]], at[p.Indices[i+2]]
		if a >= 0 && b >= 0 && c >= 0 {
			q.Indices = append(q.Indices, uint32(a), uint32(b), uint32(c))
		}
	}
	return q
}

// meshPositions are the vertices of the named mesh's primitives, in the
// bind pose the generator builds them in.
func meshPositions(s *scene.Scene, name string) ([]vec3, [][3]uint32) {
	var pos []vec3
	var tris [][3]uint32
	for _, m := range s.Meshes {
		if m.Name != name {
			continue
		}
		for _, p := range m.Primitives {
			base := uint32(len(pos))
			for _, q := range p.Positions {
				pos = append(pos, v3(q))
			}
			for i := 0; i+2 < len(p.Indices); i += 3 {
				tris = append(tris, [3]uint32{base + p.Indices[i], base + p.Indices[i+1], base + p.Indices[i+2]})
			}
		}
	}
	return pos, tris
}

// meshNormals are the normals of the named mesh's primitives, in the
// order meshPositions gives their vertices.
func meshNormals(s *scene.Scene, name string) []vec3 {
	var nrm []vec3
	for _, m := range s.Meshes {
		if m.Name != name {
			continue
		}
		for _, p := range m.Primitives {
			for _, n := range p.Normals {
				nrm = append(nrm, v3(n))
			}
		}
	}
	return nrm
}

func centroid(ps []vec3) vec3 {
	var c vec3
	for _, p := range ps {
		c = c.add(p)
	}
	return c.scale(1 / float64(len(ps)))
}

// rayHit is the nearest distance along unit u from c to the triangles,
// by brute force over every triangle (independent of the generator's
// binned search; the per-triangle test is the generator's rayTriangle).
func rayHit(c, u vec3, pos []vec3, tris [][3]uint32) (float64, bool) {
	best, ok := math.Inf(1), false
	for _, t := range tris {
		if d, _, _, hit := rayTriangle(c, u, pos[t[0]], pos[t[1]], pos[t[2]]); hit && d < best {
			best, ok = d, true
		}
	}
	return best, ok
}

// TestHeadwearOverHair puts every hat on every hair style and looks from
// the head's centre (between the eyeballs, 8.5 cm behind them): along
// every ray that meets the hat, no hair vertex is beyond it, and the hat
// does cover hair (pressed under it rather than cut off).
func TestHeadwearOverHair(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 12 avatars")
	}
	for _, style := range headwearStyles[1:] {
		for _, hair := range []string{"short", "long", "curly", "bun"} {
			t.Run(style+"/"+hair, func(t *testing.T) {
				cfg := Default(Feminine)
				if hair == "short" {
					cfg = Default(Masculine)
				}
				cfg.Hair.Style = hair
				cfg.Headwear = Headwear{Style: style}
				s, err := Generate(cfg)
				if err != nil {
					t.Fatal(err)
				}
				hatPos, hatTris := meshPositions(s, "Wolf3D_Headwear")
				if len(hatTris) == 0 {
					t.Fatal("no Wolf3D_Headwear")
				}
				l, _ := meshPositions(s, "EyeLeft")
				r, _ := meshPositions(s, "EyeRight")
				c := headCentre(centroid(l), centroid(r))
				hairPos, hairTris := meshPositions(s, "Wolf3D_Hair")
				covered, out, worst := 0, 0, 0.0
				for _, v := range hairPos {
					d := v.sub(c)
					hit, ok := rayHit(c, d.norm(), hatPos, hatTris)
					if !ok {
						continue
					}
					covered++
					if d.len() > hit {
						out++
						worst = math.Max(worst, d.len()-hit)
					}
				}
				// No strand crosses the hat either: no edge of the hair
				// passes through one of its triangles.
				crossing := 0
				seen := map[[2]uint32]bool{}
				for _, tri := range hairTris {
					for k := 0; k < 3; k++ {
						a, b := tri[k], tri[(k+1)%3]
						if a > b {
							a, b = b, a
						}
						if seen[[2]uint32{a, b}] {
							continue
						}
						seen[[2]uint32{a, b}] = true
						e := hairPos[b].sub(hairPos[a])
						if hit, ok := rayHit(hairPos[a], e.norm(), hatPos, hatTris); ok && hit < e.len() {
							crossing++
						}
					}
				}
				// The skin above the ears stays under the hat too.
				head, _ := meshPositions(s, "Wolf3D_Head")
				skinOut := 0
				for _, v := range head {
					if v[1] < c[1] {
						continue
					}
					d := v.sub(c)
					if hit, ok := rayHit(c, d.norm(), hatPos, hatTris); ok && d.len() > hit {
						skinOut++
						t.Logf("skin vertex at %.3f from the centre, %.1f mm beyond the hat", d, 1000*(d.len()-hit))
					}
				}
				t.Logf("%d hat triangles; %d of %d hair vertices under the hat, %d outside it (by up to %.1f mm); %d hair edges through it; %d skin vertices outside", len(hatTris), covered, len(hairPos), out, 1000*worst, crossing, skinOut)
				if out > 0 {
					t.Errorf("%d hair vertices come through the hat, by up to %.1f mm", out, 1000*worst)
				}
				if crossing > 0 {
					t.Errorf("%d hair edges pass through the hat", crossing)
				}
				if skinOut > 0 {
					t.Errorf("%d head vertices come through the hat", skinOut)
				}
				// The hair is shortened, not gone: what hangs below the
				// hat is still there.
				if len(hairPos)-covered < 100 {
					t.Errorf("%d hair vertices left outside the hat", len(hairPos)-covered)
				}
			})
		}
	}
}

// TestHeadwearColor builds each hat in two colours: the hat's base colour
// texture follows the configuration (its mean within reach of the colour
// asked), and an avatar without headwear has no hat.
func TestHeadwearColor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 4 avatars")
	}
	s, err := Generate(Default(Masculine))
	if err != nil {
		t.Fatal(err)
	}
	if pos, _ := meshPositions(s, "Wolf3D_Headwear"); len(pos) > 0 {
		t.Fatal("a hat on an avatar that asked for none")
	}
	for i, style := range headwearStyles[1:] {
		for _, color := range []string{"red", "light-blue"}[:1+i%2] {
			cfg := Default(Masculine)
			cfg.Headwear = Headwear{Style: style, Color: color}
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			img := baseColorImage(t, s, "Wolf3D_Headwear")
			var sum [3]float64
			n := 0.0
			bd := img.Bounds()
			for y := bd.Min.Y; y < bd.Max.Y; y += 3 {
				for x := bd.Min.X; x < bd.Max.X; x += 3 {
					r, g, b, _ := img.At(x, y).RGBA()
					sum[0], sum[1], sum[2] = sum[0]+float64(r>>8), sum[1]+float64(g>>8), sum[2]+float64(b>>8)
					n++
				}
			}
			want := hexColor(clothColors[color])
			got := fmt.Sprintf("%.0f,%.0f,%.0f", sum[0]/n, sum[1]/n, sum[2]/n)
			var wantS [3]float64
			for i := range 3 {
				wantS[i] = 255 * math.Pow(want[i], 1/2.2)
			}
			for i := range 3 {
				if math.Abs(sum[i]/n-wantS[i]) > 40 {
					t.Errorf("%s %s: mean texel %s, the colour is about %.0f,%.0f,%.0f", style, color, got, wantS[0], wantS[1], wantS[2])
					break
				}
			}
		}
	}
}

// TestBeanieRibs checks that the beanie's knit reads as rib knit: along
// the rows of its dome's base colour texture (UV v from 0.1 to 0.5, the
// wales running up the hat), the luminance within every 12 texels spans
// on average at least 6 % of its mean (wales against troughs; 8.7 % now).
// Before, a T-shirt's jersey at 5 mm blurred to 2.3 % at a hat's texture
// size, and the beanie read as smooth grey cloth.
func TestBeanieRibs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an avatar")
	}
	cfg := Default(Masculine)
	cfg.Headwear = Headwear{Style: "beanie"}
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	img := baseColorImage(t, s, "Wolf3D_Headwear")
	bd := img.Bounds()
	n := bd.Dx()
	lum := func(x, y int) float64 {
		r, g, b, _ := img.At(bd.Min.X+x, bd.Min.Y+y).RGBA()
		return 0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)
	}
	sum, count := 0.0, 0
	for y := n / 10; y < n/2; y += 4 {
		for x0 := 0; x0+12 <= n; x0 += 12 {
			lo, hi, mean := math.Inf(1), math.Inf(-1), 0.0
			for x := x0; x < x0+12; x++ {
				l := lum(x, y)
				lo, hi, mean = math.Min(lo, l), math.Max(hi, l), mean+l/12
			}
			if mean > 0 {
				sum += (hi - lo) / mean
				count++
			}
		}
	}
	span := sum / float64(count)
	t.Logf("beanie dome: luminance spans %.1f %% of its mean within 12 texels", 100*span)
	if span < 0.06 {
		t.Errorf("the beanie's knit spans %.1f %% of its luminance within 12 texels, want at least 6 (ribs)", 100*span)
	}
}
