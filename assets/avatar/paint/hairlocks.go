package paint

import "math"

// locks is what a head of hair looks like in 3D, for painting it as
// locks: tapered clumps of strands that fall from the crown, darker in
// the grooves between them and in the layers under the top one. The
// leader's hair reads as hair by that structure (chunky locks with dark
// gaps); strands drawn by the texture's own layout read as a smooth
// helmet with a wood grain (issue 22's panel), because the direction of
// the strands turns across a UV piece and a texel-space "across" swirls.
//
// Everything here is a function of the surface point in 3D, so it is
// seamless across UV seams and the same on every card that shows it.
type locks struct {
	crown  [3]float64 // top middle of the hair: strands fall from here
	centre [3]float64 // about the middle of the head, for depth
	// outer is, per direction from centre (dirBins × dirBins over the
	// polar and azimuth angles), the largest radius of a hair vertex:
	// the top layer; a point deeper than it is under other hair.
	outer []float64
	// texel is about how many metres one texel spans on the surface.
	texel float64
	// swept: the locks are the short cut's tousle (Tousle), from crown.
	swept bool
	grain lockGrain
}

// lockGrain is how the painted locks change down their fall: how fast
// (cycles per metre down from the crown) the locks drift sideways
// (wander), widen and narrow (squeeze) and the finer locks drift (sub),
// how long a strand is (in texels), and how high a lock's crest stands
// in the normal map (texels of relief at a crest).
type lockGrain struct{ wander, squeeze, sub, strand, relief float64 }

var (
	// crownGrain is the bob's and the short cut's: locks that drift
	// every few centimetres and stand high, lit crests on a cut that
	// curves round the head.
	crownGrain = lockGrain{wander: 22, squeeze: 9, sub: 30, strand: 25, relief: 4}
	// hangingGrain is long hair's and the ponytail's: hair that hangs
	// to the shoulders is combed straight. With the crown's grain it
	// read as crimped or braided (the locks drifting every 4.5 cm, the
	// strands 25 texels long, and the normal map's high relief drawing
	// beads down every lock: gone with the normal map off, not changed
	// by vertex tangents; issue 22's panel: "stiff stringy strips",
	// "wood grain"). A blind A/B on the long and ponytail avatars
	// (session 54) preferred this 13 of 16; on the bob the crown's grain
	// 13 of 20. (The dotted "braid" that remained by the crown was not
	// the grain but cards sharing texels: the avatar's unshareUV.)
	// Squeezed every 11 cm (9 cycles a metre) as the crown's,
	// neighbouring locks narrowed and widened against each other down
	// the back, their grooves converging into lens shapes and knots, a
	// wood grain; every 40 cm they run nearly parallel, and a blind A/B
	// (session 55, 46 judgements on nine long and ponytail avatars,
	// portrait, quarter and back) preferred that 31 times.
	hangingGrain = lockGrain{wander: 6, squeeze: 2.5, sub: 10, strand: 150, relief: 1.5}
)

// sizedFor is g for the bob's texture of n texels: its strands' length
// and its crests' relief, counted in texels, kept at the size they have
// on the 512 texels g was tuned on. Painted at 1024 with the same
// counts, the bob's strands were half as long and its crests half as
// steep, and a blind A/B took the 512-texel bob 9 of 12 times ("smoothed
// over"); sized for 1024, the 1024-texel bob won 24 of 24 (session 55,
// two judges, room portrait and quarter, rig quarter). The short cut's
// tousle and the hanging cuts keep their counts: they won at 1024 as
// they are.
func (g lockGrain) sizedFor(n int) lockGrain {
	k := float64(n) / 512
	g.strand *= k
	g.relief *= k
	return g
}

const (
	// lockCount is how many locks go round the head: about 2.2 cm wide
	// at a head's 9 cm radius, as chunky as the leader's (at 40, 1.4 cm,
	// they blurred in a 512-px portrait into even vertical stripes: the
	// panel's "flat curtain").
	lockCount = 26
	// subLockCount is the finer locks' count, not a multiple of
	// lockCount so they fall differently in every lock.
	subLockCount = 107
	dirBins      = 24
)

// newLocks finds the locks of the hair over s; swept moves their crown
// back and down behind the head, so they run front to back over the top.
func newLocks(s Surface, n int, swept bool) *locks {
	lo, hi := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range s.Pos {
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = math.Min(lo[a], float64(p[a])), math.Max(hi[a], float64(p[a]))
		}
	}
	l := &locks{
		crown:  [3]float64{(lo[0] + hi[0]) / 2, hi[1], (lo[2] + hi[2]) / 2},
		centre: headCentre(s.Pos),
		outer:  make([]float64, dirBins*dirBins),
		grain:  crownGrain,
	}
	if swept {
		// The tousle's centre, as the sculpted cut's geometry found
		// it: the painted locks lie on its raised ones.
		l.crown, l.swept = SweepCentre(s.Pos), true
	}
	for _, p := range s.Pos {
		b, r := l.bin([3]float64{float64(p[0]), float64(p[1]), float64(p[2])})
		l.outer[b] = math.Max(l.outer[b], r)
	}
	l.texel = texelSize(s, n)
	return l
}

// dir is p's direction from the head's centre (the polar angle and the
// azimuth, each scaled to 0..1) and its radius.
func (l *locks) dir(p [3]float64) (polar, az, r float64) {
	d := [3]float64{p[0] - l.centre[0], p[1] - l.centre[1], p[2] - l.centre[2]}
	r = math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	if r < 1e-9 {
		return 0, 0, 0
	}
	polar = math.Acos(math.Max(-1, math.Min(1, d[1]/r))) / math.Pi
	az = (math.Atan2(d[0], d[2]) + math.Pi) / (2 * math.Pi)
	return polar, az, r
}

// bin is the direction bin of p from the head's centre, and its radius.
func (l *locks) bin(p [3]float64) (int, float64) {
	polar, az, r := l.dir(p)
	i := min(dirBins-1, int(polar*dirBins))
	j := min(dirBins-1, int(az*dirBins))
	return i*dirBins + j, r
}

// depth is how far p lies under the top layer: under the bins' largest
// radii interpolated between the bins' centres (bilinear, round the
// head in azimuth). Read from p's own bin, the top layer's radius
// stepped at every bin's edge, and long hair, where the layers hang
// one over another down the back, was shaded in horizontal bands, a
// terrace every 7.5 degrees of the polar angle (about 2 cm at the nape).
func (l *locks) depth(p [3]float64) float64 {
	polar, az, r := l.dir(p)
	y := math.Max(0, math.Min(dirBins-1, polar*dirBins-0.5))
	x := az*dirBins - 0.5
	i0, j0 := int(math.Floor(y)), int(math.Floor(x))
	fy, fx := y-float64(i0), x-float64(j0)
	wy, wx := [2]float64{1 - fy, fy}, [2]float64{1 - fx, fx}
	var sum, w float64
	for di, wi := range wy {
		i := min(dirBins-1, i0+di)
		for dj, wj := range wx {
			j := ((j0+dj)%dirBins + dirBins) % dirBins
			// Bins with no hair in them say nothing of the top layer.
			if o := l.outer[i*dirBins+j]; o > 0 && wi*wj > 0 {
				sum += wi * wj * o
				w += wi * wj
			}
		}
	}
	if w == 0 {
		return 0
	}
	return math.Max(0, sum/w-r)
}

// lockNoise is the noises of at for one seed, one per band of texels
// (noiseMemo keeps the cell a neighbouring texel mostly falls in).
type lockNoise struct{ wander, width, sub, strand noiseMemo }

func newLockNoise(seed uint64) lockNoise {
	return lockNoise{wander: newNoiseMemo(seed + 11), width: newNoiseMemo(seed + 15), sub: newNoiseMemo(seed + 14), strand: newNoiseMemo(seed + 13)}
}

// at is the look of the hair at surface point p: shape is 1 in the
// middle of a lock falling to 0 in the groove at its sides, tone a
// lock's own lightness (0.78..1.22) times the shade at its roots, strand
// the fine strands (0..1, seamless, at least two texels wide so they do
// not alias), depth how far under the top layer p lies (metres, 0 on
// top).
func (l *locks) at(p [3]float64, seed uint64, nm *lockNoise) (shape, tone, strand, depth float64) {
	d := [3]float64{p[0] - l.crown[0], p[1] - l.crown[1], p[2] - l.crown[2]}
	g := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2]) // down the strands
	phi := math.Atan2(d[0], d[2])                     // round the head
	if l.swept {
		return l.tousled(p, g, seed, nm)
	}
	s, c := math.Sincos(phi) // math.Cos and math.Sin to the bit (TestSincosAsSinCos)
	// The locks wander a little as they fall and are not all alike:
	// a noise on the circle (seamless where the angle wraps). A second,
	// faster one (a period of about three locks) squeezes some locks and
	// widens others, so they are not an even comb of stripes.
	wander := nm.wander.at([3]float64{c * 2.5, s * 2.5, g * l.grain.wander}) - 0.5
	width := nm.width.at([3]float64{c * 7, s * 7, g * l.grain.squeeze}) - 0.5
	u := phi/(2*math.Pi)*lockCount + 1.1*wander + 0.9*width
	k := math.Floor(u)
	f := u - k
	id := ((int(k) % lockCount) + lockCount) % lockCount
	// A round lock: the groove between two locks is as wide as the
	// light falling off a round crest leaves it (a power of 0.55 kept
	// the crest flat and the groove a hairline that the portrait's
	// filtering lost).
	shape = math.Pow(4*f*(1-f), 0.85)
	// Finer locks within and across the big ones, so their crests
	// split and they are not ribbed like corduroy.
	u2 := phi/(2*math.Pi)*subLockCount + 1.6*(nm.sub.at([3]float64{c * 5, s * 5, g * l.grain.sub})-0.5)
	f2 := u2 - math.Floor(u2)
	shape = 0.78*shape + 0.22*math.Pow(4*f2*(1-f2), 0.8)
	// The roots, where the locks part from the crown (a parting, the
	// whorl), lie in the shade of the locks round them.
	roots := 0.62 + 0.38*smooth(0.008, 0.05, g)
	tone = (0.78 + 0.44*hash3(id, 0, 0, seed+12)) * roots
	// Strands: thin across (round the head), long down it.
	across := 2.2 * l.texel / 0.09 // radians per strand cell at a head's radius
	strand = nm.strand.at([3]float64{c / across, s / across, g / (l.grain.strand * l.texel)})
	return shape, tone, strand, l.depth(p)
}

// tousled is at for the short cut: its tousle's locks (Tousle), with
// finer locks and strands along each lock's own direction, so the
// strands turn with the lock instead of all running from the crown.
// Where one layer of locks gives way to another (or to the hair under
// them) the direction turns, and with it the finer locks and strands:
// taken from the one layer in the most light, they jumped there, a
// one-texel cliff in the height, which the normal map drew as a dotted
// line down the sides (issue 22, session 22: "a dotted seam"). So the
// layers within tousleBlend of the lightest are blended, each weighed by
// how near it is, and the look is continuous across the hand-over.
func (l *locks) tousled(p [3]float64, g float64, seed uint64, nm *lockNoise) (shape, tone, strand, depth float64) {
	layers := TousleLayers(p, l.crown)
	top := 0.0
	for _, tl := range layers {
		top = math.Max(top, tl.Shade)
	}
	across := 2.2 * l.texel / 0.09
	var sum float64
	for _, tl := range layers {
		w := smooth(0, 1, 1-(top-tl.Shade)/tousleBlend)
		if w <= 0 {
			continue
		}
		s, c := math.Sincos(tl.Angle)
		u2 := tl.Angle/(tousleWidth/3) + 1.6*(nm.sub.at([3]float64{c * 5, s * 5, g * l.grain.sub})-0.5)
		f2 := u2 - math.Floor(u2)
		shape += w * (0.8*tl.Shade + 0.2*math.Pow(4*f2*(1-f2), 0.8))
		strand += w * nm.strand.at([3]float64{c / across, s / across, g / (l.grain.strand * l.texel)})
		tone += w * tl.Tone
		sum += w
	}
	return shape / sum, tone / sum, strand / sum, 0
}

// tousleBlend is how far below the lightest layer's Shade another
// layer still shows in the short cut's paint (tousled): about four
// texels across the hand-over where the shade changes fastest.
const tousleBlend = 0.2

// texelSize is about how many metres one texel of an n-texel texture
// spans on the surface s: the square root of its area in space over its
// area in the texture. Detail finer than two texels cannot be painted
// there; drawn anyway it aliases into a per-texel speckle.
func texelSize(s Surface, n int) float64 {
	var area3, areaUV float64
	for _, t := range s.Tris {
		a, b, c := s.Pos[t[0]], s.Pos[t[1]], s.Pos[t[2]]
		e1 := [3]float64{float64(b[0] - a[0]), float64(b[1] - a[1]), float64(b[2] - a[2])}
		e2 := [3]float64{float64(c[0] - a[0]), float64(c[1] - a[1]), float64(c[2] - a[2])}
		x := [3]float64{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		area3 += math.Sqrt(x[0]*x[0]+x[1]*x[1]+x[2]*x[2]) / 2
		u, v, w := s.UV[t[0]], s.UV[t[1]], s.UV[t[2]]
		areaUV += math.Abs(float64((v[0]-u[0])*(w[1]-u[1])-(w[0]-u[0])*(v[1]-u[1]))) / 2
	}
	if areaUV <= 0 {
		return 0.002
	}
	return math.Sqrt(area3/areaUV) / float64(n)
}
