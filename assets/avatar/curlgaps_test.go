package avatar

import (
	"image"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// curlGaps reads the base colour of curly hair's outer surface over the
// top of the head, as a viewer samples it: points spread over each of
// the hair's triangles above the brows (six by six, barycentric), each
// point's texel's luma (hairTopLumas). gaps is the share of them
// darker than 0.7 of the lit tops' (the 90th percentile; luma of the
// sRGB-coded texels): the dark gaps between clumps. crisp is the mean
// luma step from one point to the next along a triangle's rows over the
// median
// (how sharply light turns to dark: soft lumps shaded from the mesh's
// curvature change slowly, clumps with creases quickly).
func curlGaps(t *testing.T, s *scene.Scene) (gaps, crisp float64) {
	t.Helper()
	lumas, steps := hairTopLumas(t, s)
	med := slices.Clone(lumas)
	slices.Sort(med)
	m, top := med[len(med)/2], med[len(med)*9/10]
	dark := 0
	for _, v := range lumas {
		if v < 0.7*top {
			dark++
		}
	}
	sum := 0.0
	for _, d := range steps {
		sum += d
	}
	return float64(dark) / float64(len(lumas)), sum / float64(len(steps)) / m
}

// hairTopLumas samples the hair's base colour over the top of the head
// (every triangle of Wolf3D_Hair above the brows, sampleTriangle's
// points): the points' lumas and the steps between neighbours.
func hairTopLumas(t *testing.T, s *scene.Scene) (lumas, steps []float64) {
	t.Helper()
	img := baseColorImage(t, s, "Wolf3D_Hair")
	l, _, ipd := sceneEyes(t, s)
	for _, m := range s.Meshes {
		if m.Name != "Wolf3D_Hair" {
			continue
		}
		for _, p := range m.Primitives {
			for i := 0; i+2 < len(p.Indices); i += 3 {
				a, b, c := p.Indices[i], p.Indices[i+1], p.Indices[i+2]
				if min(p.Positions[a][1], p.Positions[b][1], p.Positions[c][1]) < float32(l[1]+0.6*ipd) {
					continue
				}
				lumas, steps = sampleTriangle(img, p.TexCoords[0][a], p.TexCoords[0][b], p.TexCoords[0][c], lumas, steps)
			}
		}
	}
	if len(lumas) == 0 {
		t.Fatal("no hair over the brows")
	}
	return lumas, steps
}

// sampleTriangle appends the lumas of img at six by six points spread
// over the UV triangle a, b, c, and the luma steps between neighbouring
// points along its rows.
func sampleTriangle(img image.Image, a, b, c [2]float32, lumas, steps []float64) ([]float64, []float64) {
	const n = 6
	for i := 0; i <= n; i++ {
		prev := -1.0
		for j := 0; i+j <= n; j++ {
			u, v := float32(i)/n, float32(j)/n
			w := 1 - u - v
			uv := [2]float32{w*a[0] + u*b[0] + v*c[0], w*a[1] + u*b[1] + v*c[1]}
			y := texelLuma(img, uv)
			lumas = append(lumas, y)
			if prev >= 0 {
				steps = append(steps, max(y-prev, prev-y))
			}
			prev = y
		}
	}
	return lumas, steps
}

// TestCurlGapsOldGLB logs curlGaps on a GLB named by KILN_CURL_GLB, to
// compare a build from before.
func TestCurlGapsOldGLB(t *testing.T) {
	s, path := envGLB(t, "KILN_CURL_GLB")
	gaps, crisp := curlGaps(t, s)
	t.Logf("%s: gaps %.3f, crisp %.3f", path, gaps, crisp)
}
