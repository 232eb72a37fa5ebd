package kiln

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Variant is how a model is served: the query parameters of
// GET /model/{id}.glb (spec 4.1) and of object downloads. It is the one
// home of each parameter: handlers parse the query into it once
// (ParseVariant), the job payload carries it as it is, and the asset
// pipeline applies it (assets.BuildVariant). A new parameter is a field
// here, its reading in ParseVariant, its check in Validate, its part of
// Key, and its stage in the pipeline.
type Variant struct {
	LOD int `json:"lod"`
	// TextureFormat is one of TextureFormats; empty keeps the stored
	// images (kiln optimize without --texture-format), which no download
	// asks for.
	TextureFormat string `json:"textureFormat,omitempty"`
	// AtlasSize packs the textures into one atlas per channel of at most
	// this size; 0 leaves them apart, each capped at 1024.
	AtlasSize int  `json:"atlasSize,omitempty"`
	Merge     bool `json:"merge,omitempty"`
	// Animations are the built-in clips attached to an avatar's model, as
	// a sorted set of names; objects have none. Their names are checked
	// against the clip library by the avatar handler, which knows it.
	Animations []string `json:"animations,omitempty"`
}

// MaxLOD is the lightest level of detail: lod 0 is the source, 1 about
// half of its triangles, 2 about a quarter.
const MaxLOD = 2

// TextureFormats are the textureFormat values a download may ask for:
// WebP (EXT_texture_webp, required), PNG, or compat (JPEG and PNG,
// nothing required).
var TextureFormats = []string{"webp", "png", "compat"}

// variantParams are the query parameters beyond lod that name a variant;
// without any of them an object download serves a stored level as it is.
var variantParams = []string{"textureFormat", "textureAtlasSize", "mergeMesh"}

// ParseVariant reads a download's query. It reports whether a parameter
// beyond lod was given; absent ones take the spec's defaults (lod 0,
// webp, no atlas, no merge). Every error is a KindInvalid naming the
// parameter.
func ParseVariant(q url.Values) (Variant, bool, error) {
	v := Variant{TextureFormat: "webp"}
	if s, ok := lookup(q, "lod"); ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > MaxLOD {
			return v, false, Errorf(KindInvalid, "invalid_lod", "lod must be 0, 1 or 2, got %q", s)
		}
		v.LOD = n
	}
	named := slices.ContainsFunc(variantParams, q.Has)
	if s, ok := lookup(q, "textureFormat"); ok {
		if s == "" {
			return v, named, Errorf(KindInvalid, "invalid_texture_format", "textureFormat must be %s, got an empty value", strings.Join(TextureFormats, ", "))
		}
		v.TextureFormat = s
	}
	if s, ok := lookup(q, "textureAtlasSize"); ok {
		n, err := strconv.Atoi(s)
		if err != nil {
			return v, named, Errorf(KindInvalid, "invalid_texture_atlas_size", "textureAtlasSize must be a power of two from 64 to 2048, got %q", s)
		}
		v.AtlasSize = n
	}
	switch s, _ := lookup(q, "mergeMesh"); s {
	case "", "0":
	case "1":
		v.Merge = true
	default:
		return v, named, Errorf(KindInvalid, "invalid_merge_mesh", "mergeMesh must be 0 or 1, got %q", s)
	}
	return v, named, v.Validate()
}

// lookup is q's first value of name and whether name was given at all.
func lookup(q url.Values, name string) (string, bool) {
	if !q.Has(name) {
		return "", false
	}
	return q.Get(name), true
}

// Validate checks the parameters; every error names the parameter. The
// worker checks a payload with it too, since a payload comes from Redis.
func (v Variant) Validate() error {
	switch {
	case v.LOD < 0 || v.LOD > MaxLOD:
		return Errorf(KindInvalid, "invalid_lod", "lod must be 0, 1 or 2, got %d", v.LOD)
	case v.TextureFormat != "" && !slices.Contains(TextureFormats, v.TextureFormat):
		return Errorf(KindInvalid, "invalid_texture_format", "textureFormat must be %s, got %q", strings.Join(TextureFormats, ", "), v.TextureFormat)
	case v.AtlasSize != 0 && (v.AtlasSize < 64 || v.AtlasSize > 2048 || v.AtlasSize&(v.AtlasSize-1) != 0):
		return Errorf(KindInvalid, "invalid_texture_atlas_size", "textureAtlasSize must be a power of two from 64 to 2048, got %d", v.AtlasSize)
	}
	return nil
}

// Key is the canonical form of the parameters: equal variants have equal
// keys, so each is built once and stored under its key. The clips take
// part only when there are some, so object keys never carry them.
func (v Variant) Key() string {
	format := v.TextureFormat
	if format == "" {
		format = "keep"
	}
	merged := 0
	if v.Merge {
		merged = 1
	}
	key := fmt.Sprintf("lod%d-%s-atlas%d-merge%d", v.LOD, format, v.AtlasSize, merged)
	if len(v.Animations) > 0 {
		key += "-" + AnimationsKey(v.Animations)
	}
	return key
}
