// Package benchfiles holds what the comparison benchmarks under bench/
// share: the models they measure on and the validator's verdict on what
// Kiln wrote, so every comparison runs on the same inputs and judges its
// output the same way.
package benchfiles

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets"
	"github.com/kilnhq/kiln/assets/avatar"
)

// Model is one input of a comparison.
type Model struct {
	Name string
	GLB  []byte
}

// Shared reads name.glb from the shared test data for each name that
// exists there; a missing file is logged and skipped, so a benchmark runs
// on whatever a machine has.
func Shared(dir string, names ...string) []Model {
	var out []Model
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name+".glb"))
		if err != nil {
			log.Printf("%s: %v (skipped)", name, err)
			continue
		}
		out = append(out, Model{name, data})
	}
	return out
}

// KilnAvatar is the default masculine avatar as the default download
// serves it (lod 0, WebP textures): what an integrator compresses most.
func KilnAvatar() (Model, error) {
	s, err := avatar.Generate(avatar.Default(avatar.Masculine))
	if err != nil {
		return Model{}, err
	}
	m, err := assets.BuildVariant(context.Background(), s, kiln.Variant{TextureFormat: "webp"})
	if err != nil {
		return Model{}, err
	}
	return Model{"kiln-avatar", m.GLB}, nil
}

// Validate is the Khronos glTF Validator's error count on the file at
// path, run from a directory two levels under the repository (bench/x),
// or "n/a" when the validator is not installed.
func Validate(path string) string {
	out, err := exec.Command("node", "../../tools/gltf-validator/validate.mjs", path).Output()
	if err != nil {
		return "n/a"
	}
	var r struct {
		NumErrors int `json:"numErrors"`
	}
	if json.Unmarshal(out, &r) != nil {
		return "n/a"
	}
	return fmt.Sprint(r.NumErrors)
}

// LoadAverage is the machine's load average (the first three fields of
// /proc/loadavg), or "unknown": the comparisons run on shared machines,
// where a time means little without the load it was measured under.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
