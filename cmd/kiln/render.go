package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image/color"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/render"
)

const renderUsage = "usage: kiln render IN.glb OUT.png|jpg|webp [--size N] [--camera full|portrait] [--background R,G,B]"

// renderCmd draws a preview of a model file with the same renderer the
// preview endpoint uses, so that a preview can be checked with no server.
func renderCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	size := fs.Int("size", 512, "image side in pixels, 1.."+strconv.Itoa(render.MaxSize))
	cam := fs.String("camera", "full", "full or portrait")
	background := fs.String("background", "", "R,G,B with 0..255 each; transparent when absent (white for JPEG)")
	// Flags may follow the file names, as for kiln optimize.
	var files []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			fmt.Fprintf(stderr, "kiln render: %v; %s\n", err, renderUsage)
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 2 {
		fmt.Fprintf(stderr, "kiln render: %s\n", renderUsage)
		return 2
	}
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(files[1])), ".")
	if format == "jpeg" {
		format = "jpg"
	}
	if _, ok := render.ContentType[format]; !ok {
		fmt.Fprintf(stderr, "kiln render: %s: the extension must be .png, .jpg or .webp\n", files[1])
		return 2
	}
	if *size < 1 || *size > render.MaxSize {
		fmt.Fprintf(stderr, "kiln render: --size must be 1..%d\n", render.MaxSize)
		return 2
	}
	if *cam != "full" && *cam != "portrait" {
		fmt.Fprintln(stderr, "kiln render: --camera must be full or portrait")
		return 2
	}
	var bg *color.NRGBA
	if *background != "" {
		c, err := kiln.ParseBackground(*background)
		if err != nil {
			fmt.Fprintf(stderr, "kiln render: --background %v\n", err)
			return 2
		}
		bg = &c
	}
	if err := renderFile(files[0], files[1], format, render.Options{Size: *size, Camera: *cam, Background: render.ForFormat(format, bg)}); err != nil {
		return failed(stderr, "render", files[0], err)
	}
	return 0
}

func renderFile(in, out, format string, opt render.Options) error {
	s, _, err := readModel(in)
	if err != nil {
		return err
	}
	m, err := render.Render(context.Background(), s, opt)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := render.Encode(&buf, m, format, 0); err != nil {
		return err
	}
	return writeFile(out, buf.Bytes())
}
