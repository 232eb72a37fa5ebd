package avatar

import (
	"image"
	"math"
	"sync"
	"sync/atomic"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/assets/avatar/human"
	"github.com/kilnhq/kiln/assets/avatar/paint"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

// builder assembles the glTF scene: joint nodes, the skin, meshes and
// materials.
type builder struct {
	rig   Rig
	world []xform.Mat4
	sc    *scene.Scene
	// body is the standing body the parts were cut from; sliders, when
	// set, are the morph targets every mesh gets instead of the face
	// shapes (Basis).
	body    *human.Body
	sliders []*sliderShape
	// lid is the share of a blink the lids hold at rest (restLid): the
	// blink shapes move that much less, so they close where they did.
	lid float32
	// lowLid is the share of a squint the lower lids hold at rest
	// (restLowLid): the blink shapes take it back (unsquint).
	lowLid float32
	// closed is the blink shapes stretched to close this face's eyes
	// (closedBlinks), by name; nil: the shapes as they are.
	closed map[string]map[int32][3]float32
	// painting counts the textures being painted in the background;
	// panicked holds the first of their panics.
	painting sync.WaitGroup
	panicked atomic.Pointer[any]
	// urgent textures paint ahead of the others (paintTurns): a style
	// part's (BuildPart).
	urgent bool
	// budgeted is the avatar's triangles as the budget counted them
	// before it simplified the parts (budget).
	budgeted int
}

// newBuilder adds the joint nodes under an "Armature" root and the skin,
// whose inverse bind matrices are the inverses of the rest world
// matrices (the meshes are built in the rest pose, so rest and bind pose
// agree).
func newBuilder(r Rig) *builder {
	b := &builder{rig: r, sc: &scene.Scene{Asset: gltf.Asset{Version: "2.0", Generator: "Kiln avatar"}}}
	for _, m := range r.World() {
		var w xform.Mat4
		for k := range 16 {
			w[k] = float64(m[k])
		}
		b.world = append(b.world, w)
	}
	for i, name := range r.Names {
		t := r.Rest[i]
		b.sc.Nodes = append(b.sc.Nodes, &gltf.Node{Name: name,
			Translation: [3]float64{float64(t.Translation[0]), float64(t.Translation[1]), float64(t.Translation[2])},
			Rotation:    [4]float64{float64(t.Rotation[0]), float64(t.Rotation[1]), float64(t.Rotation[2]), float64(t.Rotation[3])},
			Scale:       [3]float64{float64(t.Scale[0]), float64(t.Scale[1]), float64(t.Scale[2])},
		})
		if p := r.Parent[i]; p >= 0 {
			b.sc.Nodes[p].Children = append(b.sc.Nodes[p].Children, i)
		}
	}
	arm := len(b.sc.Nodes)
	b.sc.Nodes = append(b.sc.Nodes, &gltf.Node{Name: "Armature", Children: []int{0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}})
	b.sc.Scenes = []*gltf.Scene{{Name: "Scene", Nodes: []int{arm}}}
	b.sc.DefaultScene = gltf.Index(0)
	skin := &scene.Skin{Name: "Armature", Skeleton: gltf.Index(0)}
	for i := range r.Names {
		skin.Joints = append(skin.Joints, i)
		var ibm [16]float32
		inv, _ := b.world[i].Inverse()
		for k := range 16 {
			ibm[k] = float32(inv[k])
		}
		skin.InverseBindMatrices = append(skin.InverseBindMatrices, ibm)
	}
	b.sc.Skins = []*scene.Skin{skin}
	b.sc.Samplers = []*gltf.Sampler{{MagFilter: gltf.MagLinear, MinFilter: gltf.MinLinearMipMapLinear, WrapS: gltf.WrapRepeat, WrapT: gltf.WrapRepeat}}
	return b
}

func (b *builder) image(name string, png []byte) *gltf.TextureInfo {
	b.sc.Images = append(b.sc.Images, &scene.Image{Name: name, MimeType: "image/png", Data: png})
	b.sc.Textures = append(b.sc.Textures, &gltf.Texture{Sampler: gltf.Index(0), Source: gltf.Index(len(b.sc.Images) - 1)})
	return &gltf.TextureInfo{Index: len(b.sc.Textures) - 1}
}

// matOpts say which maps a material uses and how it is drawn.
type matOpts struct {
	normal, orm bool
	// mask draws the base colour's alpha as a cut-out (hair cards).
	mask        bool
	doubleSided bool
}

// painted is the textured PBR material of a texture (without an ORM map
// its roughness is the map's average, a constant): its encoded images
// come from the texture cache when a build before painted the same
// inputs; else they are painted and encoded in the background (the
// material and its images are in the scene at once, their bytes and
// roughness filled in when done: wait) and kept in the cache.
func (b *builder) painted(name string, t texture, o matOpts) int {
	// The options say which images are encoded: part of the key.
	key := paint.KeyOf(t.key, o.normal, o.orm)
	if enc, ok := textures.get(key); ok {
		m, _ := b.encodedMaterial(name, enc, o)
		return m
	}
	m, fill := b.encodedMaterial(name, &encodedMaps{}, o)
	b.painting.Go(func() {
		// A panic is handed to the build's goroutine (wait), where the
		// job's handler recovers it, instead of ending the process.
		defer func() {
			if r := recover(); r != nil {
				b.panicked.CompareAndSwap(nil, &r)
			}
		}()
		// A few textures at a time, a part's first (paintTurns).
		defer paintSlots.take(b.urgent)()
		enc := encodeMaps(t.paint(), o)
		textures.put(key, enc)
		fill(enc)
	})
	return m
}

// wait returns when every texture of the scene is painted and encoded;
// it panics with a painter's panic.
func (b *builder) wait() {
	b.painting.Wait()
	if r := b.panicked.Swap(nil); r != nil {
		panic(*r)
	}
}

// encodeMaps encodes the images of m that a material with options o uses.
func encodeMaps(m paint.Maps, o matOpts) *encodedMaps {
	// Encoding is most of a texture's cost: the images of one material
	// are encoded side by side.
	var base, normal, orm []byte
	var wg sync.WaitGroup
	enc := func(on bool, dst *[]byte, img *image.NRGBA) {
		if !on {
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			*dst = paint.Encode(img)
		}()
	}
	enc(true, &base, m.Base)
	enc(o.normal, &normal, m.Normal)
	enc(o.orm, &orm, m.ORM)
	wg.Wait()
	e := &encodedMaps{base: base, normal: normal, orm: orm, rough: averageRoughness(m)}
	paint.Release(m)
	return e
}

// encodedMaterial adds the material of encoded images, and returns its
// index and a function that sets its images' bytes and roughness anew
// (for maps encoded later).
func (b *builder) encodedMaterial(name string, e *encodedMaps, o matOpts) (int, func(*encodedMaps)) {
	mat := &gltf.Material{
		Name:        name,
		DoubleSided: o.doubleSided,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorTexture: b.image(name, e.base),
			MetallicFactor:   gltf.Float(0),
			RoughnessFactor:  gltf.Float(e.rough),
		},
	}
	base := b.sc.Images[len(b.sc.Images)-1]
	var normal, orm *scene.Image
	if o.normal {
		t := b.image(name+"_normal", e.normal)
		normal = b.sc.Images[len(b.sc.Images)-1]
		mat.NormalTexture = &gltf.NormalTexture{Index: gltf.Index(t.Index), Scale: gltf.Float(1)}
	}
	if o.orm {
		t := b.image(name+"_orm", e.orm)
		orm = b.sc.Images[len(b.sc.Images)-1]
		mat.PBRMetallicRoughness.MetallicRoughnessTexture = t
		mat.PBRMetallicRoughness.MetallicFactor = gltf.Float(1)
		mat.PBRMetallicRoughness.RoughnessFactor = gltf.Float(1)
		mat.OcclusionTexture = &gltf.OcclusionTexture{Index: gltf.Index(t.Index), Strength: gltf.Float(1)}
	}
	rough := mat.PBRMetallicRoughness.RoughnessFactor
	fill := func(e *encodedMaps) {
		base.Data = e.base
		if normal != nil {
			normal.Data = e.normal
		}
		if orm != nil {
			orm.Data = e.orm
		} else {
			*rough = e.rough
		}
	}
	if o.mask {
		mat.AlphaMode = gltf.AlphaMask
		mat.AlphaCutoff = gltf.Float(0.5)
	}
	b.sc.Materials = append(b.sc.Materials, mat)
	return len(b.sc.Materials) - 1, fill
}

// averageRoughness is the mean of the ORM map's roughness channel.
func averageRoughness(m paint.Maps) float64 {
	var sum float64
	px := m.ORM.Pix
	for i := 1; i < len(px); i += 4 * 7 {
		sum += float64(px[i])
	}
	n := (len(px) - 1 + 4*7 - 1) / (4 * 7)
	return math.Round(sum/float64(n)/255*100) / 100
}

// plain is an untextured material, for parts too small or too hidden for
// a texture to show (teeth, tongue, glasses frames).
func (b *builder) plain(name string, c rgb, roughness float64, metal bool) int {
	m := 0.0
	if metal {
		m = 1
	}
	b.sc.Materials = append(b.sc.Materials, &gltf.Material{
		Name: name,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorFactor: &[4]float64{c[0], c[1], c[2], 1},
			MetallicFactor:  gltf.Float(m),
			RoughnessFactor: gltf.Float(roughness),
		},
	})
	return len(b.sc.Materials) - 1
}

// prim is a part drawn with a material.
type prim struct {
	p        *part
	material int
}

func (p *part) prim(material int) prim { return prim{p, material} }

// shapes are the face shapes as dense lookups by base vertex, built once.
var shapes = sync.OnceValue(func() []map[int32][3]float32 {
	var out []map[int32][3]float32
	fade := neckSeamFade()
	for _, name := range face.All() {
		idx, d := faceDeltas(name)
		m := make(map[int32][3]float32, len(idx))
		for i, v := range idx {
			m[v] = scale3f(d[i], fade[v])
		}
		out = append(out, m)
	}
	return out
})

// deltas is a face shape's offsets on the part's vertices, nil when it
// moves none of them by as much as a tenth of a millimetre.
func (p *part) deltas(shape map[int32][3]float32) [][3]float32 {
	var out [][3]float32
	if p.fit != nil {
		out = make([][3]float32, len(p.src))
		p.fit.CarryTo(out, shape, p.src)
	} else {
		out = make([][3]float32, len(p.base))
		for i, v := range p.base {
			out[i] = shape[v]
		}
	}
	if f := p.shapeFloor * p.shapeFloor; f > 0 {
		for i, d := range out {
			if d[0]*d[0]+d[1]*d[1]+d[2]*d[2] < f {
				out[i] = [3]float32{}
			}
		}
	}
	return p.settle(out)
}

// settle is a part's offsets as a target: nil when they move none of its
// vertices by as much as a tenth of a millimetre, and solid pieces moved
// as solids.
func (p *part) settle(out [][3]float32) [][3]float32 {
	for _, d := range out {
		if d[0]*d[0]+d[1]*d[1]+d[2]*d[2] > 1e-8 {
			if p.solid {
				if p.piece == nil {
					p.piece, p.npieces = pieces(p.pos, p.tris)
				}
				carried := out
				out = rigidOffsets(p.pos, out, p.piece, p.npieces)
				// The gums are soft and span both jaws: they keep their
				// carried offsets, upper gums with the head, lower with
				// the jaw.
				if g := gumPiece(p.piece, p.npieces); g >= 0 {
					for i, k := range p.piece {
						if k == g {
							out[i] = carried[i]
						}
					}
				}
			}
			return out
		}
	}
	return nil
}

// blinkDeltas is a face shape's offsets on the part p as the builder
// writes them: a blink's, stretched to close this face's eyes (closed),
// less the share of the unstretched blink the lids hold at rest (lid),
// so a full blink lands the lids where the stretched blink alone puts
// them. Other shapes' offsets are returned as they are.
func (b *builder) blinkDeltas(p *part, name string, sh map[int32][3]float32) [][3]float32 {
	if !isBlink(name) {
		return p.deltas(sh)
	}
	rest := p.deltas(sh)
	c, ok := b.closed[name]
	if !ok {
		for i := range rest {
			rest[i] = scale3f(rest[i], 1-b.lid)
		}
		return rest
	}
	d := p.deltas(c)
	if d == nil || rest == nil {
		return d
	}
	for i := range d {
		for k := range 3 {
			d[i][k] -= b.lid * rest[i][k]
		}
	}
	return d
}

// mesh adds a skinned mesh of one or more primitives and its node. The
// parts that carry the face get every face shape that moves any of them,
// named in extras.targetNames as the leader's files name them.
func (b *builder) mesh(name string, prims ...prim) {
	m := &scene.Mesh{Name: name}
	var targets [][][][3]float32 // [primitive][target]
	var names []string
	if b.sliders != nil {
		for _, s := range b.sliders {
			per := make([][][3]float32, len(prims))
			moved := false
			for pi, pr := range prims {
				per[pi] = pr.p.sliderOffsets(b.body, s)
				moved = moved || per[pi] != nil
			}
			if moved {
				names = append(names, s.name)
				targets = append(targets, per)
			}
		}
	} else if prims[0].p.morph {
		all := face.All()
		for si, sh := range shapes() {
			per := make([][][3]float32, len(prims))
			moved := false
			for pi, pr := range prims {
				per[pi] = b.blinkDeltas(pr.p, all[si], sh)
				if b.lowLid > 0 {
					per[pi] = b.unsquint(pr.p, all[si], per[pi])
				}
				moved = moved || per[pi] != nil
			}
			if !moved && !prims[0].p.allShapes {
				continue
			}
			names = append(names, all[si])
			targets = append(targets, per)
		}
	}
	for pi, pr := range prims {
		p := pr.p
		sp := &scene.Primitive{
			Mode:      gltf.PrimitiveTriangles,
			Material:  gltf.Index(pr.material),
			Positions: p.pos,
			Normals:   p.nrm,
			TexCoords: [][][2]float32{p.uv},
			Joints:    [][][4]uint16{make([][4]uint16, len(p.pos))},
			Weights:   [][][4]float32{make([][4]float32, len(p.pos))},
		}
		for _, t := range p.tris {
			sp.Indices = append(sp.Indices, t[0], t[1], t[2])
		}
		if p.color != nil {
			sp.Colors = [][][4]float32{p.color}
		}
		for i, inf := range p.inf {
			for k := 0; k < 4; k++ {
				sp.Joints[0][i][k] = uint16(inf.Joint[k])
				sp.Weights[0][i][k] = inf.Weight[k]
			}
		}
		for _, per := range targets {
			d := per[pi]
			if d == nil {
				d = make([][3]float32, len(p.pos))
			}
			sp.Targets = append(sp.Targets, scene.Target{Positions: d})
		}
		m.Primitives = append(m.Primitives, sp)
	}
	if len(names) > 0 {
		m.Weights = make([]float64, len(names))
		tn := make([]any, len(names))
		for i, n := range names {
			tn[i] = n
		}
		m.Extras = map[string]any{"targetNames": tn}
	}
	b.sc.Meshes = append(b.sc.Meshes, m)
	b.sc.Nodes = append(b.sc.Nodes, &gltf.Node{Name: name, Mesh: gltf.Index(len(b.sc.Meshes) - 1), Skin: gltf.Index(0), Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}})
	b.sc.Scenes[0].Nodes = append(b.sc.Scenes[0].Nodes, len(b.sc.Nodes)-1)
}

// joinLast makes the primitives of the last mesh one primitive (they
// share its material), each former primitive's vertices coloured by
// colors (one per vertex of each primitive, linear, COLOR_0), so that parts drawn alike but tinted apart
// are one mesh of one primitive as the leader's are.
func (b *builder) joinLast(colors [][]rgb) {
	m := b.sc.Meshes[len(b.sc.Meshes)-1]
	out := &scene.Primitive{Mode: m.Primitives[0].Mode, Material: m.Primitives[0].Material,
		TexCoords: [][][2]float32{nil}, Colors: [][][4]float32{nil}, Joints: [][][4]uint16{nil}, Weights: [][][4]float32{nil},
		Targets: make([]scene.Target, len(m.Primitives[0].Targets))}
	for pi, p := range m.Primitives {
		base := uint32(len(out.Positions))
		for _, i := range p.Indices {
			out.Indices = append(out.Indices, base+i)
		}
		out.Positions = append(out.Positions, p.Positions...)
		out.Normals = append(out.Normals, p.Normals...)
		out.TexCoords[0] = append(out.TexCoords[0], p.TexCoords[0]...)
		out.Joints[0] = append(out.Joints[0], p.Joints[0]...)
		out.Weights[0] = append(out.Weights[0], p.Weights[0]...)
		for _, c := range colors[pi] {
			out.Colors[0] = append(out.Colors[0], [4]float32{float32(c[0]), float32(c[1]), float32(c[2]), 1})
		}
		for ti, t := range p.Targets {
			out.Targets[ti].Positions = append(out.Targets[ti].Positions, t.Positions...)
		}
	}
	m.Primitives = []*scene.Primitive{out}
}

// joint is the index of a joint name (one of JointNames).
func (b *builder) joint(name string) int { return b.rig.Index(name) }

// at is a joint's rest position.
func (b *builder) at(name string) vec3 {
	w := b.world[b.joint(name)]
	return vec3{w[12], w[13], w[14]}
}

// rigid gives every vertex of p to one joint.
func (p *part) rigid(j int) {
	p.inf = make([]human.Influence, len(p.pos))
	for i := range p.inf {
		p.inf[i] = human.Influence{Joint: [4]uint8{uint8(j)}, Weight: [4]float32{1}}
	}
}
