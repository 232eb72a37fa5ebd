package avatar

import "slices"

// hiddenSkin counts the body's triangles that the build hides under the
// garments after the budget (followGarments finds the skin under cloth,
// keepSeenSkin gives back what shows through a neckline, hide drops the
// triangles with every corner under). The budget counts the body without
// them: counted, they were about 1,600 triangles it took from the body
// and garments for faces no avatar draws. The same steps run here on a
// copy of the body as it is before the budget (they move the skin and
// change its weights), against the garments as fitted (not yet
// simplified, the hood not yet added). The body the budget simplifies
// hides a little more of itself than that (17% of the default man's
// body where 15% was counted): TestBudgetCountsWhatIsBuilt allows for it.
func hiddenSkin(body *part, garments []*part, top *part, neck [3]float32) int {
	c := &part{pos: slices.Clone(body.pos), nrm: body.nrm, inf: slices.Clone(body.inf), tris: body.tris}
	covered := followGarments([]*part{c}, garments)[0]
	keepSeenSkin(c, top, covered, neck)
	n := 0
	for _, t := range c.tris {
		if covered[t[0]] && covered[t[1]] && covered[t[2]] {
			n++
		}
	}
	return n
}
