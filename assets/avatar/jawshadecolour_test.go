package avatar

import (
	"image"
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// regionLab is the CIELAB chroma and hue angle (degrees) of the mean
// colour, in linear light, of the texels of img at uvs.
func regionLab(img image.Image, uvs [][2]float32) (c, h float64) {
	b := img.Bounds()
	var sum [3]float64
	for _, uv := range uvs {
		r, g, bl, _ := img.At(b.Min.X+int(float64(uv[0])*float64(b.Dx())), b.Min.Y+int(float64(uv[1])*float64(b.Dy()))).RGBA()
		for k, v := range []uint32{r, g, bl} {
			sum[k] += srgbLinear(float64(v)/65535) / float64(len(uvs))
		}
	}
	_, c, h = linearLab(sum)
	return c, h
}

// jawColours are the CIELAB chroma and hue of the skin's base colour in
// each of jawTexels's regions.
type jawColours struct{ throat, chin, beside, cheek [2]float64 }

func jawColoursOf(t *testing.T, s *scene.Scene) jawColours {
	t.Helper()
	img := baseColorImage(t, s, "Wolf3D_Skin")
	r := jawRegions(t, s)
	var out jawColours
	for _, p := range []struct {
		to  *[2]float64
		uvs [][2]float32
	}{{&out.throat, r.throat}, {&out.chin, r.chin}, {&out.beside, r.beside}, {&out.cheek, r.cheek}} {
		p.to[0], p.to[1] = regionLab(img, p.uvs)
	}
	return out
}

// TestJawShadeWarm asks the skin in the jaw's shade to keep the skin's
// colour, not grey it: on faces of every tone the throat just under the
// chin is at least jawChromaMin of the cheeks' CIELAB chroma and within
// jawHueMax of their hue (the leader's: 1.24 and 3.4-3.5 degrees
// redder). The panel (p23) saw "a grey chin shadow", "a blotchy grey
// stubble patch" on the chin and neck of random-13 and -15: the jaw's
// shade darkened the skin's blue less than its green, and the throat's
// chroma was 0.94-1.02 of the cheeks', its hue 1.4-7.7 degrees toward
// mauve (paint's jawShaded). The chin's front and the lower face beside
// it are logged too.
func TestJawShadeWarm(t *testing.T) {
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if l, ok := optionalLeaderScene(t, n); ok {
			c := jawColoursOf(t, l)
			t.Logf("%s: throat chroma %.1f hue %.1f, chin %.1f %.1f, beside %.1f %.1f, cheeks %.1f %.1f", n, c.throat[0], c.throat[1], c.chin[0], c.chin[1], c.beside[0], c.beside[1], c.cheek[0], c.cheek[1])
		}
	}
	faces := map[string]bool{
		"random-15": true, "default-female": true, "random-13": true, "default-male": true,
		"random-05": true, "random-18": true, "random-17": true,
	}
	for _, f := range panelFaces() {
		if !faces[f.name] {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			s, err := Generate(f.cfg)
			if err != nil {
				t.Fatal(err)
			}
			c := jawColoursOf(t, s)
			t.Logf("%s: throat chroma %.1f hue %.1f, chin %.1f %.1f, beside %.1f %.1f, cheeks %.1f %.1f", f.cfg.Skin.Tone, c.throat[0], c.throat[1], c.chin[0], c.chin[1], c.beside[0], c.beside[1], c.cheek[0], c.cheek[1])
			if r := c.throat[0] / c.cheek[0]; r < jawChromaMin {
				t.Errorf("the throat's chroma %.3f of the cheeks', want at least %.2f (a grey shade)", r, jawChromaMin)
			}
			if d := math.Abs(c.throat[1] - c.cheek[1]); d > jawHueMax {
				t.Errorf("the throat's hue %.1f degrees off the cheeks', want at most %.1f", d, jawHueMax)
			}
		})
	}
}

// The bounds of TestJawShadeWarm: with the jaw's shade warm the
// throat's chroma is 1.00-1.24 of the cheeks', its hue 0.5-2.6 degrees
// off theirs.
const (
	jawChromaMin = 0.97
	jawHueMax    = 4.0
)
