package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets"
	"github.com/kilnhq/kiln/assets/atlas"
	"github.com/kilnhq/kiln/assets/merge"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/texture"
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
	// Flags may follow the file names, as the usage line shows.
	var files []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			fmt.Fprintf(stderr, "kiln optimize: %v; usage: kiln optimize IN.glb OUT.glb [--lod N] [--atlas N] [--merge] [--texture-format webp|png|compat]\n", err)
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 2 {
		fmt.Fprintln(stderr, "kiln optimize: usage: kiln optimize IN.glb OUT.glb [--lod N] [--atlas N] [--merge] [--texture-format webp|png|compat]")
		return 2
	}
	if err := optimizeFile(files[0], files[1], *level, *texFormat, *atlasSize, *mergeMeshes, stdout); err != nil {
		_, msg := kiln.CodeOf(err)
		if kiln.KindOf(err) == kiln.KindInternal {
			msg = err.Error()
		}
		fmt.Fprintf(stderr, "kiln optimize: %s: %s\n", files[0], msg)
		if kiln.KindOf(err) == kiln.KindInvalid {
			return 2
		}
		return 1
	}
	return 0
}

func optimizeFile(in, out string, level int, texFormat string, atlasSize int, mergeMeshes bool, stdout io.Writer) error {
	if level < 0 || level > 2 {
		return kiln.Errorf(kiln.KindInvalid, "invalid_lod", "--lod must be 0, 1 or 2, got %d", level)
	}
	if err := texture.CheckFormat(texFormat); err != nil {
		return kiln.Errorf(kiln.KindInvalid, "invalid_texture_format", "--texture-format must be webp, png or compat, got %q", texFormat)
	}
	if atlasSize != 0 && (atlasSize < atlas.MinSize || atlasSize > atlas.MaxSize || atlasSize&(atlasSize-1) != 0) {
		return kiln.Errorf(kiln.KindInvalid, "invalid_texture_atlas_size", "--atlas must be a power of two from %d to %d, got %d", atlas.MinSize, atlas.MaxSize, atlasSize)
	}
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(f, assets.MaxModelBytes+1))
	f.Close()
	if err != nil {
		return err
	}
	s, err := assets.Read(data)
	if err != nil {
		return err
	}
	models, err := assets.Levels(s, level)
	if err != nil {
		return err
	}
	m := models[len(models)-1]
	// Textures last, on the level written: the lod chain only touches
	// geometry, and this is the stage the variant pipeline shares. The
	// variant order: lod, atlas (on the final UVs), merge (one material
	// per group once atlased), texture format.
	ls, err := assets.Read(m.GLB)
	if err != nil {
		return err
	}
	var atlasReport *atlas.Report
	if atlasSize > 0 {
		r, err := atlas.Build(context.Background(), ls, atlasSize)
		if err != nil {
			return err
		}
		atlasReport = &r
	}
	var mergeReport *merge.Report
	if mergeMeshes {
		r, err := merge.Meshes(ls)
		if err != nil {
			return err
		}
		mergeReport = &r
	}
	texReport, err := texture.Convert(context.Background(), ls, texture.Options{Format: texFormat})
	if err != nil {
		return err
	}
	if m.GLB, err = scene.Write(ls); err != nil {
		return err
	}
	m.Stats = ls.Stats()
	// Write beside the target and rename, so a failure leaves no half file.
	tmp, err := os.CreateTemp(filepath.Dir(out), ".kiln-optimize-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(m.GLB); err != nil {
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
		Source   any `json:"source"`
		Output   any `json:"output"`
		Level    any `json:"level"`
		Bytes    int `json:"bytes"`
		InBytes  int `json:"inputBytes"`
		Textures any `json:"textures"`
		Atlas    any `json:"atlas,omitempty"`
		Merge    any `json:"merge,omitempty"`
	}{models[0].Stats, m.Stats, m.Level, len(m.GLB), len(data), texReport.Images, atlasReport, mergeReport})
}
