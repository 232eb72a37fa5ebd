package assets

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/lod"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/assets/texture"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// variantModels is every generated fixture and, when present, every
// shared model.
func variantModels(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for name, data := range scenetest.Fixtures() {
		out["fixture/"+name] = data
	}
	for name, data := range scenetest.Meshes() {
		out["fixture/"+name] = data
	}
	files, _ := filepath.Glob("../../shared/testdata/*.glb")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = data
	}
	return out
}

type glbJSON struct {
	ExtensionsRequired []string `json:"extensionsRequired"`
	Images             []struct {
		MimeType   string `json:"mimeType"`
		BufferView *int   `json:"bufferView"`
	} `json:"images"`
	BufferViews []struct {
		ByteOffset int `json:"byteOffset"`
		ByteLength int `json:"byteLength"`
	} `json:"bufferViews"`
}

// TestVariantMatrix builds a subset of lod × textureFormat × mergeMesh ×
// textureAtlasSize in which every value appears, for every model.
func TestVariantMatrix(t *testing.T) {
	matrix := []kiln.Variant{
		{LOD: 0, TextureFormat: "webp", AtlasSize: 256, Merge: true},
		{LOD: 1, TextureFormat: "png", AtlasSize: 1024},
		{LOD: 2, TextureFormat: "compat", AtlasSize: 1024, Merge: true},
		{LOD: 1, TextureFormat: "webp"},
		{LOD: 2, TextureFormat: "png", Merge: true},
		{LOD: 0, TextureFormat: "compat", AtlasSize: 256},
	}
	for name, data := range variantModels(t) {
		for _, v := range matrix {
			t.Run(name+"/"+v.Key(), func(t *testing.T) {
				s, err := Read(data)
				if err != nil {
					t.Fatal(err)
				}
				m, err := BuildVariant(context.Background(), s, v)
				if err != nil {
					t.Fatal(err)
				}
				gltfcheck.RequireValid(t, m.GLB)
				doc, bin := split(t, m.GLB)
				limit := v.AtlasSize
				if limit == 0 {
					limit = texture.DefaultMaxSize
				}
				if c := lod.TextureCap(v.LOD); c > 0 {
					limit = min(limit, c)
				}
				for i, img := range doc.Images {
					switch v.TextureFormat {
					case "webp":
						if img.MimeType != "image/webp" {
							t.Errorf("image %d is %s in a webp variant", i, img.MimeType)
						}
					default:
						if img.MimeType == "image/webp" {
							t.Errorf("image %d is WebP in a %s variant", i, v.TextureFormat)
						}
					}
					if img.BufferView == nil || img.MimeType == "image/webp" {
						continue // WebP decoding is the texture package's test
					}
					bv := doc.BufferViews[*img.BufferView]
					cfg, _, err := image.DecodeConfig(bytes.NewReader(bin[bv.ByteOffset : bv.ByteOffset+bv.ByteLength]))
					if err != nil {
						t.Errorf("image %d does not decode: %v", i, err)
						continue
					}
					if cfg.Width > limit || cfg.Height > limit {
						t.Errorf("image %d is %dx%d, limit %d", i, cfg.Width, cfg.Height, limit)
					}
				}
				webpRequired := slices.Contains(doc.ExtensionsRequired, "EXT_texture_webp")
				if v.TextureFormat == "webp" && len(doc.Images) > 0 && !webpRequired {
					t.Error("webp variant does not require EXT_texture_webp")
				}
				if v.TextureFormat == "compat" && len(doc.ExtensionsRequired) > 0 {
					t.Errorf("compat variant requires %v", doc.ExtensionsRequired)
				}
				if v.Merge && v.AtlasSize > 0 && m.Stats.DrawCalls > 2 {
					t.Errorf("merge with an atlas draws %d times, want at most 2", m.Stats.DrawCalls)
				}
			})
		}
	}
}

// split returns the JSON and binary chunks of a GLB.
func split(t *testing.T, glb []byte) (glbJSON, []byte) {
	t.Helper()
	n := binary.LittleEndian.Uint32(glb[12:16])
	var d glbJSON
	if err := json.Unmarshal(glb[20:20+n], &d); err != nil {
		t.Fatal(err)
	}
	var bin []byte
	if rest := glb[20+n:]; len(rest) >= 8 {
		bin = rest[8:]
	}
	return d, bin
}
