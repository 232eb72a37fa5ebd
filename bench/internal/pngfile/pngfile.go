// Package pngfile reads and writes the PNG pictures the look tools under
// bench/avatar-look measure and mark, so each tool keeps only its
// measure.
package pngfile

import (
	"image"
	"image/png"
	"os"
)

// Read decodes the PNG at path.
func Read(path string) (image.Image, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return png.Decode(r)
}

// Write encodes im as a PNG at path; a failed encode still closes the
// file and reports the encode's error.
func Write(path string, im image.Image) error {
	w, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(w, im); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
