package trim

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// channels lists which texture channels a scene's materials use.
func channels(s *scene.Scene) map[string]int {
	out := map[string]int{}
	for _, m := range s.Materials {
		if p := m.PBRMetallicRoughness; p != nil {
			if p.BaseColorTexture != nil {
				out["baseColor"]++
			}
			if p.MetallicRoughnessTexture != nil {
				out["metallicRoughness"]++
			}
		}
		if m.NormalTexture != nil {
			out["normal"]++
		}
		if m.OcclusionTexture != nil {
			out["occlusion"]++
		}
		if m.EmissiveTexture != nil {
			out["emissive"]++
		}
	}
	return out
}

// onlyDropped counts the images that only textures of the dropped
// channels use: those must go, while an image shared with a kept
// channel (an occlusion-roughness-metallic one) must stay.
func onlyDropped(s *scene.Scene, drop []string) int {
	use := map[int]map[bool]bool{} // image → used by dropped (true) / kept (false)
	mark := func(ch string, ti *gltf.TextureInfo, idx *int) {
		i := -1
		switch {
		case ti != nil:
			i = ti.Index
		case idx != nil:
			i = *idx
		default:
			return
		}
		if src := s.Textures[i].Source; src != nil {
			if use[*src] == nil {
				use[*src] = map[bool]bool{}
			}
			use[*src][slices.Contains(drop, ch)] = true
		}
	}
	for _, m := range s.Materials {
		if p := m.PBRMetallicRoughness; p != nil {
			mark("baseColor", p.BaseColorTexture, nil)
			mark("metallicRoughness", p.MetallicRoughnessTexture, nil)
		}
		if m.NormalTexture != nil {
			mark("normal", nil, m.NormalTexture.Index)
		}
		if m.OcclusionTexture != nil {
			mark("occlusion", nil, m.OcclusionTexture.Index)
		}
		mark("emissive", m.EmissiveTexture, nil)
	}
	n := 0
	for _, u := range use {
		if u[true] && !u[false] {
			n++
		}
	}
	return n
}

func models(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	s, err := avatar.Generate(avatar.Default(avatar.Feminine))
	if err != nil {
		t.Fatal(err)
	}
	if out["kiln-feminine"], err = scene.Write(s); err != nil {
		t.Fatal(err)
	}
	// Every channel at once: the helmet has all five.
	if b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", "DamagedHelmet.glb")); err == nil {
		out["DamagedHelmet"] = b
	} else {
		t.Log("DamagedHelmet.glb absent: only Kiln's avatar is trimmed")
	}
	return out
}

func TestChannels(t *testing.T) {
	for name, glb := range models(t) {
		for _, drop := range [][]string{
			{"baseColor"}, {"normal"}, {"metallicRoughness"}, {"emissive"}, {"occlusion"},
			{"normal", "metallicRoughness", "emissive", "occlusion"}, kiln.TextureChannels,
		} {
			t.Run(name+"/"+strings.Join(drop, ","), func(t *testing.T) {
				s, err := scene.Read(glb, scene.ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				s.Prune() // unused images of the source do not count
				before, images, gone := channels(s), len(s.Images), onlyDropped(s, drop)
				want := 0
				for _, c := range drop {
					want += before[c]
				}
				if got := Channels(s, drop); got != want {
					t.Errorf("cut %d references, want %d (%v)", got, want, before)
				}
				s.Prune()
				after := channels(s)
				for _, c := range kiln.TextureChannels {
					kept := before[c]
					if slices.Contains(drop, c) {
						kept = 0
					}
					if after[c] != kept {
						t.Errorf("%s: %d materials use it after, want %d", c, after[c], kept)
					}
				}
				if len(s.Images) != images-gone {
					t.Errorf("%d images after dropping %v, want %d of %d (those only it used go)", len(s.Images), drop, images-gone, images)
				}
				for _, m := range s.Materials {
					if slices.Contains(drop, "emissive") && m.EmissiveFactor != [3]float64{} {
						t.Errorf("material %q glows with factor %v and no emissive texture", m.Name, m.EmissiveFactor)
					}
					if p := m.PBRMetallicRoughness; slices.Contains(drop, "metallicRoughness") && before["metallicRoughness"] > 0 &&
						p != nil && p.MetallicFactorOrDefault() != 0 {
						t.Errorf("material %q is metal %v without its metallic-roughness texture", m.Name, p.MetallicFactorOrDefault())
					}
				}
				out, err := scene.Write(s)
				if err != nil {
					t.Fatal(err)
				}
				gltfcheck.RequireValid(t, out)
			})
		}
	}
}

// TestHands: a half-body avatar's separate hands go; Kiln's avatars keep
// their hands, which are part of the body.
func TestHands(t *testing.T) {
	s, err := avatar.Generate(avatar.Default(avatar.Masculine))
	if err != nil {
		t.Fatal(err)
	}
	meshes := len(s.Meshes)
	if n := Hands(s); n != 0 {
		t.Errorf("Kiln's avatar lost %d meshes, want none (its hands are in the body)", n)
	}
	// A half-body avatar as the leader builds it: the hands apart, a
	// skinned mesh of their own. The body's mesh stands in for it.
	body := slices.IndexFunc(s.Nodes, func(n *gltf.Node) bool { return n.Name == "Wolf3D_Body" })
	if body < 0 {
		t.Fatal("no Wolf3D_Body node")
	}
	hands := *s.Nodes[body]
	hands.Name = "Wolf3D_Hands"
	s.Nodes = append(s.Nodes, &hands)
	for _, sc := range s.Scenes {
		sc.Nodes = append(sc.Nodes, len(s.Nodes)-1)
	}
	if n := Hands(s); n != 1 {
		t.Fatalf("detached %d hand meshes, want 1", n)
	}
	s.Prune()
	if len(s.Meshes) != meshes || s.Nodes[body].Mesh == nil {
		t.Errorf("%d meshes after, want the %d of the body and outfit", len(s.Meshes), meshes)
	}
	glb, err := scene.Write(s)
	if err != nil {
		t.Fatal(err)
	}
	gltfcheck.RequireValid(t, glb)
}
