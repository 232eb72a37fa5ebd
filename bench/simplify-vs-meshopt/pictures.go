package main

import (
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/kilnhq/kiln/assets/lod"
	"github.com/kilnhq/kiln/assets/render"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
)

// pictureSize is the side of each rendering; the pictures keep the band
// of rows that holds the model.
const pictureSize = 640

var pictureBackground = color.NRGBA{205, 205, 215, 255}

// drawPictures renders lod 0, 1 and 2 of the flat-shaded models
// (ShapeCollection, chr_knight, the faceted rock) with Kiln's preview
// renderer, one row per level, into dir/NAME-levels.png.
func drawPictures(dir string) {
	testdata, err := sharedTestdata()
	if err != nil {
		log.Fatal(err)
	}
	inputs := map[string][]byte{"faceted-rock": scenetest.FacetedRock()}
	for _, f := range []string{"ShapeCollection.glb", "chr_knight.glb"} {
		data, err := os.ReadFile(filepath.Join(testdata, f))
		if err != nil {
			log.Printf("skipping %s: %v", f, err)
			continue
		}
		inputs[strings.TrimSuffix(f, ".glb")] = data
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	for name, data := range inputs {
		s, err := scene.Read(data, scene.ReadOptions{})
		if err != nil {
			log.Fatal(err)
		}
		var rows []*image.NRGBA
		err = lod.Chain(context.Background(), s, lod.Max, func(l lod.Level, s *scene.Scene) error {
			// render what a client receives: the level written and read back
			glb, err := scene.Write(s)
			if err != nil {
				return err
			}
			back, err := scene.Read(glb, scene.ReadOptions{})
			if err != nil {
				return err
			}
			bg := pictureBackground
			m, err := render.Render(context.Background(), back, render.Options{Size: pictureSize, Camera: "full", Background: &bg})
			rows = append(rows, m)
			return err
		})
		if err != nil {
			log.Fatal(err)
		}
		out := stack(rows)
		path := filepath.Join(dir, name+"-levels.png")
		f, err := os.Create(path)
		if err != nil {
			log.Fatal(err)
		}
		if err := png.Encode(f, out); err != nil {
			log.Fatal(err)
		}
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
		log.Printf("%s: lod 0, 1, 2 from top to bottom", path)
	}
}

// stack crops the renderings to the rows any of them draws on and puts
// them one above the other.
func stack(rows []*image.NRGBA) *image.NRGBA {
	y0, y1 := pictureSize, 0
	for _, m := range rows {
		for y := range pictureSize {
			for x := range pictureSize {
				if m.NRGBAAt(x, y) != pictureBackground {
					y0, y1 = min(y0, y), max(y1, y+1)
				}
			}
		}
	}
	y0, y1 = max(0, y0-8), min(pictureSize, y1+8)
	if y1 <= y0 {
		y0, y1 = 0, pictureSize
	}
	h := y1 - y0
	out := image.NewNRGBA(image.Rect(0, 0, pictureSize, h*len(rows)))
	for i, m := range rows {
		draw.Draw(out, image.Rect(0, h*i, pictureSize, h*(i+1)), m, image.Point{0, y0}, draw.Src)
	}
	return out
}
