package leaderimport

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/fixture"
)

// leader reads one of the leader's avatars from ../shared, or skips.
func leader(t *testing.T, name string) *scene.Scene {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "shared", "testdata", name))
	if err != nil {
		t.Skipf("the leader's avatar is not here: %v", err)
	}
	s, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var kilnMale = sync.OnceValues(func() (*scene.Scene, error) { return avatar.Generate(avatar.Default(avatar.Masculine)) })

func rename(s *scene.Scene, from, to string) *scene.Scene {
	if i := Node(s, from); i >= 0 {
		s.Nodes[i].Name = to
	}
	return s
}

// TestCheck: what is not one of the leader's avatars is an invalid_avatar
// naming what it lacks.
func TestCheck(t *testing.T) {
	cube, err := scene.Read(fixture.CubeGLB(), scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		s    func() *scene.Scene
		says []string // empty: accepted
	}{
		{"a cube", func() *scene.Scene { return cube }, []string{"missing the skeleton", "skinned meshes Wolf3D_Head, Wolf3D_Body, EyeLeft, EyeRight, Wolf3D_Teeth"}},
		{"casual", func() *scene.Scene { return leader(t, "rpm-avatar-casual.glb") }, nil},
		{"office", func() *scene.Scene { return leader(t, "rpm-avatar-office.glb") }, nil},
		{"no head", func() *scene.Scene { return rename(leader(t, "rpm-avatar-casual.glb"), "Wolf3D_Head", "Head2") }, []string{"skinned meshes Wolf3D_Head"}},
		{"a joint renamed", func() *scene.Scene {
			return rename(leader(t, "rpm-avatar-office.glb"), "LeftHand", "mixamorig:LeftHand")
		}, []string{"joints LeftHand"}},
	} {
		err := Check(tc.s())
		if len(tc.says) == 0 {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		code, msg := kiln.CodeOf(err)
		if kiln.KindOf(err) != kiln.KindInvalid || code != "invalid_avatar" {
			t.Errorf("%s: %v, want invalid_avatar", tc.name, err)
		}
		for _, w := range tc.says {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q does not say %q", tc.name, msg, w)
			}
		}
	}
}

// TestTransfer gives the leader's avatars Kiln's face shapes: the head,
// teeth and eyes carry every name of Kiln's head, the leader's own two
// keep their offsets, a second transfer changes nothing, and a cancelled
// one stops with the context's error. What each shape moves is checked
// over HTTP (internal/app TestAvatarImport).
func TestTransfer(t *testing.T) {
	for _, file := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		s := leader(t, file)
		src, err := kilnMale()
		if err != nil {
			t.Fatal(err)
		}
		head := s.Meshes[*s.Nodes[Node(s, "Wolf3D_Head")].Mesh]
		own := slices.Clone(head.Primitives[0].Targets[0].Positions)
		if !NeedsFace(s) {
			t.Fatalf("%s: the leader's file should need a face", file)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := Transfer(ctx, s, src); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled transfer: %v", file, err)
		}
		s = leader(t, file)
		head = s.Meshes[*s.Nodes[Node(s, "Wolf3D_Head")].Mesh]
		if err := Transfer(context.Background(), s, src); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		want := targetNames(src, "Wolf3D_Head")
		for _, mesh := range []string{"Wolf3D_Head", "Wolf3D_Teeth", "EyeLeft", "EyeRight"} {
			m := s.Meshes[*s.Nodes[Node(s, mesh)].Mesh]
			names := m.TargetNames()
			if len(names) != len(want) || names[0] != "mouthOpen" || names[1] != "mouthSmile" {
				t.Errorf("%s: %s has %d targets starting %v, want the leader's two then Kiln's (%d)", file, mesh, len(names), names[:min(2, len(names))], len(want))
			}
			for _, n := range face.All() {
				if !slices.Contains(names, n) {
					t.Errorf("%s: %s lacks %s", file, mesh, n)
				}
			}
			for _, p := range m.Primitives {
				if len(p.Targets) != len(names) {
					t.Errorf("%s: %s has %d targets for %d names", file, mesh, len(p.Targets), len(names))
				}
			}
		}
		if !slices.Equal(head.Primitives[0].Targets[0].Positions, own) {
			t.Errorf("%s: the leader's mouthOpen changed", file)
		}
		if NeedsFace(s) {
			t.Errorf("%s: still needs a face after the transfer", file)
		}
		before := len(head.Primitives[0].Targets)
		if err := Transfer(context.Background(), s, src); err != nil || len(head.Primitives[0].Targets) != before {
			t.Errorf("%s: a second transfer: %v, %d targets (was %d)", file, err, len(head.Primitives[0].Targets), before)
		}
		if _, err := scene.Write(s); err != nil {
			t.Errorf("%s: write: %v", file, err)
		}
	}
}

// BenchmarkTransfer measures carrying the face onto the leader's casual
// avatar (Kiln's default avatar generated beforehand).
func BenchmarkTransfer(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "shared", "testdata", "rpm-avatar-casual.glb"))
	if err != nil {
		b.Skip(err)
	}
	src, err := kilnMale()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := scene.Read(data, scene.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if err := Transfer(context.Background(), s, src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSkinTone reads the leader's avatars' skin from their forehead: a
// warm light tone (red over green over blue), as both files show.
func TestSkinTone(t *testing.T) {
	for _, file := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		tone, ok := SkinTone(leader(t, file))
		t.Logf("%s: %s", file, tone)
		var r, g, b int
		if _, err := fmt.Sscanf(tone, "#%02x%02x%02x", &r, &g, &b); !ok || err != nil || !(r > g && g > b && r > 150) {
			t.Errorf("%s: skin tone %q (%v), want a warm light tone", file, tone, ok)
		}
	}
}
