package spring

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

// skinned is every vertex of a mesh node where its skin puts it at rest.
func skinned(s *scene.Scene, node int) [][3]float64 {
	w := xform.Worlds(s, s.Parents(), nil)
	sk := s.Skins[*s.Nodes[node].Skin]
	var out [][3]float64
	for _, p := range s.Meshes[*s.Nodes[node].Mesh].Primitives {
		for v, q := range p.Positions {
			var acc [3]float64
			for k := 0; k < 4; k++ {
				wt := float64(p.Weights[0][v][k])
				if wt == 0 {
					continue
				}
				ji := p.Joints[0][v][k]
				m := w[sk.Joints[ji]].Mul(xform.FromFloat32(sk.InverseBindMatrices[ji]))
				acc = add(acc, scale(m.Point(xform.F64(q)), wt))
			}
			out = append(out, acc)
		}
	}
	return out
}

func TestAdd(t *testing.T) {
	fem := avatar.Default(avatar.Feminine)
	longSkirt := fem
	longSkirt.Outfit.Bottom.Style = "skirt"
	pony := fem
	pony.Hair.Style = "ponytail"
	short := avatar.Default(avatar.Masculine)
	curly := avatar.Default(avatar.Masculine)
	curly.Hair.Style, curly.Outfit.Bottom.Style, curly.Body.Build = "curly", "trousers", 0.9
	for _, tc := range []struct {
		name        string
		cfg         avatar.Config
		hair, skirt bool
	}{
		{"long hair and skirt", longSkirt, true, true},
		{"ponytail and jeans", pony, true, false},
		{"short hair and jeans", short, false, false},
		{"curly hair and trousers, heavy build", curly, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := avatar.Generate(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			nodesBefore := len(s.Nodes)
			type snap struct {
				node int
				pos  [][3]float32
				rest [][3]float64
			}
			var before []snap
			for _, name := range []string{"Wolf3D_Hair", "Wolf3D_Outfit_Bottom"} {
				if n := meshNode(s, name); n >= 0 {
					p := s.Meshes[*s.Nodes[n].Mesh].Primitives[0]
					before = append(before, snap{n, slices.Clone(p.Positions), skinned(s, n)})
				}
			}
			c, err := Add(s)
			if err != nil {
				t.Fatal(err)
			}
			count := map[string]int{}
			for _, n := range s.Nodes[nodesBefore:] {
				count[strings.Split(n.Name, "_")[1]]++
			}
			t.Logf("new joints %v", count)
			if got := count["hair"] > 0; got != tc.hair {
				t.Errorf("hair chain joints: %d, want some: %v", count["hair"], tc.hair)
			}
			if got := count["skirt"] > 0; got != tc.skirt {
				t.Errorf("skirt chain joints: %d, want some: %v", count["skirt"], tc.skirt)
			}
			if !tc.hair && !tc.skirt {
				if c != nil || len(s.Nodes) != nodesBefore {
					t.Errorf("nothing hangs, yet Add gave %+v and %d nodes", c, len(s.Nodes)-nodesBefore)
				}
				return
			}
			if c == nil {
				t.Fatal("Add gave no chains")
			}
			for _, b := range before {
				p := s.Meshes[*s.Nodes[b.node].Mesh].Primitives[0]
				if !slices.Equal(p.Positions, b.pos) {
					t.Errorf("%s: positions changed", s.Meshes[*s.Nodes[b.node].Mesh].Name)
				}
				sk := s.Skins[*s.Nodes[b.node].Skin]
				onChain := 0
				for v := range p.Positions {
					var sum float32
					var chainW float32
					for k := 0; k < 4; k++ {
						if int(p.Joints[0][v][k]) >= len(sk.Joints) {
							t.Fatalf("vertex %d: joint %d of %d", v, p.Joints[0][v][k], len(sk.Joints))
						}
						sum += p.Weights[0][v][k]
						if strings.HasPrefix(s.Nodes[sk.Joints[p.Joints[0][v][k]]].Name, "Kiln_") {
							chainW += p.Weights[0][v][k]
						}
					}
					if math.Abs(float64(sum)-1) > 1e-6 {
						t.Fatalf("vertex %d: weights sum to %v", v, sum)
					}
					if chainW > 0.9 {
						onChain++
					}
				}
				// The colliders at rest keep off every vertex that follows
				// the chains by half or more.
				w := xform.Worlds(s, s.Parents(), nil)
				inside := 0
				for v, q := range p.Positions {
					var chainW float32
					for k := 0; k < 4; k++ {
						if strings.HasPrefix(s.Nodes[sk.Joints[p.Joints[0][v][k]]].Name, "Kiln_") {
							chainW += p.Weights[0][v][k]
						}
					}
					if chainW < 0.5 {
						continue
					}
					for _, col := range c.Colliders {
						a, e := w[col.Node].Point(col.Offset), w[col.Node].Point(col.Offset)
						if col.Capsule {
							e = w[col.Node].Point(col.Tail)
						}
						if segDist(xform.F64(q), a, e) < col.Radius {
							inside++
						}
					}
				}
				if inside > 0 {
					t.Errorf("%d vertices inside colliders at rest", inside)
				}
				rest := skinned(s, b.node)
				worst := 0.0
				for v := range rest {
					worst = math.Max(worst, dist(rest[v], b.rest[v]))
				}
				t.Logf("%s: %d of %d vertices follow the chains by 90 %% or more; at rest they moved by %.2g m at most",
					s.Meshes[*s.Nodes[b.node].Mesh].Name, onChain, len(p.Positions), worst)
				if worst > 1e-5 {
					t.Errorf("the skinned mesh at rest moved by %g m", worst)
				}
			}
			for _, col := range c.Colliders {
				t.Logf("collider on %s: radius %.3f m, capsule %v", s.Nodes[col.Node].Name, col.Radius, col.Capsule)
			}
			checkV1(t, c.V1(), len(s.Nodes))
			checkV0(t, c.V0(), len(s.Nodes))
		})
	}
}

// checkV1 checks the VRMC_springBone object field by field against the
// schema (VRMC_springBone.schema.json and its parts): required fields,
// types, index ranges, one shape per collider.
func checkV1(t *testing.T, ext map[string]any, nodes int) {
	t.Helper()
	if ext["specVersion"] != "1.0" {
		t.Errorf("specVersion %v", ext["specVersion"])
	}
	cols, _ := ext["colliders"].([]any)
	groups, _ := ext["colliderGroups"].([]any)
	springs, _ := ext["springs"].([]any)
	if len(cols) == 0 || len(groups) == 0 || len(springs) == 0 {
		t.Fatalf("colliders %d, groups %d, springs %d", len(cols), len(groups), len(springs))
	}
	node := func(v any) {
		if n, ok := v.(int); !ok || n < 0 || n >= nodes {
			t.Errorf("node %v out of 0..%d", v, nodes-1)
		}
	}
	for _, c := range cols {
		m := c.(map[string]any)
		node(m["node"])
		shape := m["shape"].(map[string]any)
		if len(shape) != 1 {
			t.Errorf("shape %v: one of sphere, capsule", shape)
		}
		for kind, v := range shape {
			sh := v.(map[string]any)
			if kind != "sphere" && kind != "capsule" {
				t.Errorf("shape %q", kind)
			}
			if r, _ := sh["radius"].(float64); r <= 0 {
				t.Errorf("radius %v", sh["radius"])
			}
			if len(sh["offset"].([]any)) != 3 || kind == "capsule" && len(sh["tail"].([]any)) != 3 {
				t.Errorf("offset/tail %v", sh)
			}
		}
	}
	for _, g := range groups {
		for _, i := range g.(map[string]any)["colliders"].([]any) {
			if i.(int) < 0 || i.(int) >= len(cols) {
				t.Errorf("group collider %v", i)
			}
		}
	}
	for _, s := range springs {
		m := s.(map[string]any)
		joints := m["joints"].([]any)
		if len(joints) < 2 {
			t.Errorf("spring %v: %d joints", m["name"], len(joints))
		}
		for _, j := range joints {
			jm := j.(map[string]any)
			node(jm["node"])
			for _, f := range []string{"hitRadius", "stiffness", "gravityPower", "dragForce"} {
				if v, ok := jm[f].(float64); !ok || v < 0 {
					t.Errorf("joint %s %v", f, jm[f])
				}
			}
		}
		for _, g := range m["colliderGroups"].([]any) {
			if g.(int) < 0 || g.(int) >= len(groups) {
				t.Errorf("spring collider group %v", g)
			}
		}
	}
}

// checkV0 checks VRM 0.x's secondaryAnimation (vrm.secondaryanimation
// .schema.json and its bone group and collider group parts).
func checkV0(t *testing.T, sec map[string]any, nodes int) {
	t.Helper()
	bgs, _ := sec["boneGroups"].([]any)
	cgs, _ := sec["colliderGroups"].([]any)
	if len(bgs) == 0 || len(cgs) == 0 {
		t.Fatalf("boneGroups %d, colliderGroups %d", len(bgs), len(cgs))
	}
	for _, g := range cgs {
		m := g.(map[string]any)
		if n := m["node"].(int); n < 0 || n >= nodes {
			t.Errorf("collider group node %d", n)
		}
		for _, c := range m["colliders"].([]any) {
			cm := c.(map[string]any)
			off := cm["offset"].(map[string]any)
			if len(off) != 3 || cm["radius"].(float64) <= 0 {
				t.Errorf("collider %v", cm)
			}
		}
	}
	for _, g := range bgs {
		m := g.(map[string]any)
		for _, f := range []string{"stiffiness", "gravityPower", "dragForce", "hitRadius"} {
			if _, ok := m[f].(float64); !ok {
				t.Errorf("bone group %s %v", f, m[f])
			}
		}
		if len(m["bones"].([]any)) == 0 {
			t.Errorf("bone group without bones")
		}
		for _, i := range m["colliderGroups"].([]any) {
			if i.(int) < 0 || i.(int) >= len(cgs) {
				t.Errorf("bone group collider group %v", i)
			}
		}
	}
}
