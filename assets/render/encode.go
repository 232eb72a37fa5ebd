package render

import (
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"

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

// DefaultQuality is the JPEG and WebP quality when none is asked.
const DefaultQuality = 90

// Encode writes m as png, jpg or webp (lossy, with alpha: a preview is a
// picture, and lossless WebP takes seconds) at quality 1..100, 0 for
// DefaultQuality; PNG is lossless and has none. A JPEG should be
// rendered with a background (ForFormat), as JPEG drops alpha.
func Encode(w io.Writer, m *image.NRGBA, format string, quality int) error {
	if quality <= 0 || quality > 100 {
		quality = DefaultQuality
	}
	switch format {
	case "png":
		e := png.Encoder{CompressionLevel: png.BestSpeed}
		return e.Encode(w, m)
	case "jpg":
		return jpeg.Encode(w, m, &jpeg.Options{Quality: quality})
	case "webp":
		// libwebp's RGBA input is not premultiplied: NRGBA's layout.
		b, err := webp.EncodeRGBA(&image.RGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}, float32(quality))
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	return fmt.Errorf("render: format %q is not png, jpg or webp", format)
}
