// Package quantize moves a scene's vertex streams and keyframes onto the
// integer grids of KHR_mesh_quantization, at the precisions gltfpack
// picks by default, and marks the scene so that scene.Write stores them
// as integers: positions on a 14-bit grid per mesh (one grid shared by
// all skinned meshes), its offset and step folded into the node
// transform or the inverse bind matrices; normals and tangents on the
// 8-bit octahedral grid of EXT_meshopt_compression's filter; texture
// coordinates on a 12-bit grid over the range each material uses, folded
// into its KHR_texture_transform (or, where no material says how they
// are sampled, on a 12-bit grid of [0,1]); colours and morph normal deltas
// on 16 bits; skin weights on 8 bits summing to exactly 1; keyframe
// times on a 1/4096 s grid, rotations on the 12-bit quaternion grid and
// translations and scales on 16-bit mantissas. Tangents of primitives
// without a normal map, which nothing reads, are dropped, and so are
// texture coordinate sets past the last one the material samples (all of
// them on a material without textures), as gltfpack drops them: stored as
// float when outside [0,1], they were most of a textureless model's
// bytes. The grids are the lossy step; writing and compressing after
// it are exact, so what a test measures here is what a viewer shows.
package quantize

import (
	"math"
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/meshopt"
	"github.com/kilnhq/kiln/assets/scene"
)

// Options are the precisions in bits; the zero value of a field means
// its default (Defaults).
type Options struct {
	Position, Normal, Texcoord, Weight, Rotation, Translation int
}

// Defaults are gltfpack's default precisions.
var Defaults = Options{Position: 14, Normal: 8, Texcoord: 12, Weight: 8, Rotation: 12, Translation: 16}

func (o Options) withDefaults() Options {
	pick := func(v, d int) int {
		if v <= 0 {
			return d
		}
		return v
	}
	return Options{
		Position: pick(o.Position, Defaults.Position), Normal: pick(o.Normal, Defaults.Normal),
		Texcoord: pick(o.Texcoord, Defaults.Texcoord), Weight: pick(o.Weight, Defaults.Weight),
		Rotation: pick(o.Rotation, Defaults.Rotation), Translation: pick(o.Translation, Defaults.Translation),
	}
}

const ext = "KHR_mesh_quantization"

// Apply quantizes s in place. Streams that cannot be quantized safely
// (texture coordinates outside [0,1], positions of a mesh whose node is
// animated in weights and has children) keep their float values, and
// scene.Write then stores them as float.
func Apply(s *scene.Scene, o Options) {
	o = o.withDefaults()
	positions(s, o.Position)
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			dropUnusedTexcoords(s, p)
		}
	}
	uvs := texcoordsByMaterial(s, o.Texcoord)
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			if !needsTangents(s, p) {
				dropTangents(p)
			}
			primitive(p, o, uvs[p])
		}
	}
	for _, a := range s.Animations {
		animation(s, a, o)
	}
	if !slices.Contains(s.ExtensionsRequired, ext) {
		s.ExtensionsRequired = append(s.ExtensionsRequired, ext)
	}
}

// primitive quantizes the streams of p; done lists the texture
// coordinate sets texcoordsByMaterial has already put on a grid.
func primitive(p *scene.Primitive, o Options, done map[int]bool) {
	if p.Normals != nil {
		p.Normals = octahedral3(p.Normals, o.Normal)
	}
	if p.Tangents != nil {
		p.Tangents = octahedral4(p.Tangents, o.Normal)
	}
	for i, t := range p.TexCoords {
		if t != nil && !done[i] && inUnit2(t) {
			p.TexCoords[i] = texcoords(t, o.Texcoord)
		}
	}
	for _, c := range p.Colors {
		for i := range c {
			for k := range c[i] {
				c[i][k] = unorm(c[i][k], 65535)
			}
		}
	}
	for _, w := range p.Weights {
		weights(w, o.Weight)
	}
	for _, t := range p.Targets {
		for _, d := range [][][3]float32{t.Normals, t.Tangents} {
			for i := range d {
				for k := range d[i] {
					d[i][k] = snorm(d[i][k], 32767)
				}
			}
		}
	}
}

// needsTangents: only a normal map (or a material extension, which may
// hold one or read tangents itself) uses tangents.
func needsTangents(s *scene.Scene, p *scene.Primitive) bool {
	if p.Material == nil || *p.Material < 0 || *p.Material >= len(s.Materials) {
		return false
	}
	m := s.Materials[*p.Material]
	if m.NormalTexture != nil && m.NormalTexture.Index != nil {
		return true
	}
	for name := range m.Extensions {
		if !textureless[name] {
			return true
		}
	}
	_, variants := p.Extensions["KHR_materials_variants"]
	return variants
}

// dropTangents removes tangents nothing draws with, as gltfpack does:
// without a normal map no renderer reads them.
// dropUnusedTexcoords keeps p's texture coordinate sets up to the last
// one its material samples: none for a material without textures or for
// the default material (no material). Sets below it stay even when
// unused, so the material's texCoord numbers still hold. A material with
// an extension that may hold textures, or a primitive that
// KHR_materials_variants may give another material, keeps every set.
func dropUnusedTexcoords(s *scene.Scene, p *scene.Primitive) {
	if len(p.TexCoords) == 0 {
		return
	}
	if _, ok := p.Extensions["KHR_materials_variants"]; ok {
		return
	}
	keep := 0
	if p.Material != nil {
		mi := *p.Material
		if mi < 0 || mi >= len(s.Materials) || s.Materials[mi] == nil {
			return
		}
		sl, ok := slots(s.Materials[mi])
		if !ok {
			return
		}
		for _, x := range sl {
			keep = max(keep, x.set()+1)
		}
	}
	if keep == 0 {
		p.TexCoords = nil
	} else if keep < len(p.TexCoords) {
		p.TexCoords = p.TexCoords[:keep:keep]
	}
}

func dropTangents(p *scene.Primitive) {
	p.Tangents = nil
	if p.Targets != nil {
		targets := append([]scene.Target(nil), p.Targets...)
		for i := range targets {
			targets[i].Tangents = nil
		}
		p.Targets = targets
	}
}

// snorm rounds v to the grid of a normalized signed integer with the
// given maximum, computed the way scene.Read dequantizes, so the value
// is exact there; values outside [-1,1] stay as they are.
func snorm(v float32, full float32) float32 {
	if v < -1 || v > 1 {
		return v
	}
	return max(float32(math.Round(float64(v*full)))/full, -1)
}

func unorm(v float32, full float32) float32 {
	if v < 0 || v > 1 {
		return v
	}
	return float32(math.Round(float64(v*full))) / full
}

// octahedral3 snaps unit normals to what the octahedral filter at bits
// decodes to, as normalized bytes; zero vectors stay zero.
func octahedral3(n [][3]float32, bits int) [][3]float32 {
	v := make([][4]float32, len(n))
	for i, e := range n {
		v[i] = [4]float32{e[0], e[1], e[2], 0}
	}
	d := octSnap(v, bits)
	out := make([][3]float32, len(n))
	for i, e := range d {
		if n[i] == [3]float32{} {
			continue
		}
		out[i] = [3]float32{e[0], e[1], e[2]}
	}
	return out
}

func octahedral4(t [][4]float32, bits int) [][4]float32 {
	d := octSnap(t, bits)
	for i := range d {
		if t[i][3] < 0 {
			d[i][3] = -1
		} else {
			d[i][3] = 1
		}
	}
	return d
}

func octSnap(v [][4]float32, bits int) [][4]float32 {
	stride, full := 4, float32(127)
	if bits > 8 {
		stride, full = 8, 32767
	}
	enc := meshopt.EncodeOctahedral(v, stride, bits)
	meshopt.DecodeOctahedral(enc, stride)
	out := make([][4]float32, len(v))
	for i := range out {
		for k := 0; k < 3; k++ {
			var q float32
			if stride == 4 {
				q = float32(int8(enc[4*i+k]))
			} else {
				q = float32(int16(uint16(enc[8*i+2*k]) | uint16(enc[8*i+2*k+1])<<8))
			}
			out[i][k] = max(q/full, -1)
		}
	}
	return out
}

func inUnit2(t [][2]float32) bool {
	for _, e := range t {
		if e[0] < 0 || e[0] > 1 || e[1] < 0 || e[1] > 1 {
			return false
		}
	}
	return true
}

// texcoords snaps coordinates in [0,1] to a grid of 2^bits steps stored
// as normalized 16-bit integers whose low bits are zero, which the
// attribute codec stores in fewer bytes.
func texcoords(t [][2]float32, bits int) [][2]float32 {
	steps := float64(int(1) << bits)
	unit := 65536 / steps
	out := make([][2]float32, len(t))
	for i, e := range t {
		for k := 0; k < 2; k++ {
			q := min(65535, math.Round(float64(e[k])*steps)*unit)
			out[i][k] = float32(q) / 65535
		}
	}
	return out
}

// weights snaps each vertex's weights to 8 bits (16 when bits asks for
// more) whose integers
// sum to exactly the maximum, so the validator's sum check and skinning
// see 1.
func weights(w [][4]float32, bits int) {
	full := 255.0
	if bits > 8 {
		full = 65535
	}
	for i, e := range w {
		var sum float64
		for _, x := range e {
			sum += float64(x)
		}
		if sum <= 0 {
			continue
		}
		var q [4]float64
		total, big := 0.0, 0
		for k, x := range e {
			q[k] = math.Round(float64(x) / sum * full)
			total += q[k]
			if q[k] > q[big] {
				big = k
			}
		}
		q[big] += full - total
		for k := range e {
			w[i][k] = float32(q[k]) / float32(full)
		}
	}
}

func animation(s *scene.Scene, a *scene.Animation, o Options) {
	for i := range a.Samplers {
		a.Samplers[i].Input = times(a.Samplers[i].Input)
	}
	for _, c := range a.Channels {
		sm := &a.Samplers[c.Sampler]
		switch {
		case c.Path == gltf.TRSRotation && sm.Interpolation != gltf.InterpolationCubicSpline:
			if rotationOnly(a, c.Sampler) {
				sm.Output = rotations(sm.Output, o.Rotation)
			}
		case c.Path == gltf.TRSTranslation || c.Path == gltf.TRSScale:
			sm.Output = mantissas(sm.Output, 3, o.Translation)
		}
	}
}

// timeStep is the grid of keyframe times: 1/4096 s, a quarter of a
// millisecond, far below a frame, so keys move by at most 0.12 ms.
const timeStep = 1.0 / 4096

// times snaps keyframe times to timeStep, which the exponential filter
// then stores exactly with one exponent (a few bytes a key instead of
// four), unless two keys would meet: times must stay increasing.
func times(in []float32) []float32 {
	out := make([]float32, len(in))
	for i, t := range in {
		out[i] = float32(math.Round(float64(t)/timeStep) * timeStep)
		if i > 0 && out[i] <= out[i-1] {
			return in
		}
	}
	return out
}

func rotationOnly(a *scene.Animation, sampler int) bool {
	for _, c := range a.Channels {
		if c.Sampler == sampler && c.Path != gltf.TRSRotation {
			return false
		}
	}
	return true
}

// rotations snaps unit quaternions to what the quaternion filter decodes
// at bits, as normalized 16-bit integers.
func rotations(v []float32, bits int) []float32 {
	if len(v)%4 != 0 {
		return v
	}
	q := make([][4]float32, len(v)/4)
	for i := range q {
		copy(q[i][:], v[4*i:])
		l := math.Sqrt(float64(q[i][0]*q[i][0] + q[i][1]*q[i][1] + q[i][2]*q[i][2] + q[i][3]*q[i][3]))
		if l < 0.5 || l > 1.5 {
			return v
		}
	}
	enc := meshopt.EncodeQuaternion(q, bits)
	meshopt.DecodeQuaternion(enc)
	out := make([]float32, len(v))
	for i := range out {
		c := float32(int16(uint16(enc[2*i]) | uint16(enc[2*i+1])<<8))
		out[i] = max(c/32767, -1)
	}
	// The filter gives each key with its largest component positive,
	// which may be -q of the source: the same rotation, and glTF's slerp
	// takes the shorter arc either way.
	return out
}

// mantissas rounds values to bits-bit mantissas sharing one exponent per
// element of comps, the layout of the exponential filter.
func mantissas(v []float32, comps, bits int) []float32 {
	if len(v)%comps != 0 {
		return v
	}
	enc, _ := meshopt.EncodeExponential(v, comps, bits)
	meshopt.DecodeExponential(enc)
	out := make([]float32, len(v))
	for i := range out {
		out[i] = math.Float32frombits(uint32(enc[4*i]) | uint32(enc[4*i+1])<<8 | uint32(enc[4*i+2])<<16 | uint32(enc[4*i+3])<<24)
	}
	return out
}
