package avatar

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/human"
	"github.com/kilnhq/kiln/assets/avatar/paint"
	"github.com/kilnhq/kiln/assets/scene"
)

// PartMeshes are the meshes of the avatar each style category draws, as
// Generate names them: what a page drops from the avatar it shows when
// it swaps in that category's part (BuildPart). Changing the headwear
// also reshapes the hair under it, so its part carries the hair too; a
// garment hides other faces of the body, so its part carries the body
// cut anew (its material is a plain one: the page keeps the shown
// body's painted skin, named in the scene's extras "keepMaterial").
var PartMeshes = map[string][]string{
	"hair":       {"Wolf3D_Hair"},
	"facialHair": {"Wolf3D_Beard"},
	"top":        {"Wolf3D_Outfit_Top", "Wolf3D_Body"},
	"bottom":     {"Wolf3D_Outfit_Bottom", "Wolf3D_Body"},
	"footwear":   {"Wolf3D_Outfit_Footwear", "Wolf3D_Body"},
	"glasses":    {"Wolf3D_Glasses"},
	"headwear":   {"Wolf3D_Headwear", "Wolf3D_Hair"},
}

// partTexture is the size of a part's painted maps: a quarter of the
// whole build's pixels, as painting and encoding them is most of a
// part's time, and a preview is looked at for a second.
const partTexture = 256

// BuildPart builds only the meshes one style category draws for a
// configuration (PartMeshes), fitted to its body and skinned to the same
// 67 joints as Generate's avatar, in a scene of that skeleton: what the
// creator swaps into the avatar it shows the moment a style is picked,
// while the whole build (Generate) follows. A whole build paints and
// encodes every texture of the avatar (about eighteen images); a part
// paints one or two, so it answers in a fraction of the time.
//
// It is a preview, not the avatar: the parts are fitted as Generate fits
// them, but the whole avatar's triangle budget is not applied, the body
// under a new garment is not re-cut, a beard's stubble is not painted
// into the head's skin, and the meshes carry no morph targets, garments keep their bindings'
// skin weights unsmoothed and textures are painted at 256 pixels. The
// scene's extras name the meshes it replaces ("replaces"), also when it
// has none of them (bald, no glasses).
//
// standOn, when not empty, is the footwear style the shown avatar stands
// on: the part's body stands on it too, so that new shoes (whose soles
// lift the whole avatar in Generate) are swapped in at the height of the
// avatar on screen, not a centimetre off its legs and head.
func BuildPart(cfg Config, category, standOn string) (*scene.Scene, error) {
	return BuildPartContext(context.Background(), cfg, category, standOn)
}

// BuildPartContext is BuildPart stopping with ctx's error at its next
// stage once ctx ends: the creator asks the parts of a tab's styles
// ahead and drops the one in flight when the person picks a style, and
// that part, run to its end, took half the cores from the part picked
// (the beanie's part ran 8.0 s beside the cap's abandoned one at load
// 30, against 0.3 s of CPU). A stage already begun (the thickened hair,
// which another part may be waiting for) runs to its end.
func BuildPartContext(ctx context.Context, cfg Config, category, standOn string) (*scene.Scene, error) {
	cfg = cfg.resolve()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	names, ok := PartMeshes[category]
	if !ok {
		return nil, fmt.Errorf("avatar: unknown style category %q", category)
	}
	stand := cfg
	if standOn != "" {
		if err := oneOf("standOn", standOn, footwearStyles); err != nil {
			return nil, err
		}
		stand.Outfit.Footwear.Style = standOn
	}
	body, err := standingBody(stand)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	joints := body.Joints()
	b := newBuilder(rigOf(joints))
	b.urgent = true // a person waits for it: its textures go first
	defer b.wait()  // the textures painting in the background
	seed := cfg.Face.Seed
	if seed == 0 {
		seed = 1
	}
	fit := func(id string) (*part, error) {
		f, err := body.Fit(id)
		if err != nil {
			return nil, fmt.Errorf("avatar: %w", err)
		}
		return fittedPart(f), nil
	}
	// The head, for what is placed on it (the hairline, a beard): the
	// garments hide none of its triangles.
	head := func() *part {
		h, _ := bodyParts(body, make([]bool, len(human.BodyMesh().Tris)))
		h.closeLips()
		return h
	}
	hairC := paint.RGB(colorOf(hairColors, cfg.Hair.Color))

	var keep []string
	switch category {
	case "hair", "headwear":
		var hatPart *part
		var hatCentre vec3
		if cfg.Headwear.on() {
			hatPart, hatCentre = hat(b, body, cfg.Headwear.Style)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if cfg.Hair.Style != "bald" {
			key, err := partHairKey(stand, cfg.Hair.Style)
			if err != nil {
				return nil, err
			}
			// Kept for the next part on this body (partHairs): this
			// reads the body and the style alone.
			hair, err := thickHair(key, func() (*part, error) {
				if sculpted(cfg.Hair.Style) {
					return sculptedHair(head(), joints, cfg.Hair.Style), nil
				}
				hair, err := fit("hair/" + cfg.Hair.Style)
				if err != nil {
					return nil, err
				}
				if bobbed(cfg.Hair.Style) {
					raiseFringe(hair, joints)
					return bobHair(hair, head(), joints), nil
				}
				trimHairline(hair, head(), joints)
				raiseFringe(hair, joints)
				tuckOverEars(hair, head(), joints, cfg.Hair.Style)
				dropCapCards(hair, joints, cfg.Hair.Style)
				lowerTemples(hair, head(), joints, cfg.Hair.Style)
				thickenHair(hair, joints, cfg.Hair.Style)
				return hair, nil
			})
			if err != nil {
				return nil, err
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if hatPart != nil {
				hairUnderHat(hair, hatPart, head(), hatCentre, cfg.Hair.Style)
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			// Long hair lies over the hood and the top's shoulders
			// (liftHair, restHair), as in the whole build (after the hat): the
			// top is fitted for that alone, and only for hair that
			// reaches below the neck.
			if hangsBelow(hair, joints["Neck"]) {
				top, err := fit("top/" + cfg.Outfit.Top.Style)
				if err != nil {
					return nil, err
				}
				endSleeves(top, joints)
				if openCollar(cfg.Outfit.Top.Style) {
					mirrorCollar(top, joints["Neck"])
				}
				// The hair on the top takes the cloth's weights
				// (followTop): the whole build's, smoothed.
				top.smoothWeights(hemFade)
				if cfg.Outfit.Top.Style == "hoodie" {
					addHood(top, joints["Neck"]).liftHair(hair, top, joints["Neck"])
				}
				restHair(hair, top, body, joints["Neck"])
			}
			if len(hair.tris) > 0 {
				hair.mask = paint.Border(hair.pos, hair.tris)
				var form []float32
				h := head()
				if cfg.Hair.Style == "buzz" {
					// The buzz cut's skin shows between its hairs, in
					// the head's form shade.
					form = formShade(h)
				}
				hairMesh(b, hair, cfg.Hair.Style, hairC, paint.RGB(colorOf(skinTones, cfg.Skin.Tone)), seed, partTexture, h, form, joints)
			}
		}
		if category == "headwear" && hatPart != nil {
			headwearMesh(b, hatPart, cfg.Headwear, seed)
		}
	case "facialHair":
		bd := newBeard(cfg, head(), joints)
		if bd.part != nil {
			// The head's face shapes stay with the whole build.
			bd.part.morph = false
			bd.mesh(b, seed, partTexture)
		}
	case "top", "bottom", "footwear":
		g := map[string]Garment{"top": cfg.Outfit.Top, "bottom": cfg.Outfit.Bottom, "footwear": cfg.Outfit.Footwear}[category]
		p, err := fit(category + "/" + g.Style)
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if category == "top" {
			endSleeves(p, joints)
			collarTop(p, g.Style, joints["Neck"])
			if g.Style == "hoodie" {
				addHood(p, joints["Neck"])
			}
			if ribbedNeck(g.Style) {
				neckband(p, joints["Neck"])
			}
		}
		// The skin weights stay the bindings' own: smoothing them over
		// the garment (smoothWeights) takes a whole build's time for
		// some garments, and shows only in motion, for the second until
		// the whole build replaces the part.
		maps := garmentMaps(b, p, g, category == "footwear", category == "top", seed, partTexture)
		name := names[0]
		b.mesh(name, p.prim(b.painted(name, maps, matOpts{normal: true, doubleSided: category != "footwear"})))
		// The body without the faces the three garments cover.
		hidden := make([]bool, len(human.BodyMesh().Tris))
		for _, id := range []string{"top/" + cfg.Outfit.Top.Style, "bottom/" + cfg.Outfit.Bottom.Style, "footwear/" + cfg.Outfit.Footwear.Style} {
			f, err := body.Fit(id)
			if err != nil {
				return nil, fmt.Errorf("avatar: %w", err)
			}
			for t, h := range f.Hides {
				hidden[t] = hidden[t] || h
			}
		}
		_, rest := bodyParts(body, hidden)
		b.mesh("Wolf3D_Body", rest.prim(b.plain("Wolf3D_Body", colorOf(skinTones, cfg.Skin.Tone), 0.6, false)))
		keep = []string{"Wolf3D_Body"}
	case "glasses":
		if cfg.Glasses.Style != "none" {
			brows, err := body.Fit("eyebrows/default")
			if err != nil {
				return nil, fmt.Errorf("avatar: %w", err)
			}
			glassesMesh(b, cfg.Glasses, glasses(b, body, cfg.Glasses.Style, fittedPart(brows).pos))
		}
	}
	b.sc.Scenes[0].Extras = map[string]any{"replaces": slices.Clone(names), "category": category, "keepMaterial": keep}
	return b.sc, nil
}

// HoldPaints keeps every texture that is not a part's from starting to
// paint until done is called. The creator holds it while it builds a
// part a person waits for: a whole build cannot be paused inside
// Generate, but its textures (about eighteen, most of its CPU) start one
// after another, so it yields the cores at its next texture rather than
// sharing them with the part to its end (issue 20's hoodie: 2.7 s beside
// a whole build, part=1 build=1). Only the order of the paints changes,
// so the bytes stay the same.
func HoldPaints() (done func()) {
	release := paintSlots.take(true)
	var once sync.Once
	return func() { once.Do(release) }
}
