package imagemeta

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"
)

const secret = "/tmp/kiln-render-4711/out"

func picture() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 16, 8))
	for y := 0; y < 8; y++ {
		for x := 0; x < 16; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 16), uint8(y * 32), 90, 255})
		}
	}
	return img
}

// segment is a JPEG marker segment carrying payload.
func segment(marker byte, payload string) []byte {
	b := []byte{0xFF, marker, 0, 0}
	binary.BigEndian.PutUint16(b[2:], uint16(len(payload)+2))
	return append(b, payload...)
}

// chunk is a PNG chunk with its CRC.
func chunk(typ, payload string) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(payload)))
	b = append(b, typ...)
	b = append(b, payload...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE([]byte(typ+payload)))
}

func jpegWithMetadata(t *testing.T) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, picture(), &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	meta := append(segment(0xE1, "Exif\x00\x00"+secret+".jpg"), segment(0xFE, "Blender:File "+secret+".blend")...)
	meta = append(meta, segment(0xE2, "ICC_PROFILE\x00\x01\x01profile")...)
	return append(append(append([]byte{}, data[:2]...), meta...), data[2:]...)
}

func pngWithMetadata(t *testing.T) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, picture()); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	ihdrEnd := len(pngSignature) + 12 + 13
	meta := append(chunk("tEXt", "File\x00"+secret+".blend"), chunk("gAMA", "\x00\x00\xb1\x8f")...)
	meta = append(meta, chunk("tIME", "\x07\xea\x0b\x19\x14\x00\x00")...)
	meta = append(meta, chunk("iTXt", "Date\x00\x00\x00\x00\x002026/11/25")...)
	return append(append(append([]byte{}, data[:ihdrEnd]...), meta...), data[ihdrEnd:]...)
}

// TestStrip: Blender's kind of metadata goes, what shows the pixels right
// stays, and the image decodes to the same pixels.
func TestStrip(t *testing.T) {
	for _, tc := range []struct {
		name   string
		data   []byte
		decode func([]byte) (image.Image, error)
		kept   []string
		gone   []string
	}{
		{"jpeg", jpegWithMetadata(t), func(b []byte) (image.Image, error) { return jpeg.Decode(bytes.NewReader(b)) },
			[]string{"ICC_PROFILE"}, []string{secret, "Exif", "Blender"}},
		{"png", pngWithMetadata(t), func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) },
			[]string{"gAMA", "IHDR", "IDAT", "IEND"}, []string{secret, "tEXt", "tIME", "iTXt", "2026/11/25"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, err := tc.decode(tc.data)
			if err != nil {
				t.Fatalf("the test's own file: %v", err)
			}
			got, err := Strip(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.gone {
				if bytes.Contains(got, []byte(s)) {
					t.Errorf("%q is still in the file", s)
				}
			}
			for _, s := range tc.kept {
				if !bytes.Contains(got, []byte(s)) {
					t.Errorf("%q was stripped", s)
				}
			}
			after, err := tc.decode(got)
			if err != nil {
				t.Fatalf("stripped file does not decode: %v", err)
			}
			for y := 0; y < 8; y++ {
				for x := 0; x < 16; x++ {
					if before.At(x, y) != after.At(x, y) {
						t.Fatalf("pixel %d,%d changed: %v -> %v", x, y, before.At(x, y), after.At(x, y))
					}
				}
			}
		})
	}
}

// TestStripRefusesBrokenFiles: a cut file is an error, not a panic or a
// silently shorter picture; a file of another kind passes unchanged.
func TestStripRefusesBrokenFiles(t *testing.T) {
	j, p := jpegWithMetadata(t), pngWithMetadata(t)
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"jpeg cut in a segment", j[:30]},
		{"jpeg without a scan", j[:2]},
		{"png cut in a chunk", p[:40]},
		{"png chunk longer than the file", append(append([]byte{}, pngSignature...), 0x7F, 0xFF, 0xFF, 0xFF, 'I', 'H', 'D', 'R', 0, 0, 0, 0)},
	} {
		if _, err := Strip(tc.data); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	webp := []byte("RIFF\x00\x00\x00\x00WEBPVP8 ")
	if got, err := Strip(webp); err != nil || !bytes.Equal(got, webp) {
		t.Errorf("webp: %q %v", got, err)
	}
}
