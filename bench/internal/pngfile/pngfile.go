// Package pngfile reads and writes the PNG pictures the look tools under
// bench/avatar-look measure and mark, so each tool keeps only its
// measure.
package pngfile

import (
	"fmt"
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

// Each reads every PNG named in paths and hands it to measure in order;
// the first that cannot be read ends the tool with its error, since a
// measure over a partial set of pictures would compare unlike sets.
func Each(paths []string, measure func(path string, im image.Image)) {
	for _, p := range paths {
		im, err := Read(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, p, err)
			os.Exit(1)
		}
		measure(p, im)
	}
}
