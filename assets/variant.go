package assets

import (
	"context"
	"fmt"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/atlas"
	"github.com/kilnhq/kiln/assets/lod"
	"github.com/kilnhq/kiln/assets/merge"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/texture"
)

// Variant is how a model is served: the query parameters of
// GET /model/{id}.glb (spec 4.1).
type Variant struct {
	LOD int
	// TextureFormat is webp, png or compat; empty keeps the stored images.
	TextureFormat string
	// AtlasSize packs the textures into one atlas per channel of at most
	// this size; 0 leaves them apart, capped at texture.DefaultMaxSize.
	AtlasSize int
	Merge     bool
}

// Validate checks the parameters; every error names the parameter.
func (v Variant) Validate() error {
	switch {
	case v.LOD < 0 || v.LOD > lod.Max:
		return kiln.Errorf(kiln.KindInvalid, "invalid_lod", "lod must be 0, 1 or 2, got %d", v.LOD)
	case v.TextureFormat != "" && v.TextureFormat != texture.FormatWebP && v.TextureFormat != texture.FormatPNG && v.TextureFormat != texture.FormatCompat:
		return kiln.Errorf(kiln.KindInvalid, "invalid_texture_format", "textureFormat must be webp, png or compat, got %q", v.TextureFormat)
	case v.AtlasSize != 0 && (v.AtlasSize < 64 || v.AtlasSize > 2048 || v.AtlasSize&(v.AtlasSize-1) != 0):
		return kiln.Errorf(kiln.KindInvalid, "invalid_texture_atlas_size", "textureAtlasSize must be a power of two from 64 to 2048, got %d", v.AtlasSize)
	}
	return nil
}

// Key is the canonical form of the parameters: equal variants have equal
// keys, so each is built once and stored under its key.
func (v Variant) Key() string {
	format := v.TextureFormat
	if format == "" {
		format = "keep"
	}
	merged := 0
	if v.Merge {
		merged = 1
	}
	return fmt.Sprintf("lod%d-%s-atlas%d-merge%d", v.LOD, format, v.AtlasSize, merged)
}

// BuildVariant turns a model's lod 0 scene into the variant, in the order
// that keeps each stage cheapest: fewer triangles first (lod), then the
// atlas (which needs the final UVs), then the merge (which needs one
// material per group), then the texture encoding.
func BuildVariant(ctx context.Context, s *scene.Scene, v Variant) (Model, error) {
	if err := v.Validate(); err != nil {
		return Model{}, err
	}
	var m Model
	err := lod.Chain(s, v.LOD, func(l lod.Level, _ *scene.Scene) error {
		m.Level = l
		return ctx.Err()
	})
	if err != nil {
		return Model{}, err
	}
	if v.AtlasSize > 0 {
		r, err := atlas.Build(ctx, s, v.AtlasSize)
		if err != nil {
			return Model{}, err
		}
		m.Atlas = &r
	}
	if v.Merge {
		r, err := merge.Meshes(s)
		if err != nil {
			return Model{}, err
		}
		m.Merge = &r
	}
	// Textures the atlas kept out (tiling ones) are capped at the atlas
	// size too, so no image of the variant is larger than asked.
	r, err := texture.Convert(ctx, s, texture.Options{Format: v.TextureFormat, MaxSize: v.AtlasSize})
	if err != nil {
		return Model{}, err
	}
	m.Textures = r.Images
	s.Prune()
	if m.GLB, err = scene.Write(s); err != nil {
		return Model{}, err
	}
	m.Stats = s.Stats()
	return m, nil
}
