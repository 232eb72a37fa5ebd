package app

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chai2010/webp"

	"github.com/kilnhq/kiln"
)

// TestPreviewParams checks every bad parameter is a 400 naming it and
// that a missing extension or avatar is a 404, before anything renders.
func TestPreviewParams(t *testing.T) {
	r := start(t)
	tests := []struct {
		path   string
		status int
		code   string
	}{
		{"/preview/default-female.png?size=31", 400, "invalid_size"},
		{"/preview/default-female.png?size=513", 400, "invalid_size"},
		{"/preview/default-female.png?size=64.5", 400, "invalid_size"},
		{"/preview/default-female.png?size=big", 400, "invalid_size"},
		{"/preview/default-female.png?size=", 400, "invalid_size"},
		{"/preview/default-female.png?camera=side", 400, "invalid_camera"},
		{"/preview/default-female.png?background=1,2", 400, "invalid_background"},
		{"/preview/default-female.png?background=256,0,0", 400, "invalid_background"},
		{"/preview/default-female.png?background=-1,0,0", 400, "invalid_background"},
		{"/preview/default-female.png?background=a,b,c", 400, "invalid_background"},
		{"/preview/default-female.gif", 400, "invalid_format"},
		{"/preview/default-female.jpeg", 400, "invalid_format"},
		{"/preview/default-female", 404, ""},
		{"/preview/av_nosuchavatar.png", 404, "avatar_not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res := do(t, "GET", r.AvatarURL+tt.path, "", nil, nil)
			if res.Status != tt.status {
				t.Fatalf("%d %s, want %d", res.Status, res.Body, tt.status)
			}
			if tt.code != "" {
				if code := res.errorCode(t); code != tt.code {
					t.Fatalf("code %s, want %s", code, tt.code)
				}
			}
		})
	}
}

// TestPreviewImages renders previews through HTTP: the size rounded to a
// power of two, the format and content type from the extension, the
// corners transparent or the background colour (white for JPEG without
// one), and a second request answered from the cache with the same ETag
// or a 304.
func TestPreviewImages(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	registered := postAvatar(t, r, key, `{}`)
	tests := []struct {
		path        string
		contentType string
		size        int
		corner      rgba8
		tolerance   int // lossy formats move colours a little
	}{
		{"/preview/default-female.png", "image/png", 512, rgba8{0, 0, 0, 0}, 0},
		{"/preview/default-female.png?size=48&camera=full", "image/png", 64, rgba8{0, 0, 0, 0}, 0},
		{"/preview/default-female.png?size=47&camera=full", "image/png", 32, rgba8{0, 0, 0, 0}, 0},
		{"/preview/default-male.png?size=96&background=0,128,255", "image/png", 128, rgba8{0, 128, 255, 255}, 0},
		{"/preview/default-male.jpg?size=100", "image/jpeg", 128, rgba8{255, 255, 255, 255}, 3},
		{"/preview/default-male.jpg?size=64&background=200,30,40&camera=full", "image/jpeg", 64, rgba8{200, 30, 40, 255}, 6},
		{"/preview/default-male.webp?size=32&camera=full", "image/webp", 32, rgba8{0, 0, 0, 0}, 0},
		{"/preview/" + registered + ".webp?size=64&background=10,20,30", "image/webp", 64, rgba8{10, 20, 30, 255}, 6},
		{"/preview/" + registered + ".png?size=256&camera=full", "image/png", 256, rgba8{0, 0, 0, 0}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			start := time.Now()
			res := do(t, "GET", r.AvatarURL+tt.path, "", nil, nil)
			cold := time.Since(start)
			if res.Status != http.StatusOK || res.Header.Get("Content-Type") != tt.contentType || res.Header.Get("ETag") == "" {
				t.Fatalf("%d %q etag %q: %.200s", res.Status, res.Header.Get("Content-Type"), res.Header.Get("ETag"), res.Body)
			}
			var m image.Image
			var err error
			switch tt.contentType {
			case "image/png":
				m, err = png.Decode(bytes.NewReader(res.Body))
			case "image/jpeg":
				m, err = jpeg.Decode(bytes.NewReader(res.Body))
			default:
				m, err = webp.Decode(bytes.NewReader(res.Body))
			}
			if err != nil {
				t.Fatal(err)
			}
			if b := m.Bounds(); b.Dx() != tt.size || b.Dy() != tt.size {
				t.Fatalf("size %v, want %d²", b, tt.size)
			}
			// The top corners: a portrait crops the shoulders at the bottom.
			for _, x := range []int{0, tt.size - 1} {
				c := rgbaAt(m, x, 0)
				if c.a != tt.corner.a || (c.a != 0 && (abs(c.r-tt.corner.r) > tt.tolerance || abs(c.g-tt.corner.g) > tt.tolerance || abs(c.b-tt.corner.b) > tt.tolerance)) {
					t.Errorf("corner (%d,0) %+v, want %+v", x, c, tt.corner)
				}
			}
			start = time.Now()
			again := do(t, "GET", r.AvatarURL+tt.path, "", nil, nil)
			cached := time.Since(start)
			if again.Status != http.StatusOK || again.Header.Get("ETag") != res.Header.Get("ETag") || !bytes.Equal(again.Body, res.Body) {
				t.Fatalf("second request: %d etag %q, want the cached image", again.Status, again.Header.Get("ETag"))
			}
			if nm := do(t, "GET", r.AvatarURL+tt.path, "", nil, map[string]string{"If-None-Match": res.Header.Get("ETag")}); nm.Status != http.StatusNotModified {
				t.Fatalf("If-None-Match: %d, want 304", nm.Status)
			}
			t.Logf("cold %v, cached %v", cold.Round(time.Millisecond), cached.Round(time.Millisecond))
		})
	}
	// The canonical background keys the cache: 010 and 10 are one picture.
	a := do(t, "GET", r.AvatarURL+"/preview/default-male.png?size=96&background=0,128,255", "", nil, nil)
	b := do(t, "GET", r.AvatarURL+"/preview/default-male.png?size=128&background=000,128,255", "", nil, nil)
	if a.Status != 200 || a.Header.Get("ETag") != b.Header.Get("ETag") {
		t.Errorf("equal parameters gave %q and %q", a.Header.Get("ETag"), b.Header.Get("ETag"))
	}
	if !strings.HasPrefix(a.Header.Get("Content-Disposition"), "inline") {
		t.Errorf("Content-Disposition %q", a.Header.Get("Content-Disposition"))
	}
}

type rgba8 struct{ r, g, b, a int }

// rgbaAt reads a pixel unpremultiplied, as the file stores it.
func rgbaAt(m image.Image, x, y int) rgba8 {
	r, g, b, a := m.At(x, y).RGBA()
	if a == 0 {
		return rgba8{}
	}
	return rgba8{int(r * 255 / a), int(g * 255 / a), int(b * 255 / a), int(a >> 8)}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
