package paint

import "math"

// hash3 is a deterministic value in 0..1 for integer lattice coordinates
// and a seed.
func hash3(x, y, z int, seed uint64) float64 {
	return mix64(hashX(x) ^ hashY(y) ^ hashZ(z) ^ hashSeed(seed))
}

// The four terms of hash3's key, apart so that noise3 computes each once
// for the eight corners of its cell (the XOR of the same terms gives the
// same key).
func hashX(x int) uint64          { return uint64(uint32(x)) * 0x9E3779B97F4A7C15 }
func hashY(y int) uint64          { return uint64(uint32(y)) * 0xC2B2AE3D27D4EB4F }
func hashZ(z int) uint64          { return uint64(uint32(z)) * 0x165667B19E3779F9 }
func hashSeed(seed uint64) uint64 { return seed * 0xD6E8FEB86659FD93 }

// mix64 finishes hash3: the key mixed, as a value in 0..1.
func mix64(h uint64) float64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return float64(h>>11) / float64(1<<53)
}

// noise3 is value noise at p (lattice cells of size 1), smoothly
// interpolated: continuous in space, so it is seamless across UV seams.
func noise3(p [3]float64, seed uint64) float64 {
	var i [3]int
	var f [3]float64
	for a := 0; a < 3; a++ {
		fl := math.Floor(p[a])
		i[a] = int(fl)
		t := p[a] - fl
		f[a] = t * t * (3 - 2*t)
	}
	lerp := func(a, b, t float64) float64 { return a + (b-a)*t }
	s := hashSeed(seed)
	x0, x1 := hashX(i[0]), hashX(i[0]+1)
	var c [2][2]float64
	for dz := 0; dz < 2; dz++ {
		z := hashZ(i[2]+dz) ^ s
		for dy := 0; dy < 2; dy++ {
			yz := hashY(i[1]+dy) ^ z
			c[dz][dy] = lerp(mix64(x0^yz), mix64(x1^yz), f[0])
		}
	}
	return lerp(lerp(c[0][0], c[0][1], f[1]), lerp(c[1][0], c[1][1], f[1]), f[2])
}

// fbm3 sums octaves of noise3 at p scaled by freq (cells per metre).
func fbm3(p [3]float64, freq float64, octaves int, seed uint64) float64 {
	sum, amp, norm := 0.0, 1.0, 0.0
	for o := 0; o < octaves; o++ {
		q := [3]float64{p[0] * freq, p[1] * freq, p[2] * freq}
		sum += amp * noise3(q, seed+uint64(o))
		norm += amp
		amp /= 2
		freq *= 2
	}
	return sum / norm
}

// noiseMemo is noise3 for one seed that keeps the hashes of the corners
// of the last cell it met: neighbouring texels mostly fall in the same
// cell of a slow noise (a lock's wander, a garment's wear), and hashing
// eight corners is most of noise3's cost. Its values are noise3's to the
// bit (the same hashes interpolated by the same steps: TestNoiseMemo).
// One per painter's band: it is not safe for concurrent use.
type noiseMemo struct {
	seed uint64
	set  bool
	i    [3]int
	k    [2][2][2]float64 // the corners' hashes, [dz][dy][dx]
}

func newNoiseMemo(seed uint64) noiseMemo { return noiseMemo{seed: seed} }

// at is noise3(p, m.seed).
func (m *noiseMemo) at(p [3]float64) float64 {
	var i [3]int
	var f [3]float64
	for a := 0; a < 3; a++ {
		fl := math.Floor(p[a])
		i[a] = int(fl)
		t := p[a] - fl
		f[a] = t * t * (3 - 2*t)
	}
	if !m.set || i != m.i {
		m.fill(i)
	}
	lerp := func(a, b, t float64) float64 { return a + (b-a)*t }
	k := &m.k
	c00 := lerp(k[0][0][0], k[0][0][1], f[0])
	c01 := lerp(k[0][1][0], k[0][1][1], f[0])
	c10 := lerp(k[1][0][0], k[1][0][1], f[0])
	c11 := lerp(k[1][1][0], k[1][1][1], f[0])
	return lerp(lerp(c00, c01, f[1]), lerp(c10, c11, f[1]), f[2])
}

// fill hashes the corners of cell i, as noise3 does.
func (m *noiseMemo) fill(i [3]int) {
	s := hashSeed(m.seed)
	x0, x1 := hashX(i[0]), hashX(i[0]+1)
	for dz := 0; dz < 2; dz++ {
		z := hashZ(i[2]+dz) ^ s
		for dy := 0; dy < 2; dy++ {
			yz := hashY(i[1]+dy) ^ z
			m.k[dz][dy] = [2]float64{mix64(x0 ^ yz), mix64(x1 ^ yz)}
		}
	}
	m.i, m.set = i, true
}

// fbmMemo is fbm3 with a noiseMemo per octave (seeds seed, seed+1, ...),
// to the bit.
type fbmMemo []noiseMemo

func newFbmMemo(octaves int, seed uint64) fbmMemo {
	m := make(fbmMemo, octaves)
	for o := range m {
		m[o] = newNoiseMemo(seed + uint64(o))
	}
	return m
}

// at is fbm3(p, freq, len(m), seed).
func (m fbmMemo) at(p [3]float64, freq float64) float64 {
	sum, amp, norm := 0.0, 1.0, 0.0
	for o := range m {
		q := [3]float64{p[0] * freq, p[1] * freq, p[2] * freq}
		sum += amp * m[o].at(q)
		norm += amp
		amp /= 2
		freq *= 2
	}
	return sum / norm
}
