package avatar

import (
	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
)

// Generate builds the avatar of a configuration: one skin over the 67
// joints of the gender's skeleton, and separate meshes named like the
// leader's (Wolf3D_Body, Wolf3D_Head, EyeLeft, EyeRight, Wolf3D_Hair,
// Wolf3D_Outfit_Top, Wolf3D_Outfit_Bottom, Wolf3D_Outfit_Footwear,
// Wolf3D_Glasses) so that clients that hide, recolour or swap those
// meshes by name work on ours. Everything is procedural: parametric
// shapes swept along the bones, textures painted in code, no files.
// The same configuration always gives the same scene, and the same bytes
// from scene.Write.
func Generate(cfg Config) (*scene.Scene, error) {
	cfg = cfg.resolve()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	gender := cfg.Body.Type
	fem := gender == Feminine
	rig := Skeleton(gender, cfg)
	h := cfg.Body.Height
	s := newSkel(rig, h)
	sh := shape{s: s, h: h, fem: fem, build: cfg.Body.Build}
	hs := newHead(s, fem)
	b := &builder{s: s, sc: &scene.Scene{Asset: gltf.Asset{Version: "2.0", Generator: "Kiln avatar"}}}
	b.skeleton()

	tone := colorOf(skinTones, cfg.Skin.Tone)
	hairC := colorOf(hairColors, cfg.Hair.Color)
	top, bottom, foot := cfg.Outfit.Top, cfg.Outfit.Bottom, cfg.Outfit.Footwear

	// Body: what the garments leave visible, and the trunk under the
	// neckline. Legs under long trousers are left out.
	body := &part{}
	sh.torso(body, 0.66, 0.835, 0, false)
	sh.neck(body)
	for _, side := range []string{"Left", "Right"} {
		sh.arm(body, side, 0.315, 0, 0)
		sh.hand(body, side)
		if bottom.Style == "shorts" || bottom.Style == "skirt" {
			sh.leg(body, side, 0.47, 0, 0)
		}
	}
	body.bones = s.bones("Hips", "Spine", "Spine1", "Spine2", "Neck", "Head",
		"LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand", "RightShoulder", "RightArm", "RightForeArm", "RightHand",
		"LeftUpLeg", "LeftLeg", "RightUpLeg", "RightLeg")
	body.skin(s)
	// Fingers and palms need their own bones: rebuild their weights from
	// the hand and finger joints only, so that a finger never follows its
	// neighbour.
	b.fingerWeights(body)
	b.mesh("Wolf3D_Body", body, b.material("Wolf3D_Body", bodyTexture(tone), 0.55, false))

	head := &part{}
	hs.head(head)
	head.bones = s.bones("Head", "Neck")
	head.skin(s)
	open, smile := hs.mouthTargets(head)
	m := b.mesh("Wolf3D_Head", head, b.material("Wolf3D_Skin", headTexture(hs, tone, hairC.scale(0.6)), 0.5, false))
	m.Primitives[0].Targets = []scene.Target{{Positions: open}, {Positions: smile}}
	m.Weights = []float64{0, 0}
	m.Extras = map[string]any{"targetNames": []any{"mouthOpen", "mouthSmile"}}

	eyeMat := b.material("Wolf3D_Eye", eyeTexture(colorOf(eyeColors, cfg.Eyes.Color)), 0.15, false)
	for _, e := range []struct{ mesh, joint string }{{"EyeLeft", "LeftEye"}, {"EyeRight", "RightEye"}} {
		p := &part{}
		hs.eye(p, s.p(e.joint))
		p.rigid(s.j(e.joint))
		b.mesh(e.mesh, p, eyeMat)
	}

	if cfg.Hair.Style != "bald" {
		p := &part{}
		hs.hair(p, cfg.Hair.Style, sh.row)
		p.rigid(s.j("Head"))
		if cfg.Hair.Style == "long" {
			// The curtain below the neck bends with the upper spine.
			p.bones = s.bones("Head", "Neck", "Spine2")
			p.skin(s)
		}
		b.mesh("Wolf3D_Hair", p, b.material("Wolf3D_Hair", hairTexture(hairC), 0.6, true))
	}

	tp := &part{}
	sh.top(tp, top.Style)
	tp.bones = s.bones("Hips", "Spine", "Spine1", "Spine2", "Neck",
		"LeftShoulder", "LeftArm", "LeftForeArm", "RightShoulder", "RightArm", "RightForeArm")
	tp.skin(s)
	b.mesh("Wolf3D_Outfit_Top", tp, b.material("Wolf3D_Outfit_Top", clothTexture(weaveOf(top.Style), colorOf(clothColors, top.Color), rgb{}), 0.85, true))

	bt := &part{}
	sh.bottom(bt, bottom.Style)
	bt.bones = s.bones("Hips", "Spine", "LeftUpLeg", "LeftLeg", "LeftFoot", "RightUpLeg", "RightLeg", "RightFoot")
	bt.skin(s)
	b.mesh("Wolf3D_Outfit_Bottom", bt, b.material("Wolf3D_Outfit_Bottom", clothTexture(weaveOf(bottom.Style), colorOf(clothColors, bottom.Color), rgb{}), 0.85, true))

	ft := &part{}
	for _, side := range []string{"Left", "Right"} {
		sh.shoe(ft, side, foot.Style)
	}
	ft.bones = s.bones("LeftLeg", "LeftFoot", "LeftToeBase", "RightLeg", "RightFoot", "RightToeBase")
	ft.skin(s)
	sole := hexColor("#f2f0ea")
	if foot.Style != "sneakers" {
		sole = hexColor("#241c16")
	}
	b.mesh("Wolf3D_Outfit_Footwear", ft, b.material("Wolf3D_Outfit_Footwear", clothTexture("footwear", colorOf(clothColors, foot.Color), sole), 0.6, false))

	if cfg.Glasses.Style != "none" {
		p := &part{}
		hs.glasses(p, cfg.Glasses.Style)
		p.rigid(s.j("Head"))
		mat := b.plainMaterial("Wolf3D_Glasses", colorOf(clothColors, cfg.Glasses.Color), cfg.Glasses.Color == "gold" || cfg.Glasses.Color == "silver")
		b.mesh("Wolf3D_Glasses", p, mat)
	}
	return b.sc, nil
}

// weaveOf is the cloth pattern of a garment style.
func weaveOf(style string) string {
	switch style {
	case "jeans":
		return "twill"
	case "tshirt", "hoodie", "tank":
		return "knit"
	}
	return "weave"
}

// builder assembles the glTF scene: joint nodes, the skin, meshes and
// materials.
type builder struct {
	s  *skel
	sc *scene.Scene
}

// skeleton adds the joint nodes under an "Armature" root, and the skin
// whose inverse bind matrices are the inverses of the rest world
// matrices (so the rest pose draws the mesh as built).
func (b *builder) skeleton() {
	r := b.s.Rig
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
		inv := b.s.world[i].rigidInverse()
		for k := range 16 {
			ibm[k] = float32(inv[k])
		}
		skin.InverseBindMatrices = append(skin.InverseBindMatrices, ibm)
	}
	b.sc.Skins = []*scene.Skin{skin}
	b.sc.Samplers = []*gltf.Sampler{{MagFilter: gltf.MagLinear, MinFilter: gltf.MinLinearMipMapLinear, WrapS: gltf.WrapRepeat, WrapT: gltf.WrapRepeat}}
}

// fingerWeights rebinds the vertices nearest a finger to that finger's
// joints (and the hand), which distance weights over the whole body
// would blur across fingers.
func (b *builder) fingerWeights(p *part) {
	s := b.s
	for _, side := range []string{"Left", "Right"} {
		hand := s.p(side + "Hand")
		var groups [][]int
		for _, f := range fingers {
			groups = append(groups, s.bones(side+"Hand"+f+"1", side+"Hand"+f+"2", side+"Hand"+f+"3"))
		}
		for i, v := range p.pos {
			if v.sub(hand).len() > 0.12*s.h {
				continue
			}
			// The finger whose bones are nearest.
			best, bd := -1, 0.0
			for g, bones := range groups {
				for _, j := range bones {
					c := mainChild(s.Names, s.Parent, j)
					d := segDist(v, s.p(s.Names[j]), s.p(s.Names[c]))
					if best < 0 || d < bd {
						best, bd = g, d
					}
				}
			}
			hd := segDist(v, s.p(side+"ForeArm"), hand)
			if bd > 0.02*s.h || hd < bd {
				// Palm and wrist: hand and forearm only.
				p.jw[i] = s.weigh(v, s.bones(side+"ForeArm", side+"Hand"))
				continue
			}
			p.jw[i] = s.weigh(v, append([]int{s.j(side + "Hand")}, groups[best]...))
		}
	}
}

func (b *builder) image(name string, png []byte) int {
	b.sc.Images = append(b.sc.Images, &scene.Image{Name: name, MimeType: "image/png", Data: png})
	b.sc.Textures = append(b.sc.Textures, &gltf.Texture{Sampler: gltf.Index(0), Source: gltf.Index(len(b.sc.Images) - 1)})
	return len(b.sc.Textures) - 1
}

// material is a textured, non-metallic PBR material; cloth and hair are
// double-sided because their shells are open at hems and edges.
func (b *builder) material(name string, png []byte, roughness float64, doubleSided bool) int {
	t := b.image(name, png)
	b.sc.Materials = append(b.sc.Materials, &gltf.Material{
		Name:        name,
		DoubleSided: doubleSided,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorTexture: &gltf.TextureInfo{Index: t},
			MetallicFactor:   gltf.Float(0),
			RoughnessFactor:  gltf.Float(roughness),
		},
	})
	return len(b.sc.Materials) - 1
}

// plainMaterial is an untextured one, for thin frames where a texture
// would not show.
func (b *builder) plainMaterial(name string, c rgb, metal bool) int {
	m, r := 0.0, 0.35
	if metal {
		m, r = 1, 0.3
	}
	b.sc.Materials = append(b.sc.Materials, &gltf.Material{
		Name: name,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorFactor: &[4]float64{c[0], c[1], c[2], 1},
			MetallicFactor:  gltf.Float(m),
			RoughnessFactor: gltf.Float(r),
		},
	})
	return len(b.sc.Materials) - 1
}

// mesh adds a skinned mesh and its node.
func (b *builder) mesh(name string, p *part, material int) *scene.Mesh {
	prim := &scene.Primitive{
		Mode:      gltf.PrimitiveTriangles,
		Material:  gltf.Index(material),
		Indices:   p.idx,
		Positions: make([][3]float32, len(p.pos)),
		Normals:   p.normals(),
		TexCoords: [][][2]float32{p.uv},
		Joints:    [][][4]uint16{make([][4]uint16, len(p.pos))},
		Weights:   [][][4]float32{make([][4]float32, len(p.pos))},
	}
	for i, v := range p.pos {
		prim.Positions[i] = v.f32()
		prim.Joints[0][i] = p.jw[i].j
		prim.Weights[0][i] = p.jw[i].w
	}
	m := &scene.Mesh{Name: name, Primitives: []*scene.Primitive{prim}}
	b.sc.Meshes = append(b.sc.Meshes, m)
	b.sc.Nodes = append(b.sc.Nodes, &gltf.Node{Name: name, Mesh: gltf.Index(len(b.sc.Meshes) - 1), Skin: gltf.Index(0), Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}})
	b.sc.Scenes[0].Nodes = append(b.sc.Scenes[0].Nodes, len(b.sc.Nodes)-1)
	return m
}
