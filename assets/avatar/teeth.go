package avatar

import (
	"github.com/kilnhq/kiln/assets/simplify"
)

// Teeth budget. MakeHuman's teeth are 32 teeth of 112 triangles each and
// the gums, 3,536 triangles, one piece for both jaws: 7,120 in all,
// mostly hidden behind the lips. Simplified as one mesh to an eighth, the
// small teeth went first: a third vanished and the rest became shards,
// which an open mouth showed as jagged white splinters. Each tooth is
// simplified on its own instead, to a share that still reads as a
// rounded crown after the lod chain halved it twice (lod 2 keeps a
// quarter: 16 triangles of a front tooth, the box of the crown within a
// fifth of its size).
const (
	frontTooth = 64
	backTooth  = 28
	gumTris    = 640
)

// reduceTeeth welds the teeth by position (they carry no texture, so
// their UV seams are no seams) and simplifies each connected piece (a
// tooth, the gums) to its own budget.
func (p *part) reduceTeeth() {
	weld, n := weldByPosition(p.pos)
	first := make([]int, n)
	for i := range first {
		first[i] = -1
	}
	for i, w := range weld {
		if first[w] < 0 {
			first[w] = i
		}
	}
	welded := make([][3]uint32, 0, len(p.tris))
	for _, t := range p.tris {
		a, b, c := first[weld[t[0]]], first[weld[t[1]]], first[weld[t[2]]]
		if a != b && b != c && a != c {
			welded = append(welded, [3]uint32{uint32(a), uint32(b), uint32(c)})
		}
	}
	piece, np := pieces(p.pos, welded)
	byPiece := make([][]uint32, np)
	for _, t := range welded {
		k := piece[t[0]]
		byPiece[k] = append(byPiece[k], t[0], t[1], t[2])
	}
	pos := make([]float32, 0, 3*len(p.pos))
	for _, v := range p.pos {
		pos = append(pos, v[0], v[1], v[2])
	}
	_, hi := bounds(p.pos)
	var out []uint32
	for _, idx := range byPiece {
		tris := len(idx) / 3
		// The molars, more than 2.5 cm behind the front teeth, show only
		// in a wide open mouth and in its shade.
		want := frontTooth
		if lo, _ := bounds([][3]float32{p.pos[idx[0]]}); lo[2] < hi[2]-0.025 {
			want = backTooth
		}
		if tris > 1000 {
			want = gumTris
		}
		if tris <= want {
			out = append(out, idx...)
			continue
		}
		r, err := simplify.Simplify(simplify.Mesh{Indices: idx, Positions: pos}, simplify.Options{TargetRatio: float32(want) / float32(tris)})
		if err != nil || len(r.Indices) == 0 {
			out = append(out, idx...) // larger, never wrong
			continue
		}
		out = append(out, r.Indices...)
	}
	p.keep(out)
	p.nrm = smoothPartNormals(p.pos, p.tris)
}

// smoothPartNormals are area-weighted vertex normals of a welded mesh.
func smoothPartNormals(pos [][3]float32, tris [][3]uint32) [][3]float32 {
	acc := make([][3]float64, len(pos))
	for _, t := range tris {
		n := cross3(sub3(pos[t[1]], pos[t[0]]), sub3(pos[t[2]], pos[t[0]]))
		for _, c := range t {
			for k := range 3 {
				acc[c][k] += n[k]
			}
		}
	}
	out := make([][3]float32, len(pos))
	for i, a := range acc {
		out[i] = unit3(a)
	}
	return out
}

// teethColors are the colours of the teeth's vertices: the gums
// (gumPiece) pink, the teeth ivory; both darken toward the back of
// the mouth, which the lips and cheeks shade and a renderer without
// shadows lights as brightly as the front. The gums are no lighter than
// gumShare of the lips' colour lip (underMouth).
func teethColors(p *part, lip rgb) []rgb {
	piece, np := pieces(p.pos, p.tris)
	gum := gumPiece(piece, np)
	lo, hi := bounds(p.pos)
	enamel, gums := hexColor("#ddd6c6"), underMouth(hexColor("#b8646a"), lip, gumShare)
	out := make([]rgb, len(p.pos))
	for i, v := range p.pos {
		c := enamel
		if piece[i] == gum {
			c = gums
		}
		out[i] = c.scale(backShade(v[2], lo[2], hi[2]))
	}
	return out
}

// mouthColors are the vertex colours of Wolf3D_Teeth's two parts, the
// teeth with the gums and the tongue, the tongue shaded toward the back
// as the teeth are and no lighter than tongueShare of the lips' colour
// lip (the lips as the skin painter paints them, paint.LipColour).
func mouthColors(teeth, tongue *part, lip rgb) [][]rgb {
	lo, hi := bounds(teeth.pos)
	c := underMouth(hexColor("#5c252b"), lip, tongueShare)
	tc := make([]rgb, len(tongue.pos))
	for i, v := range tongue.pos {
		tc[i] = c.scale(backShade(v[2], lo[2], hi[2]))
	}
	return [][]rgb{teethColors(teeth, lip), tc}
}

// tongueShare is the most of the lips' luminance the tongue's front may
// have. An open mouth reads as open by a dark opening between the lips:
// the tongue fills most of it (jawOpen, viseme_aa), and at one colour on
// every skin it was a sixth of fair lips' luminance but 0.9 of dark
// lips' and 1.7 times deep lips' (rendered in room light: deep lips
// (70,32,28) round a (113,58,64) opening), a pink plate in the mouth that
// read as closed. Capped at the share tan skin's lips give (0.34), the
// tongue keeps its colour on tan and lighter skin and darkens in its
// own hue on brown, dark and deep.
const tongueShare = 0.35

// gumShare is the most of the lips' luminance the gums may have: pink
// gums (1.15 times medium lips' luminance, 9 times deep lips') shone
// round the teeth of a wide open mouth on deep skin; gums darken with
// the skin in life too.
const gumShare = 1.5

// underMouth is c darkened, in its own hue, to at most share of the
// luminance of lip.
func underMouth(c, lip rgb, share float64) rgb {
	if l, most := c.luma(), share*lip.luma(); l > most && l > 0 {
		return c.scale(most / l)
	}
	return c
}

// backShade is 1 at the front of the teeth (z = front) and falls to a
// quarter at the back (z = back).
func backShade(z, back, front float32) float64 {
	if front <= back {
		return 1
	}
	t := float64((z - back) / (front - back))
	return 0.25 + 0.75*smoothstep(0, 1, t)
}

// gumPiece is the piece of the teeth that is the gums: the largest, when
// it has four times the vertices of any other (MakeHuman's gums against
// single teeth); -1 when no piece stands out so.
func gumPiece(piece []int, n int) int {
	count := make([]int, n)
	for _, k := range piece {
		count[k]++
	}
	best, second := -1, 0
	for k, c := range count {
		if best < 0 || c > count[best] {
			if best >= 0 {
				second = count[best]
			}
			best = k
		} else {
			second = max(second, c)
		}
	}
	if best < 0 || count[best] < 4*second {
		return -1
	}
	return best
}

// lowerTongue seats the tongue 2 mm lower and 2 mm further back than
// MakeHuman's, whose back rises level with the upper teeth: with the jaw
// open it filled the mouth's opening above the lower teeth, where a
// tongue at rest lies behind and below them.
func lowerTongue(p *part) {
	for i := range p.pos {
		p.pos[i][1] -= 0.002
		p.pos[i][2] -= 0.002
	}
}
