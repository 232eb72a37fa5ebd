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
	// Pose is the rest pose the model is delivered in (pose=A|T): "T"
	// raises the upper arms to horizontal, "A" lowers them to the
	// leader's A pose, "" leaves the model as built.
	Pose string `json:"pose,omitempty"`
	// TextureSizeLimit caps the side of every texture (256..1024); 0
	// leaves the caps of the other parameters (1024, or the atlas size).
	TextureSizeLimit int `json:"textureSizeLimit,omitempty"`
	// DropChannels are the material textures that textureChannels left
	// out, in TextureChannels order; nil keeps every texture.
	DropChannels []string `json:"dropChannels,omitempty"`
	// NoHands drops the hand meshes that are separate (useHands=0).
	NoHands bool `json:"noHands,omitempty"`
	// MorphTargets are the morph targets an avatar's model keeps
	// (morphTargets=), as a sorted set of names: the stage keeps the
	// model's own order, so the order asked does not matter. nil keeps
	// every target (objects); empty (morphTargets=none) keeps none, so
	// the field is never omitted from the payload. The avatar handler
	// resolves the set names and checks the names (assets/avatar/face).
	MorphTargets []string `json:"morphTargets"`
	// Meshopt (useMeshOptCompression=true) quantizes the geometry and
	// keyframes (KHR_mesh_quantization) and compresses them with
	// EXT_meshopt_compression: about a fifth of the geometry bytes, for
	// loaders with a meshopt decoder (three.js MeshoptDecoder, Babylon,
	// model-viewer).
	Meshopt bool `json:"meshopt,omitempty"`
	// Draco (useDracoMeshCompression=true, meshCompression=draco)
	// compresses each primitive's geometry with KHR_draco_mesh_compression
	// (assets/draco), for loaders with a Draco decoder (three.js
	// DRACOLoader). It excludes Meshopt: a primitive is compressed one
	// way, and a request naming both is refused rather than guessed.
	Draco bool `json:"draco,omitempty"`
}

// Poses are the pose values; Kiln's avatars are built in A pose.
var Poses = []string{"A", "T"}

// TextureChannels are the material textures textureChannels names, in
// the order keys list them.
var TextureChannels = []string{"baseColor", "normal", "metallicRoughness", "emissive", "occlusion"}

// Quality is a preset of the leader's quality parameter: the lod, atlas
// and texture cap it stands for. Explicit parameters win over it.
type Quality struct {
	LOD, AtlasSize, TextureSizeLimit int
}

// Qualities maps quality=low|medium|high to its preset, as the leader's
// documentation gives them (morph targets are left to morphTargets).
var Qualities = map[string]Quality{
	"low":    {LOD: 2, AtlasSize: 256, TextureSizeLimit: 256},
	"medium": {LOD: 1, AtlasSize: 512, TextureSizeLimit: 512},
	"high":   {LOD: 0, AtlasSize: 1024, TextureSizeLimit: 1024},
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
var variantParams = []string{"textureFormat", "textureAtlasSize", "mergeMesh",
	"quality", "pose", "textureSizeLimit", "textureChannels", "useHands", "useMeshOptCompression", "useDracoMeshCompression"}

// ParseVariant reads a download's query. It reports whether a parameter
// beyond lod was given; absent ones take the spec's defaults (lod 0,
// webp, no atlas, no merge). Every error is a KindInvalid naming the
// parameter.
func ParseVariant(q url.Values) (Variant, bool, error) {
	v := Variant{TextureFormat: "webp"}
	named := slices.ContainsFunc(variantParams, q.Has)
	if s, ok := lookup(q, "quality"); ok {
		p, known := Qualities[s]
		if !known {
			return v, named, Errorf(KindInvalid, "invalid_quality", "quality must be low, medium or high, got %q", s)
		}
		v.LOD, v.AtlasSize, v.TextureSizeLimit = p.LOD, p.AtlasSize, p.TextureSizeLimit
	}
	if s, ok := lookup(q, "lod"); ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > MaxLOD {
			return v, false, Errorf(KindInvalid, "invalid_lod", "lod must be 0, 1 or 2, got %q", s)
		}
		v.LOD = n
	}
	if s, ok := lookup(q, "textureFormat"); ok {
		if s == "" {
			return v, named, Errorf(KindInvalid, "invalid_texture_format", "textureFormat must be webp, png or compat, got an empty value")
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
	if err := v.parseLeader(q); err != nil {
		return v, named, err
	}
	return v, named, v.Validate()
}

// parseLeader reads the market leader's parameters beyond the spec's:
// pose, textureSizeLimit, textureChannels, useHands and the two geometry
// compressions. Values are read as
// the leader writes them (useHands=false as well as 0).
func (v *Variant) parseLeader(q url.Values) error {
	if s, ok := lookup(q, "pose"); ok {
		if !slices.Contains(Poses, strings.ToUpper(s)) {
			return Errorf(KindInvalid, "invalid_pose", "pose must be A or T, got %q", s)
		}
		v.Pose = strings.ToUpper(s)
	}
	if s, ok := lookup(q, "textureSizeLimit"); ok {
		n, err := strconv.Atoi(s)
		if err != nil {
			return Errorf(KindInvalid, "invalid_texture_size_limit", "textureSizeLimit must be a whole number from 256 to 1024, got %q", s)
		}
		v.TextureSizeLimit = n
	}
	if s, ok := lookup(q, "textureChannels"); ok {
		keep := map[string]bool{}
		if s != "none" {
			for _, c := range strings.Split(s, ",") {
				c = strings.TrimSpace(c)
				if !slices.Contains(TextureChannels, c) {
					return Errorf(KindInvalid, "invalid_texture_channels", "textureChannels must be none or a comma-separated list of %s, got %q", strings.Join(TextureChannels, ", "), s)
				}
				keep[c] = true
			}
		}
		for _, c := range TextureChannels {
			if !keep[c] {
				v.DropChannels = append(v.DropChannels, c)
			}
		}
	}
	if s, ok := lookup(q, "useHands"); ok {
		switch s {
		case "1", "true":
		case "0", "false":
			v.NoHands = true
		default:
			return Errorf(KindInvalid, "invalid_use_hands", "useHands must be 0, 1, true or false, got %q", s)
		}
	}
	if s, ok := lookup(q, "useMeshOptCompression"); ok {
		switch s {
		case "1", "true":
			v.Meshopt = true
		case "0", "false":
		default:
			return Errorf(KindInvalid, "invalid_use_mesh_opt_compression", "useMeshOptCompression must be true, false, 1 or 0, got %q", s)
		}
	}
	if s, ok := lookup(q, "useDracoMeshCompression"); ok {
		switch s {
		case "1", "true":
			v.Draco = true
		case "0", "false":
		default:
			return Errorf(KindInvalid, "invalid_use_draco_mesh_compression", "useDracoMeshCompression must be true, false, 1 or 0, got %q", s)
		}
	}
	return nil
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
		return Errorf(KindInvalid, "invalid_texture_format", "textureFormat must be webp, png or compat, got %q", v.TextureFormat)
	case v.AtlasSize != 0 && (v.AtlasSize < 64 || v.AtlasSize > 2048 || v.AtlasSize&(v.AtlasSize-1) != 0):
		return Errorf(KindInvalid, "invalid_texture_atlas_size", "textureAtlasSize must be a power of two from 64 to 2048, got %d", v.AtlasSize)
	case v.Pose != "" && !slices.Contains(Poses, v.Pose):
		return Errorf(KindInvalid, "invalid_pose", "pose must be A or T, got %q", v.Pose)
	case v.TextureSizeLimit != 0 && (v.TextureSizeLimit < 256 || v.TextureSizeLimit > 1024):
		return Errorf(KindInvalid, "invalid_texture_size_limit", "textureSizeLimit must be a whole number from 256 to 1024, got %d", v.TextureSizeLimit)
	case v.Draco && v.Meshopt:
		return Errorf(KindInvalid, "conflicting_mesh_compression", "useDracoMeshCompression and useMeshOptCompression cannot both be true: ask for one geometry compression")
	}
	for i, c := range v.DropChannels {
		// Canonical order, no repeats: the key must not tell equal
		// variants apart.
		if !slices.Contains(TextureChannels, c) || (i > 0 && slices.Index(TextureChannels, c) <= slices.Index(TextureChannels, v.DropChannels[i-1])) {
			return Errorf(KindInvalid, "invalid_texture_channels", "textureChannels: %q is not a channel, or out of order", c)
		}
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
	// The leader's parameters join the key only when set, so the keys
	// of variants stored before them stay valid.
	if v.Pose != "" {
		key += "-pose" + v.Pose
	}
	if v.TextureSizeLimit != 0 {
		key += fmt.Sprintf("-tex%d", v.TextureSizeLimit)
	}
	if len(v.DropChannels) > 0 {
		key += "-no"
		for _, c := range v.DropChannels {
			key += c[:1] // b, n, m, e, o: the channels' initials differ
		}
	}
	if v.NoHands {
		key += "-nohands"
	}
	if v.Meshopt {
		key += "-meshopt"
	}
	if v.Draco {
		key += "-draco"
	}
	if len(v.Animations) > 0 {
		key += "-" + AnimationsKey(v.Animations)
	}
	if v.MorphTargets != nil {
		key += "-morph-" + namesKey(v.MorphTargets)
	}
	return key
}
