package facemeasure

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // the leader's textures
	_ "image/png"  // Kiln's
	"math"
	"slices"

	"github.com/kilnhq/kiln/assets/scene"
)

// sample is a point on the head's surface and its texel's redness.
type sample struct{ x, y, z, red float64 }

// lipSpan is the painted lips' width, their height in the middle
// (within 0.05 eye-distances of x = 0), the height of that middle, and
// how far the corners sit behind the lips' front (see cornerDepth).
type lipSpan struct{ width, height, mid, depth float64 }

// lips finds the painted lips by colour, the same way on Kiln's and the
// leader's heads (the leader's mouth has no lip geometry to find):
// points on a 12-step barycentric grid over each front-facing head
// triangle within 0.9 eye-distances of the middle and between the
// heights lo and hi take their base colour texel. A point is lip when
// its redness (1 - G/R) is at least halfway from the skin's beside the
// mouth (0.55 to 0.75 out, between skinLo and skinHi, the median) to the
// lips' in the middle (within 0.1 of x = 0, the 90th percentile, so a
// stray texel does not set it).
func lips(s *scene.Scene, head *scene.Primitive, f frame, lo, hi, skinLo, skinHi float64) (lipSpan, error) {
	var out lipSpan
	img, err := baseColour(s, head)
	if err != nil {
		return out, err
	}
	if len(head.TexCoords) == 0 {
		return out, fmt.Errorf("the head has no texture coordinates")
	}
	pts := samples(head, img, f, lo, hi)
	var skin, mid []float64
	for _, p := range pts {
		ax := math.Abs(p.x) / f.ipd
		if ax > 0.55 && ax < 0.75 && p.y > skinLo && p.y < skinHi {
			skin = append(skin, p.red)
		}
		if ax < 0.1 {
			mid = append(mid, p.red)
		}
	}
	if len(skin) == 0 || len(mid) == 0 {
		return out, fmt.Errorf("no skin or lips sampled beside the mouth")
	}
	slices.Sort(skin)
	slices.Sort(mid)
	cut := (skin[len(skin)/2] + mid[len(mid)*9/10]) / 2
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		if p.red < cut {
			continue
		}
		out.width = math.Max(out.width, 2*math.Abs(p.x))
		if math.Abs(p.x) < 0.05*f.ipd {
			lo, hi = math.Min(lo, p.y), math.Max(hi, p.y)
		}
	}
	if math.IsInf(lo, 1) {
		return out, fmt.Errorf("no lip colour in the middle of the mouth")
	}
	out.height, out.mid = hi-lo, (hi+lo)/2
	out.depth = cornerDepth(pts, cut, out.width/2, f.ipd)
	return out, nil
}

// cornerDepth is how far the painted lips' corners sit behind their
// front: the foremost lip point within 0.05 eye-distances of x = 0, less
// the mean depth of the lip points in the outer 0.05 eye-distances of
// each end (corner is half the lips' width). A mouth that wraps round
// the face, as the leader's does, has its corners well back (13 mm on
// the casual avatar); a flat front with corners level with the middle
// reads as a muzzle, the "pursed" mouth of the blind panel.
func cornerDepth(pts []sample, cut, corner, ipd float64) float64 {
	front := math.Inf(-1)
	var sum float64
	n := 0
	for _, p := range pts {
		if p.red < cut {
			continue
		}
		ax := math.Abs(p.x)
		if ax < 0.05*ipd {
			front = math.Max(front, p.z)
		}
		if ax > corner-0.05*ipd {
			sum += p.z
			n++
		}
	}
	if n == 0 || math.IsInf(front, -1) {
		return 0
	}
	return front - sum/float64(n)
}

// samples are the points over the head's triangles near the mouth (see
// lips) with their texels' redness.
func samples(head *scene.Primitive, img image.Image, f frame, lo, hi float64) []sample {
	uv := head.TexCoords[0]
	bd := img.Bounds()
	redness := func(u, v float64) float64 {
		x := min(max(bd.Min.X+int(math.Floor(u*float64(bd.Dx()))), bd.Min.X), bd.Max.X-1)
		y := min(max(bd.Min.Y+int(math.Floor(v*float64(bd.Dy()))), bd.Min.Y), bd.Max.Y-1)
		r, g, _, _ := img.At(x, y).RGBA()
		if r == 0 {
			return 0
		}
		return 1 - float64(g)/float64(r)
	}
	near := func(v uint32) bool {
		q := head.Positions[v]
		return math.Abs(float64(q[0])) <= 0.9*f.ipd && float64(q[1]) < hi && float64(q[1]) > lo &&
			float64(q[2]) >= f.eyeZ && head.Normals[v][2] >= 0.2
	}
	const n = 12
	var pts []sample
	for i := 0; i+2 < len(head.Indices); i += 3 {
		k := [3]uint32{head.Indices[i], head.Indices[i+1], head.Indices[i+2]}
		if !near(k[0]) || !near(k[1]) || !near(k[2]) {
			continue
		}
		for a := 0; a <= n; a++ {
			for b := 0; a+b <= n; b++ {
				w := [3]float64{float64(a) / n, float64(b) / n, float64(n-a-b) / n}
				var x, y, z, u, v float64
				for j, vi := range k {
					x += w[j] * float64(head.Positions[vi][0])
					y += w[j] * float64(head.Positions[vi][1])
					z += w[j] * float64(head.Positions[vi][2])
					u += w[j] * float64(uv[vi][0])
					v += w[j] * float64(uv[vi][1])
				}
				pts = append(pts, sample{x, y, z, redness(u, v)})
			}
		}
	}
	return pts
}

// baseColour decodes the base colour texture of a primitive's material
// (its PNG or JPEG source).
func baseColour(s *scene.Scene, p *scene.Primitive) (image.Image, error) {
	if p.Material == nil {
		return nil, fmt.Errorf("the head has no material")
	}
	m := s.Materials[*p.Material]
	if m.PBRMetallicRoughness == nil || m.PBRMetallicRoughness.BaseColorTexture == nil {
		return nil, fmt.Errorf("the head's material has no base colour texture")
	}
	t := s.Textures[m.PBRMetallicRoughness.BaseColorTexture.Index]
	if t.Source == nil {
		return nil, fmt.Errorf("the head's texture has no PNG or JPEG source")
	}
	img, _, err := image.Decode(bytes.NewReader(s.Images[*t.Source].Data))
	return img, err
}
