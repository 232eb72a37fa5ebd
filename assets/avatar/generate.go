package avatar

import (
	"fmt"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/human"
	"github.com/kilnhq/kiln/assets/avatar/paint"
	"github.com/kilnhq/kiln/assets/leader"
	"github.com/kilnhq/kiln/assets/scene"
)

// Generate builds the avatar of a configuration on Kiln's parametric
// human (package human, from MakeHuman's CC0 data): the body shaped by
// the configuration, the 67-joint rig placed on it, and the garments,
// hair, eyebrows, eyelashes, eyes, teeth and tongue fitted to it, all
// skinned from the body's weights. The body faces a garment covers are
// left out, so skin cannot show through. Meshes are named like the
// leader's (Wolf3D_Body, Wolf3D_Head, EyeLeft, EyeRight, Wolf3D_Teeth,
// Wolf3D_Hair, Wolf3D_Outfit_Top, Wolf3D_Outfit_Bottom,
// Wolf3D_Outfit_Footwear, Wolf3D_Glasses) so that clients that hide,
// recolour or swap meshes by name work on ours, plus Wolf3D_Eyebrows and
// Wolf3D_Eyelashes. The head, teeth, eyes, eyebrows and eyelashes carry
// every face shape (package face; the download keeps those asked for).
// Textures are painted by Kiln (package paint). The same configuration
// always gives the same scene, and the same bytes from scene.Write.
func Generate(cfg Config) (*scene.Scene, error) {
	cfg = cfg.resolve()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return generate(cfg, nil)
}

// generate builds a resolved, valid configuration; with sliders, their
// targets replace the face shapes (Basis).
func generate(cfg Config, sliders []*sliderShape) (*scene.Scene, error) {
	b, err := assemble(cfg, sliders)
	if err != nil {
		return nil, err
	}
	return b.sc, nil
}

// assemble is generate's work, returning the builder with its scene and
// what the budget counted (TestBudgetCountsWhatIsBuilt).
func assemble(cfg Config, sliders []*sliderShape) (*builder, error) {
	// The mouth's mask is found once per process (half a second on a
	// busy machine): begun here, it overlaps the body's shaping and
	// fitting instead of adding to a cold build.
	go mouthMask()
	body, err := standingBody(cfg)
	if err != nil {
		return nil, err
	}
	b := newBuilder(rigOf(body.Joints()))
	b.body, b.sliders = body, sliders
	// Textures paint in the background while the rest is built: every
	// return waits for them.
	defer b.wait()
	seed := cfg.Face.Seed
	if seed == 0 {
		seed = 1
	}
	top, bottom, foot := cfg.Outfit.Top, cfg.Outfit.Bottom, cfg.Outfit.Footwear

	fit := func(id string) (*human.Fitted, error) {
		f, err := body.Fit(id)
		if err != nil {
			return nil, fmt.Errorf("avatar: %w", err)
		}
		return f, nil
	}
	var garments [3]*human.Fitted
	for i, id := range []string{"top/" + top.Style, "bottom/" + bottom.Style, "footwear/" + foot.Style} {
		f, err := fit(id)
		if err != nil {
			return nil, err
		}
		garments[i] = f
	}
	hidden := make([]bool, len(human.BodyMesh().Tris))
	for _, g := range garments {
		for t, h := range g.Hides {
			hidden[t] = hidden[t] || h
		}
	}
	headPart, bodyPart := bodyParts(body, hidden)
	headPart.closeLips()

	parts := map[string]*part{"head": headPart, "body": bodyPart}
	order := []string{"top", "bottom", "footwear"}
	for i, k := range order {
		parts[k] = fittedPart(garments[i])
	}
	for _, id := range []string{"eyes/left", "eyes/right", "teeth/default", "tongue/default", "eyebrows/default", "eyelashes/default"} {
		f, err := fit(id)
		if err != nil {
			return nil, err
		}
		parts[id] = fittedPart(f)
	}
	b.closed = closedBlinks(headPart, [2]*part{parts["eyes/left"], parts["eyes/right"]}, func(v int32) float64 { return float64(body.Pos[v][0]) })
	b.lid = restLid(headPart, parts["eyes/left"])
	headPart.lowerLids(b.lid)
	parts["eyelashes/default"].lowerLids(b.lid)
	b.lowLid = restLowLid(headPart, parts["eyes/left"])
	headPart.raiseLowerLids(b.lowLid)
	parts["eyelashes/default"].raiseLowerLids(b.lowLid)
	thickenBrows(parts["eyebrows/default"], headPart)
	if sculpted(cfg.Hair.Style) {
		parts["hair"] = sculptedHair(headPart, body.Joints(), cfg.Hair.Style)
	} else if cfg.Hair.Style != "bald" {
		f, err := fit("hair/" + cfg.Hair.Style)
		if err != nil {
			return nil, err
		}
		parts["hair"] = fittedPart(f)
		if bobbed(cfg.Hair.Style) {
			raiseFringe(parts["hair"], body.Joints())
			parts["hair"] = bobHair(parts["hair"], headPart, body.Joints())
		} else {
			trimHairline(parts["hair"], headPart, body.Joints())
			raiseFringe(parts["hair"], body.Joints())
			tuckOverEars(parts["hair"], headPart, body.Joints(), cfg.Hair.Style)
			dropCapCards(parts["hair"], body.Joints(), cfg.Hair.Style)
			lowerTemples(parts["hair"], headPart, body.Joints(), cfg.Hair.Style)
		}
	}
	endSleeves(parts["top"], body.Joints())
	collarTop(parts["top"], top.Style, body.Joints()["Neck"])
	beard := newBeard(cfg, headPart, body.Joints())
	if beard.part != nil {
		parts["beard"] = beard.part
	}
	var hatCentre vec3
	if cfg.Headwear.on() {
		parts["headwear"], hatCentre = hat(b, body, cfg.Headwear.Style)
	}
	// What the build adds after the budget, counted in it: the glasses
	// (frame and lenses, placed on the head, not fitted), the hood, and the hair's rims
	// (counted on the simplified hair, in budget).
	later := 0
	var specs *part
	if cfg.Glasses.Style != "none" {
		specs = glasses(b, body, cfg.Glasses.Style, parts["eyebrows/default"].pos)
		later += len(specs.tris)
	}
	if top.Style == "hoodie" {
		later += hoodTriangles
	}
	// What the build drops after the budget is not counted in it: the
	// skin under the garments and the lower lashes (upperLashes).
	lower := *parts["eyelashes/default"]
	upperLashes(&lower, parts["eyes/left"], parts["eyes/right"])
	parts["eyelashes/default"].hides = len(parts["eyelashes/default"].tris) - len(lower.tris)
	bodyPart.hides = hiddenSkin(bodyPart, []*part{parts["top"], parts["bottom"], parts["footwear"]}, parts["top"], body.Joints()["Neck"])
	_, b.budgeted = budget(parts, later, func(hair *part) int { return thickTriangles(hair, body.Joints(), cfg.Hair.Style) })
	if hair := parts["hair"]; hair != nil {
		thickenHair(hair, body.Joints(), cfg.Hair.Style)
	}
	if hw, hair := parts["headwear"], parts["hair"]; hw != nil && hair != nil {
		hairUnderHat(hair, hw, headPart, hatCentre, cfg.Hair.Style)
		if len(hair.tris) == 0 {
			// All of it under the hat (a buzz cut under a beanie).
			delete(parts, "hair")
		}
	}
	// The garments' weights are smoothed side by side (each touches its
	// own part only): a tenth of a build, on one core before.
	var worn []*part
	var smoothing sync.WaitGroup
	for _, k := range order {
		fade := 0.0
		if k == "top" {
			fade = hemFade
		}
		smoothing.Go(func() { parts[k].smoothWeights(fade) })
		worn = append(worn, parts[k])
	}
	smoothing.Wait()
	if top.Style == "hoodie" {
		addHood(parts["top"], body.Joints()["Neck"]).liftHair(parts["hair"], parts["top"], body.Joints()["Neck"])
	}
	// Long hair lies over the shoulders (and the hood), not through them
	// (restHair).
	restHair(parts["hair"], parts["top"], body, body.Joints()["Neck"])
	covered := followGarments([]*part{bodyPart, headPart}, worn)
	keepSeenSkin(bodyPart, parts["top"], covered[0], body.Joints()["Neck"])
	bodyPart.hide(covered[0])

	tone := paint.RGB(colorOf(skinTones, cfg.Skin.Tone))
	hairC := paint.RGB(colorOf(hairColors, cfg.Hair.Color))
	lips, blush := lipColour(), blushMask()
	headPart.mask = make([]float32, len(headPart.pos))
	headBlush := make([]float32, len(headPart.pos))
	for i, v := range headPart.base {
		headPart.mask[i], headBlush[i] = lips[v], blush[v]
	}

	hs := headPart.surface()
	// The head's pieces packed anew, larger (packIslands): the texels
	// round the mouth 2.5 -> 1.7 mm.
	headPart.packIslands(headUVGap)
	hs.UV = headPart.uv
	hs.Inner = headPart.mouthDepth()
	hs.Blush = headBlush
	hs.Mouth = headPart.mouthFrame()
	// The neck's shade runs on from the head's part into the body's
	// (neckShade); without a mouth there is no chin to end it under.
	bs := bodyPart.surface()
	if hs.Mouth != nil {
		hs.Shade = jawShade(headPart, hs.Mouth.Centre[1]-0.01)
		if depth := neckShadeDepth * neckToneShare(tone); depth > 0 {
			chin := chinBottom(headPart, hs.Mouth.Centre, hs.Mouth.Front)
			hs.Shade = addShade(hs.Shade, neckShade(headPart, body.Joints()["Neck"], chin, depth))
			bs.Shade = neckShade(bodyPart, body.Joints()["Neck"], chin, depth)
		}
	}
	// An open collar's V is shaded where the shirt meets the skin
	// (vneckShade), on every skin tone: it is the cloth's shade, not
	// the neck's.
	if openCollar(top.Style) {
		vs := vneckShade(bodyPart, parts["top"], body.Joints()["Neck"])
		if bs.Shade == nil {
			bs.Shade = vs
		} else {
			bs.Shade = addShade(bs.Shade, vs)
		}
	}
	b.mesh("Wolf3D_Body", bodyPart.prim(b.painted("Wolf3D_Body", paintedBy(paint.Skin, bs, tone, seed, 512), matOpts{normal: true, orm: true})))
	hs.Form = formShade(headPart)
	hs.Sheen = keySheen(headPart, hs.Form, hs.Mouth, parts["hair"])
	if hs.Mouth != nil {
		easeLowerFace(hs.Form, headPart, hs.Mouth.Centre[1])
	}
	shadeLids(hs.Form, headPart)
	// The head's skin carries the scalp under the hair and the beard's
	// stubble and shadow: the key holds what those read too.
	var scalp, shortBurns *paint.Surface
	// A buzz cut's shell lies on the scalp and fades into the skin
	// itself (paint.BuzzHair): the scalp's paint showed past its edge
	// as a dark line along the hairline.
	if p := parts["hair"]; p != nil && cfg.Hair.Style != "buzz" {
		scalp = &paint.Surface{Pos: hs.Pos, UV: hs.UV, Tris: hs.Tris, Mask: scalpWeights(headPart, p, body.Joints())}
		if bobbed(cfg.Hair.Style) {
			bareForehead(scalp.Mask, headPart, body.Joints())
		}
		if cfg.Hair.Style == "short" {
			coverFromFront(scalp.Mask, headPart, p, body.Joints())
			// The sideburns are painted on their own, over the scalp's
			// roots, in the hair's colour as it shows lit
			// (paint.Sideburns).
			mask := make([]float32, len(headPart.pos))
			ears := earBoxes(headPart, body.Joints())
			sideburns(mask, headPart, ears, 0)
			rootsUnderBurns(scalp.Mask, mask, headPart, ears)
			shortBurns = &paint.Surface{Pos: hs.Pos, UV: hs.UV, Tris: hs.Tris, Mask: mask}
		}
	}
	// A buzz cut's sideburns are painted on the skin below its shell
	// (paint.BuzzScalp), as the shell paints its hairs.
	var burns *paint.Surface
	if p := parts["hair"]; p != nil && cfg.Hair.Style == "buzz" {
		mask := make([]float32, len(headPart.pos))
		sideburns(mask, headPart, earBoxes(headPart, body.Joints()), buzzBurnsBehind)
		burns = &paint.Surface{Pos: hs.Pos, UV: hs.UV, Tris: hs.Tris, Mask: mask}
	}
	// Hanging hair shades the skin right under its edge (hairContact).
	contact := newHairContact(hs, headPart, parts["hair"], cfg.Hair.Style, body.Joints())
	head := texture{
		key: paint.KeyOf("head skin", hs, tone, seed, 512, scalp, shortBurns, burns, hairC, beard.weights, beard.color, beard.cut, contact),
		paint: func() paint.Maps {
			skin := paint.Skin(hs, tone, seed, 512)
			if scalp != nil {
				paint.Scalp(skin, *scalp, hairC, seed)
			}
			if shortBurns != nil {
				paint.Sideburns(skin, *shortBurns, hairC, seed)
			}
			if burns != nil {
				paint.BuzzScalp(skin, *burns, hairC, seed)
			}
			if contact != nil {
				contact.paint(skin)
			}
			beard.stubble(skin, hs, seed)
			return skin
		},
	}
	b.mesh("Wolf3D_Head", headPart.prim(b.painted("Wolf3D_Skin", head, matOpts{normal: true, orm: true})))
	for _, e := range []struct{ mesh, id string }{{"EyeLeft", "eyes/left"}, {"EyeRight", "eyes/right"}} {
		p := parts[e.id]
		b.mesh(e.mesh, p.prim(b.painted("Wolf3D_Eye", paintedBy(paint.Eye, p.surface(), paint.RGB(colorOf(eyeColors, cfg.Eyes.Color)), seed, 256), matOpts{})))
	}
	// The leader's Wolf3D_Teeth is one mesh of one primitive, teeth and
	// tongue together: one material, their colours per vertex.
	// Matte: a glossy tongue under a viewer's key light showed a white
	// sheen filling the open mouth, and at 0.8 the darkened tongue of a
	// deep skin still turned grey under a three-point rig (TestMatte).
	teeth := b.plain("Wolf3D_Teeth", rgb{1, 1, 1}, 1, false)
	lowerTongue(parts["tongue/default"])
	tuckMouth(headPart, parts["teeth/default"], parts["tongue/default"])
	b.mesh("Wolf3D_Teeth", parts["teeth/default"].prim(teeth), parts["tongue/default"].prim(teeth))
	b.joinLast(mouthColors(parts["teeth/default"], parts["tongue/default"], rgb(paint.LipColour(tone))))
	for _, k := range []string{"hair", "eyebrows/default", "eyelashes/default"} {
		if p := parts[k]; p != nil {
			p.mask = paint.Border(p.pos, p.tris)
		}
	}
	if p := parts["hair"]; p != nil {
		hairMesh(b, p, cfg.Hair.Style, hairC, tone, seed, hairTexels(cfg.Hair.Style), headPart, hs.Form, body.Joints())
	}
	beard.mesh(b, seed, 512)
	brows := parts["eyebrows/default"]
	browC := browColor(rgb(hairC))
	if beard.color != (paint.RGB{}) && (cfg.FacialHair.Color == "" || cfg.FacialHair.Color == cfg.Hair.Color) {
		browC = beardBrows(rgb(hairC))
	}
	b.mesh("Wolf3D_Eyebrows", brows.prim(b.painted("Wolf3D_Eyebrows", browTexture(brows.surface(), browC, rgb(tone), seed), matOpts{mask: true, doubleSided: true})))
	// The lash line fades from its dark roots into the skin's tone
	// (paint.Lashes), so it is painted for the skin.
	lashes := parts["eyelashes/default"]
	upperLashes(lashes, parts["eyes/left"], parts["eyes/right"])
	lashes.mask = lashReach(lashes)
	b.mesh("Wolf3D_Eyelashes", lashes.prim(b.painted("Wolf3D_Eyelashes", paintedBy(paint.Lashes, lashes.surface(), tone, seed, 128), matOpts{mask: true, doubleSided: true})))

	for i, c := range []struct {
		mesh string
		g    Garment
	}{
		{"Wolf3D_Outfit_Top", top},
		{"Wolf3D_Outfit_Bottom", bottom},
		{"Wolf3D_Outfit_Footwear", foot},
	} {
		p := parts[order[i]]
		if order[i] == "top" && ribbedNeck(c.g.Style) {
			neckband(p, body.Joints()["Neck"])
		}
		maps := garmentMaps(b, p, c.g, order[i] == "footwear", order[i] == "top", seed, 512)
		b.mesh(c.mesh, p.prim(b.painted(c.mesh, maps, matOpts{normal: true, doubleSided: i < 2})))
	}
	if specs != nil {
		glassesMesh(b, cfg.Glasses, specs)
	}
	if p := parts["headwear"]; p != nil {
		headwearMesh(b, p, cfg.Headwear, seed)
	}
	b.wait() // Arrange moves the meshes the painters read
	leader.Arrange(b.sc)
	return b, nil
}

// garmentMaps is the texture of a garment at size texels: its fabric and colour,
// the print on a top, and on footwear the sole. The whole build and the
// creator's part (BuildPart) paint it alike, so the part swapped in
// looks like the build that replaces it.
func garmentMaps(b *builder, p *part, g Garment, footwear, top bool, seed uint64, size int) texture {
	var sole rgb
	soleH := 0.0
	if footwear {
		soleH = 0.025
		sole = hexColor("#241c16")
		if g.Style == "sneakers" {
			sole = hexColor("#f2f0ea")
			// A white sole vanishes under a light upper: gum then.
			if up := colorOf(clothColors, g.Color); up.luma() > 0.45 {
				sole = hexColor("#b5835a")
			}
		}
	}
	s, kind, color := p.surface(), weaveOf(g.Style), paint.RGB(colorOf(clothColors, g.Color))
	if pr := g.Print; top && pr.on() {
		ink := printOf(pr, g.Color, p, b)
		return texture{paint.KeyOf("PrintedCloth", s, kind, color, ink, seed, size), func() paint.Maps {
			return paint.PrintedCloth(s, kind, color, ink, seed, size)
		}}
	}
	return clothTexture(s, kind, color, paint.RGB(sole), soleH, seed, size)
}

// hairMesh adds the scalp hair p, painted at size texels by its style's
// painter (hairPainter; a buzz cut's over skin of colour skin, which
// shows between its hairs, shaded as the skin of head is by its form,
// per head vertex: formShade; and which carries the sideburns by the
// ears of head: buzzSideburns): opaque, but for curly hair's cut-out
// cards (solidHair). Its UV pieces get texels of their own first
// (unshareUV).
func hairMesh(b *builder, p *part, style string, color, skin paint.RGB, seed uint64, size int, head *part, form []float32, joints map[string][3]float32) {
	unshareUV(p)
	s := p.surface()
	tex := paintedBy(hairPainter(style), s, color, seed, size)
	if style == "buzz" {
		burns := buzzSideburns(p, head, joints)
		shade := onHair(p, head, form)
		tex = texture{paint.KeyOf("BuzzHair", s, burns, shade, color, skin, seed, size), func() paint.Maps {
			return paint.BuzzHair(s, burns, shade, color, skin, seed, size)
		}}
	}
	b.mesh("Wolf3D_Hair", p.prim(b.painted("Wolf3D_Hair", tex, matOpts{normal: true, mask: !solidHair(style), doubleSided: true})))
}

// headwearMesh adds the hat p in its style's fabric.
func headwearMesh(b *builder, p *part, h Headwear, seed uint64) {
	kind := map[string]string{"beanie": paint.Rib, "cap": paint.Cap, "fedora": paint.Felt}[h.Style]
	maps := clothTexture(p.surface(), kind, paint.RGB(colorOf(clothColors, h.color())), paint.RGB{}, 0, seed, 256)
	b.mesh("Wolf3D_Headwear", p.prim(b.painted("Wolf3D_Headwear", maps, matOpts{normal: true, doubleSided: true})))
}

// clothTexture is the texture paint.Cloth paints with these arguments.
func clothTexture(s paint.Surface, kind string, color, sole paint.RGB, soleH float64, seed uint64, size int) texture {
	return texture{paint.KeyOf("Cloth", s, kind, color, sole, soleH, seed, size), func() paint.Maps {
		return paint.Cloth(s, kind, color, sole, soleH, seed, size)
	}}
}

// weaveOf is the fabric of a garment style.
func weaveOf(style string) string {
	switch style {
	case "jeans":
		return paint.Twill
	case "tshirt", "hoodie", "tank":
		return paint.Knit
	case "sneakers":
		return paint.Canvas
	case "boots", "shoes":
		return paint.Leather
	}
	return paint.Weave
}
