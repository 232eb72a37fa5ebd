package kiln

import (
	"net/url"
	"strconv"
)

// The leader's later dialect (2025) renamed some parameters; its newer
// clients send these names. Each maps onto the older parameter, which
// wins when both are given (README, "Moving from Ready Player Me").
// PlayerZero's avatars (avatars.readyplayer.me) took meshCompression and
// dracoCompression as booleans, meshopt and Draco.
var dialectParams = []string{"textureAtlas", "textureQuality", "meshCompression", "dracoCompression", "useQuantizeMeshOptCompression"}

// lodNames are the names of the level of detail, first wins: the spec's
// lod, the 2025 dialect's meshLOD, the Unity SDK's meshLod.
var lodNames = []string{"lod", "meshLOD", "meshLod"}

// TextureQualities maps textureQuality=low|medium|high to the texture
// cap it stands for (textureSizeLimit): Kiln's encoders take no
// per-download quality, so the leader's texture presets become sizes.
var TextureQualities = map[string]int{"low": 256, "medium": 512, "high": 1024}

// textureAtlases are the textureAtlas values and the atlas size of each.
var textureAtlases = map[string]int{"none": 0, "256": 256, "512": 512, "1024": 1024}

// parseDialect reads the later dialect's parameters into v, after the
// older ones (see dialectParams).
func (v *Variant) parseDialect(q url.Values) error {
	for _, name := range lodNames[1:] {
		s, ok := lookup(q, name)
		if !ok || q.Has("lod") {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > MaxLOD {
			return Errorf(KindInvalid, "invalid_lod", "%s must be 0, 1 or 2, got %q", name, s)
		}
		v.LOD = n
		break
	}
	if s, ok := lookup(q, "textureAtlas"); ok && !q.Has("textureAtlasSize") {
		n, known := textureAtlases[s]
		if !known {
			return Errorf(KindInvalid, "invalid_texture_atlas", "textureAtlas must be none, 256, 512 or 1024, got %q", s)
		}
		v.AtlasSize = n
	}
	if s, ok := lookup(q, "textureQuality"); ok && !q.Has("textureSizeLimit") {
		n, known := TextureQualities[s]
		if !known {
			return Errorf(KindInvalid, "invalid_texture_quality", "textureQuality must be low, medium or high, got %q", s)
		}
		v.TextureSizeLimit = n
	}
	if s, ok := lookup(q, "meshCompression"); ok {
		switch s {
		case "none", "false", "0":
		case "meshopt", "true", "1":
			// PlayerZero's clients send meshCompression=true for meshopt.
			v.Meshopt = true
		case "draco":
			v.Draco = true
		default:
			return Errorf(KindInvalid, "invalid_mesh_compression", "meshCompression must be none, meshopt or draco (or true, false), got %q", s)
		}
	}
	if s, ok := lookup(q, "dracoCompression"); ok {
		switch s {
		case "1", "true":
			v.Draco = true
		case "0", "false":
		default:
			return Errorf(KindInvalid, "invalid_draco_compression", "dracoCompression must be true, false, 1 or 0, got %q", s)
		}
	}
	if s, ok := lookup(q, "useQuantizeMeshOptCompression"); ok {
		switch s {
		case "1", "true":
			// Kiln's meshopt always quantizes first.
			v.Meshopt = true
		case "0", "false":
		default:
			return Errorf(KindInvalid, "invalid_use_quantize_mesh_opt_compression", "useQuantizeMeshOptCompression must be true, false, 1 or 0, got %q", s)
		}
	}
	return nil
}
