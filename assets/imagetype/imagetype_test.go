package imagetype

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"testing"
)

func TestSniff(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	var p, j bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, img, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"png", p.Bytes(), PNG},
		{"jpeg", j.Bytes(), JPEG},
		{"webp", []byte("RIFF\x1a\x00\x00\x00WEBPVP8L"), WebP},
		{"ktx2", []byte("\xABKTX 20\xBB\r\n\x1A\nrest"), KTX2},
		{"riff but not webp", []byte("RIFF\x1a\x00\x00\x00WAVEfmt "), ""},
		{"gif", []byte("GIF89a"), ""},
		{"short", []byte("\x89P"), ""},
		{"empty", nil, ""},
	}
	for _, tt := range tests {
		if got := Sniff(tt.data); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
