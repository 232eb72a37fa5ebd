package texture

import (
	"bytes"
	"image"
	"image/png"
	"testing"
)

// TestEncodePNGAsImagePNG: encodePNG writes what pngEncoder writes (the
// bytes of PNG variants did not change when colour images went through
// pngenc), for colour images with and without alpha and for gray ones.
func TestEncodePNGAsImagePNG(t *testing.T) {
	for _, tc := range []struct {
		name        string
		gray, alpha bool
	}{{"colour", false, false}, {"colour with alpha", false, true}, {"gray", true, false}} {
		m := image.NewNRGBA(image.Rect(0, 0, 70, 45))
		for i := range m.Pix {
			x, y, c := (i/4)%70, i/4/70, i%4
			v := byte(x*3 + y*5 + (x*y)%17)
			switch {
			case c == 3 && tc.alpha:
				m.Pix[i] = byte(255 - x)
			case c == 3:
				m.Pix[i] = 255
			case tc.gray:
				m.Pix[i] = v
			default:
				m.Pix[i] = v + byte(40*c)
			}
		}
		got, err := encodePNG(m)
		if err != nil {
			t.Fatal(err)
		}
		var img image.Image = m
		if tc.gray {
			img = grayOf(m)
		}
		var want bytes.Buffer
		if err := pngEncoder.Encode(&want, img); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: %d bytes, image/png writes %d", tc.name, len(got), want.Len())
		}
		if _, err := png.Decode(bytes.NewReader(got)); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
