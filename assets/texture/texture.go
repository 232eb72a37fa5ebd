// Package texture re-encodes a scene's images in the format a client asked
// for (the textureFormat parameter of GET /model/{id}.glb and
// `kiln optimize --texture-format`) and caps their size. Texture bytes
// are most of what a typical model weighs, and the right format depends
// on the client: WebP is the smallest but needs EXT_texture_webp, PNG is
// lossless, and the "compat" set (JPEG, PNG where alpha matters) opens in
// every glTF loader.
//
// Encoding is chosen per role, because the same loss is not equally
// visible everywhere: colour textures (base colour, emissive) tolerate
// lossy coding that the eye forgives, normal maps are vectors whose
// errors show up as lighting artefacts, and linear data maps
// (metallic-roughness, occlusion) sit between the two.
package texture

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/imagetype"
	"github.com/kilnhq/kiln/assets/scene"
)

// Formats Options.Format accepts.
const (
	// FormatKeep leaves every image in its format and only applies the
	// size cap: what a model gets when no textureFormat is asked for.
	FormatKeep = ""
	// FormatWebP encodes every image as WebP, referenced through
	// EXT_texture_webp with no fallback, which is then required.
	FormatWebP = "webp"
	// FormatPNG encodes every image as lossless PNG.
	FormatPNG = "png"
	// FormatCompat uses JPEG for opaque images and PNG for images whose
	// alpha is used, and requires no extension at all.
	FormatCompat = "compat"
)

// DefaultMaxSize is the cap on an image's longer side when Options.MaxSize
// is zero: 1024 is what Ready Player Me serves by default and what mobile
// GPUs sample without a visible difference at avatar viewing distances.
const DefaultMaxSize = 1024

// Options says what Convert produces.
type Options struct {
	// Format is FormatKeep, FormatWebP, FormatPNG or FormatCompat.
	Format string
	// MaxSize caps the longer side of every image (aspect kept); 0 means
	// DefaultMaxSize.
	MaxSize int
	// Quality, when not zero, is the lossy quality (1..100) of WebP and
	// JPEG for every role, for a caller that must match another tool's
	// single setting (benchmarks); zero keeps Kiln's per-role choice.
	Quality float32
}

// CheckFormat reports whether f names a format Convert accepts, so that
// a command can refuse a bad flag before it does any work.
func CheckFormat(f string) error {
	switch f {
	case FormatKeep, FormatWebP, FormatPNG, FormatCompat:
		return nil
	}
	return kiln.Errorf(kiln.KindInvalid, "invalid_texture_format", "texture format must be webp, png or compat, got %q", f)
}

// Role is what an image holds, which decides how much loss it tolerates
// and how it is filtered when scaled down.
type Role string

// Roles, from the most tolerant to the strictest: an image with several
// roles is encoded for the strictest.
const (
	// RoleColor is sRGB colour (base colour, emissive): lossy coding and
	// gamma-correct filtering.
	RoleColor Role = "color"
	// RoleData is linear data (metallic-roughness, occlusion, and the
	// data textures of material extensions): high-quality lossy coding.
	RoleData Role = "data"
	// RoleNormal is a tangent-space normal map: near-lossless coding and
	// vectors renormalized after filtering.
	RoleNormal Role = "normal"
)

func (r Role) rank() int {
	switch r {
	case RoleNormal:
		return 3
	case RoleData:
		return 2
	case RoleColor:
		return 1
	}
	return 0
}

// Report says what Convert did, image by image.
type Report struct {
	Images []ImageReport `json:"images"`
}

// ImageReport describes one image that a texture uses after the
// conversion. Fallback images that the conversion made unused are
// removed and not reported.
type ImageReport struct {
	Index int `json:"index"`
	// Source is the image's index before the conversion.
	Source int  `json:"source"`
	Role   Role `json:"role"`
	// AlphaUsed: a material reads the image's alpha and, when Kiln
	// decoded it, some pixel is not opaque.
	AlphaUsed  bool   `json:"alphaUsed"`
	MimeBefore string `json:"mimeBefore"`
	MimeAfter  string `json:"mimeAfter"`
	// Width and height before and after.
	Before [2]int `json:"sizeBefore"`
	After  [2]int `json:"sizeAfter"`
	// BytesBefore and BytesAfter are the encoded sizes.
	BytesBefore int `json:"bytesBefore"`
	BytesAfter  int `json:"bytesAfter"`
	// Kept is true when the bytes were left as they were: already in the
	// target format and within the size cap (re-encoding a lossy image
	// only loses quality), or in a format Kiln cannot decode (KTX2).
	Kept bool `json:"kept"`
}

// BytesBefore totals the encoded sizes before conversion.
func (r Report) BytesBefore() int {
	n := 0
	for _, im := range r.Images {
		n += im.BytesBefore
	}
	return n
}

// BytesAfter totals the encoded sizes after conversion.
func (r Report) BytesAfter() int {
	n := 0
	for _, im := range r.Images {
		n += im.BytesAfter
	}
	return n
}

// Extensions that carry an image in another format than core glTF's PNG
// and JPEG. A converted texture keeps none of them but the one its new
// format needs: the format is exactly what the caller chose.
var imageFormatExtensions = []string{"EXT_texture_webp", "KHR_texture_basisu", "EXT_texture_avif", "MSFT_texture_dds"}

const extWebP = "EXT_texture_webp"

// use is what the materials ask of one image.
type use struct {
	role      Role
	alphaUsed bool // some use reads alpha (when the image has any)
}

func (u *use) add(r Role, alpha bool) {
	if r.rank() > u.role.rank() {
		u.role = r
	}
	u.alphaUsed = u.alphaUsed || alpha
}

// Convert re-encodes every image that a texture uses in opt.Format, scaled
// down to opt.MaxSize, and points the textures at the results. Images no
// texture uses are left alone (scene.Prune drops them). Images are
// processed in parallel, one per CPU, and ctx is checked before each. On
// error the scene is left unchanged.
func Convert(ctx context.Context, s *scene.Scene, opt Options) (Report, error) {
	if err := CheckFormat(opt.Format); err != nil {
		return Report{}, err
	}
	if opt.MaxSize < 0 {
		return Report{}, kiln.Errorf(kiln.KindInvalid, "invalid_texture_size", "texture size cap must be positive, got %d", opt.MaxSize)
	}
	if opt.Quality < 0 || opt.Quality > 100 {
		return Report{}, kiln.Errorf(kiln.KindInvalid, "invalid_texture_quality", "texture quality must be 1 to 100, got %v", opt.Quality)
	}
	if opt.MaxSize == 0 {
		opt.MaxSize = DefaultMaxSize
	}

	uses := imageUses(s)
	// The image each texture is rebuilt from: its core source when Kiln
	// can decode it, else its WebP source. Textures with neither (only
	// KTX2, say) are left as they are.
	chosen := make([]int, len(s.Textures))
	for ti, t := range s.Textures {
		chosen[ti] = -1
		if t == nil {
			continue
		}
		if opt.Format == FormatKeep {
			continue // keep converts images in place and leaves textures be
		}
		for _, i := range []int{indexOr(t.Source), extSource(t, extWebP)} {
			if i >= 0 && i < len(s.Images) && decodable(s.Images[i]) {
				chosen[ti] = i
				break
			}
		}
	}
	var jobs []int
	for i, u := range uses {
		if u == nil {
			continue
		}
		if opt.Format != FormatKeep && !chosenByAny(chosen, i) {
			continue // a fallback no texture will keep: removed below
		}
		jobs = append(jobs, i)
	}

	// Largest first, so that the last image to finish is a small one and
	// no worker idles while another encodes a big texture at the end.
	order := slices.Clone(jobs)
	slices.SortStableFunc(order, func(a, b int) int { return len(s.Images[b].Data) - len(s.Images[a].Data) })
	results := make([]result, len(s.Images))
	if err := runParallel(ctx, order, func(i int) error {
		r, err := convertImage(s.Images[i], *uses[i], opt)
		if err != nil {
			return kiln.Errorf(kiln.KindUnprocessable, "invalid_model", "image %d: %v", i, err)
		}
		results[i] = r
		return nil
	}); err != nil {
		return Report{}, err
	}

	// Nothing below fails: the scene changes all at once.
	var rep Report
	for _, i := range jobs {
		r := results[i]
		im := s.Images[i]
		rep.Images = append(rep.Images, ImageReport{
			Index: i, Source: i, Role: uses[i].role, AlphaUsed: r.alphaUsed,
			MimeBefore: im.MimeType, MimeAfter: r.mime,
			Before: r.before, After: r.after,
			BytesBefore: len(im.Data), BytesAfter: len(r.data), Kept: r.kept,
		})
		if !r.kept {
			s.Images[i] = &scene.Image{Name: im.Name, MimeType: r.mime, Data: r.data, Extras: im.Extras, Extensions: im.Extensions}
		}
	}
	if opt.Format == FormatKeep {
		return rep, nil
	}
	for ti, t := range s.Textures {
		i := chosen[ti]
		if i < 0 {
			continue
		}
		for _, name := range imageFormatExtensions {
			delete(t.Extensions, name)
		}
		if s.Images[i].MimeType == "image/webp" {
			t.Source = nil
			if t.Extensions == nil {
				t.Extensions = gltf.Extensions{}
			}
			t.Extensions[extWebP] = map[string]any{"source": i}
		} else {
			t.Source = gltf.Index(i)
		}
		if len(t.Extensions) == 0 {
			t.Extensions = nil
		}
	}
	if opt.Format == FormatCompat {
		// compat promises a file every loader opens: a loader refuses a
		// file that requires an extension it lacks, while it only draws
		// an optional one slightly differently.
		s.ExtensionsRequired = nil
	}
	dropFallbacks(s, uses, &rep)
	return rep, nil
}

func indexOr(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

func chosenByAny(chosen []int, i int) bool {
	for _, c := range chosen {
		if c == i {
			return true
		}
	}
	return false
}

// decodable reports whether Kiln can read the image's pixels.
func decodable(im *scene.Image) bool {
	if im == nil {
		return false
	}
	switch imagetype.Sniff(im.Data) {
	case "image/png", "image/jpeg", "image/webp":
		return true
	}
	return false
}

// extSource reads the "source" image index of a texture extension
// (EXT_texture_webp and its kind), whatever Go form the extension has.
func extSource(t *gltf.Texture, name string) int {
	v, ok := t.Extensions[name]
	if !ok {
		return -1
	}
	obj, ok := generic(v).(map[string]any)
	if !ok {
		return -1
	}
	if f, ok := obj["source"].(float64); ok && f >= 0 && f == float64(int(f)) {
		return int(f)
	}
	return -1
}

// generic turns an extension value of any Go form into plain JSON values.
func generic(v any) any {
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil
		}
	}
	var out any
	if json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}

// imageSources lists every image a texture refers to: its core source
// and the sources of its image format extensions.
func imageSources(t *gltf.Texture) []int {
	var out []int
	if t.Source != nil {
		out = append(out, *t.Source)
	}
	for _, name := range imageFormatExtensions {
		if i := extSource(t, name); i >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// imageUses finds, for every image a texture refers to, the strictest
// role it plays and whether any use reads its alpha. It is nil for
// images no texture uses.
func imageUses(s *scene.Scene) []*use {
	texUse := make([]*use, len(s.Textures))
	mark := func(ti int, r Role, alpha bool) {
		if ti < 0 || ti >= len(texUse) {
			return
		}
		if texUse[ti] == nil {
			texUse[ti] = &use{}
		}
		texUse[ti].add(r, alpha)
	}
	for _, m := range s.Materials {
		if m == nil {
			continue
		}
		// Alpha of the base colour matters only when the material blends
		// or cuts out; OPAQUE ignores it (glTF 2.0, 3.9.4).
		blends := m.AlphaMode == gltf.AlphaBlend || m.AlphaMode == gltf.AlphaMask
		if pbr := m.PBRMetallicRoughness; pbr != nil {
			if t := pbr.BaseColorTexture; t != nil {
				mark(t.Index, RoleColor, blends)
			}
			if t := pbr.MetallicRoughnessTexture; t != nil {
				mark(t.Index, RoleData, false)
			}
		}
		if t := m.NormalTexture; t != nil && t.Index != nil {
			mark(*t.Index, RoleNormal, false)
		}
		if t := m.OcclusionTexture; t != nil && t.Index != nil {
			mark(*t.Index, RoleData, false)
		}
		if t := m.EmissiveTexture; t != nil {
			mark(t.Index, RoleColor, false)
		}
		for _, v := range m.Extensions {
			extensionTextures(generic(v), func(key string, ti int) {
				mark(ti, extensionRole(key), true)
			})
		}
	}
	uses := make([]*use, len(s.Images))
	for ti, t := range s.Textures {
		if t == nil {
			continue
		}
		u := texUse[ti]
		if u == nil {
			// A texture no material uses in a way Kiln knows: assume the
			// most common role, and that its alpha matters.
			u = &use{role: RoleColor, alphaUsed: true}
		}
		for _, i := range imageSources(t) {
			if i < 0 || i >= len(uses) {
				continue
			}
			if uses[i] == nil {
				uses[i] = &use{}
			}
			uses[i].add(u.role, u.alphaUsed)
		}
	}
	return uses
}

// extensionTextures calls fn for every texture info in a material
// extension: an object under a key ending in "Texture" with an index, the
// naming rule of every Khronos material extension.
func extensionTextures(v any, fn func(key string, index int)) {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if obj, ok := child.(map[string]any); ok && strings.HasSuffix(k, "Texture") {
				if f, ok := obj["index"].(float64); ok && f == float64(int(f)) {
					fn(k, int(f))
					continue
				}
			}
			extensionTextures(child, fn)
		}
	case []any:
		for _, child := range v {
			extensionTextures(child, fn)
		}
	}
}

// extensionRole classifies an extension's texture by its key. Alpha is
// always treated as used there: KHR_materials_specular,
// KHR_materials_sheen and KHR_materials_pbrSpecularGlossiness keep data
// in the alpha channel.
func extensionRole(key string) Role {
	k := strings.ToLower(key)
	switch {
	case strings.Contains(k, "normal") || strings.Contains(k, "anisotropy"):
		return RoleNormal
	case strings.HasSuffix(k, "colortexture") || k == "diffusetexture":
		return RoleColor
	}
	return RoleData
}

// dropFallbacks removes the images that textures used before the
// conversion and no longer do (the PNG fallback of a texture now served
// as WebP, say), and renumbers the references. Images that nothing used
// before are left to scene.Prune, which owns that decision.
func dropFallbacks(s *scene.Scene, before []*use, rep *Report) {
	used := make([]bool, len(s.Images))
	for _, t := range s.Textures {
		if t != nil {
			for _, i := range imageSources(t) {
				if i >= 0 && i < len(used) {
					used[i] = true
				}
			}
		}
	}
	remap := make([]int, len(s.Images))
	var kept []*scene.Image
	for i, im := range s.Images {
		if before[i] != nil && !used[i] {
			remap[i] = -1
			continue
		}
		remap[i] = len(kept)
		kept = append(kept, im)
	}
	if len(kept) == len(s.Images) {
		return
	}
	s.Images = kept
	for _, t := range s.Textures {
		if t == nil {
			continue
		}
		if t.Source != nil && *t.Source >= 0 && *t.Source < len(remap) {
			t.Source = gltf.Index(remap[*t.Source])
		}
		for _, name := range imageFormatExtensions {
			if i := extSource(t, name); i >= 0 && i < len(remap) {
				obj := generic(t.Extensions[name]).(map[string]any)
				obj["source"] = remap[i]
				t.Extensions[name] = obj
			}
		}
	}
	for k := range rep.Images {
		rep.Images[k].Index = remap[rep.Images[k].Index]
	}
}

// runParallel calls fn for every job on runtime.NumCPU() workers. It stops
// handing out jobs at the first error or when ctx is done, and returns
// that error.
func runParallel(ctx context.Context, jobs []int, fn func(int) error) error {
	workers := min(runtime.NumCPU(), len(jobs))
	next := make(chan int)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	failed := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return firstErr != nil
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					fail(err)
				}
			}
		}()
	}
	for _, i := range jobs {
		if err := ctx.Err(); err != nil {
			fail(err)
			break
		}
		if failed() {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
			fail(ctx.Err())
		}
		if failed() {
			break
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return fmt.Errorf("texture.Convert: %w", firstErr)
	}
	return nil
}
