package render

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"strconv"
	"strings"

	"github.com/chai2010/webp"
)

// ContentType maps the preview formats Kiln serves to their media types.
var ContentType = map[string]string{
	"png":  "image/png",
	"jpg":  "image/jpeg",
	"webp": "image/webp",
}

// White is the background JPEG previews get when none is asked: JPEG has
// no alpha, and white is what a transparent preview shows on most pages.
var White = color.NRGBA{255, 255, 255, 255}

// ForFormat returns the background to render with for format: bg as
// given, or white for a JPEG without one.
func ForFormat(format string, bg *color.NRGBA) *color.NRGBA {
	if bg == nil && format == "jpg" {
		w := White
		return &w
	}
	return bg
}

// Encode writes m as png, jpg (quality 90) or webp (lossy at quality 90,
// with alpha: a preview is a picture, and lossless WebP takes seconds).
// A JPEG should be rendered with a background (ForFormat), as JPEG drops
// alpha.
func Encode(w io.Writer, m *image.NRGBA, format string) error {
	switch format {
	case "png":
		e := png.Encoder{CompressionLevel: png.BestSpeed}
		return e.Encode(w, m)
	case "jpg":
		return jpeg.Encode(w, m, &jpeg.Options{Quality: 90})
	case "webp":
		// libwebp's RGBA input is not premultiplied: NRGBA's layout.
		b, err := webp.EncodeRGBA(&image.RGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}, 90)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	return fmt.Errorf("render: format %q is not png, jpg or webp", format)
}

// ParseBackground reads "R,G,B" with integers 0..255 each, the form Ready
// Player Me's render API takes and Kiln's preview parameter follows.
func ParseBackground(s string) (color.NRGBA, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return color.NRGBA{}, errors.New("must be R,G,B with integers 0..255")
	}
	var c [3]uint8
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v > 255 {
			return color.NRGBA{}, errors.New("must be R,G,B with integers 0..255")
		}
		c[i] = uint8(v)
	}
	return color.NRGBA{c[0], c[1], c[2], 255}, nil
}
