package kiln

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image/color"
	"maps"
	"math"
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
	// TextureSizeSource lifts every cap on texture sides (the 1024 of
	// the defaults and the levels' caps): images keep their size, and
	// without a TextureFormat their bytes. Only kiln optimize asks for it
	// (--texture-size source), to compress geometry alone as gltfpack
	// does; downloads stay capped.
	TextureSizeSource bool `json:"textureSizeSource,omitempty"`
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
	// Format is "" (or "glb") for a GLB, "vrm" for a VRM avatar
	// (GET /model/{id}.vrm, ParseVRMVariant): a GLB with the VRM
	// extensions, in VRM's T-pose, which VTuber apps and VRM worlds read.
	Format string `json:"format,omitempty"`
	// VRMVersion is "1.0" (VRMC_vrm, the default) or "0.0" (vrm=0: the
	// VRM extension that many apps still read only); empty for a GLB.
	VRMVersion string `json:"vrmVersion,omitempty"`
	// Shading is "" (standard PBR materials) or "toon" (shading=toon:
	// MToon, the toon material VTuber apps expect); VRM only.
	Shading string `json:"shading,omitempty"`
	// VRMMeta is what a VRM's meta says: the avatar's name and the
	// operator's author and licence (KILN_VRM_AUTHOR,
	// KILN_VRM_LICENSE_URL). The handler sets it from its configuration;
	// it keys the file, so a new licence is not served from an old copy.
	VRMMeta *VRMMeta `json:"vrmMeta,omitempty"`
}

// VRMMeta is the part of a VRM's meta that is not in the model.
type VRMMeta struct {
	Name       string `json:"name"`
	Author     string `json:"author"`
	LicenseURL string `json:"licenseUrl"`
}

// VRMVersions are the vrm parameter's values and the version each asks.
var VRMVersions = map[string]string{"1": "1.0", "0": "0.0"}

// Shadings are the shading values of a VRM download.
var Shadings = []string{"standard", "toon"}

// notForVRM are the parameters of a GLB download that make no sense for
// a VRM, each with why: a VRM request naming one is refused rather than
// served something else than asked.
var notForVRM = []struct{ name, why string }{
	{"pose", "a VRM is always in VRM's T-pose"},
	{"morphTargets", "a VRM keeps every face shape, which its expressions use"},
	{"morphTargetsGroup", "a VRM keeps every face shape, which its expressions use"},
	{"animations", "VRM apps play clips as VRM Animation (.vrma)"},
	{"useHands", "a VRM humanoid needs its hands"},
	{"textureChannels", "a VRM keeps its materials' textures"},
	{"useDracoMeshCompression", "VRM apps do not read Draco; use useMeshOptCompression"},
	{"dracoCompression", "VRM apps do not read Draco; use useMeshOptCompression"},
}

// ParseVRMVariant reads the query of GET /model/{id}.vrm: the parameters
// of ParseVariant that apply to a VRM, vrm=1|0 (the version, 1 when
// absent) and shading=standard|toon (standard when absent). A parameter
// that makes no sense for a VRM is a 400 naming it. The textures are
// compat (JPEG, PNG with alpha) unless textureFormat asks otherwise:
// most VRM apps (UniVRM's) read no WebP. meta fills the VRM's meta.
func ParseVRMVariant(q url.Values, meta VRMMeta) (Variant, error) {
	for _, p := range notForVRM {
		if q.Has(p.name) {
			return Variant{}, Errorf(KindInvalid, "invalid_vrm_parameter", "%s does not apply to a VRM download: %s", p.name, p.why)
		}
	}
	if s, _ := lookup(q, "meshCompression"); s == "draco" {
		return Variant{}, Errorf(KindInvalid, "invalid_vrm_parameter", "meshCompression=draco does not apply to a VRM download: VRM apps do not read Draco; use meshopt")
	}
	v, _, err := ParseVariant(q)
	if err != nil {
		return v, err
	}
	if !q.Has("textureFormat") {
		v.TextureFormat = "compat"
	}
	v.Format, v.VRMVersion = "vrm", "1.0"
	if s, ok := lookup(q, "vrm"); ok {
		ver, known := VRMVersions[s]
		if !known {
			return v, Errorf(KindInvalid, "invalid_vrm", "vrm must be 1 (VRM 1.0) or 0 (VRM 0.x), got %q", s)
		}
		v.VRMVersion = ver
	}
	if s, ok := lookup(q, "shading"); ok {
		if !slices.Contains(Shadings, s) {
			return v, Errorf(KindInvalid, "invalid_shading", "shading must be standard or toon, got %q", s)
		}
		if s == "toon" {
			v.Shading = "toon"
		}
	}
	v.VRMMeta = &meta
	return v, v.Validate()
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

// Whole reads a parameter that counts or measures (a level, a size, a
// page): decimal digits only, at most nine of them. strconv.Atoi also
// takes a sign, which means nothing there: "-0" and "+512" are refused
// as the mistakes they are rather than read as 0 and 512.
func Whole(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = 10*n + int(s[i]-'0')
	}
	return n, true
}

// ParseVariant reads a download's query. It reports whether a parameter
// beyond lod was given; absent ones take the spec's defaults (lod 0,
// webp, no atlas, no merge). Every error is a KindInvalid naming the
// parameter.
func ParseVariant(q url.Values) (Variant, bool, error) {
	v := Variant{TextureFormat: "webp"}
	named := slices.ContainsFunc(variantParams, q.Has) || slices.ContainsFunc(dialectParams, q.Has)
	if s, ok := lookup(q, "quality"); ok {
		p, known := Qualities[s]
		if !known {
			return v, named, Errorf(KindInvalid, "invalid_quality", "quality must be low, medium or high, got %q", s)
		}
		v.LOD, v.AtlasSize, v.TextureSizeLimit = p.LOD, p.AtlasSize, p.TextureSizeLimit
	}
	if s, ok := lookup(q, "lod"); ok {
		n, ok := Whole(s)
		if !ok || n > MaxLOD {
			return v, false, Errorf(KindInvalid, "invalid_lod", "lod must be 0, 1 or 2, got %q", s)
		}
		v.LOD = n
	}
	if s, ok := lookup(q, "textureFormat"); ok {
		if s == "" {
			return v, named, Errorf(KindInvalid, "invalid_texture_format", "textureFormat must be webp, png or compat, got an empty value")
		}
		// The leader's jpeg is compat: JPEG where opaque, and PNG where a
		// texture has alpha, which JPEG cannot keep.
		if s == "jpeg" {
			s = "compat"
		}
		v.TextureFormat = s
	}
	if s, ok := lookup(q, "textureAtlasSize"); ok {
		n, ok := Whole(s)
		if !ok {
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
	if err := v.parseDialect(q); err != nil {
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
		n, ok := Whole(s)
		if !ok {
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
	case v.TextureSizeSource && (v.TextureSizeLimit != 0 || v.AtlasSize != 0):
		return Errorf(KindInvalid, "conflicting_texture_size", "textures kept at their source size take no textureSizeLimit and no textureAtlasSize")
	case v.Draco && v.Meshopt:
		return Errorf(KindInvalid, "conflicting_mesh_compression", "useDracoMeshCompression and useMeshOptCompression cannot both be true: ask for one geometry compression")
	}
	if err := v.validateVRM(); err != nil {
		return err
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

// validateVRM checks the VRM fields: a GLB has none, a VRM has a version,
// its meta and none of what notForVRM refuses.
func (v Variant) validateVRM() error {
	switch {
	case v.Format == "" || v.Format == "glb":
		if v.VRMVersion != "" || v.Shading != "" || v.VRMMeta != nil {
			return Errorf(KindInvalid, "invalid_format", "vrm, shading and the VRM meta apply to a VRM download only")
		}
		return nil
	case v.Format != "vrm":
		return Errorf(KindInvalid, "invalid_format", "format must be glb or vrm, got %q", v.Format)
	case v.VRMVersion != "1.0" && v.VRMVersion != "0.0":
		return Errorf(KindInvalid, "invalid_vrm", "vrm must be 1 (VRM 1.0) or 0 (VRM 0.x), got %q", v.VRMVersion)
	case v.Shading != "" && v.Shading != "toon":
		return Errorf(KindInvalid, "invalid_shading", "shading must be standard or toon, got %q", v.Shading)
	case v.VRMMeta == nil:
		return Errorf(KindInvalid, "invalid_vrm", "a VRM needs its meta")
	case v.Pose != "" || v.Draco || v.NoHands || len(v.Animations) > 0 || len(v.DropChannels) > 0 || v.MorphTargets != nil:
		return Errorf(KindInvalid, "invalid_vrm_parameter", "pose, useDracoMeshCompression, useHands, animations, textureChannels and morphTargets do not apply to a VRM download")
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
	if v.TextureSizeSource {
		key += "-texsource"
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
	if v.Format == "vrm" {
		key += "-vrm" + v.VRMVersion[:1]
		if v.Shading != "" {
			key += "-" + v.Shading
		}
		if m := v.VRMMeta; m != nil {
			h := sha256.Sum256([]byte(m.Name + "\x00" + m.Author + "\x00" + m.LicenseURL))
			key += "-meta" + hex.EncodeToString(h[:4])
		}
	}
	return key
}

// Render is how an avatar's picture is drawn: the query of the spec's
// GET /preview/{id}.png|jpg|webp (ParsePreview) and of the leader's
// render API, GET /{id}.png|jpg (ParseRender). Both read into this one
// type, the preview job carries it as it is, and equal pictures asked
// either way share one job and one stored image (Key).
type Render struct {
	// Size is the side of the square picture, in pixels.
	Size int `json:"size"`
	// Camera is "full" (the whole body, the leader's fullbody) or
	// "portrait" (head and shoulders).
	Camera string `json:"camera"`
	// Background is "R,G,B" in canonical form (no leading zeros), or ""
	// for transparent, which a JPEG shows white.
	Background string `json:"background,omitempty"`
	// Quality is the JPEG quality, 1..100; 0 is Kiln's 90. Lossless
	// formats have none, so that it never tells equal pictures apart.
	Quality int `json:"quality,omitempty"`
	// Expression is one of Expressions, made of the face shapes; ""
	// leaves the face at rest.
	Expression string `json:"expression,omitempty"`
	// Pose is one of RenderPoses; "" draws the model in the pose it is
	// built in (A).
	Pose string `json:"pose,omitempty"`
	// BlendShapes set face shapes to weights, over the expression;
	// sorted by mesh then name, every mesh's ("") first, so that a
	// mesh's own weight wins.
	BlendShapes []BlendShape `json:"blendShapes,omitempty"`
}

// BlendShape is one blendShapes[name] or blendShapes[mesh][name]
// parameter of the render API.
type BlendShape struct {
	// Mesh names the mesh, or "" for every mesh that has the shape.
	Mesh   string  `json:"mesh,omitempty"`
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
}

// Expressions are the render API's expression values. Each is a recipe
// of face shapes (assets/avatar/face.Expression).
var Expressions = []string{"happy", "lol", "sad", "scared", "rage"}

// RenderPoses are the render API's pose values. Each turns the
// skeleton's joints for the picture only (assets/pose.Strike); the
// model's rest pose is the download's pose=A|T, not these.
var RenderPoses = []string{"power-stance", "relaxed", "standing", "thumbs-up"}

// Limits of the render parameters.
const (
	// MaxRenderSize is the side of the largest picture the render API
	// gives, the leader's limit (its SDKs ask for 800).
	MaxRenderSize = 1024
	// DefaultRenderSize is the render API's size when none is asked,
	// its SDKs' default.
	DefaultRenderSize = 800
	// maxBlendShapes bounds the blendShapes parameters of one request:
	// an avatar has about 70 shapes on a few meshes.
	maxBlendShapes = 256
	// maxMeshName bounds a mesh name in blendShapes[mesh][name].
	maxMeshName = 128
)

// ParsePreview reads the spec's preview query (GET /preview/{id}.*):
// size 32..512 rounded to the nearest power of two (ties upward, 512
// when absent), camera full or portrait (portrait when absent),
// background, and the render API's expression, pose and blendShapes.
// Every error is a KindInvalid naming the parameter.
func ParsePreview(q url.Values) (Render, error) {
	r := Render{Size: 512, Camera: "portrait"}
	if s, ok := lookup(q, "size"); ok {
		n, ok := Whole(s)
		if !ok || n < 32 || n > 512 {
			return r, Errorf(KindInvalid, "invalid_size", "size must be an integer from 32 to 512, got %q", s)
		}
		r.Size = nearestPowerOfTwo(n)
	}
	if s, ok := lookup(q, "camera"); ok {
		if s != "full" && s != "portrait" {
			return r, Errorf(KindInvalid, "invalid_camera", "camera must be full or portrait, got %q", s)
		}
		r.Camera = s
	}
	if err := r.parseCommon(q); err != nil {
		return r, err
	}
	return r, r.Validate()
}

// ParseRender reads the leader's render API query (GET /{id}.png|jpg):
// size 1..1024 as asked (800 when absent), camera portrait or fullbody
// (portrait when absent), quality 1..100 for a JPEG, background,
// expression, pose and blendShapes. Every error is a KindInvalid naming
// the parameter.
func ParseRender(q url.Values, format string) (Render, error) {
	r := Render{Size: DefaultRenderSize, Camera: "portrait"}
	if s, ok := lookup(q, "size"); ok {
		n, ok := Whole(s)
		if !ok || n < 1 || n > MaxRenderSize {
			return r, Errorf(KindInvalid, "invalid_size", "size must be an integer from 1 to %d, got %q", MaxRenderSize, s)
		}
		r.Size = n
	}
	if s, ok := lookup(q, "camera"); ok {
		switch s {
		case "portrait":
		case "fullbody":
			r.Camera = "full"
		default:
			return r, Errorf(KindInvalid, "invalid_camera", "camera must be portrait or fullbody, got %q", s)
		}
	}
	if s, ok := lookup(q, "quality"); ok {
		n, ok := Whole(s)
		if !ok || n < 1 || n > 100 {
			return r, Errorf(KindInvalid, "invalid_quality", "quality must be an integer from 1 to 100, got %q", s)
		}
		// A PNG is lossless: quality changes nothing in it, and must
		// not key a second copy of the same picture.
		if format == "jpg" {
			r.Quality = n
		}
	}
	if err := r.parseCommon(q); err != nil {
		return r, err
	}
	return r, r.Validate()
}

// parseCommon reads the parameters both dialects share: background,
// expression, pose and blendShapes.
func (r *Render) parseCommon(q url.Values) error {
	if s, ok := lookup(q, "background"); ok {
		c, err := ParseBackground(s)
		if err != nil {
			return Errorf(KindInvalid, "invalid_background", "background must be R,G,B with integers 0..255 each, got %q", s)
		}
		// The canonical form keys the cache: "010,2,3" and "10,2,3"
		// are one picture.
		r.Background = fmt.Sprintf("%d,%d,%d", c.R, c.G, c.B)
	}
	if s, ok := lookup(q, "expression"); ok {
		if !slices.Contains(Expressions, s) {
			return Errorf(KindInvalid, "invalid_expression", "expression must be one of %s, got %q", strings.Join(Expressions, ", "), s)
		}
		r.Expression = s
	}
	if s, ok := lookup(q, "pose"); ok {
		if !slices.Contains(RenderPoses, s) {
			return Errorf(KindInvalid, "invalid_pose", "pose must be one of %s, got %q", strings.Join(RenderPoses, ", "), s)
		}
		r.Pose = s
	}
	bs, err := parseBlendShapes(q)
	r.BlendShapes = bs
	return err
}

// parseBlendShapes reads blendShapes[name]=w and blendShapes[mesh][name]=w
// (w from 0 to 1, kept to thousandths) into their canonical order.
func parseBlendShapes(q url.Values) ([]BlendShape, error) {
	var out []BlendShape
	// In order, so that of two bad keys the same one is named each time.
	for _, key := range slices.Sorted(maps.Keys(q)) {
		rest, ok := strings.CutPrefix(key, "blendShapes[")
		if !ok {
			continue
		}
		bad := func(why string) error {
			return Errorf(KindInvalid, "invalid_blend_shapes", "%s: %s", key, why)
		}
		var parts []string
		for rest != "" {
			name, after, ok := strings.Cut(rest, "]")
			if !ok || name == "" {
				return nil, bad("must be blendShapes[name] or blendShapes[mesh][name] with names that are not empty")
			}
			parts = append(parts, name)
			if after == "" {
				break
			}
			if rest, ok = strings.CutPrefix(after, "["); !ok {
				return nil, bad("must be blendShapes[name] or blendShapes[mesh][name]")
			}
		}
		if len(parts) == 0 || len(parts) > 2 {
			return nil, bad("must be blendShapes[name] or blendShapes[mesh][name]")
		}
		w, err := strconv.ParseFloat(q.Get(key), 64)
		if err != nil || !(w >= 0 && w <= 1) {
			return nil, bad(fmt.Sprintf("the weight must be a number from 0 to 1, got %q", q.Get(key)))
		}
		b := BlendShape{Name: parts[len(parts)-1], Weight: math.Round(w*1000) / 1000}
		if len(parts) == 2 {
			b.Mesh = parts[0]
		}
		out = append(out, b)
	}
	if len(out) > maxBlendShapes {
		return nil, Errorf(KindInvalid, "invalid_blend_shapes", "blendShapes: at most %d shapes, got %d", maxBlendShapes, len(out))
	}
	slices.SortFunc(out, func(a, b BlendShape) int {
		if c := strings.Compare(a.Mesh, b.Mesh); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// ParseBackground reads "R,G,B" with integers 0..255 each, the form the
// leader's render API takes and Kiln's previews follow.
func ParseBackground(s string) (color.NRGBA, error) {
	parts := strings.Split(s, ",")
	var c [3]uint8
	if len(parts) != 3 {
		return color.NRGBA{}, errors.New("must be R,G,B with integers 0..255")
	}
	for i, p := range parts {
		v, ok := Whole(p)
		if !ok || v > 255 {
			return color.NRGBA{}, errors.New("must be R,G,B with integers 0..255")
		}
		c[i] = uint8(v)
	}
	return color.NRGBA{c[0], c[1], c[2], 255}, nil
}

// BackgroundColor is the background to draw, nil for transparent.
func (r Render) BackgroundColor() *color.NRGBA {
	if r.Background == "" {
		return nil
	}
	c, err := ParseBackground(r.Background)
	if err != nil {
		return nil
	}
	return &c
}

// Validate checks the options; every error names the parameter. The
// worker checks a payload with it too, since a payload comes from Redis.
func (r Render) Validate() error {
	switch {
	case r.Size < 1 || r.Size > MaxRenderSize:
		return Errorf(KindInvalid, "invalid_size", "size must be from 1 to %d, got %d", MaxRenderSize, r.Size)
	case r.Camera != "full" && r.Camera != "portrait":
		return Errorf(KindInvalid, "invalid_camera", "camera must be full or portrait, got %q", r.Camera)
	case r.Quality < 0 || r.Quality > 100:
		return Errorf(KindInvalid, "invalid_quality", "quality must be from 1 to 100, got %d", r.Quality)
	case r.Expression != "" && !slices.Contains(Expressions, r.Expression):
		return Errorf(KindInvalid, "invalid_expression", "expression must be one of %s, got %q", strings.Join(Expressions, ", "), r.Expression)
	case r.Pose != "" && !slices.Contains(RenderPoses, r.Pose):
		return Errorf(KindInvalid, "invalid_pose", "pose must be one of %s, got %q", strings.Join(RenderPoses, ", "), r.Pose)
	case len(r.BlendShapes) > maxBlendShapes:
		return Errorf(KindInvalid, "invalid_blend_shapes", "blendShapes: at most %d shapes, got %d", maxBlendShapes, len(r.BlendShapes))
	}
	if r.Background != "" {
		c, err := ParseBackground(r.Background)
		if err != nil || fmt.Sprintf("%d,%d,%d", c.R, c.G, c.B) != r.Background {
			return Errorf(KindInvalid, "invalid_background", "background must be R,G,B in canonical form, got %q", r.Background)
		}
	}
	for i, b := range r.BlendShapes {
		switch {
		case b.Name == "" || len(b.Mesh) > maxMeshName || len(b.Name) > maxMeshName:
			return Errorf(KindInvalid, "invalid_blend_shapes", "blendShapes: names must be 1 to %d bytes", maxMeshName)
		case !(b.Weight >= 0 && b.Weight <= 1):
			return Errorf(KindInvalid, "invalid_blend_shapes", "blendShapes[%s]: the weight must be from 0 to 1, got %g", b.Name, b.Weight)
		case i > 0 && (b.Mesh < r.BlendShapes[i-1].Mesh || (b.Mesh == r.BlendShapes[i-1].Mesh && b.Name <= r.BlendShapes[i-1].Name)):
			// Canonical order, no repeats: the key must not tell equal
			// pictures apart.
			return Errorf(KindInvalid, "invalid_blend_shapes", "blendShapes: %q is repeated or out of order", b.Name)
		}
	}
	return nil
}

// expressionsGeneration joins an expression's name in a render's key:
// a new recipe (assets/avatar/face/expressions.go) draws another picture
// for the same parameters, so it is bumped with one, and the pictures
// cached with the old recipe are drawn again. 2: happy parts the lips.
const expressionsGeneration = "2"

// Key is the canonical form of the options: equal pictures have equal
// keys. It starts with camera, size and background as preview keys
// always have, so the pictures stored before the render API stay valid;
// the rest joins only when set. Blend shapes join as a digest, which
// keeps keys short however many are asked.
func (r Render) Key() string {
	bg := "transparent"
	if r.Background != "" {
		bg = r.Background
	}
	key := fmt.Sprintf("%s-%d-%s", r.Camera, r.Size, bg)
	if r.Quality != 0 {
		key += fmt.Sprintf("-q%d", r.Quality)
	}
	if r.Expression != "" {
		key += "-" + r.Expression + expressionsGeneration
	}
	if r.Pose != "" {
		key += "-" + r.Pose
	}
	if len(r.BlendShapes) > 0 {
		h := sha256.New()
		for _, b := range r.BlendShapes {
			fmt.Fprintf(h, "%s\x00%s\x00%s\x00", b.Mesh, b.Name, strconv.FormatFloat(b.Weight, 'f', -1, 64))
		}
		key += "-bs" + hex.EncodeToString(h.Sum(nil))[:16]
	}
	return key
}

// nearestPowerOfTwo rounds n (32..512) to the nearest power of two, ties
// upward (the README's Previews): 48 gives 64, 47 gives 32.
func nearestPowerOfTwo(n int) int {
	p := 1
	for p*2 <= n {
		p *= 2
	}
	if n-p >= p*2-n {
		return p * 2
	}
	return p
}
