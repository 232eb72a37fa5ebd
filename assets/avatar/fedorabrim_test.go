package avatar

import (
	"math"
	"testing"
)

// TestFedoraBrimFacesUp: every triangle of the fedora's brim faces up,
// its turn and its normals both, so a viewer lights the brim as one
// smooth sheet. The brim's normals were turned away from the head's
// centre, which lies level with the brim: at the sides, where it curls
// up, "away" was nearly along the brim and the normals turned over from
// vertex to vertex, which a double-sided material lit as a sawtooth of
// dark and light along its edge (issue 22's panel: "a jagged fedora
// brim", random-11).
func TestFedoraBrimFacesUp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an avatar")
	}
	_, hat, hatTris, nrm, eye := hatMesh(t, "fedora")
	// The brim: the hat's triangles within 7.5 cm over the eyes (the
	// crown's top stands 10 cm and more over them) and within 60° of
	// level (the crown's wall stands upright).
	n, turnedDown, normalsDown := 0, 0, 0
	for _, tri := range hatTris {
		a, b, c := hat[tri[0]], hat[tri[1]], hat[tri[2]]
		if math.Max(a[1], math.Max(b[1], c[1])) > eye[1]+0.075 {
			continue
		}
		turn := b.sub(a).cross(c.sub(a))
		if math.Abs(turn[1]) < 0.5*turn.len() {
			continue
		}
		n++
		if turn[1] < 0 {
			turnedDown++
		}
		for _, v := range tri {
			if nrm[v][1] < 0 {
				normalsDown++
				break
			}
		}
	}
	t.Logf("fedora brim: %d triangles, %d turned down, %d with a normal down", n, turnedDown, normalsDown)
	if n < 300 {
		t.Fatalf("found %d brim triangles, want 300 or more", n)
	}
	if turnedDown != 0 || normalsDown != 0 {
		t.Errorf("%d of %d brim triangles turned down, %d with a normal down; want none", turnedDown, n, normalsDown)
	}
}
