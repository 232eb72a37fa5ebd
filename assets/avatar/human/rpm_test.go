package human_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// rpmBounds reads the leader's avatar GLB and returns each mesh's
// POSITION bounds (accessor min and max: the meshes sit in the avatar's
// frame, unskinned, as in the file).
func rpmBounds(t *testing.T, path string) map[string][2][3]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skip("../shared/testdata absent")
	}
	n := binary.LittleEndian.Uint32(b[12:16])
	var doc struct {
		Meshes []struct {
			Name       string `json:"name"`
			Primitives []struct {
				Attributes map[string]int `json:"attributes"`
			} `json:"primitives"`
		} `json:"meshes"`
		Accessors []struct {
			Min []float64 `json:"min"`
			Max []float64 `json:"max"`
		} `json:"accessors"`
	}
	if err := json.Unmarshal(b[20:20+n], &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][2][3]float64{}
	for _, m := range doc.Meshes {
		a := doc.Accessors[m.Primitives[0].Attributes["POSITION"]]
		out[m.Name] = [2][3]float64{{a.Min[0], a.Min[1], a.Min[2]}, {a.Max[0], a.Max[1], a.Max[2]}}
	}
	return out
}

// Kiln's body stands like the leader's avatars: feet on y = 0, facing
// +Z, the left eye on +X, and the eyes at the same fraction of the height.
func TestFrameMatchesLeader(t *testing.T) {
	rpm := rpmBounds(t, "../../../../shared/testdata/rpm-avatar-casual.glb")
	eye, head, feet := rpm["EyeLeft"], rpm["Wolf3D_Head"], rpm["Wolf3D_Outfit_Footwear"]
	rpmEye := [3]float64{(eye[0][0] + eye[1][0]) / 2, (eye[0][1] + eye[1][1]) / 2, eye[1][2]}
	rpmTop := head[1][1]
	if rpmEye[0] <= 0 || rpmEye[2] <= 0 || math.Abs(feet[0][1]) > 0.01 {
		t.Fatalf("the leader's avatar: left eye at %v, soles at %.3f", rpmEye, feet[0][1])
	}

	b := human.Shape(human.Average(1))
	f, err := b.Fit("eyes/left")
	if err != nil {
		t.Fatal(err)
	}
	var c [3]float64
	front := math.Inf(-1)
	for _, p := range f.Pos {
		for a := 0; a < 3; a++ {
			c[a] += float64(p[a]) / float64(len(f.Pos))
		}
		front = math.Max(front, float64(p[2]))
	}
	j := b.Joints()
	if c[0] <= 0 || front <= float64(j["Head"][2]) {
		t.Errorf("Kiln's left eye at %v (front %.3f), head joint %v: want +X and ahead", c, front, j["Head"])
	}
	top := float64(b.Height())
	kiln, leader := c[1]/top, rpmEye[1]/rpmTop
	t.Logf("eye height over head top: Kiln %.3f (%.3f of %.3f m), leader %.3f (%.3f of %.3f m)", kiln, c[1], top, leader, rpmEye[1], rpmTop)
	if math.Abs(kiln-leader) > 0.03 {
		t.Errorf("eyes at %.3f of the height, the leader's at %.3f", kiln, leader)
	}
}
