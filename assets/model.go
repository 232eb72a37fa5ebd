// Package assets is Kiln's asset processing: bytes and scenes in, bytes
// and scenes out. It knows nothing of HTTP, Redis or storage, so every
// function here can be tested and benchmarked on its own. This file is
// the pipeline the worker and the CLI share; the work itself lives in the
// subpackages (scene, simplify, lod).
package assets

import (
	"context"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/atlas"
	"github.com/kilnhq/kiln/assets/lod"
	"github.com/kilnhq/kiln/assets/merge"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/texture"
)

// MaxModelBytes bounds what a worker reads into memory for one model.
const MaxModelBytes = 512 << 20

// Model is one level of a processed model.
type Model struct {
	GLB   []byte      `json:"-"`
	Stats scene.Stats `json:"stats"`
	Level lod.Level   `json:"level"`
	// What the variant stages did, when they ran.
	Atlas    *atlas.Report         `json:"atlas,omitempty"`
	Merge    *merge.Report         `json:"merge,omitempty"`
	Textures []texture.ImageReport `json:"textures,omitempty"`
}

// Read parses a GLB, or a .gltf whose buffers and images are embedded.
func Read(data []byte) (*scene.Scene, error) { return ReadUpload(data, "glb") }

// ReadContext is Read that stops when ctx ends (see ReadUploadContext).
func ReadContext(ctx context.Context, data []byte) (*scene.Scene, error) {
	return ReadUploadContext(ctx, data, "glb")
}

// Levels writes the model as one self-contained GLB per level of detail,
// from lod 0 (the source, cleaned) to maxLevel. The clean-up drops
// duplicate and unused data, which never changes what renders, and
// re-encodes an image file far larger than its pixels (texture.Bloated)
// so that its junk is in no level. From lod 1
// on, images are scaled down to the level's cap (lod.TextureCap), in
// their own format: each level starts from the one before, so lod 2
// scales lod 1's images.
func Levels(ctx context.Context, s *scene.Scene, maxLevel int) ([]Model, error) {
	s.Dedup()
	s.Prune()
	if _, err := texture.Slim(ctx, s); err != nil {
		return nil, err
	}
	var out []Model
	err := lod.Chain(ctx, s, maxLevel, func(l lod.Level, s *scene.Scene) error {
		m := Model{Level: l}
		if limit := lod.TextureCap(l.Level); limit > 0 {
			r, err := texture.Convert(ctx, s, texture.Options{Format: texture.FormatKeep, MaxSize: limit})
			if err != nil {
				return err
			}
			m.Textures = r.Images
		}
		glb, err := scene.Write(s)
		if err != nil {
			return err
		}
		m.GLB, m.Stats = glb, s.Stats()
		out = append(out, m)
		return ctx.Err()
	})
	return out, err
}

// ModelStats converts scene stats to the object record's.
func ModelStats(st scene.Stats) kiln.ModelStats {
	return kiln.ModelStats{
		Triangles: st.Triangles,
		Vertices:  st.Vertices,
		Meshes:    st.Meshes,
		Materials: st.Materials,
		Textures:  st.Textures,
	}
}
