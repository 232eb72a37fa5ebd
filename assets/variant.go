package assets

import (
	"context"
	"math"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/atlas"
	"github.com/kilnhq/kiln/assets/leader"
	"github.com/kilnhq/kiln/assets/lod"
	"github.com/kilnhq/kiln/assets/merge"
	"github.com/kilnhq/kiln/assets/morph"
	"github.com/kilnhq/kiln/assets/pose"
	"github.com/kilnhq/kiln/assets/quantize"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/texture"
	"github.com/kilnhq/kiln/assets/trim"
	"github.com/kilnhq/kiln/assets/vrm"
)

// BuildVariant turns a model's lod 0 scene into the variant, in the order
// that keeps each stage cheapest: fewer triangles first (lod), then the
// atlas (which needs the final UVs), then the merge (which needs one
// material per group), then the texture encoding.
func BuildVariant(ctx context.Context, s *scene.Scene, v kiln.Variant) (Model, error) {
	if err := v.Validate(); err != nil {
		return Model{}, err
	}
	var m Model
	// The morph targets not asked for go first: every later stage
	// (simplification, merge) carries each target along.
	if v.MorphTargets != nil {
		morph.Keep(s, v.MorphTargets)
	}
	// The leader's parameters that move or cut parts come before the
	// lod too, which then simplifies only what is served.
	if v.Pose != "" {
		if err := pose.Apply(s, v.Pose); err != nil {
			return Model{}, err
		}
	}
	// A VRM's rest pose is VRM's T-pose (arms, hands and fingers along
	// X), set before the lod like pose=T, so that it simplifies what is
	// served.
	if v.Format == "vrm" {
		if err := vrm.TPose(s); err != nil {
			return Model{}, err
		}
	}
	if len(v.DropChannels) > 0 {
		trim.Channels(s, v.DropChannels)
	}
	if v.NoHands {
		trim.Hands(s)
	}
	err := lod.Chain(ctx, s, v.LOD, func(l lod.Level, _ *scene.Scene) error {
		m.Level = l
		return ctx.Err()
	})
	if err != nil {
		return Model{}, err
	}
	// Images follow the level (lod.TextureCap): the atlas and every
	// texture it kept out are no larger than the level allows, nor than
	// the atlas size asked.
	textureCap := texture.DefaultMaxSize
	if v.AtlasSize > 0 {
		textureCap = v.AtlasSize
	}
	if limit := lod.TextureCap(v.LOD); limit > 0 {
		textureCap = min(textureCap, limit)
	}
	// The leader's merge always packs an atlas: each merged mesh is one
	// primitive (clients read Wolf3D_Avatar as one geometry), where a
	// merge without it keeps a primitive per material.
	if v.AtlasSize > 0 || v.Merge && atlas.IsWolf3D(s) {
		r, err := atlas.Build(ctx, s, textureCap)
		if err != nil {
			return Model{}, err
		}
		m.Atlas = &r
	}
	// Merge, quantization and writing take no context: the job's
	// deadline is looked at before each.
	if err := ctx.Err(); err != nil {
		return Model{}, err
	}
	if v.Merge {
		r, err := merge.Meshes(s)
		if err != nil {
			return Model{}, err
		}
		m.Merge = &r
	}
	// Avatars keep the leader's tree whatever the stages did: the meshes
	// (the merged ones too) under Armature after Hips, in its order.
	if atlas.IsWolf3D(s) {
		leader.Arrange(s)
	}
	// Again: the atlas bakes factors that differ between materials into
	// new textures (an ORM image for roughness), which were not asked for.
	if len(v.DropChannels) > 0 {
		trim.Channels(s, v.DropChannels)
	}
	// textureSizeLimit caps every image, the atlas's too; the atlas is
	// packed at a power of two first and scaled down with the rest.
	if v.TextureSizeLimit > 0 {
		textureCap = min(textureCap, v.TextureSizeLimit)
	}
	if v.TextureSizeSource {
		textureCap = math.MaxInt32 // no image is that large: none is scaled
	}
	r, err := texture.Convert(ctx, s, texture.Options{Format: v.TextureFormat, MaxSize: textureCap})
	if err != nil {
		return Model{}, err
	}
	m.Textures = r.Images
	s.Prune()
	if err := ctx.Err(); err != nil {
		return Model{}, err
	}
	// The VRM extensions refer to nodes, meshes, materials and textures
	// by index: they are written once the stages before have settled
	// them, and before quantization, which 0.x's turn to face -Z must
	// precede (it rewrites the float vertices).
	if v.Format == "vrm" {
		if err := vrm.Convert(s, vrm.Options{Version: v.VRMVersion, Toon: v.Shading == "toon", Meta: *v.VRMMeta}); err != nil {
			return Model{}, err
		}
	}
	if v.Meshopt {
		// Quantization is the lossy step; welding the vertices it made
		// identical, ordering and compression keep every value.
		quantize.Apply(s, quantize.Options{})
		if err := s.Weld(); err != nil {
			return Model{}, err
		}
		s.OptimizeOrder()
	}
	if v.Draco {
		// Identical vertices stored once (Google's encoder merges them
		// too), then numbered by first use in cache order: Draco's
		// sequential coding predicts each vertex from the one before and
		// each index from the last, so both come out small. Lossless.
		if err := s.Weld(); err != nil {
			return Model{}, err
		}
		s.OptimizeOrder()
	}
	if m.GLB, err = scene.WriteWith(s, scene.WriteOptions{Meshopt: v.Meshopt, Draco: v.Draco}); err != nil {
		return Model{}, err
	}
	m.Stats = s.Stats()
	return m, nil
}
