package main

import (
	"fmt"
	"io"
	"os"

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
		return failed(stderr, "avatar", args[0], err)
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
	if err := writeFile(out, glb); err != nil {
		return err
	}
	return printJSON(stdout, struct {
		scene.Stats
		Bytes int `json:"bytes"`
	}{s.Stats(), len(glb)})
}
