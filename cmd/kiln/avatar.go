package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
)

// avatarCmd builds the avatar of a configuration file into a GLB with no
// server: the model that POST /avatar stores as lod 0.
func avatarCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "kiln avatar: usage: kiln avatar CONFIG.json OUT.glb")
		return 2
	}
	if err := buildAvatar(args[0], args[1], stdout); err != nil {
		_, msg := kiln.CodeOf(err)
		if kiln.KindOf(err) == kiln.KindInternal {
			msg = err.Error()
		}
		fmt.Fprintf(stderr, "kiln avatar: %s: %s\n", args[0], msg)
		if kiln.KindOf(err) == kiln.KindInvalid {
			return 2
		}
		return 1
	}
	return 0
}

func buildAvatar(in, out string, stdout io.Writer) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	cfg, err := avatar.ParseConfig(data)
	if err != nil {
		return err
	}
	s, err := avatar.Generate(cfg)
	if err != nil {
		return err
	}
	glb, err := scene.Write(s)
	if err != nil {
		return err
	}
	// Write beside the target and rename, so a failure leaves no half file.
	tmp, err := os.CreateTemp(filepath.Dir(out), ".kiln-avatar-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(glb); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return err
	}
	return printJSON(stdout, struct {
		scene.Stats
		Bytes int `json:"bytes"`
	}{s.Stats(), len(glb)})
}
