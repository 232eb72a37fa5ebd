package assets

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"slices"
	"strings"
	"testing"
)

// manySpellingsZip is a ZIP of an OBJ whose n materials, in a library
// named n times, each use the archive's one texture under a spelling of
// its own ("tex/a.png", "x1/../tex/a.png", ...), and of that texture: a
// PNG signature and kib KiB of zeros (it deflates to almost nothing).
// Before each entry was inflated once, it cost n inflations of the image
// and n copies of it in the scene.
func manySpellingsZip(t testing.TB, n, kib int) []byte {
	var obj, mtl strings.Builder
	obj.WriteString("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\n")
	for i := range n {
		fmt.Fprintf(&obj, "mtllib x%d/../m.mtl\nusemtl m%d\nf 1/1 2/1 3/1\n", i, i)
		fmt.Fprintf(&mtl, "newmtl m%d\nmap_Kd x%d/../tex/a.png\n", i, i)
	}
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, kib<<10)...)
	return zipOf(t, map[string][]byte{"m.obj": []byte(obj.String()), "m.mtl": []byte(mtl.String()), "tex/a.png": png})
}

// TestUploadNamesOneFileOnce: an archive's texture named under 200
// spellings and its library named 200 times become one image, used by
// every material, holding the entry's bytes.
func TestUploadNamesOneFileOnce(t *testing.T) {
	const n = 200
	s, err := ReadUpload(manySpellingsZip(t, n, 64), "obj")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Images) != 1 || len(s.Textures) != 1 || len(s.Materials) != n {
		t.Fatalf("%d images, %d textures, %d materials; want 1, 1, %d", len(s.Images), len(s.Textures), len(s.Materials), n)
	}
	if !bytes.HasPrefix(s.Images[0].Data, []byte("\x89PNG")) || len(s.Images[0].Data) != 8+64<<10 {
		t.Fatalf("the image holds %d bytes", len(s.Images[0].Data))
	}
	for i, m := range s.Materials {
		if m.PBRMetallicRoughness.BaseColorTexture == nil || m.PBRMetallicRoughness.BaseColorTexture.Index != 0 {
			t.Fatalf("material %d does not use the one texture: %+v", i, m.PBRMetallicRoughness.BaseColorTexture)
		}
	}
}

// BenchmarkUploadSpellings doubles the archive (the names and the
// texture's size together): linear when the time per op doubles; it
// grew four times when each name inflated the texture again.
//
//	go test ./assets -run '^$' -bench UploadSpellings -benchtime 3x
func BenchmarkUploadSpellings(b *testing.B) {
	for _, n := range []int{500, 1000, 2000} {
		data := manySpellingsZip(b, n, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := ReadUpload(data, "obj"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBloatedImageReencoded: a 2×2 PNG padded with 8 MB of junk, after
// its end or in an ancillary chunk the decoder skips, is re-encoded
// before the levels are written (texture.Slim), so no level carries the
// junk, and its pixels are the same; a PNG that is not bloated is kept
// byte for byte.
func TestBloatedImageReencoded(t *testing.T) {
	m := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	for i := range m.Pix {
		m.Pix[i] = uint8(37 * i)
		if i%4 == 3 {
			m.Pix[i] = 255 // the quad's material is opaque: alpha would go
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	small := b.Bytes()
	junk := bytes.Repeat([]byte("junk"), 2<<20)
	iend := len(small) - 12 // the IEND chunk: length, type, CRC
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(junk)))
	chunk = append(chunk, "zzJk"...) // ancillary, private, safe to copy
	chunk = append(chunk, junk...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	for _, tc := range []struct {
		name    string
		data    []byte
		maxGLB  int
		keptAll bool
	}{
		{"junk after IEND", append(slices.Clone(small), junk...), 4 << 10, false},
		{"junk in a chunk", slices.Concat(small[:iend], chunk, small[iend:]), 4 << 10, false},
		{"not bloated", small, 4 << 10, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Read(imageGLB(t, tc.data, 1))
			if err != nil {
				t.Fatal(err)
			}
			levels, err := Levels(context.Background(), s, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range levels {
				if len(l.GLB) > tc.maxGLB {
					t.Errorf("lod %d: %d bytes, want at most %d", l.Level.Level, len(l.GLB), tc.maxGLB)
				}
				ls, err := Read(l.GLB)
				if err != nil {
					t.Fatal(err)
				}
				data := ls.Images[0].Data
				if tc.keptAll && !bytes.Equal(data, small) {
					t.Errorf("lod %d: the image was re-encoded (%d bytes), want it kept", l.Level.Level, len(data))
				}
				got, err := png.Decode(bytes.NewReader(data))
				if err != nil {
					t.Fatalf("lod %d: %v", l.Level.Level, err)
				}
				for y := range 2 {
					for x := range 2 {
						if a, b := color.NRGBAModel.Convert(got.At(x, y)), m.At(x, y); a != b {
							t.Errorf("lod %d: pixel %d,%d is %v, want %v", l.Level.Level, x, y, a, b)
						}
					}
				}
			}
		})
	}
}
