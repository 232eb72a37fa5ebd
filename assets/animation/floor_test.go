package animation

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// The floor measures: what a viewer sees of the feet against the floor
// the avatar stands on (y = 0, the soles' rest height): soles sinking
// through it, and feet sliding over it while they should stand still.

// floorFigure is one clip on one avatar.
type floorFigure struct {
	Depth float64    // the deepest any sole vertex goes below the floor, in metres (0 when none does)
	Slide [2]float64 // per foot (left, right): the farthest a sole vertex moves from where it is at the clip's start
}

// soleTouch is how far above the floor a vertex of a foot may be at rest
// and count as the sole: it meets the floor, so it must neither sink nor
// slide while the foot stands.
const soleTouch = 0.01

// floorMeshes are the meshes whose lowest vertices are the soles: the
// shoes, or the bare feet when there are none.
var floorMeshes = []string{"Wolf3D_Outfit_Footwear", "Wolf3D_Body"}

// measureFloor attaches every built-in clip of the gender to s (when not
// there yet) and measures, at every baked key, how deep the lowest
// vertex of the feet (shoes or body, skinned as a player does) goes
// below the floor, and how far the sole vertices of each foot move from
// where they stand at the clip's first key.
func measureFloor(t *testing.T, s *scene.Scene, gender string) map[string]floorFigure {
	t.Helper()
	if len(s.Animations) == 0 {
		if err := Attach(s, gender, Names()); err != nil {
			t.Fatal(err)
		}
	}
	pl := newPlayer(t, s)
	rest := pl.matrices(nil, 0)
	// The feet: every vertex of the floor meshes within 20 cm of the
	// floor at rest (the feet, the shoes, the trouser hems above them).
	type foot struct {
		node int
		idx  []int // vertices of the flattened mesh near the floor
		sole []int // of those, the ones on the floor, by side
		side []int
	}
	var fs []foot
	floor := math.Inf(1)
	for _, name := range floorMeshes {
		node := meshNode(s, name)
		if node < 0 {
			continue
		}
		pos := flatten(skinned(s, rest, node))
		for _, p := range pos {
			floor = math.Min(floor, p[1])
		}
		f := foot{node: node}
		for v, p := range pos {
			if p[1] < 0.2 {
				f.idx = append(f.idx, v)
			}
		}
		fs = append(fs, f)
	}
	if math.IsInf(floor, 1) {
		t.Fatal("no feet to measure")
	}
	for k := range fs {
		pos := flatten(skinned(s, rest, fs[k].node))
		for _, v := range fs[k].idx {
			if p := pos[v]; p[1] < floor+soleTouch {
				fs[k].sole = append(fs[k].sole, v)
				side := 0
				if p[0] < 0 {
					side = 1
				}
				fs[k].side = append(fs[k].side, side)
			}
		}
	}
	out := map[string]floorFigure{}
	for _, a := range s.Animations {
		if !Valid(gender, a.Name) {
			continue
		}
		var fig floorFigure
		start := map[[2]int]vec{}
		d := duration(a)
		for f := 0; ; f++ {
			tm := float64(f) / fps
			if tm > d+1e-9 {
				break
			}
			mats := pl.matrices(a, tm)
			for k, ft := range fs {
				pos := flatten(skinned(s, mats, ft.node))
				for _, v := range ft.idx {
					fig.Depth = math.Max(fig.Depth, floor-pos[v][1])
				}
				for i, v := range ft.sole {
					key := [2]int{k, v}
					if f == 0 {
						start[key] = pos[v]
						continue
					}
					fig.Slide[ft.side[i]] = math.Max(fig.Slide[ft.side[i]], pos[v].sub(start[key]).length())
				}
			}
		}
		out[a.Name] = fig
	}
	return out
}

// floorTable formats floor figures as the lines the tests log.
func floorTable(figs map[string]floorFigure) string {
	var b strings.Builder
	for _, clip := range Names() {
		f, ok := figs[clip]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "%-22s soles down to %4.1f cm below the floor, feet move %4.1f / %4.1f cm (left / right)\n",
			clip, 100*f.Depth, 100*f.Slide[0], 100*f.Slide[1])
	}
	return b.String()
}
