package scene

// ShadingSites returns, for each vertex, the first vertex that equals it
// in every stream but its normal and tangent (and their morph deltas),
// and whether any two vertices differ in shading only. Flat-shaded and
// hard-edged models split each position into one vertex per face, or per
// side of a hard edge; a simplifier that sees those copies as seams
// locks nearly every vertex. Given the sites it can simplify the surface
// as one piece and then give each side its own normal back (see
// simplify.Mesh.Sites).
func (p *Primitive) ShadingSites() ([]uint32, bool) {
	n := len(p.Positions)
	sites := make([]uint32, n)
	seen := make(map[string]uint32, n)
	split := false
	var key []byte
	for i := range n {
		key = p.vertexKey(key[:0], i, false)
		if j, ok := seen[string(key)]; ok {
			sites[i] = j
			split = true
			continue
		}
		seen[string(key)] = uint32(i)
		sites[i] = uint32(i)
	}
	return sites, split
}
