// Package disjoint is the one union-find (disjoint-set forest) of Kiln:
// the avatar's UV islands, rigid pieces and hair sheets, the painter's
// courses, the LOD's parts and the MakeHuman converter's outfit islands
// are all the pieces a mesh's triangles join. Each had its own copy of
// the same dozen lines over its own index type; the painter cannot
// import the avatar package (the avatar imports it), so the one copy
// lives here, below both.
package disjoint

// Index is an index type a set can hold: a vertex, a welded point, a
// polygon.
type Index interface {
	~int | ~int32 | ~uint32
}

// Sets partitions the indices 0..n-1 into disjoint sets, each named by
// its root: one of its indices, the same for all of them until the set
// is joined to another. Callers use a root only to tell sets apart (a
// map key, a slot in a table), never as a number with a meaning.
type Sets[T Index] struct {
	parent []T
}

// New is n indices, each in a set of its own.
func New[T Index](n int) Sets[T] {
	parent := make([]T, n)
	for i := range parent {
		parent[i] = T(i)
	}
	return Sets[T]{parent: parent}
}

// Find is the root of v's set. It halves the path on the way up (each
// index it passes points to its grandparent after), which keeps the
// trees shallow without the ranks of a union by size: the meshes here
// join neighbours, so the trees stay short anyway.
func (s Sets[T]) Find(v T) T {
	for s.parent[v] != v {
		s.parent[v] = s.parent[s.parent[v]]
		v = s.parent[v]
	}
	return v
}

// Union joins the sets of a and b and returns the root of the joined
// set, which is a's root: a triangle's corners are joined to its first
// one, and the caller goes on from the root it has.
func (s Sets[T]) Union(a, b T) T {
	ra, rb := s.Find(a), s.Find(b)
	if ra != rb {
		s.parent[rb] = ra
	}
	return ra
}
