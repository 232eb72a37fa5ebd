// Package assets is Kiln's asset processing: bytes and scenes in, bytes
// and scenes out. It knows nothing of HTTP, Redis or storage, so every
// function here can be tested and benchmarked on its own. This file is
// the pipeline the worker and the CLI share; the work itself lives in the
// subpackages (scene, simplify, lod).
package assets

import (
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

// Levels writes the model as one self-contained GLB per level of detail,
// from lod 0 (the source, cleaned) to maxLevel. The clean-up drops
// duplicate and unused data, which never changes what renders.
func Levels(s *scene.Scene, maxLevel int) ([]Model, error) {
	s.Dedup()
	s.Prune()
	var out []Model
	err := lod.Chain(s, maxLevel, func(l lod.Level, s *scene.Scene) error {
		glb, err := scene.Write(s)
		if err != nil {
			return err
		}
		out = append(out, Model{GLB: glb, Stats: s.Stats(), Level: l})
		return nil
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
