package avatar

import (
	"maps"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// neckNarrow is, by body type, how far MakeHuman's neck width dial
// (neck/neck-scale-horiz) narrows the neck under the jaw. In room
// portraits our masculine necks were about as wide as the jaw right
// under it, the jaw running straight down into the neck, which the
// panel read as "puffy", "stocky", "heavy"; the leader's neck steps in
// from the jaw at each side. Read from the front at its narrowest within
// 0.3 eye-distances under the chin (facemeasure's Throat) over the
// cheekbones' width (TestNeckUnderJaw) the leader's are 0.76 and 0.71;
// ours were 0.87 on default-male and 0.78 to 0.89 on masculine bodies
// young and slim to old and heavy, 0.70 on default-female. Masculine
// necks take nine tenths of the dial (default-male 0.76, the others
// 0.67 to 0.78); at its end an old, heavy masculine shoulder came 5-6
// mm out through the hoodie's neckline under gesture_point and
// gesture_wave (TestClothKiln). Feminine necks, already near the
// leader's, take less (default-female 0.65), so that a slim feminine
// neck does not turn into a stalk. Short, heavy masculine necks whose
// crew neck rides up to the chin (the panel's random-03, -08, -11: 0.94
// to 1.02) keep most of their width: there the neck under the jaw is
// the neck's base (see neckNarrowLow).
var neckNarrow = map[string]float64{Masculine: -0.9, Feminine: -0.4}

// Where the narrowing fades in, in metres over the neck joint (the base
// of the neck): a collar's band and a crew neck's rib sit round the
// neck's base, fitted to it. Narrowed there too (the dial's whole neck),
// the masculine blouse's band showed, shaded grey, past the sides of the
// neck from the front (59 of 745 lining pixels, TestCollarLiningNotGrey
// allows a twentieth) and from three quarters the neck's side came up
// against the band behind it (152 pixels, allowed 150); fading in over
// the 3 cm over the joint left default-male's neck 0.79 of the
// cheekbones; over 1.5 cm, 0.75 with the collars as before (0 grey, at
// most 5 pixels against the band).
const (
	neckNarrowLow  = 0.0
	neckNarrowHigh = 0.015
)

// narrowNeck narrows b's neck under the jaw: it moves each vertex
// toward where the neck width dial (neckNarrow) would put it, all the
// way from neckNarrowHigh over the neck joint up, none at the joint and
// under it. p is the body's dials, which b was shaped from.
func narrowNeck(b *human.Body, p human.Params, bodyType string) {
	v, ok := neckNarrow[bodyType]
	if !ok || v == 0 {
		return
	}
	p.Base = maps.Clone(p.Base)
	p.Base["neck/neck-scale-horiz"] = v
	narrow := human.Shape(p)
	neck := float64(b.Joints()["Neck"][1])
	for i, q := range b.Pos {
		w := float32(smoothstep(neck+neckNarrowLow, neck+neckNarrowHigh, float64(q[1])))
		if w == 0 {
			continue
		}
		n := narrow.Pos[i]
		b.Pos[i] = [3]float32{q[0] + w*(n[0]-q[0]), q[1] + w*(n[1]-q[1]), q[2] + w*(n[2]-q[2])}
	}
}
