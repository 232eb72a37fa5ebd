package avatar

// hatScrapShare is the largest share of its lock's triangles a piece of
// hair left under a hat may have and still be dropped as a scrap.
const hatScrapShare = 1.0 / 8

// dropHatScraps keeps, of the hair triangles a hat left (kept, three
// indices each), those of pieces that are not scraps. A piece (connected
// by shared corners, welded at their positions before the hat moved
// them: orig) with less than hatScrapShare of the triangles of the lock
// it was cut from (its piece among all, the hair before the hat) is a
// scrap: the hat hid the rest of the lock, and what it left stands alone
// with a flat-cut edge along the rim. Under a fedora, the curly hair's
// shell kept, besides the nape, two pieces of about 135 triangles at the
// temples that read as square ginger tufts beside the eyes (issue 22's
// panel, random-11, in p14 and p15); every hat left such pieces over
// the short, buzz, curly and bun styles. A lock that runs on from under
// the rim keeps most of its length, so it stays.
func dropHatScraps(orig [][3]float32, all [][3]uint32, kept []uint32) []uint32 {
	lock, locks := pieces(orig, all)
	had := make([]int, locks)
	for _, t := range all {
		had[lock[t[0]]]++
	}
	tris := make([][3]uint32, 0, len(kept)/3)
	for t := 0; t+2 < len(kept); t += 3 {
		tris = append(tris, [3]uint32{kept[t], kept[t+1], kept[t+2]})
	}
	piece, n := pieces(orig, tris)
	size := make([]int, n)
	for _, t := range tris {
		size[piece[t[0]]]++
	}
	out := make([]uint32, 0, len(kept))
	for _, t := range tris {
		if float64(size[piece[t[0]]]) < hatScrapShare*float64(had[lock[t[0]]]) {
			continue
		}
		out = append(out, t[:]...)
	}
	return out
}
