package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// TestCapVisorFacesDownUnder: the cap visor's underside faces down, its
// triangles' turn and its normals both, and its top faces up, so a
// viewer lights the underside from below and shades it darker than the
// top under a light from above. A level visor triangle (all of it 3.5 cm
// and more in front of the forehead, facing within 45° of up or down)
// with visor 2 cm over it is the underside, with visor 2 cm under it
// the top. Before faceVisor, the top's and the underside's triangles
// were all turned down and their normals all up: underside 0 of 46
// turned down, 0 with normals down; top 46 of 46 turned down.
func TestCapVisorFacesDownUnder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an avatar")
	}
	s, hat, hatTris, nrm, eye := hatMesh(t, "cap")
	head, _ := meshPositions(s, "Wolf3D_Head")
	forehead := math.Inf(-1)
	for _, p := range head {
		if p[1] > eye[1] {
			forehead = math.Max(forehead, p[2])
		}
	}
	var visor [][3]uint32
	for _, tri := range hatTris {
		if hat[tri[0]][2] > forehead+0.035 && hat[tri[1]][2] > forehead+0.035 && hat[tri[2]][2] > forehead+0.035 {
			visor = append(visor, tri)
		}
	}
	type side struct {
		n, turnedDown, normalsDown int
	}
	var top, under side
	up := vec3{0, 1, 0}
	for _, tri := range visor {
		a, b, c := hat[tri[0]], hat[tri[1]], hat[tri[2]]
		mid := a.add(b).add(c).scale(1.0 / 3)
		turn := b.sub(a).cross(c.sub(a))
		n := nrm[tri[0]].add(nrm[tri[1]]).add(nrm[tri[2]])
		if math.Abs(turn[1]) < 0.7*turn.len() {
			continue // the edge between them, or a steep side
		}
		var sd *side
		if d, ok := rayHit(mid.add(up.scale(1e-4)), up, hat, visor); ok && d < 0.02 {
			sd = &under
		} else if d, ok := rayHit(mid.sub(up.scale(1e-4)), up.scale(-1), hat, visor); ok && d < 0.02 {
			sd = &top
		} else {
			continue // the visor's edge
		}
		sd.n++
		if turn[1] < 0 {
			sd.turnedDown++
		}
		if n[1] < 0 {
			sd.normalsDown++
		}
	}
	t.Logf("visor: underside %d triangles, %d turned down, %d with normals down; top %d, %d turned down, %d with normals down",
		under.n, under.turnedDown, under.normalsDown, top.n, top.turnedDown, top.normalsDown)
	if under.n < 20 || top.n < 20 {
		t.Fatalf("found %d underside and %d top triangles of the visor, want 20 or more of each", under.n, top.n)
	}
	if under.turnedDown != under.n || under.normalsDown != under.n {
		t.Errorf("underside: %d of %d triangles turned down, %d with normals down; want all", under.turnedDown, under.n, under.normalsDown)
	}
	if top.turnedDown != 0 || top.normalsDown != 0 {
		t.Errorf("top: %d of %d triangles turned down, %d with normals down; want none", top.turnedDown, top.n, top.normalsDown)
	}
}

// hatMesh builds the masculine default in a hat of style and gives the
// scene, the hat's positions, triangles and normals, and the middle of
// the eyes: what the tests of which way a hat's surfaces face start from.
func hatMesh(t *testing.T, style string) (s *scene.Scene, hat []vec3, tris [][3]uint32, nrm []vec3, eye vec3) {
	t.Helper()
	cfg := Default(Masculine)
	cfg.Headwear = Headwear{Style: style}
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hat, tris = meshPositions(s, "Wolf3D_Headwear")
	nrm = meshNormals(s, "Wolf3D_Headwear")
	if len(nrm) != len(hat) {
		t.Fatalf("%d normals for %d vertices", len(nrm), len(hat))
	}
	l, _ := meshPositions(s, "EyeLeft")
	r, _ := meshPositions(s, "EyeRight")
	return s, hat, tris, nrm, centroid(append(l, r...))
}
