// Package vrm turns a Kiln avatar into a VRM: the glTF extensions that
// VTuber apps, social VR and web worlds (three-vrm, UniVRM, VSeeFace,
// Warudo) read to drive a humanoid. The avatar already has what VRM needs
// (the leader's 67-joint rig, the ARKit and viseme face shapes, eye
// joints); this package names them in VRM's terms: the humanoid bone map,
// expressions bound to the face shapes, lookAt on the eye bones,
// firstPerson annotations, meta with the operator's licence, and, when
// asked, MToon materials. VRM 1.0 (VRMC_vrm) and 0.x (VRM) are written
// from the same reading of the model.
//
// Two stages: TPose early in the variant pipeline (before the level of
// detail, like the download's pose), Convert at its end, when the node,
// mesh and material indices the extensions refer to are final.
package vrm

import (
	"math"
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/vrm/spring"
	"github.com/kilnhq/kiln/assets/xform"
)

// Extension names.
const (
	extVRM1   = "VRMC_vrm"
	extVRM0   = "VRM"
	extMToon  = "VRMC_materials_mtoon"
	extSpring = "VRMC_springBone"
)

// Options say which VRM to write.
type Options struct {
	// Version is "1.0" or "0.0".
	Version string
	// Toon gives every material MToon shading.
	Toon bool
	Meta kiln.VRMMeta
}

// Convert adds the VRM extensions to s, which TPose has put in VRM's
// rest pose. For 0.x it first turns the model to face -Z, as 0.x
// expects. A model without the humanoid's required joints is a
// KindUnprocessable error.
func Convert(s *scene.Scene, o Options) error {
	if o.Version != "1.0" && o.Version != "0.0" {
		return kiln.Errorf(kiln.KindInvalid, "invalid_vrm", "vrm version must be 1.0 or 0.0, got %q", o.Version)
	}
	if _, err := read(s); err != nil {
		return err
	}
	// Spring bones (assets/vrm/spring) in the pose and facing of VRM 1.0,
	// which TPose made: the chains' joints join the tree here, after the
	// stages that renumber nodes.
	chains, err := spring.Add(s)
	if err != nil {
		return err
	}
	if s.Extensions == nil {
		s.Extensions = gltf.Extensions{}
	}
	if o.Version == "0.0" {
		faceMinusZ(s)
		turnChains(chains)
		m, err := read(s)
		if err != nil {
			return err
		}
		ext := v0(s, m, o)
		if chains != nil {
			ext["secondaryAnimation"] = chains.V0()
		}
		s.Extensions[extVRM0] = ext
		return nil
	}
	m, err := read(s)
	if err != nil {
		return err
	}
	if chains != nil {
		s.Extensions[extSpring] = chains.V1()
	}
	s.Extensions[extVRM1] = map[string]any{
		"specVersion": "1.0",
		"meta":        meta1(o.Meta),
		"humanoid":    map[string]any{"humanBones": humanBones1(m)},
		"expressions": expressions1(m),
		"lookAt":      lookAt1(m),
		"firstPerson": map[string]any{"meshAnnotations": firstPerson1(m)},
	}
	if o.Toon {
		mtoon1(s)
	}
	return nil
}

// model is what Convert reads of the avatar: where each joint is, and
// which nodes carry which meshes and face shapes.
type model struct {
	node  map[string]int // node index by name
	world [][3]float64   // each node's position in model space
	mats  []xform.Mat4   // each node's world transform
	// meshNodes are the nodes with a mesh, in node order.
	meshNodes []int
	// shapes are the morph target names of each mesh, by mesh index.
	shapes map[int][]string
	s      *scene.Scene
}

// read indexes s; it fails when a required humanoid joint is missing.
func read(s *scene.Scene) (*model, error) {
	m := &model{node: map[string]int{}, shapes: map[int][]string{}, s: s}
	for i, n := range s.Nodes {
		if n == nil {
			continue
		}
		if _, dup := m.node[n.Name]; !dup && n.Name != "" {
			m.node[n.Name] = i
		}
		if n.Mesh != nil {
			m.meshNodes = append(m.meshNodes, i)
			m.shapes[*n.Mesh] = s.Meshes[*n.Mesh].TargetNames()
		}
	}
	m.mats = xform.Worlds(s, s.Parents(), nil)
	m.world = make([][3]float64, len(m.mats))
	for i, w := range m.mats {
		m.world[i] = w.Translation()
	}
	var missing []string
	for _, b := range bones {
		if b.required {
			if _, ok := m.node[b.joint]; !ok {
				missing = append(missing, b.joint)
			}
		}
	}
	if len(missing) > 0 {
		return nil, kiln.Errorf(kiln.KindUnprocessable, "vrm_unsupported", "a VRM needs the humanoid's joints; this model has no %v", missing)
	}
	return m, nil
}

// meshName is the name of the node that carries mesh node i (the
// avatar's part names: Wolf3D_Head, EyeLeft, ...).
func (m *model) meshName(i int) string { return m.s.Nodes[i].Name }

// shapeIndex is the index of target name on node i's mesh, or -1.
func (m *model) shapeIndex(i int, name string) int {
	return slices.Index(m.shapes[*m.s.Nodes[i].Mesh], name)
}

// round keeps values short in the JSON (micrometres are plenty).
func round(v float64) float64 { return math.Round(v*1e6) / 1e6 }
