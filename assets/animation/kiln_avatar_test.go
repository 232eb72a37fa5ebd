package animation

import (
	"fmt"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// TestAttachKiln plays every clip on Kiln's avatars: the defaults and a
// tall heavy one and a short slim one, whose bones are longer or shorter
// than the library rig's. The checks are those run on the leader's
// avatars.
func TestAttachKiln(t *testing.T) {
	var configs []avatar.Config
	for _, gender := range Genders() {
		tall, short := avatar.Default(gender), avatar.Default(gender)
		tall.Body.Height, tall.Body.Build = 1.95, 0.9
		short.Body.Height, short.Body.Build = 1.5, 0.1
		configs = append(configs, avatar.Default(gender), tall, short)
	}
	for _, cfg := range configs {
		gender := cfg.Body.Type
		t.Run(fmt.Sprintf("%s/%.2fm", gender, cfg.Body.Height), func(t *testing.T) {
			s, err := avatar.Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := Attach(s, gender, Names()); err != nil {
				t.Fatal(err)
			}
			joints := map[int]bool{}
			for _, sk := range s.Skins {
				for _, j := range sk.Joints {
					joints[j] = true
				}
			}
			for _, a := range s.Animations {
				for _, c := range a.Channels {
					if !joints[*c.Node] {
						t.Errorf("%s drives node %d (%s), not a joint", a.Name, *c.Node, s.Nodes[*c.Node].Name)
					}
				}
			}
			glb, err := scene.Write(s)
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, glb)
			s, err = scene.Read(glb, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Animations) != len(Names()) {
				t.Fatalf("%d animations, want %d", len(s.Animations), len(Names()))
			}
			for _, a := range s.Animations {
				checkPlays(t, s, a)
				checkSkinned(t, s, a)
			}
			checkWalk(t, s, animationNamed(t, s, "locomotion_walk"))
			checkWave(t, s, animationNamed(t, s, "gesture_wave"))
		})
	}
}
