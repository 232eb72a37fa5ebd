package avatar

import "math"

// The ponytail's sides seen from the front. MakeHuman's ponytail is one
// cap, swept back from the hairline to the tie, with nine cards laid
// over it (about a millimetre over it, adding no volume) and the tail's
// strands hanging from the tie. The cards' square fronts stop a few
// centimetres before or after the cap's own edge: where a card reaches
// past the cap it lies alone on the widest part of the skull, nearest
// the viewer, a centimetre off the skin once lifted (thickenHair), and
// ends in a rimmed square front. Seen from the front, the hair's outline
// at the side of the head stepped out and in by 3-8 mm from card to
// card, square blocks and spikes with the background showing in the
// notches between them (issue 22, panels p25 and p26 on random-15:
// "white gaps and stray bits at the sides of the hair", "stray spikes
// at the sides"); from a quarter view the hairline over the ear was a
// staircase of card ends. dropCapCards drops the cards: the cap alone
// is the slicked-back hair, its outline one curve, its hairline one
// edge. They are the pieces of hair (connected by shared corners,
// welded by position) other than the cap that reach forward of
// capCardsFront behind the eyes; the tail's strands hang from the tie,
// farther back, and stay. It runs with tuckOverEars, before the budget,
// on the fitted cards, in the whole build and in the creator's parts
// alike.

// capCardsFront is how far behind the eyes (metres) a piece of hair must
// reach forward of to be one of the cards over the cap: the cards reach
// to 8 cm behind the eyes and nearer, the tail's strands no nearer than
// 15 cm.
const capCardsFront = 0.12

// capPiece is the hair's pieces and its cap: of the pieces, the one
// that reaches farthest from front to back.
func capPiece(hair *part) ([]int, int) {
	piece, n := pieces(hair.pos, hair.tris)
	lo, hi := make([]float64, n), make([]float64, n)
	for r := range lo {
		lo[r], hi[r] = math.Inf(1), math.Inf(-1)
	}
	for _, t := range hair.tris {
		for _, v := range t {
			r, z := piece[v], float64(hair.pos[v][2])
			lo[r], hi[r] = math.Min(lo[r], z), math.Max(hi[r], z)
		}
	}
	cp := -1
	for r := range n {
		if cp < 0 || hi[r]-lo[r] > hi[cp]-lo[cp] {
			cp = r
		}
	}
	return piece, cp
}

// dropCapCards drops the cards over a tucked style's cap (see above).
func dropCapCards(hair *part, joints map[string][3]float32, style string) {
	if !tucksEars(style) || len(hair.tris) == 0 {
		return
	}
	eyeZ := float64(joints["LeftEye"][2]+joints["RightEye"][2]) / 2
	piece, cp := capPiece(hair)
	front := map[int]float64{}
	for _, t := range hair.tris {
		for _, v := range t {
			z := float64(hair.pos[v][2])
			if f, ok := front[piece[v]]; !ok || z > f {
				front[piece[v]] = z
			}
		}
	}
	var keep []uint32
	for _, t := range hair.tris {
		if r := piece[t[0]]; r == cp || front[r] < eyeZ-capCardsFront {
			keep = append(keep, t[0], t[1], t[2])
		}
	}
	if len(keep) < 3*len(hair.tris) {
		hair.keep(keep)
	}
}
