package merge

import (
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

// bindTolerance is how far two inverse bind corrections may differ
// (relative) and still count as one: exporters round matrices.
const bindTolerance = 1e-4

// bindAll gives every instance its place on one skin: the first skinned
// instance's skin, extended, or a new one when the model has none but
// animates the nodes its meshes hang from. It sets each instance's joint
// map or attachment joint and its transform into the skin's bind space.
func bindAll(s *scene.Scene, t *tree, insts []*instance, rep *Report) (*scene.Skin, error) {
	var skin *scene.Skin
	kept := -1
	for _, in := range insts {
		if in.skin >= 0 {
			kept = in.skin
			skin = s.Skins[kept]
			break
		}
	}
	if skin == nil {
		skin = &scene.Skin{Name: "Kiln_Skin"}
		s.Skins = append(s.Skins, skin)
	}
	joints := slices.Clone(skin.Joints)
	ibm := make([]xform.Mat4, len(joints))
	index := map[int]int{}
	for i, j := range joints {
		ibm[i] = xform.Identity
		if i < len(skin.InverseBindMatrices) {
			ibm[i] = xform.FromFloat32(skin.InverseBindMatrices[i])
		}
		if _, dup := index[j]; !dup {
			index[j] = i
		}
	}
	addJoint := func(node int, inverseBind xform.Mat4) int {
		index[node] = len(joints)
		joints = append(joints, node)
		ibm = append(ibm, inverseBind)
		return index[node]
	}

	// Skinned instances: fold each further skin into the kept one.
	correction := map[int]xform.Mat4{kept: xform.Identity}
	for _, in := range insts {
		if in.skin < 0 {
			continue
		}
		x, ok := correction[in.skin]
		src := s.Skins[in.skin]
		srcIBM := func(i int) xform.Mat4 {
			if i < len(src.InverseBindMatrices) {
				return xform.FromFloat32(src.InverseBindMatrices[i])
			}
			return xform.Identity
		}
		if !ok {
			// X moves this skin's bind space into the kept one's:
			// IBM_kept(j)⁻¹ · IBM_src(j), the same for every shared joint.
			found := false
			for i, j := range src.Joints {
				k, shared := index[j]
				if !shared || k >= len(skin.Joints) {
					continue
				}
				inv, invertible := ibm[k].Inverse()
				if !invertible {
					continue
				}
				xj := inv.Mul(srcIBM(i))
				if !found {
					x, found = xj, true
				} else if !x.Near(xj, bindTolerance) {
					return nil, kiln.Errorf(kiln.KindInvalid, "incompatible_skins",
						"skins %d and %d bind joint %s in different poses: their meshes cannot share one skin", kept, in.skin, describe(s, j))
				}
			}
			if !found {
				x = xform.Identity
			}
			xInv, _ := x.Inverse()
			for i, j := range src.Joints {
				if _, shared := index[j]; !shared {
					addJoint(j, srcIBM(i).Mul(xInv))
				}
			}
			correction[in.skin] = x
			rep.SkinsMerged++
		}
		in.xform = x
		in.jointMap = make([]uint16, len(src.Joints))
		for i, j := range src.Joints {
			in.jointMap[i] = uint16(index[j])
		}
	}

	// Unskinned instances ride a joint: the nearest joint above them,
	// else the nearest animated node, else the top of their tree.
	for _, in := range insts {
		if in.skin >= 0 {
			continue
		}
		j := -1
		for n := in.node; n >= 0; n = t.parent[n] {
			if _, ok := index[n]; ok || t.animated[n] {
				j = n
				break
			}
		}
		if j < 0 {
			j = t.top(in.node)
		}
		wj := t.world(j)
		if _, ok := index[j]; !ok {
			inv, _ := wj.Inverse()
			addJoint(j, inv)
			rep.AddedJoints = append(rep.AddedJoints, describe(s, j))
		}
		k := index[j]
		in.attach = k
		// Rigidly with the joint from the rest pose on:
		// J(t)·IBM·v' = J(t)·W_J⁻¹·W_N·v, so v' = IBM⁻¹·W_J⁻¹·W_N·v.
		ibmInv, _ := ibm[k].Inverse()
		wjInv, _ := wj.Inverse()
		in.xform = ibmInv.Mul(wjInv).Mul(in.world)
	}
	if len(joints) > 1<<16 {
		return nil, kiln.Errorf(kiln.KindInvalid, "too_many_joints", "%d joints do not fit JOINTS_0", len(joints))
	}

	commonRoot(s, t, joints, skin)
	skin.Joints = joints
	skin.InverseBindMatrices = make([][16]float32, len(ibm))
	for i, m := range ibm {
		skin.InverseBindMatrices[i] = m.Float32()
	}
	return skin, nil
}

// commonRoot makes sure the joints share an ancestor, as glTF requires
// (the validator's SKIN_NO_COMMON_ROOT): joints taken from separate
// trees get a new xform.Identity node above those trees, which changes no
// world transform. A skeleton that is no longer above every joint is
// dropped (it is optional).
func commonRoot(s *scene.Scene, t *tree, joints []int, skin *scene.Skin) {
	var tops []int
	for _, j := range joints {
		if top := t.top(j); !slices.Contains(tops, top) {
			tops = append(tops, top)
		}
	}
	if len(tops) > 1 {
		root := len(s.Nodes)
		s.Nodes = append(s.Nodes, newNode("Kiln_Root", tops))
		t.grow(len(s.Nodes))
		for _, top := range tops {
			t.parent[top] = root
		}
		if t.roots != nil {
			kept := (*t.roots)[:0:0]
			for _, r := range *t.roots {
				if !slices.Contains(tops, r) {
					kept = append(kept, r)
				}
			}
			*t.roots = append(kept, root)
		}
	}
	if skin.Skeleton != nil {
		for _, j := range joints {
			if !t.below(j, *skin.Skeleton) {
				skin.Skeleton = nil
				break
			}
		}
	}
}

// below reports whether n is a or a descendant of a.
func (t *tree) below(n, a int) bool {
	for ; n >= 0; n = t.parent[n] {
		if n == a {
			return true
		}
	}
	return false
}

// grow extends the tree's arrays to n nodes (new ones: roots at rest).
func (t *tree) grow(n int) {
	for len(t.parent) < n {
		t.parent = append(t.parent, -1)
		t.worlds = append(t.worlds, xform.Identity)
		t.done = append(t.done, true)
		t.animated = append(t.animated, false)
	}
}

func newNode(name string, children []int) *gltf.Node {
	return &gltf.Node{Name: name, Children: slices.Clone(children)}
}
