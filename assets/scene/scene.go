// Package scene is Kiln's working model of a glTF 2.0 asset: the JSON
// objects that need no decoding (materials, textures, samplers, nodes,
// cameras) are qmuntal/gltf's own structs, while everything that lives in
// buffers (vertex streams, indices, morph targets, skins, animations,
// images) is decoded into plain Go slices. Kiln's passes (level of detail,
// atlases, avatar builds) rewrite geometry, so they need arrays they can
// index and slice, not accessors, buffer views and strides; Write lays the
// buffers out again from scratch.
//
// References between objects are indices into the Scene's slices, as in
// glTF, so a material or a node can be handed to qmuntal unchanged.
package scene

import (
	"github.com/qmuntal/gltf"
	// Imported for its side effect: KHR_texture_transform then decodes
	// into a struct that passes (atlas UV rewriting) can edit, instead of
	// raw JSON.
	_ "github.com/qmuntal/gltf/ext/texturetransform"
)

// Scene is a whole glTF asset.
type Scene struct {
	Asset gltf.Asset
	// ExtensionsRequired keeps what the source required, so that an
	// extension that is still used on write stays required (a loader that
	// ignores it would draw something else). Write never requires an
	// extension that is no longer used.
	ExtensionsRequired []string
	// Extensions and Extras of the document pass through unchanged
	// (KHR_lights_punctual lights, KHR_materials_variants names).
	Extensions gltf.Extensions
	Extras     any

	Meshes    []*Mesh
	Materials []*gltf.Material
	Textures  []*gltf.Texture
	Images    []*Image
	Samplers  []*gltf.Sampler
	Nodes     []*gltf.Node
	// Scenes and DefaultScene are glTF's scenes (root node lists).
	Scenes       []*gltf.Scene
	DefaultScene *int
	Skins        []*Skin
	Animations   []*Animation
	Cameras      []*gltf.Camera
}

// Mesh is a glTF mesh. The default morph weights live in Weights and the
// morph target names, by the common convention, in Extras["targetNames"].
type Mesh struct {
	Name       string
	Primitives []*Primitive
	Weights    []float64
	Extras     any
	Extensions gltf.Extensions
}

// TargetNames reads the morph target names that exporters (Blender,
// Ready Player Me, three.js) store in extras.targetNames; avatar clients
// drive blend shapes by these names, not by index.
func (m *Mesh) TargetNames() []string {
	ex, ok := m.Extras.(map[string]any)
	if !ok {
		return nil
	}
	list, ok := ex["targetNames"].([]any)
	if !ok {
		return nil
	}
	names := make([]string, len(list))
	for i, v := range list {
		names[i], _ = v.(string)
	}
	return names
}

// Primitive is one draw call's geometry. Every vertex stream that is not
// nil has exactly VertexCount elements, so that a pass which reorders or
// drops vertices can treat all of them alike (see Compact).
type Primitive struct {
	Mode     gltf.PrimitiveMode
	Material *int
	// Indices is nil for a primitive that draws its vertices in order.
	Indices []uint32

	Positions [][3]float32
	Normals   [][3]float32
	Tangents  [][4]float32
	// TexCoords[n] is TEXCOORD_n, Colors[n] COLOR_n (RGB read with
	// alpha 1), Joints[n] and Weights[n] are JOINTS_n and WEIGHTS_n.
	TexCoords [][][2]float32
	Colors    [][][4]float32
	Joints    [][][4]uint16
	Weights   [][][4]float32
	// Custom holds application attributes (names starting with "_"),
	// converted to float32.
	Custom map[string]Stream

	Targets []Target

	Extras     any
	Extensions gltf.Extensions
}

// Stream is a vertex attribute of any width, flattened: element i is
// Data[i*Components : (i+1)*Components].
type Stream struct {
	Components int
	Data       []float32
}

// Target is one morph target: per-vertex displacements of the base
// streams.
type Target struct {
	Positions [][3]float32
	Normals   [][3]float32
	Tangents  [][3]float32
	Custom    map[string]Stream
}

// VertexCount is the number of vertices, the length of every stream.
func (p *Primitive) VertexCount() int { return len(p.Positions) }

// Image is an image's encoded bytes (PNG, JPEG, WebP, KTX2...). Kiln keeps
// images encoded until a texture pass needs the pixels.
type Image struct {
	Name       string
	MimeType   string
	Data       []byte
	Extras     any
	Extensions gltf.Extensions
}

// Skin binds a mesh to joints. InverseBindMatrices is column-major and nil
// when every matrix is the identity, as glTF allows.
type Skin struct {
	Name                string
	Joints              []int
	Skeleton            *int
	InverseBindMatrices [][16]float32
	Extras              any
	Extensions          gltf.Extensions
}

// Animation is a clip: channels that drive node properties from samplers.
type Animation struct {
	Name       string
	Channels   []Channel
	Samplers   []AnimationSampler
	Extras     any
	Extensions gltf.Extensions
}

// Channel drives Path of Node from Samplers[Sampler].
type Channel struct {
	Sampler    int
	Node       *int
	Path       gltf.TRSProperty
	Extras     any
	Extensions gltf.Extensions
}

// AnimationSampler holds keyframe times (Input, seconds) and values
// (Output, flattened: 3 per key for translation and scale, 4 for
// rotation, one per morph target for weights; three times as many for
// CUBICSPLINE, which stores in-tangent, value, out-tangent).
type AnimationSampler struct {
	Interpolation gltf.Interpolation
	Input         []float32
	Output        []float32
	Extras        any
	Extensions    gltf.Extensions
}

// Parents is each node's parent index, -1 for a root. Read refuses a
// node with two parents and cycles; a scene built in code keeps the last
// parent that lists a node.
func (s *Scene) Parents() []int {
	parent := make([]int, len(s.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range s.Nodes {
		if n == nil {
			continue
		}
		for _, c := range n.Children {
			if c >= 0 && c < len(parent) {
				parent[c] = i
			}
		}
	}
	return parent
}
