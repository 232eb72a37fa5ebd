package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets"
)

// optimize runs the worker's pipeline on a file, with no server, and
// prints the stats of the level it wrote as JSON.
func optimize(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("optimize", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	level := fs.Int("lod", 0, "level of detail: 0 (source), 1 (about 50%) or 2 (about 25%)")
	texFormat := fs.String("texture-format", "", "webp, png or compat; absent, formats are kept and textures only capped at 1024")
	atlasSize := fs.Int("atlas", 0, "pack the textures into one atlas per channel of at most N×N (64..2048, a power of two); 0: no atlas")
	mergeMeshes := fs.Bool("merge", false, "merge every mesh into one per alpha group (two draw calls with --atlas)")
	texSize := fs.String("texture-size", "", "source: textures keep their size (and, without --texture-format, their bytes); N (256..1024): cap every texture's side at N; absent: capped at 1024")
	meshopt := fs.Bool("meshopt", false, "quantize geometry and keyframes and compress them with EXT_meshopt_compression (useMeshOptCompression=true)")
	// Flags may follow the file names, as the usage line shows.
	var files []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			fmt.Fprintf(stderr, "kiln optimize: %v; usage: kiln optimize IN.glb OUT.glb [--lod N] [--atlas N] [--merge] [--texture-format webp|png|compat] [--texture-size source|N] [--meshopt]\n", err)
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 2 {
		fmt.Fprintln(stderr, "kiln optimize: usage: kiln optimize IN.glb OUT.glb [--lod N] [--atlas N] [--merge] [--texture-format webp|png|compat] [--texture-size source|N] [--meshopt]")
		return 2
	}
	v := kiln.Variant{LOD: *level, TextureFormat: *texFormat, AtlasSize: *atlasSize, Merge: *mergeMeshes, Meshopt: *meshopt}
	switch *texSize {
	case "":
	case "source":
		v.TextureSizeSource = true
	default:
		n, err := strconv.Atoi(*texSize)
		if err != nil || n == 0 {
			fmt.Fprintf(stderr, "kiln optimize: --texture-size must be source or a whole number from 256 to 1024, got %q\n", *texSize)
			return 2
		}
		v.TextureSizeLimit = n
	}
	if err := optimizeFile(files[0], files[1], v, stdout); err != nil {
		return failed(stderr, "optimize", files[0], err)
	}
	return 0
}

func optimizeFile(in, out string, v kiln.Variant, stdout io.Writer) error {
	if err := v.Validate(); err != nil {
		// Name the flags, not the query parameters the message speaks of.
		_, msg := kiln.CodeOf(err)
		msg = strings.NewReplacer("textureFormat", "--texture-format", "textureAtlasSize", "--atlas", "lod must", "--lod must",
			"textureSizeLimit", "--texture-size", "textures kept at their source size", "--texture-size source").Replace(msg)
		return kiln.Errorf(kiln.KindInvalid, "invalid_option", "%s", msg)
	}
	s, data, err := readModel(in)
	if err != nil {
		return err
	}
	source := s.Stats()
	m, err := assets.BuildVariant(context.Background(), s, v)
	if err != nil {
		return err
	}
	if err := writeFile(out, m.GLB); err != nil {
		return err
	}
	return printJSON(stdout, struct {
		Source  any `json:"source"`
		Bytes   int `json:"bytes"`
		InBytes int `json:"inputBytes"`
		assets.Model
	}{source, len(m.GLB), len(data), m})
}
