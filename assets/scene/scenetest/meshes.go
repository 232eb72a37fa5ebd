package scenetest

import (
	"encoding/binary"
	"image/color"
	"math"

	"github.com/qmuntal/gltf"
)

// Meshes returns the models of this package that are large enough to
// simplify, by name. They are kept out of Fixtures because Fixtures seeds
// the fuzzer, which spends its time minimizing large seeds (the scene
// fuzz test skips shared models over 64 KiB for the same reason), and
// two of these are larger than that.
func Meshes() map[string][]byte {
	return map[string][]byte{
		"skinned-tube":   SkinnedTube(),
		"quantized-grid": QuantizedGrid(),
		"sparse-morph":   SparseMorph(),
		"faceted-rock":   FacetedRock(),
	}
}

// Triangle counts of the Meshes models, which tests compare with what
// the reader and the validator count.
const (
	SkinnedTubeTriangles   = 2 * tubeSegments * (tubeBands - 1) // 2,304
	QuantizedGridTriangles = 2 * gridQuads * gridQuads          // 8,192
	SparseMorphTriangles   = 2 * sphereSegments * (sphereBands - 1)
)

// The tube is a capsule along +Y: a bottom cap, a cylinder and a top cap,
// tubeBands bands of tubeSegments quads (fans at the two poles). Each
// pole is tubeSegments vertices, one per fan triangle, so that their
// texture coordinates stay distinct as exporters write them.
const (
	tubeSegments = 48
	tubeBands    = 25
	tubeCapBands = 6
	tubeRadius   = 0.25
	tubeLength   = 3.0
)

// tubeRing is ring i (0 the bottom pole, tubeBands the top one) of the
// capsule: its height, radius and the normal's vertical and radial parts.
func tubeRing(i int) (y, r, ny, nr float64) {
	h := tubeLength - 2*tubeRadius
	switch {
	case i <= tubeCapBands:
		phi := -math.Pi/2 + float64(i)/tubeCapBands*math.Pi/2
		return tubeRadius + tubeRadius*math.Sin(phi), tubeRadius * math.Cos(phi), math.Sin(phi), math.Cos(phi)
	case i >= tubeBands-tubeCapBands:
		phi := float64(i-(tubeBands-tubeCapBands)) / tubeCapBands * math.Pi / 2
		return tubeRadius + h + tubeRadius*math.Sin(phi), tubeRadius * math.Cos(phi), math.Sin(phi), math.Cos(phi)
	}
	t := float64(i-tubeCapBands) / float64(tubeBands-2*tubeCapBands)
	return tubeRadius + t*h, tubeRadius, 0, 1
}

// tubeJoints are the heights of the three joints (Root, Middle, Tip).
var tubeJoints = [3]float64{0, 1, 2}

// SkinnedTube is a textured capsule of 2,304 triangles skinned to a chain
// of three joints, the shape of a limb: large enough that level of detail
// has something to remove, while it must keep the skin, the two morph
// targets and the clip. It exercises what Skinned does not: UNSIGNED_SHORT
// joints, normalized UNSIGNED_BYTE weights (whose sums the simplifier must
// keep at 1), a UV seam (the column at u=1 repeats the positions of u=0),
// and morph targets that move normals as well as positions. The clip
// bends the middle joint back and forth.
func SkinnedTube() []byte {
	b := newBuilder()
	var pos, nrm, uv []float32
	var joints, weights []byte
	var bulgeP, bulgeN, squashP, squashN []float32
	vertex := func(theta, y, r, ny, nr, u float64) {
		s, c := math.Sin(theta), math.Cos(theta)
		p := [3]float64{r * s, y, r * c}
		n := [3]float64{nr * s, ny, nr * c}
		pos = append(pos, float32(p[0]), float32(p[1]), float32(p[2]))
		nrm = append(nrm, float32(n[0]), float32(n[1]), float32(n[2]))
		uv = append(uv, float32(u), float32(1-y/tubeLength))
		j, w := tubeSkin(y)
		for k := range 4 {
			joints = binary.LittleEndian.AppendUint16(joints, j[k])
		}
		weights = append(weights, w[:]...)
		dp, dn := tubeBulge(p, n)
		bulgeP, bulgeN = append(bulgeP, dp[:]...), append(bulgeN, dn[:]...)
		dp, dn = tubeSquash(p, n)
		squashP, squashN = append(squashP, dp[:]...), append(squashN, dn[:]...)
	}
	// Bottom pole, rings 1..tubeBands-1 (tubeSegments+1 vertices each,
	// the last closing the seam), top pole.
	for j := range tubeSegments {
		vertex(0, 0, 0, -1, 0, (float64(j)+0.5)/tubeSegments)
	}
	for i := 1; i < tubeBands; i++ {
		y, r, ny, nr := tubeRing(i)
		for j := 0; j <= tubeSegments; j++ {
			vertex(2*math.Pi*float64(j)/tubeSegments, y, r, ny, nr, float64(j)/tubeSegments)
		}
	}
	for j := range tubeSegments {
		vertex(0, tubeLength, 0, 1, 0, (float64(j)+0.5)/tubeSegments)
	}
	ring := func(i, j int) uint16 { return uint16(tubeSegments + (i-1)*(tubeSegments+1) + j) }
	top := uint16(tubeSegments + (tubeBands-1)*(tubeSegments+1))
	var idx []uint16
	for j := range tubeSegments {
		idx = append(idx, uint16(j), ring(1, j+1), ring(1, j))
	}
	for i := 1; i < tubeBands-1; i++ {
		for j := range tubeSegments {
			a, bb, c, d := ring(i, j), ring(i, j+1), ring(i+1, j), ring(i+1, j+1)
			idx = append(idx, a, bb, c, bb, d, c)
		}
	}
	for j := range tubeSegments {
		idx = append(idx, ring(tubeBands-1, j), ring(tubeBands-1, j+1), top+uint16(j))
	}

	count := len(pos) / 3
	p := b.floats(pos, gltf.AccessorVec3, gltf.TargetArrayBuffer, true)
	n := b.floats(nrm, gltf.AccessorVec3, gltf.TargetArrayBuffer, false)
	t := b.floats(uv, gltf.AccessorVec2, gltf.TargetArrayBuffer, false)
	jv := b.view(joints, 0, gltf.TargetArrayBuffer)
	ja := b.accessor(gltf.Accessor{BufferView: gltf.Index(jv), ComponentType: gltf.ComponentUshort, Type: gltf.AccessorVec4, Count: count})
	wv := b.view(weights, 0, gltf.TargetArrayBuffer)
	wa := b.accessor(gltf.Accessor{BufferView: gltf.Index(wv), ComponentType: gltf.ComponentUbyte, Normalized: true, Type: gltf.AccessorVec4, Count: count})
	bp := b.floats(bulgeP, gltf.AccessorVec3, gltf.TargetArrayBuffer, true)
	bn := b.floats(bulgeN, gltf.AccessorVec3, gltf.TargetArrayBuffer, false)
	sp := b.floats(squashP, gltf.AccessorVec3, gltf.TargetArrayBuffer, true)
	sn := b.floats(squashN, gltf.AccessorVec3, gltf.TargetArrayBuffer, false)
	ia := b.indices(idx...)
	var ibm []float32
	for _, y := range tubeJoints {
		ibm = append(ibm, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, float32(-y), 0, 1)
	}
	ibma := b.floats(ibm, gltf.AccessorMat4, gltf.TargetNone, false)
	img := b.image(PNG(8, 8, color.NRGBA{40, 120, 200, 255}, color.NRGBA{240, 240, 240, 255}))

	d := b.doc
	d.Samplers = []*gltf.Sampler{{MagFilter: gltf.MagLinear, MinFilter: gltf.MinLinearMipMapLinear}}
	d.Textures = []*gltf.Texture{{Sampler: gltf.Index(0), Source: gltf.Index(img)}}
	d.Materials = []*gltf.Material{{
		Name:                 "Tube",
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorTexture: &gltf.TextureInfo{Index: 0}, MetallicFactor: gltf.Float(0)},
	}}
	d.Meshes = []*gltf.Mesh{{
		Name: "Tube",
		Primitives: []*gltf.Primitive{{
			Attributes: gltf.PrimitiveAttributes{gltf.POSITION: p, gltf.NORMAL: n, gltf.TEXCOORD_0: t, gltf.JOINTS_0: ja, gltf.WEIGHTS_0: wa},
			Indices:    gltf.Index(ia),
			Material:   gltf.Index(0),
			Targets: []gltf.PrimitiveAttributes{
				{gltf.POSITION: bp, gltf.NORMAL: bn},
				{gltf.POSITION: sp, gltf.NORMAL: sn},
			},
		}},
		Weights: []float64{0, 0},
		Extras:  map[string]any{"targetNames": []string{"bulge", "squash"}},
	}}
	// The skinned mesh's node is a scene root: the validator warns that
	// parent transforms do not move a skinned mesh.
	d.Nodes = []*gltf.Node{
		{Name: "Tube", Mesh: gltf.Index(0), Skin: gltf.Index(0)},
		{Name: "Root", Children: []int{2}},
		{Name: "Middle", Translation: [3]float64{0, tubeJoints[1] - tubeJoints[0], 0}, Children: []int{3}},
		{Name: "Tip", Translation: [3]float64{0, tubeJoints[2] - tubeJoints[1], 0}},
	}
	d.Skins = []*gltf.Skin{{Name: "Limb", Joints: []int{1, 2, 3}, Skeleton: gltf.Index(1), InverseBindMatrices: gltf.Index(ibma)}}
	d.Scenes[0].Nodes = []int{0, 1}

	times := []float32{0, 1, 2, 3, 4}
	var rot []float32
	for _, deg := range []float64{0, 35, 0, -35, 0} {
		s, c := math.Sincos(deg * math.Pi / 360)
		rot = append(rot, 0, 0, float32(s), float32(c))
	}
	in := b.floats(times, gltf.AccessorScalar, gltf.TargetNone, true)
	out := b.floats(rot, gltf.AccessorVec4, gltf.TargetNone, false)
	d.Animations = []*gltf.Animation{{
		Name:     "Bend",
		Samplers: []*gltf.AnimationSampler{{Input: in, Output: out, Interpolation: gltf.InterpolationLinear}},
		Channels: []*gltf.AnimationChannel{{Sampler: 0, Target: gltf.AnimationChannelTarget{Node: gltf.Index(2), Path: gltf.TRSRotation}}},
	}}
	return b.glb()
}

// tubeSkin blends the joints along the tube: each joint owns the segment
// above it, and a vertex between two segment midpoints is shared between
// their joints in proportion to its height. The weights are quantized to
// bytes that sum to exactly 255, and an unused slot holds joint 0 with
// weight 0, as the validator requires.
func tubeSkin(y float64) (joints [4]uint16, weights [4]byte) {
	t := min(max(y-tubeJoints[0]-0.5, 0), tubeJoints[2]-tubeJoints[0])
	k := min(int(t), 1)
	hi := byte(math.Round((t - float64(k)) * 255))
	lo := 255 - hi
	slot := 0
	for _, jw := range [][2]int{{k, int(lo)}, {k + 1, int(hi)}} {
		if jw[1] > 0 {
			joints[slot], weights[slot] = uint16(jw[0]), byte(jw[1])
			slot++
		}
	}
	if weights[1] > weights[0] {
		joints[0], joints[1] = joints[1], joints[0]
		weights[0], weights[1] = weights[1], weights[0]
	}
	return joints, weights
}

// tubeBulge swells the tube around its middle: positions scale away from
// the axis by s(y), and the normals follow as the inverse transpose of
// that map, so that the morphed normals are the morphed surface's.
func tubeBulge(p, n [3]float64) (dp, dn [3]float32) {
	const amount, width, centre = 0.4, 0.4, tubeLength / 2
	u := (p[1] - centre) / width
	g := math.Exp(-u * u)
	s := 1 + amount*g
	ds := amount * g * (-2 * u / width)
	m := normalize([3]float64{n[0] / s, n[1] - (p[0]*n[0]+p[2]*n[2])*ds/s, n[2] / s})
	dp = [3]float32{float32(p[0] * (s - 1)), 0, float32(p[2] * (s - 1))}
	dn = [3]float32{float32(m[0] - n[0]), float32(m[1] - n[1]), float32(m[2] - n[2])}
	return dp, dn
}

// tubeSquash flattens the tube along X, with normals again following the
// inverse transpose.
func tubeSquash(p, n [3]float64) (dp, dn [3]float32) {
	const k = 0.6
	m := normalize([3]float64{n[0] / k, n[1], n[2]})
	dp = [3]float32{float32(p[0] * (k - 1)), 0, 0}
	dn = [3]float32{float32(m[0] - n[0]), float32(m[1] - n[1]), float32(m[2] - n[2])}
	return dp, dn
}

func normalize(v [3]float64) [3]float64 {
	l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
	if l == 0 {
		return v
	}
	return [3]float64{v[0] / l, v[1] / l, v[2] / l}
}

// The grid is gridQuads×gridQuads quads over [-1, 1]² in XZ.
const gridQuads = 64

// gridHeight is the grid's wavy height and its two slopes.
func gridHeight(x, z float64) (h, dx, dz float64) {
	const amp, kx, kz = 0.12, 2.5 * math.Pi, 1.5 * math.Pi
	h = amp * math.Sin(kx*x) * math.Cos(kz*z)
	dx = amp * kx * math.Cos(kx*x) * math.Cos(kz*z)
	dz = -amp * kz * math.Sin(kx*x) * math.Sin(kz*z)
	return h, dx, dz
}

// QuantizedGrid is a wavy height field of 8,192 triangles stored as
// KHR_mesh_quantization allows, as gltfpack writes terrain and props:
// normalized SHORT positions in [-1, 1] scaled back to [-2, 2] by the
// node, normalized BYTE normals and normalized UNSIGNED_SHORT texture
// coordinates, all three interleaved in one 16-byte stride with each
// attribute padded to 4 bytes. Quantized covers integer (not
// normalized) positions in separate views; this one adds normalization
// and byte offsets inside a stride, and its rounding is the noise on a
// smooth surface that the simplifier must see through.
func QuantizedGrid() []byte {
	b := newBuilder()
	const stride = 16
	var data []byte
	lo := []float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := []float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for j := 0; j <= gridQuads; j++ {
		for i := 0; i <= gridQuads; i++ {
			u, v := float64(i)/gridQuads, float64(j)/gridQuads
			x, z := 2*u-1, 2*v-1
			h, dx, dz := gridHeight(x, z)
			for c, f := range [3]float64{x, h, z} {
				q := int16(math.Round(f * 32767))
				data = binary.LittleEndian.AppendUint16(data, uint16(q))
				lo[c], hi[c] = math.Min(lo[c], float64(q)), math.Max(hi[c], float64(q))
			}
			data = append(data, 0, 0)
			q := snorm8Unit(normalize([3]float64{-dx, 1, -dz}))
			data = append(data, byte(q[0]), byte(q[1]), byte(q[2]), 0)
			data = binary.LittleEndian.AppendUint16(data, uint16(math.Round(u*65535)))
			data = binary.LittleEndian.AppendUint16(data, uint16(math.Round(v*65535)))
		}
	}
	count := len(data) / stride
	vertex := func(i, j int) uint16 { return uint16(j*(gridQuads+1) + i) }
	var idx []uint16
	for j := range gridQuads {
		for i := range gridQuads {
			a, bb, c, d := vertex(i, j), vertex(i+1, j), vertex(i, j+1), vertex(i+1, j+1)
			idx = append(idx, a, c, bb, bb, c, d)
		}
	}
	v := b.view(data, stride, gltf.TargetArrayBuffer)
	pos := b.accessor(gltf.Accessor{BufferView: gltf.Index(v), ComponentType: gltf.ComponentShort, Normalized: true, Type: gltf.AccessorVec3, Count: count, Min: lo, Max: hi})
	nrm := b.accessor(gltf.Accessor{BufferView: gltf.Index(v), ByteOffset: 8, ComponentType: gltf.ComponentByte, Normalized: true, Type: gltf.AccessorVec3, Count: count})
	uv := b.accessor(gltf.Accessor{BufferView: gltf.Index(v), ByteOffset: 12, ComponentType: gltf.ComponentUshort, Normalized: true, Type: gltf.AccessorVec2, Count: count})
	ia := b.indices(idx...)
	d := b.doc
	d.ExtensionsUsed = []string{"KHR_mesh_quantization"}
	d.ExtensionsRequired = []string{"KHR_mesh_quantization"}
	d.Materials = []*gltf.Material{{Name: "Ground", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{0.3, 0.6, 0.2, 1}, MetallicFactor: gltf.Float(0)}}}
	d.Meshes = []*gltf.Mesh{{Name: "Ground", Primitives: []*gltf.Primitive{{
		Attributes: gltf.PrimitiveAttributes{gltf.POSITION: pos, gltf.NORMAL: nrm, gltf.TEXCOORD_0: uv},
		Indices:    gltf.Index(ia), Material: gltf.Index(0),
	}}}}
	d.Nodes = []*gltf.Node{{Name: "Ground", Mesh: gltf.Index(0), Scale: [3]float64{2, 2, 2}}}
	d.Scenes[0].Nodes = []int{0}
	return b.glb()
}

// snorm8Unit quantizes a unit vector to normalized bytes, choosing among
// the neighbouring roundings the one closest to unit length: plain
// rounding can miss it by more than the validator accepts.
func snorm8Unit(n [3]float64) [3]int8 {
	var best [3]int8
	bestErr := math.Inf(1)
	for k := range 27 {
		var q [3]int8
		var l float64
		ok := true
		for c, step := range [3]int{k % 3, k / 3 % 3, k / 9} {
			v := math.Round(n[c]*127) + float64(step-1)
			if v < -127 || v > 127 {
				ok = false
				break
			}
			q[c] = int8(v)
			l += (v / 127) * (v / 127)
		}
		// Unit length first, then closeness in direction.
		dir := 0.0
		for c := range 3 {
			dir += float64(q[c]) / 127 * n[c]
		}
		if e := math.Abs(math.Sqrt(l)-1) + 1e-3*(1-dir); ok && e < bestErr {
			best, bestErr = q, e
		}
	}
	return best
}

// The sphere has sphereBands bands of sphereSegments quads, fans at the
// poles, one vertex per pole and no seam.
const (
	sphereSegments = 32
	sphereBands    = 32
	// sphereFloor is the height below which the base's sparse
	// substitution flattens the sphere.
	sphereFloor = -0.85
)

// SparseMorph is a unit sphere of 1,984 triangles whose data comes
// through sparse accessors both ways glTF allows, at a size where the
// simplifier removes vertices the sparse data touched. Its POSITION
// accessor is a buffer view of the whole sphere with a sparse
// substitution that flattens the bottom (a stand); its one morph target,
// "inflate", is a sparse accessor without a buffer view that moves only
// the upper vertices, so every other delta reads as zero.
func SparseMorph() []byte {
	b := newBuilder()
	var sphere, final, nrm, delta []float32
	var subIdx, subVal, morphIdx, morphVal []byte
	vertex := func(theta, phi float64) {
		sp, cp := math.Sincos(phi)
		if math.Abs(phi) == math.Pi/2 {
			cp = 0 // the poles exactly on the axis, not 6e-17 off it
		}
		st, ct := math.Sincos(theta)
		p := [3]float64{cp * st, sp, cp * ct}
		n := p
		i := uint16(len(sphere) / 3)
		sphere = append(sphere, float32(p[0]), float32(p[1]), float32(p[2]))
		if p[1] < sphereFloor {
			p[1], n = sphereFloor, [3]float64{0, -1, 0}
			subIdx = binary.LittleEndian.AppendUint16(subIdx, i)
			subVal = append(subVal, f32(float32(p[0]), float32(p[1]), float32(p[2]))...)
		}
		final = append(final, float32(p[0]), float32(p[1]), float32(p[2]))
		nrm = append(nrm, float32(n[0]), float32(n[1]), float32(n[2]))
		var dp [3]float32
		if p[1] > 0.3 {
			k := 0.25 * math.Pow((p[1]-0.3)/0.7, 2)
			dp = [3]float32{float32(n[0] * k), float32(n[1] * k), float32(n[2] * k)}
			morphIdx = binary.LittleEndian.AppendUint16(morphIdx, i)
			morphVal = append(morphVal, f32(dp[:]...)...)
		}
		delta = append(delta, dp[:]...)
	}
	// Top pole, rings 1..sphereBands-1, bottom pole.
	vertex(0, math.Pi/2)
	for i := 1; i < sphereBands; i++ {
		phi := math.Pi/2 - math.Pi*float64(i)/sphereBands
		for j := range sphereSegments {
			vertex(2*math.Pi*float64(j)/sphereSegments, phi)
		}
	}
	vertex(0, -math.Pi/2)
	count := len(sphere) / 3
	ring := func(i, j int) uint16 { return uint16(1 + (i-1)*sphereSegments + j%sphereSegments) }
	var idx []uint16
	for j := range sphereSegments {
		idx = append(idx, 0, ring(1, j), ring(1, j+1))
	}
	for i := 1; i < sphereBands-1; i++ {
		for j := range sphereSegments {
			a, bb, c, d := ring(i, j), ring(i, j+1), ring(i+1, j), ring(i+1, j+1)
			idx = append(idx, a, c, bb, bb, c, d)
		}
	}
	bottom := uint16(count - 1)
	for j := range sphereSegments {
		idx = append(idx, ring(sphereBands-1, j), bottom, ring(sphereBands-1, j+1))
	}

	base := b.view(f32(sphere...), 0, gltf.TargetArrayBuffer)
	si := b.view(subIdx, 0, gltf.TargetNone)
	sv := b.view(subVal, 0, gltf.TargetNone)
	lo, hi := bounds(final, 3)
	pos := b.accessor(gltf.Accessor{
		BufferView: gltf.Index(base), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: count, Min: lo, Max: hi,
		Sparse: &gltf.Sparse{Count: len(subIdx) / 2, Indices: gltf.SparseIndices{BufferView: si, ComponentType: gltf.ComponentUshort}, Values: gltf.SparseValues{BufferView: sv}},
	})
	n := b.floats(nrm, gltf.AccessorVec3, gltf.TargetArrayBuffer, false)
	ti := b.view(morphIdx, 0, gltf.TargetNone)
	tv := b.view(morphVal, 0, gltf.TargetNone)
	lo, hi = bounds(delta, 3)
	target := b.accessor(gltf.Accessor{
		ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: count, Min: lo, Max: hi,
		Sparse: &gltf.Sparse{Count: len(morphIdx) / 2, Indices: gltf.SparseIndices{BufferView: ti, ComponentType: gltf.ComponentUshort}, Values: gltf.SparseValues{BufferView: tv}},
	})
	ia := b.indices(idx...)
	d := b.doc
	d.Materials = []*gltf.Material{{Name: "Clay", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{0.8, 0.5, 0.4, 1}}}}
	d.Meshes = []*gltf.Mesh{{
		Name:    "Sphere",
		Weights: []float64{0.5},
		Extras:  map[string]any{"targetNames": []string{"inflate"}},
		Primitives: []*gltf.Primitive{{
			Attributes: gltf.PrimitiveAttributes{gltf.POSITION: pos, gltf.NORMAL: n},
			Indices:    gltf.Index(ia), Material: gltf.Index(0),
			Targets: []gltf.PrimitiveAttributes{{gltf.POSITION: target}},
		}},
	}}
	d.Nodes = []*gltf.Node{{Name: "Sphere", Mesh: gltf.Index(0)}}
	d.Scenes[0].Nodes = []int{0}
	return b.glb()
}
