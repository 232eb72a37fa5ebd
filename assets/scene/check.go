package scene

import (
	"fmt"

	"github.com/qmuntal/gltf"
)

// check verifies that the scene is self-consistent: every reference in
// range, every stream as long as the positions, a node tree without
// cycles. Read runs it so that corrupt files fail with a message; Write
// runs it so that a pass's bug fails there, not in the validator or in a
// client's renderer.
func (s *Scene) check() error {
	inRange := func(i, n int) bool { return i >= 0 && i < n }
	for mi, m := range s.Meshes {
		if m == nil {
			return fmt.Errorf("mesh %d is null", mi)
		}
		if len(m.Primitives) == 0 {
			return fmt.Errorf("mesh %d has no primitives", mi)
		}
		targets := len(m.Primitives[0].Targets)
		for pi, p := range m.Primitives {
			if p == nil {
				return fmt.Errorf("mesh %d primitive %d is null", mi, pi)
			}
			if err := p.check(); err != nil {
				return fmt.Errorf("mesh %d primitive %d: %w", mi, pi, err)
			}
			if len(p.Targets) != targets {
				return fmt.Errorf("mesh %d: primitive %d has %d morph targets, primitive 0 has %d", mi, pi, len(p.Targets), targets)
			}
			var bad error
			primitiveMaterials(p, func(i int) int {
				if !inRange(i, len(s.Materials)) && bad == nil {
					bad = fmt.Errorf("mesh %d primitive %d refers to material %d, which does not exist", mi, pi, i)
				}
				return i
			})
			if bad != nil {
				return bad
			}
		}
		if len(m.Weights) != 0 && len(m.Weights) != targets {
			return fmt.Errorf("mesh %d has %d default weights for %d morph targets", mi, len(m.Weights), targets)
		}
	}
	for i, m := range s.Materials {
		if m == nil {
			return fmt.Errorf("material %d is null", i)
		}
		var bad error
		materialTextures(m, func(t int) int {
			if !inRange(t, len(s.Textures)) && bad == nil {
				bad = fmt.Errorf("material %d refers to texture %d, which does not exist", i, t)
			}
			return t
		})
		if bad != nil {
			return bad
		}
	}
	for i, t := range s.Textures {
		if t == nil {
			return fmt.Errorf("texture %d is null", i)
		}
		if t.Sampler != nil && !inRange(*t.Sampler, len(s.Samplers)) {
			return fmt.Errorf("texture %d refers to sampler %d, which does not exist", i, *t.Sampler)
		}
		var bad error
		textureImages(t, func(im int) int {
			if !inRange(im, len(s.Images)) && bad == nil {
				bad = fmt.Errorf("texture %d refers to image %d, which does not exist", i, im)
			}
			return im
		})
		if bad != nil {
			return bad
		}
	}
	for i, im := range s.Images {
		if im == nil || len(im.Data) == 0 {
			return fmt.Errorf("image %d is empty", i)
		}
	}
	for i, sm := range s.Samplers {
		if sm == nil {
			return fmt.Errorf("sampler %d is null", i)
		}
	}
	for i, c := range s.Cameras {
		if c == nil {
			return fmt.Errorf("camera %d is null", i)
		}
	}
	if err := s.checkNodes(); err != nil {
		return err
	}
	for i, sk := range s.Skins {
		if sk == nil || len(sk.Joints) == 0 {
			return fmt.Errorf("skin %d has no joints", i)
		}
		for _, j := range sk.Joints {
			if !inRange(j, len(s.Nodes)) {
				return fmt.Errorf("skin %d has joint %d, which is not a node", i, j)
			}
		}
		if sk.Skeleton != nil && !inRange(*sk.Skeleton, len(s.Nodes)) {
			return fmt.Errorf("skin %d has skeleton %d, which is not a node", i, *sk.Skeleton)
		}
		if sk.InverseBindMatrices != nil && len(sk.InverseBindMatrices) != len(sk.Joints) {
			return fmt.Errorf("skin %d has %d inverse bind matrices for %d joints", i, len(sk.InverseBindMatrices), len(sk.Joints))
		}
	}
	for i, a := range s.Animations {
		if err := s.checkAnimation(a); err != nil {
			return fmt.Errorf("animation %d: %w", i, err)
		}
	}
	return nil
}

func (s *Scene) checkNodes() error {
	n := len(s.Nodes)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -1
	}
	for i, node := range s.Nodes {
		if node == nil {
			return fmt.Errorf("node %d is null", i)
		}
		if node.Mesh != nil && (*node.Mesh < 0 || *node.Mesh >= len(s.Meshes)) {
			return fmt.Errorf("node %d refers to mesh %d, which does not exist", i, *node.Mesh)
		}
		if len(node.Weights) > 0 && (node.Mesh == nil || len(node.Weights) != len(s.Meshes[*node.Mesh].Primitives[0].Targets)) {
			return fmt.Errorf("node %d has %d morph weights, not one per morph target of its mesh", i, len(node.Weights))
		}
		if node.Skin != nil && (*node.Skin < 0 || *node.Skin >= len(s.Skins)) {
			return fmt.Errorf("node %d refers to skin %d, which does not exist", i, *node.Skin)
		}
		if node.Camera != nil && (*node.Camera < 0 || *node.Camera >= len(s.Cameras)) {
			return fmt.Errorf("node %d refers to camera %d, which does not exist", i, *node.Camera)
		}
		for _, c := range node.Children {
			if c < 0 || c >= n {
				return fmt.Errorf("node %d has child %d, which does not exist", i, c)
			}
			if parent[c] != -1 || c == i {
				return fmt.Errorf("node %d has more than one parent", c)
			}
			parent[c] = i
		}
	}
	// With one parent each, a node that no root reaches sits on a cycle.
	seen := make([]bool, n)
	var stack []int
	for i := range s.Nodes {
		if parent[i] == -1 {
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		seen[i] = true
		stack = append(stack, s.Nodes[i].Children...)
	}
	for i, ok := range seen {
		if !ok {
			return fmt.Errorf("node %d is part of a cycle in the node hierarchy", i)
		}
	}
	for si, sc := range s.Scenes {
		if sc == nil {
			return fmt.Errorf("scene %d is null", si)
		}
		for _, r := range sc.Nodes {
			if r < 0 || r >= n {
				return fmt.Errorf("scene %d has node %d, which does not exist", si, r)
			}
			if parent[r] != -1 {
				return fmt.Errorf("scene %d lists node %d as a root, but it has a parent", si, r)
			}
		}
	}
	if s.DefaultScene != nil && (*s.DefaultScene < 0 || *s.DefaultScene >= len(s.Scenes)) {
		return fmt.Errorf("the default scene %d does not exist", *s.DefaultScene)
	}
	return nil
}

func (s *Scene) checkAnimation(a *Animation) error {
	if a == nil {
		return fmt.Errorf("null")
	}
	for si, sm := range a.Samplers {
		if len(sm.Input) == 0 {
			return fmt.Errorf("sampler %d has no keyframes", si)
		}
	}
	for ci, c := range a.Channels {
		if c.Sampler < 0 || c.Sampler >= len(a.Samplers) {
			return fmt.Errorf("channel %d refers to sampler %d, which does not exist", ci, c.Sampler)
		}
		if c.Node == nil {
			continue
		}
		if *c.Node < 0 || *c.Node >= len(s.Nodes) {
			return fmt.Errorf("channel %d targets node %d, which does not exist", ci, *c.Node)
		}
		k, err := s.pathWidth(c)
		if err != nil {
			return fmt.Errorf("channel %d: %w", ci, err)
		}
		sm := a.Samplers[c.Sampler]
		want := len(sm.Input) * k
		if sm.Interpolation == gltf.InterpolationCubicSpline {
			want *= 3
		}
		if len(sm.Output) != want {
			return fmt.Errorf("channel %d: sampler %d has %d output values for %d keyframes of %s (want %d)", ci, c.Sampler, len(sm.Output), len(sm.Input), c.Path, want)
		}
	}
	return nil
}

// pathWidth is the number of output values per keyframe of a channel.
func (s *Scene) pathWidth(c Channel) (int, error) {
	switch c.Path {
	case gltf.TRSTranslation, gltf.TRSScale:
		return 3, nil
	case gltf.TRSRotation:
		return 4, nil
	case gltf.TRSWeights:
		node := s.Nodes[*c.Node]
		if node.Mesh == nil {
			return 0, fmt.Errorf("animates the weights of node %d, which has no mesh", *c.Node)
		}
		return len(s.Meshes[*node.Mesh].Primitives[0].Targets), nil
	}
	return 0, fmt.Errorf("animates %q, which is not supported", c.Path)
}

// check verifies the primitive's streams against its vertex count.
func (p *Primitive) check() error {
	n := len(p.Positions)
	if n == 0 {
		return fmt.Errorf("no positions")
	}
	if p.Mode > gltf.PrimitiveTriangleFan {
		return fmt.Errorf("unknown mode %d", p.Mode)
	}
	bad := ""
	p.eachStream(func(name string, length int) {
		if length != n && bad == "" {
			bad = fmt.Sprintf("%s has %d elements but POSITION has %d", name, length, n)
		}
	})
	if bad != "" {
		return fmt.Errorf("%s", bad)
	}
	if p.Indices != nil && len(p.Indices) == 0 {
		return fmt.Errorf("an empty index list (glTF accessors hold at least one element)")
	}
	for k, v := range p.Indices {
		if int(v) >= n {
			return fmt.Errorf("index %d at position %d is past the %d vertices", v, k, n)
		}
	}
	return nil
}

// eachStream reports the name and length of every non-nil stream but
// POSITION.
func (p *Primitive) eachStream(fn func(name string, length int)) {
	if p.Normals != nil {
		fn("NORMAL", len(p.Normals))
	}
	if p.Tangents != nil {
		fn("TANGENT", len(p.Tangents))
	}
	for i, s := range p.TexCoords {
		if s != nil {
			fn(fmt.Sprintf("TEXCOORD_%d", i), len(s))
		}
	}
	for i, s := range p.Colors {
		if s != nil {
			fn(fmt.Sprintf("COLOR_%d", i), len(s))
		}
	}
	for i, s := range p.Joints {
		if s != nil {
			fn(fmt.Sprintf("JOINTS_%d", i), len(s))
		}
	}
	for i, s := range p.Weights {
		if s != nil {
			fn(fmt.Sprintf("WEIGHTS_%d", i), len(s))
		}
	}
	for name, s := range p.Custom {
		fn(name, streamLen(s))
	}
	for ti, t := range p.Targets {
		if t.Positions != nil {
			fn(fmt.Sprintf("POSITION of morph target %d", ti), len(t.Positions))
		}
		if t.Normals != nil {
			fn(fmt.Sprintf("NORMAL of morph target %d", ti), len(t.Normals))
		}
		if t.Tangents != nil {
			fn(fmt.Sprintf("TANGENT of morph target %d", ti), len(t.Tangents))
		}
		for name, s := range t.Custom {
			fn(fmt.Sprintf("%s of morph target %d", name, ti), streamLen(s))
		}
	}
}

// streamLen is the element count of a stream, or -1 when its data does
// not divide into elements.
func streamLen(s Stream) int {
	if s.Components < 1 || s.Components > 4 || len(s.Data)%s.Components != 0 {
		return -1
	}
	return len(s.Data) / s.Components
}
