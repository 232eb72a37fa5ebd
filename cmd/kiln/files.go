package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets"
	"github.com/kilnhq/kiln/assets/scene"
)

// readModel reads and parses a model file, bounded like a worker's input.
func readModel(path string) (*scene.Scene, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, assets.MaxModelBytes+1))
	if err != nil {
		return nil, nil, err
	}
	s, err := assets.Read(data)
	return s, data, err
}

// writeFile writes data beside path and renames it into place, so that a
// failure never leaves a half-written file under the name asked for.
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".kiln-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// failed prints the one line a file command ends with on error and
// returns its exit code: 2 for a bad option, 1 for anything else.
func failed(stderr io.Writer, cmd, file string, err error) int {
	// The command runs on the user's own machine: the whole cause helps
	// more than a generic message when the error has no message of its own.
	_, msg := kiln.CodeOf(err)
	if !kiln.HasCode(err) || kiln.KindOf(err) == kiln.KindInternal {
		msg = err.Error()
	}
	fmt.Fprintf(stderr, "kiln %s: %s: %s\n", cmd, file, msg)
	if kiln.KindOf(err) == kiln.KindInvalid {
		return 2
	}
	return 1
}
