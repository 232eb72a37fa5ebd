// Package portrait reads the PNG pictures look.mjs writes, for the
// avatar-look tools that measure them (browcontrast, hairline,
// lipcontrast): one place for opening and decoding, so each tool is its
// measure alone.
package portrait

import (
	"fmt"
	"image"
	"image/png"
	"os"
)

// Load decodes the PNG at path; its errors name the file.
func Load(path string) (image.Image, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	im, err := png.Decode(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return im, nil
}
