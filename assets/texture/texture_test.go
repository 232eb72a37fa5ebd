package texture

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chai2010/webp"
	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/imagetype"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// pattern draws a w×h image that behaves like a texture under lossy
// coding: smooth gradients, a few edges and mild noise, so that SSIM
// floors mean what they say (a one-pixel checker would defeat any lossy
// codec and prove nothing).
func pattern(w, h int, seed uint32, alpha bool) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	rnd := seed*2654435761 + 1
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			rnd ^= rnd << 13
			rnd ^= rnd >> 17
			rnd ^= rnd << 5
			fx, fy := float64(x)/float64(w), float64(y)/float64(h)
			n := float64(rnd%5) - 2 // film-grain noise, which lossy codecs smooth
			r := 128 + 90*math.Sin(6*fx+float64(seed)) + n
			g := 128 + 90*math.Cos(5*fy+2*fx) + n
			b := 60 + 150*fx*fy + n
			if (x/(w/5+1)+y/(h/4+1))%2 == 0 { // a few hard edges
				r, b = b, r
			}
			a := 255.0
			if alpha {
				a = 255 * math.Min(1, math.Max(0, 1.4*fx-0.2))
			}
			m.SetNRGBA(x, y, color.NRGBA{clamp8(r), clamp8(g), clamp8(b), uint8(a)})
		}
	}
	return m
}

// normalMap draws bumps as a tangent-space normal map.
func normalMap(w, h int) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dx := 0.6 * math.Cos(float64(x)/9) * math.Sin(float64(y)/13)
			dy := 0.6 * math.Sin(float64(x)/9) * math.Cos(float64(y)/13)
			l := math.Sqrt(dx*dx + dy*dy + 1)
			m.SetNRGBA(x, y, color.NRGBA{clamp8((dx/l + 1) * 127.5), clamp8((dy/l + 1) * 127.5), clamp8((1/l + 1) * 127.5), 255})
		}
	}
	return m
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func clamp8(v float64) uint8 { return uint8(math.Min(255, math.Max(0, math.Round(v)))) }

func encPNG(m image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func encJPEG(m image.Image) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 92}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func encWebP(m *image.NRGBA) []byte {
	b, err := webp.EncodeRGB(rgb(m), 90)
	if err != nil {
		panic(err)
	}
	return b
}

// fixture is a textured scene with every role and case Convert
// distinguishes:
//
//	image 0: base colour with alpha, BLEND material: alpha used
//	image 1: normal map
//	image 2: ORM (metallic-roughness and occlusion), 2048×1024 JPEG: capped
//	image 3: emissive JPEG, with image 6 as its WebP (EXT_texture_webp)
//	image 4: base colour PNG with alpha, OPAQUE material: alpha unused
//	image 5: a PNG no texture uses: left alone
//	image 6: the WebP version of image 3, dropped unless chosen
func fixture(t testing.TB) *scene.Scene {
	t.Helper()
	s, err := scene.Read(scenetest.Skinned(), scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	emissive := pattern(128, 96, 3, false)
	s.Images = []*scene.Image{
		{Name: "albedo", MimeType: "image/png", Data: encPNG(pattern(300, 200, 1, true))},
		{Name: "normal", MimeType: "image/png", Data: encPNG(normalMap(256, 256))},
		{Name: "orm", MimeType: "image/jpeg", Data: encJPEG(pattern(2048, 1024, 2, false))},
		{Name: "emissive", MimeType: "image/jpeg", Data: encJPEG(emissive)},
		{Name: "opaque", MimeType: "image/png", Data: encPNG(pattern(64, 64, 4, true))},
		{Name: "unused", MimeType: "image/png", Data: scenetest.PNG(2, 2, color.NRGBA{1, 2, 3, 255}, color.NRGBA{4, 5, 6, 255})},
		{Name: "emissive.webp", MimeType: "image/webp", Data: encWebP(emissive)},
	}
	s.Textures = []*gltf.Texture{
		{Sampler: gltf.Index(0), Source: gltf.Index(0)},
		{Sampler: gltf.Index(0), Source: gltf.Index(1)},
		{Sampler: gltf.Index(0), Source: gltf.Index(2)},
		{Sampler: gltf.Index(0), Source: gltf.Index(3), Extensions: gltf.Extensions{"EXT_texture_webp": map[string]any{"source": 6}}},
		{Sampler: gltf.Index(0), Source: gltf.Index(4)},
	}
	s.Materials = []*gltf.Material{
		{
			Name:      "Skin",
			AlphaMode: gltf.AlphaBlend,
			PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
				BaseColorTexture:         &gltf.TextureInfo{Index: 0},
				MetallicRoughnessTexture: &gltf.TextureInfo{Index: 2},
			},
			NormalTexture:    &gltf.NormalTexture{Index: gltf.Index(1)},
			OcclusionTexture: &gltf.OcclusionTexture{Index: gltf.Index(2)},
			EmissiveTexture:  &gltf.TextureInfo{Index: 3},
			EmissiveFactor:   [3]float64{1, 1, 1},
		},
		{Name: "Opaque", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorTexture: &gltf.TextureInfo{Index: 4}}},
	}
	s.ExtensionsRequired = []string{"EXT_texture_webp"} // as a file that had no fallback would say
	return s
}

// doc is the part of a written GLB's JSON the tests read.
type doc struct {
	ExtensionsUsed     []string `json:"extensionsUsed"`
	ExtensionsRequired []string `json:"extensionsRequired"`
	Textures           []struct {
		Source     *int `json:"source"`
		Extensions map[string]struct {
			Source *int `json:"source"`
		} `json:"extensions"`
	} `json:"textures"`
	Images []struct {
		MimeType string `json:"mimeType"`
	} `json:"images"`
}

func jsonOf(t testing.TB, glb []byte) doc {
	t.Helper()
	n := binary.LittleEndian.Uint32(glb[12:])
	var d doc
	if err := json.Unmarshal(glb[20:20+n], &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// floors are the SSIM each role must keep at the default qualities.
var floors = map[string]map[Role]float64{
	FormatWebP:   {RoleColor: 0.90, RoleData: 0.93, RoleNormal: 0.97},
	FormatCompat: {RoleColor: 0.93, RoleData: 0.93, RoleNormal: 0.97},
	FormatKeep:   {RoleColor: 0.93, RoleData: 0.93, RoleNormal: 0.97},
}

// checkOutput writes s, validates it and checks everything the format
// promises, against the images the scene had before (src) and the
// report. It returns the per-image SSIM by report entry.
func checkOutput(t *testing.T, format string, maxSize int, src []*scene.Image, s *scene.Scene, rep Report) []float64 {
	t.Helper()
	if maxSize == 0 {
		maxSize = DefaultMaxSize
	}
	glb, err := scene.Write(s)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	gltfcheck.RequireValid(t, glb)
	d := jsonOf(t, glb)
	back, err := scene.Read(glb, scene.ReadOptions{})
	if err != nil {
		t.Fatalf("Read of the output: %v", err)
	}
	const webpExt = "EXT_texture_webp"
	switch format {
	case FormatWebP:
		if len(d.Textures) > 0 && (!slices.Contains(d.ExtensionsUsed, webpExt) || !slices.Contains(d.ExtensionsRequired, webpExt)) {
			t.Errorf("webp: used %v required %v, want %s in both", d.ExtensionsUsed, d.ExtensionsRequired, webpExt)
		}
	case FormatCompat:
		if len(d.ExtensionsRequired) != 0 || slices.Contains(d.ExtensionsUsed, webpExt) {
			t.Errorf("compat: used %v required %v", d.ExtensionsUsed, d.ExtensionsRequired)
		}
	case FormatPNG:
		if slices.Contains(d.ExtensionsUsed, webpExt) {
			t.Errorf("png: used %v", d.ExtensionsUsed)
		}
	}
	// Every texture's image is in the format the format implies.
	for ti, tx := range d.Textures {
		ext, hasWebP := tx.Extensions[webpExt]
		var img int
		switch {
		case format == FormatWebP:
			if tx.Source != nil || !hasWebP || ext.Source == nil {
				t.Errorf("texture %d: source %v, EXT_texture_webp %v: want the WebP alone", ti, tx.Source, tx.Extensions)
				continue
			}
			img = *ext.Source
		case format == FormatKeep && tx.Source == nil:
			img = *ext.Source
		default:
			if tx.Source == nil || (format != FormatKeep && len(tx.Extensions) != 0) {
				t.Errorf("texture %d: source %v, extensions %v", ti, tx.Source, tx.Extensions)
				continue
			}
			img = *tx.Source
		}
		mime := d.Images[img].MimeType
		if got := imagetype.Sniff(back.Images[img].Data); got != mime {
			t.Errorf("image %d: declared %s, bytes are %s", img, mime, got)
		}
		switch format {
		case FormatWebP:
			if mime != "image/webp" {
				t.Errorf("webp: image %d is %s", img, mime)
			}
		case FormatPNG:
			if mime != "image/png" {
				t.Errorf("png: image %d is %s", img, mime)
			}
		case FormatCompat:
			if mime != "image/png" && mime != "image/jpeg" {
				t.Errorf("compat: image %d is %s", img, mime)
			}
		}
	}
	// Every reported image decodes, fits the cap and keeps its pixels.
	var ssims []float64
	for _, r := range rep.Images {
		out, err := Decode(back.Images[r.Index].Data)
		if err != nil {
			t.Errorf("image %d does not decode: %v", r.Index, err)
			continue
		}
		w, h := out.Rect.Dx(), out.Rect.Dy()
		if [2]int{w, h} != r.After || w > maxSize || h > maxSize {
			t.Errorf("image %d: %d×%d, report %v, cap %d", r.Index, w, h, r.After, maxSize)
			continue
		}
		if format == FormatCompat {
			want := "image/jpeg"
			if r.AlphaUsed {
				want = "image/png"
			}
			if r.MimeAfter != want {
				t.Errorf("compat: image %d (alpha used %v) is %s", r.Index, r.AlphaUsed, r.MimeAfter)
			}
		}
		ref, err := Decode(src[r.Source].Data)
		if err != nil {
			t.Fatal(err)
		}
		if r.Before != r.After {
			ref = Scale(ref, w, h, r.Role, r.AlphaUsed)
		}
		if !r.AlphaUsed {
			setOpaque(ref)
			setOpaque(out)
		}
		if r.Kept {
			if !bytes.Equal(back.Images[r.Index].Data, src[r.Source].Data) {
				t.Errorf("image %d reported kept but changed", r.Index)
			}
		}
		ssim := SSIM(ref, out)
		ssims = append(ssims, ssim)
		switch {
		case r.Kept:
		case format == FormatPNG:
			// Lossless: the very pixels of the (scaled) source.
			if !bytes.Equal(ref.Pix, out.Pix) {
				t.Errorf("png: image %d (%s) changed pixels; SSIM %.4f", r.Index, r.Role, ssim)
			}
		default:
			if floor := floors[format][r.Role]; ssim < floor {
				t.Errorf("%s: image %d (%s, %s, %v→%v) SSIM %.4f < %.2f", format, r.Index, r.Role, r.MimeAfter, r.Before, r.After, ssim, floor)
			}
		}
		if r.AlphaUsed && r.MimeAfter != "image/jpeg" {
			// Alpha is coded losslessly by every format Kiln writes.
			if d := maxAlphaDiff(ref, out); d > 1 {
				t.Errorf("image %d: alpha off by %d", r.Index, d)
			}
		}
	}
	return ssims
}

func maxAlphaDiff(a, b *image.NRGBA) int {
	d := 0
	for i := 3; i < len(a.Pix); i += 4 {
		d = max(d, int(a.Pix[i])-int(b.Pix[i]), int(b.Pix[i])-int(a.Pix[i]))
	}
	return d
}

func TestConvertFixture(t *testing.T) {
	for _, tc := range []struct {
		format  string
		maxSize int
		// mime of each image afterwards, by source index ("" = dropped)
		mimes []string
	}{
		{FormatWebP, 0, []string{"image/webp", "image/webp", "image/webp", "image/webp", "image/webp", "image/png", ""}},
		{FormatPNG, 0, []string{"image/png", "image/png", "image/png", "image/png", "image/png", "image/png", ""}},
		{FormatCompat, 0, []string{"image/png", "image/jpeg", "image/jpeg", "image/jpeg", "image/jpeg", "image/png", ""}},
		{FormatKeep, 0, []string{"image/png", "image/png", "image/jpeg", "image/jpeg", "image/png", "image/png", "image/webp"}},
		{FormatWebP, 128, []string{"image/webp", "image/webp", "image/webp", "image/webp", "image/webp", "image/png", ""}},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.format, tc.maxSize), func(t *testing.T) {
			s := fixture(t)
			src := slices.Clone(s.Images)
			rep, err := Convert(context.Background(), s, Options{Format: tc.format, MaxSize: tc.maxSize})
			if err != nil {
				t.Fatal(err)
			}
			// Which images remain, and in what format.
			var want []string
			for _, m := range tc.mimes {
				if m != "" {
					want = append(want, m)
				}
			}
			var got []string
			for _, im := range s.Images {
				got = append(got, imagetype.Sniff(im.Data))
			}
			if !slices.Equal(got, want) {
				t.Errorf("images %v, want %v", got, want)
			}
			if !bytes.Equal(s.Images[5].Data, src[5].Data) {
				t.Error("the unused image was touched")
			}
			roles := map[int]Role{0: RoleColor, 1: RoleNormal, 2: RoleData, 3: RoleColor, 4: RoleColor, 6: RoleColor}
			for _, r := range rep.Images {
				if r.Role != roles[r.Source] {
					t.Errorf("image %d: role %s, want %s", r.Source, r.Role, roles[r.Source])
				}
				if r.AlphaUsed != (r.Source == 0) {
					t.Errorf("image %d: alpha used %v", r.Source, r.AlphaUsed)
				}
				if r.BytesBefore != len(src[r.Source].Data) || r.BytesAfter != len(s.Images[r.Index].Data) {
					t.Errorf("image %d: bytes %d→%d in the report", r.Source, r.BytesBefore, r.BytesAfter)
				}
			}
			if want := 5 + btoi(tc.format == FormatKeep); len(rep.Images) != want {
				t.Errorf("%d images reported, want %d", len(rep.Images), want)
			}
			ssims := checkOutput(t, tc.format, tc.maxSize, src, s, rep)
			t.Logf("%s max %d: %d → %d bytes, SSIM %.4f", tc.format, tc.maxSize, rep.BytesBefore(), rep.BytesAfter(), ssims)
		})
	}
}

// The capped ORM image keeps its aspect, and the cap applies to every
// image whatever the format.
func TestConvertCapsSize(t *testing.T) {
	s := fixture(t)
	rep, err := Convert(context.Background(), s, Options{Format: FormatKeep, MaxSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][2]int{0: {100, 67}, 1: {100, 100}, 2: {100, 50}, 3: {100, 75}, 4: {64, 64}, 6: {100, 75}}
	for _, r := range rep.Images {
		if r.After != want[r.Source] {
			t.Errorf("image %d: %v → %v, want %v", r.Source, r.Before, r.After, want[r.Source])
		}
		if r.Kept != (r.Source == 4) {
			t.Errorf("image %d: kept %v", r.Source, r.Kept)
		}
	}
	if len(rep.Images) != 6 {
		t.Errorf("keep converted %d images, want 6 (the fallback too)", len(rep.Images))
	}
}

func TestConvertRejectsBadOptions(t *testing.T) {
	for _, opt := range []Options{{Format: "jpeg"}, {Format: "WEBP"}, {Format: FormatPNG, MaxSize: -1}, {Format: FormatWebP, Quality: 101}} {
		s := fixture(t)
		if _, err := Convert(context.Background(), s, opt); kiln.KindOf(err) != kiln.KindInvalid {
			t.Errorf("%+v: %v, want an invalid-input error", opt, err)
		}
	}
}

// Quality overrides the per-role choice, for WebP and JPEG alike.
func TestConvertQuality(t *testing.T) {
	for _, format := range []string{FormatWebP, FormatCompat} {
		var sizes []int
		for _, q := range []float32{0, 40} {
			s := fixture(t)
			rep, err := Convert(context.Background(), s, Options{Format: format, Quality: q})
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, rep.BytesAfter())
		}
		if sizes[1] >= sizes[0] {
			t.Errorf("%s: quality 40 gave %d bytes, the default %d", format, sizes[1], sizes[0])
		}
	}
}

func TestConvertCancelledLeavesSceneAlone(t *testing.T) {
	s := fixture(t)
	before := slices.Clone(s.Images)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Convert(ctx, s, Options{Format: FormatWebP}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if !slices.Equal(s.Images, before) || s.Textures[0].Source == nil || *s.Textures[0].Source != 0 {
		t.Error("a cancelled conversion changed the scene")
	}
}

func TestConvertCorruptImage(t *testing.T) {
	s := fixture(t)
	s.Images[1].Data = s.Images[1].Data[:60] // a truncated PNG
	_, err := Convert(context.Background(), s, Options{Format: FormatWebP})
	if kiln.KindOf(err) != kiln.KindUnprocessable {
		t.Fatalf("err %v, want unprocessable", err)
	}
	if imagetype.Sniff(s.Images[0].Data) != "image/png" {
		t.Error("a failed conversion changed the scene")
	}
}

// Roles come from every material that uses an image; the strictest wins,
// and alpha counts only when a blending material reads it.
func TestImageUses(t *testing.T) {
	s := fixture(t)
	// Material 1 also uses the normal map's texture as base colour, and
	// an extension uses the emissive texture as a clearcoat normal.
	s.Materials[1].PBRMetallicRoughness.BaseColorTexture.Index = 1
	s.Materials[1].AlphaMode = gltf.AlphaMask
	s.Materials[1].Extensions = gltf.Extensions{
		"KHR_materials_clearcoat": json.RawMessage(`{"clearcoatNormalTexture":{"index":3}}`),
		"KHR_materials_sheen":     json.RawMessage(`{"sheenColorTexture":{"index":4}}`),
	}
	uses := imageUses(s)
	want := []*use{
		{RoleColor, true},
		{RoleNormal, true}, // a MASK base colour and a normal map
		{RoleData, false},  // metallic-roughness and occlusion
		{RoleNormal, true}, // emissive and clearcoat normal; extensions read alpha
		{RoleColor, true},  // sheen colour
		nil,
		{RoleNormal, true}, // the WebP source of texture 3
	}
	for i := range want {
		if (uses[i] == nil) != (want[i] == nil) || (uses[i] != nil && *uses[i] != *want[i]) {
			t.Errorf("image %d: %+v, want %+v", i, uses[i], want[i])
		}
	}
}

func TestCapped(t *testing.T) {
	for _, tc := range []struct{ w, h, max, ww, wh int }{
		{2048, 2048, 1024, 1024, 1024},
		{2048, 1024, 1024, 1024, 512},
		{1000, 3000, 1024, 341, 1024},
		{4000, 1, 1024, 1024, 1},
		{512, 256, 1024, 512, 256},
	} {
		w, h, changed := capped(tc.w, tc.h, tc.max)
		if w != tc.ww || h != tc.wh || changed != (tc.w > tc.max || tc.h > tc.max) {
			t.Errorf("%d×%d cap %d: %d×%d %v", tc.w, tc.h, tc.max, w, h, changed)
		}
	}
}

func TestResize(t *testing.T) {
	// A black and white checker averages to half the light: sRGB 188,
	// not the 128 that averaging sRGB values gives.
	m := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for i := 0; i < 16; i++ {
		v := uint8(255 * ((i%4 + i/4) % 2))
		m.Pix[4*i], m.Pix[4*i+1], m.Pix[4*i+2], m.Pix[4*i+3] = v, v, v, 255
	}
	for _, tc := range []struct {
		role Role
		want uint8
	}{{RoleColor, 188}, {RoleData, 128}} {
		out := resize(m, 2, 2, tc.role, false)
		for i := 0; i < 4; i++ {
			if p := out.Pix[4*i : 4*i+4]; p[0] != tc.want || p[3] != 255 {
				t.Errorf("%s: pixel %d = %v, want %d", tc.role, i, p, tc.want)
			}
		}
	}
	// Transparent pixels do not bleed their colour.
	m = image.NewNRGBA(image.Rect(0, 0, 2, 1))
	copy(m.Pix, []uint8{255, 0, 0, 255, 0, 255, 0, 0})
	if p := resize(m, 1, 1, RoleColor, true).Pix; p[0] != 255 || p[1] != 0 || p[3] != 128 {
		t.Errorf("alpha-weighted average %v, want red at half alpha", p)
	}
	// Averaged normals are renormalized: (±0.6, 0, 0.8) average to +z.
	m = image.NewNRGBA(image.Rect(0, 0, 2, 1))
	copy(m.Pix, []uint8{clamp8(1.6 * 127.5), 128, clamp8(1.8 * 127.5), 255, clamp8(0.4 * 127.5), 128, clamp8(1.8 * 127.5), 255})
	if p := resize(m, 1, 1, RoleNormal, false).Pix; p[2] != 255 || p[0] < 127 || p[0] > 128 {
		t.Errorf("normal %v, want (128,128,255)", p)
	}
	// A 3:2 reduction covers every source pixel with its exact share.
	m = image.NewNRGBA(image.Rect(0, 0, 3, 1))
	copy(m.Pix, []uint8{0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255})
	if p := resize(m, 2, 1, RoleData, false).Pix; p[0] != 30 || p[4] != 150 {
		t.Errorf("3→2: %v, want 30 and 150", p)
	}
}

func TestSSIM(t *testing.T) {
	a := pattern(64, 64, 1, false)
	if s := SSIM(a, a); s != 1 {
		t.Errorf("SSIM of an image with itself %v", s)
	}
	b := image.NewNRGBA(a.Rect)
	copy(b.Pix, a.Pix)
	for i := 0; i < len(b.Pix); i += 4 {
		b.Pix[i] = 255 - b.Pix[i] // invert red: structure changes
	}
	if s := SSIM(a, b); s > 0.8 {
		t.Errorf("SSIM after inverting red %v", s)
	}
	if s := SSIM(a, pattern(32, 64, 1, false)); s != 0 {
		t.Errorf("SSIM of different sizes %v", s)
	}
}

// fancyYCbCr must agree with image/jpeg's conversion where chroma is
// flat, and interpolate (not repeat) chroma across a colour edge.
func TestFancyUpsampling(t *testing.T) {
	m := image.NewYCbCr(image.Rect(0, 0, 8, 2), image.YCbCrSubsampleRatio420)
	for i := range m.Y {
		m.Y[i] = 128
	}
	for i := range m.Cb {
		m.Cb[i], m.Cr[i] = 128, 128
		if i%m.CStride >= 2 {
			m.Cr[i] = 228
		}
	}
	out := toNRGBA(m)
	red := func(x int) uint8 { return out.Pix[4*x] }
	if red(0) != 128 || red(2) != 128 || red(3) <= red(2) || red(4) <= red(3) || red(5) <= red(4) || red(7) != red(5) {
		t.Errorf("red along the row: %v", []uint8{red(0), red(1), red(2), red(3), red(4), red(5), red(6), red(7)})
	}
}

func sharedModels(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "testdata", "*.glb"))
	if len(files) == 0 {
		t.Skip("no shared test models in ../shared/testdata")
	}
	return files
}

// Every shared model, in every format: valid output, the format's
// promises and SSIM floors.
func TestConvertSharedModels(t *testing.T) {
	for _, f := range sharedModels(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{FormatWebP, FormatPNG, FormatCompat, FormatKeep} {
			t.Run(filepath.Base(f)+"/"+format, func(t *testing.T) {
				if testing.Short() && len(data) > 1<<20 {
					t.Skip("large model in -short mode")
				}
				s, err := scene.Read(data, scene.ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				s.Dedup()
				s.Prune()
				src := slices.Clone(s.Images)
				rep, err := Convert(context.Background(), s, Options{Format: format})
				if err != nil {
					t.Fatal(err)
				}
				ssims := checkOutput(t, format, 0, src, s, rep)
				if len(rep.Images) > 0 {
					t.Logf("%d images, %d → %d bytes, SSIM %.4f", len(rep.Images), rep.BytesBefore(), rep.BytesAfter(), ssims)
				}
			})
		}
	}
}
