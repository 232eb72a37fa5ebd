package draco

import (
	"math"
	"math/bits"
	"slices"
)

// The symbol coder of Draco's bitstream (spec section "Symbol decoding"):
// a byte naming the scheme, then for the raw scheme the bit length that
// sets the rANS precision, the probability table and the rANS bytes,
// which the decoder reads from the end backwards.
const (
	schemeTagged = 0
	schemeRaw    = 1
	// maxRawBits is the largest symbol bit length the raw scheme takes.
	maxRawBits = 18
)

// precisionOf is the rANS precision (in bits) a decoder derives from the
// raw scheme's bit-length byte: 3/2 of it, clamped to 12..20.
func precisionOf(bitLength int) int {
	return min(max(3*bitLength/2, 12), 20)
}

// rawBitLengths are the bit-length bytes worth trying, one per distinct
// precision (12, 13, 15, 16, 18, 19, 20).
var rawBitLengths = []int{8, 9, 10, 11, 12, 13, 14}

// encodeSymbols appends symbols, comps values a point, in whichever of
// Draco's two schemes is smaller: raw (each symbol rANS-coded against a
// table of every value) or tagged (each point's bit length rANS-coded,
// its values stored in that many plain bits), which wins on small or
// noisy streams whose raw table would cost more than it saves.
func encodeSymbols(out []byte, symbols []uint32, comps int) []byte {
	if len(symbols) == 0 {
		return out
	}
	tagged := appendTagged(nil, symbols, comps)
	if raw, ok := appendRaw(nil, symbols); ok && len(raw) <= len(tagged) {
		return append(out, raw...)
	}
	return append(out, tagged...)
}

// appendTagged writes the tagged scheme: the bit lengths of the points'
// largest values with rANS at 12-bit precision (Draco's for 5-bit
// symbols), then every value in its point's bit length, least
// significant bit first, padded to a byte.
func appendTagged(out []byte, symbols []uint32, comps int) []byte {
	tags := make([]uint32, 0, len(symbols)/comps)
	freq := make([]uint64, 33)
	for i := 0; i < len(symbols); i += comps {
		m := slices.Max(symbols[i : i+comps])
		n := uint32(bits.Len32(m))
		n = max(n, 1)
		tags = append(tags, n)
		freq[n]++
	}
	top := len(freq)
	for freq[top-1] == 0 {
		top--
	}
	probs := normalize(freq[:top], uint64(len(tags)), 1<<12)
	out = append(out, schemeTagged)
	out = appendTable(out, probs)
	data := ransEncode(tags, probs, 12)
	out = appendVarint(out, uint64(len(data)))
	out = append(out, data...)
	var acc uint64
	var used uint
	for i, n := range tags {
		for _, v := range symbols[i*comps : (i+1)*comps] {
			acc |= uint64(v) << used
			used += uint(n)
			for used >= 8 {
				out = append(out, byte(acc))
				acc >>= 8
				used -= 8
			}
		}
	}
	if used > 0 {
		out = append(out, byte(acc))
	}
	return out
}

// appendRaw writes the raw scheme and reports false when the symbols do
// not fit it (a value of 2^18 or more). The precision is the one of
// rawBitLengths that makes table and data smallest: the table costs more
// bytes per entry at higher precision, the data fewer bits per symbol.
func appendRaw(out []byte, symbols []uint32) ([]byte, bool) {
	maxValue := slices.Max(symbols)
	if maxValue >= 1<<maxRawBits {
		return out, false
	}
	freq := make([]uint64, maxValue+1)
	for _, s := range symbols {
		freq[s]++
	}
	unique := 0
	for _, f := range freq {
		if f > 0 {
			unique++
		}
	}
	best, bestCost := -1, math.Inf(1)
	var bestProbs []uint32
	for _, bl := range rawBitLengths {
		precision := 1 << precisionOf(bl)
		if unique*2 > precision {
			continue
		}
		probs := normalize(freq, uint64(len(symbols)), uint32(precision))
		cost := float64(8 * len(appendTable(nil, probs)))
		for s, f := range freq {
			if f > 0 {
				cost += float64(f) * math.Log2(float64(precision)/float64(probs[s]))
			}
		}
		if cost < bestCost {
			best, bestCost, bestProbs = bl, cost, probs
		}
	}
	if best < 0 {
		return out, false
	}
	out = append(out, schemeRaw, byte(best))
	out = appendTable(out, bestProbs)
	data := ransEncode(symbols, bestProbs, precisionOf(best))
	out = appendVarint(out, uint64(len(data)))
	return append(out, data...), true
}

// normalize scales the frequencies to probabilities summing to precision,
// every present symbol at least 1. The rounding error goes to (or comes
// from) the most frequent symbols, where it costs least.
func normalize(freq []uint64, total uint64, precision uint32) []uint32 {
	probs := make([]uint32, len(freq))
	sum := 0
	for s, f := range freq {
		if f == 0 {
			continue
		}
		p := uint32(math.Round(float64(f) * float64(precision) / float64(total)))
		probs[s] = max(p, 1)
		sum += int(probs[s])
	}
	diff := int(precision) - sum
	if diff == 0 {
		return probs
	}
	order := make([]int, 0, len(freq))
	for s, f := range freq {
		if f > 0 {
			order = append(order, s)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return int(probs[b]) - int(probs[a]) })
	if diff > 0 {
		probs[order[0]] += uint32(diff)
		return probs
	}
	// Take from the largest down, never below 1, until the sum fits;
	// since every symbol holds at most precision/2 entries' worth of
	// ones, the loop always ends.
	for diff < 0 {
		for _, s := range order {
			if diff == 0 {
				break
			}
			if probs[s] > 1 {
				take := min(int(probs[s])-1, -diff, max(1, int(probs[s])/8))
				probs[s] -= uint32(take)
				diff += take
			}
		}
	}
	return probs
}

// appendTable writes the probability table: the symbol count, then per
// symbol one to three bytes whose low two bits say how many more follow,
// or (low bits 3) a run of up to 64 zero probabilities.
func appendTable(out []byte, probs []uint32) []byte {
	out = appendVarint(out, uint64(len(probs)))
	for i := 0; i < len(probs); i++ {
		p := probs[i]
		if p == 0 {
			run := 1
			for i+run < len(probs) && probs[i+run] == 0 && run < 64 {
				run++
			}
			out = append(out, byte((run-1)<<2|3))
			i += run - 1
			continue
		}
		switch {
		case p < 1<<6:
			out = append(out, byte(p<<2))
		case p < 1<<14:
			out = append(out, byte(p<<2|1), byte(p>>6))
		default:
			out = append(out, byte(p<<2|2), byte(p>>6), byte(p>>14))
		}
	}
	return out
}

// ransEncode codes symbols with rANS at the given precision: in reverse,
// so the decoder, reading the output from its end, gets them in order.
// The state lives in [4·precision, 1024·precision) and leaves a byte
// whenever coding a symbol would overflow it; the final state closes the
// stream in one to four bytes whose top two bits give their number.
func ransEncode(symbols []uint32, probs []uint32, precisionBits int) []byte {
	precision := uint32(1) << precisionBits
	base := 4 * precision
	cum := make([]uint32, len(probs))
	var c uint32
	for s, p := range probs {
		cum[s] = c
		c += p
	}
	out := make([]byte, 0, len(symbols))
	state := base
	for i := len(symbols) - 1; i >= 0; i-- {
		s := symbols[i]
		p := probs[s]
		for uint64(state) >= uint64(base/precision)*256*uint64(p) {
			out = append(out, byte(state))
			state >>= 8
		}
		state = (state/p)*precision + state%p + cum[s]
	}
	state -= base
	switch {
	case state < 1<<6:
		out = append(out, byte(state))
	case state < 1<<14:
		v := 1<<14 | state
		out = append(out, byte(v), byte(v>>8))
	case state < 1<<22:
		v := 2<<22 | state
		out = append(out, byte(v), byte(v>>8), byte(v>>16))
	default:
		v := 3<<30 | state
		out = append(out, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	return out
}

// appendVarint is Draco's unsigned varint: 7 bits a byte, low first, the
// high bit set on every byte but the last.
func appendVarint(out []byte, v uint64) []byte {
	for v >= 0x80 {
		out = append(out, byte(v)|0x80)
		v >>= 7
	}
	return append(out, byte(v))
}

// zigzag maps a signed correction to the unsigned symbol Draco codes:
// 0, -1, 1, -2... become 0, 1, 2, 3...
func zigzag(v int32) uint32 {
	if v >= 0 {
		return uint32(v) << 1
	}
	return uint32(-(v+1))<<1 | 1
}
