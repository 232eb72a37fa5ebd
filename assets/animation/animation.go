// Package animation holds Kiln's built-in clips (locomotion and
// gestures), keyframed here rather than captured, and bakes them onto
// skeletons of Mixamo joint names: the Kiln rig of either gender for the
// animation library files, or the joints of an avatar scene (Kiln's or
// Ready Player Me's) when a model is downloaded with animations.
//
// Clips are authored as poses in the body frame (see pose) and baked per
// target into rotations relative to the target's rest pose (local = rest
// * delta) plus the Hips translation, so the same clip plays on any
// skeleton of those names whatever its bone axes, A-pose angle or
// proportions.
package animation

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/qmuntal/gltf"
)

// authors lists the clips; each builds its clip from a gender's style.
var authors = []func(style) clip{idle, walk, run, wave, nod, clap, point, shrug, thumbsUp}

// library is every clip of every gender, authored once; GLB files are
// baked on first use and kept, since the library is served often and
// never changes while the process runs.
var library = func() map[string]map[string]*entry {
	lib := map[string]map[string]*entry{}
	for gender, st := range styles {
		lib[gender] = map[string]*entry{}
		for _, a := range authors {
			c := a(st)
			lib[gender][c.name] = &entry{clip: c}
		}
	}
	return lib
}()

type entry struct {
	clip clip
	once sync.Once
	glb  []byte
	err  error
}

// Genders are the body types with a library, as in the avatar
// configuration and the animation URLs.
func Genders() []string { return []string{avatar.Masculine, avatar.Feminine} }

// Names lists the clip names, sorted; every gender has all of them.
func Names() []string {
	var names []string
	for name := range library[avatar.Masculine] {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Valid reports whether the library has the clip for the gender.
func Valid(gender, name string) bool {
	_, ok := library[gender][name]
	return ok
}

// GLB is the gender's skeleton (the rig of its default avatar, joints
// under "Armature") with the one clip, named as the clip: the file of
// the animation library.
func GLB(gender, name string) ([]byte, error) {
	if _, ok := library[gender]; !ok {
		return nil, kiln.Errorf(kiln.KindInvalid, "invalid_gender", "gender %q is not one of %s", gender, strings.Join(Genders(), ", "))
	}
	e, ok := library[gender][name]
	if !ok {
		return nil, kiln.Errorf(kiln.KindInvalid, "invalid_animation", "animation %q is not one of %s", name, strings.Join(Names(), ", "))
	}
	e.once.Do(func() { e.glb, e.err = bakeGLB(gender, e.clip) })
	return e.glb, e.err
}

func bakeGLB(gender string, c clip) ([]byte, error) {
	rig := avatar.Skeleton(gender, avatar.Default(gender))
	s := &scene.Scene{Asset: gltf.Asset{Version: "2.0"}}
	armature := &gltf.Node{Name: "Armature", Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}
	s.Nodes = append(s.Nodes, armature)
	nodes := make([]int, len(rig.Names))
	for i, name := range rig.Names {
		r := rig.Rest[i]
		n := &gltf.Node{
			Name:        name,
			Translation: [3]float64{float64(r.Translation[0]), float64(r.Translation[1]), float64(r.Translation[2])},
			Rotation:    [4]float64{float64(r.Rotation[0]), float64(r.Rotation[1]), float64(r.Rotation[2]), float64(r.Rotation[3])},
			Scale:       [3]float64{float64(r.Scale[0]), float64(r.Scale[1]), float64(r.Scale[2])},
		}
		nodes[i] = len(s.Nodes)
		s.Nodes = append(s.Nodes, n)
	}
	for i, p := range rig.Parent {
		if p < 0 {
			armature.Children = append(armature.Children, nodes[i])
		} else {
			parent := s.Nodes[nodes[p]]
			parent.Children = append(parent.Children, nodes[i])
		}
	}
	s.Scenes = []*gltf.Scene{{Name: "Scene", Nodes: []int{0}}}
	s.DefaultScene = gltf.Index(0)
	s.Animations = []*scene.Animation{rigTarget(rig).animation(c, nodes)}
	glb, err := scene.Write(s)
	if err != nil {
		return nil, kiln.E("animation.GLB", fmt.Errorf("%s/%s: %w", gender, c.name, err))
	}
	return glb, nil
}

// Attach bakes the named clips of the gender onto the skeleton of an
// avatar scene, found by joint name, and adds them as animations named
// as the clips (replacing any of the same name, so that attaching twice
// changes nothing). Each clip is baked against the scene's own rest pose,
// so it plays on Kiln avatars and on Ready Player Me's alike; joints the
// scene lacks are skipped.
func Attach(s *scene.Scene, gender string, names []string) error {
	lib, ok := library[gender]
	if !ok {
		return kiln.Errorf(kiln.KindInvalid, "invalid_gender", "gender %q is not one of %s", gender, strings.Join(Genders(), ", "))
	}
	var unknown []string
	for _, name := range names {
		if _, ok := lib[name]; !ok {
			unknown = append(unknown, fmt.Sprintf("%q", name))
		}
	}
	if len(unknown) > 0 {
		return kiln.Errorf(kiln.KindInvalid, "invalid_animation", "unknown animations %s (known: %s)", strings.Join(unknown, ", "), strings.Join(Names(), ", "))
	}
	if len(names) == 0 {
		return nil
	}
	k, nodes := sceneTarget(s)
	if _, ok := k.index["Hips"]; !ok {
		return kiln.Errorf(kiln.KindUnprocessable, "no_skeleton", "the model has no joint named Hips to animate")
	}
	for _, name := range names {
		a := k.animation(lib[name].clip, nodes)
		if i := slices.IndexFunc(s.Animations, func(x *scene.Animation) bool { return x != nil && x.Name == name }); i >= 0 {
			s.Animations[i] = a
		} else {
			s.Animations = append(s.Animations, a)
		}
	}
	// glTF forbids animating a node that has a matrix: give the joints
	// their decomposed TRS instead.
	for j, i := range nodes {
		n := s.Nodes[i]
		if n.MatrixOrDefault() != gltf.DefaultMatrix {
			t, r, sc := k.t[j], k.r[j], k.s[j]
			n.Matrix = gltf.DefaultMatrix
			n.Translation = [3]float64(t)
			n.Rotation = [4]float64(r)
			n.Scale = [3]float64{sc, sc, sc}
		}
	}
	return nil
}
