// Package human is Kiln's parametric human, built on MakeHuman's CC0 data
// (converted by tools/makehuman into data/makehuman.gob.gz, embedded).
//
// The flow for an avatar:
//
//	b := human.Shape(params)          // shaped base mesh, metres
//	j := b.Joints()                   // the 67 rig joints on that body
//	m := human.BodyMesh()             // body triangles, UVs, head/body split
//	w := human.Weights()              // skin weights per base vertex (67 joints)
//	f, _ := b.Fit("top/tshirt")       // a fitted asset on that body
//
// Frame and units (those of Ready Player Me avatars and Kiln's rig):
// metres, +Y up, facing +Z, the avatar's left on +X, soles of the bare
// feet on y = 0, the Hips joint above the origin (x = z = 0).
//
// Indices: every position is indexed by base-mesh vertex (MakeHuman's own
// numbering, 19,158 vertices including never-rendered helpers and joint
// markers). Render meshes (BodyMesh, Fitted) have their own vertices, split
// at UV seams; Mesh.Base and Fitted.Bind map them back to base vertices,
// so anything defined on base vertices (skin weights, sparse morph
// deltas such as face poses) carries over to the body and to every
// fitted asset: see Fitted.Carry and Fitted.Weights.
package human

import (
	"bytes"
	_ "embed"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/human/hmdata"
)

//go:embed data/makehuman.gob.gz
var packed []byte

// load decodes the embedded data once; the decoded form is shared and
// never modified.
var load = sync.OnceValue(func() *model {
	d, err := hmdata.Read(bytes.NewReader(packed))
	if err != nil {
		// The file is built into the binary and checked by the tests.
		panic("human: embedded data: " + err.Error())
	}
	return newModel(d)
})

// model is the decoded data with the lookups built from it.
type model struct {
	d        *hmdata.Data
	targets  map[string]*hmdata.Target
	mods     map[string]modifier
	modNames []string
	assets   map[string]*hmdata.Asset
	joint    map[string]int
	body     *Mesh
	weights  []Influence
	bodyVert []bool // per base vertex: part of the body group
	legJoint []bool // per joint: of a leg (UpLeg down to the toes)
	// candidates lists the body vertices within 4 cm of the soles and of
	// the crown of the base mesh: the lowest and highest vertex of any
	// shape is among them (targets move those regions as a whole).
	candidates func() [2][]int32
	movesMu    sync.Mutex
	moves      map[string][2][]candidateMove // see candidateMoves
}

func newModel(d *hmdata.Data) *model {
	m := &model{
		d:       d,
		targets: map[string]*hmdata.Target{},
		assets:  map[string]*hmdata.Asset{},
		joint:   map[string]int{},
	}
	for i := range d.Targets {
		m.targets[d.Targets[i].Name] = &d.Targets[i]
	}
	m.mods = modifiers(d.Targets)
	for n := range m.mods {
		m.modNames = append(m.modNames, n)
	}
	sort.Strings(m.modNames)
	for i := range d.Assets {
		m.assets[d.Assets[i].ID] = &d.Assets[i]
	}
	m.legJoint = make([]bool, len(d.Joints))
	for i, j := range d.Joints {
		m.joint[j.Name] = i
		n := strings.TrimPrefix(strings.TrimPrefix(j.Name, "Left"), "Right")
		m.legJoint[i] = n == "UpLeg" || n == "Leg" || n == "Foot" || n == "ToeBase" || n == "Toe_End"
	}
	m.weights = make([]Influence, len(d.Positions)/3)
	for v := range m.weights {
		for k := 0; k < 4; k++ {
			m.weights[v].Joint[k] = d.WeightJoint[4*v+k]
			m.weights[v].Weight[k] = float32(d.WeightValue[4*v+k]) / 65535
		}
	}
	m.bodyVert = make([]bool, len(m.weights))
	for _, v := range d.Body.Src {
		m.bodyVert[v] = true
	}
	m.body = m.newBodyMesh()
	m.candidates = sync.OnceValue(func() [2][]int32 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for v, in := range m.bodyVert {
			if in {
				lo = math.Min(lo, float64(d.Positions[3*v+1]))
				hi = math.Max(hi, float64(d.Positions[3*v+1]))
			}
		}
		var out [2][]int32
		for v, in := range m.bodyVert {
			y := float64(d.Positions[3*v+1])
			if in && y < lo+0.4 {
				out[0] = append(out[0], int32(v))
			}
			if in && y > hi-0.4 {
				out[1] = append(out[1], int32(v))
			}
		}
		return out
	})
	return m
}

// JointNames lists the 67 joints in the order of every joint index this
// package gives (Influence.Joint): Ready Player Me's names and order, the
// same as avatar.JointNames.
func JointNames() []string {
	d := load().d
	out := make([]string, len(d.Joints))
	for i, j := range d.Joints {
		out[i] = j.Name
	}
	return out
}

// Assets lists the fitted assets of a kind ("top", "bottom", "footwear",
// "hair", "eyebrows", "eyelashes", "eyes", "teeth", "tongue") as IDs
// "kind/style" for Body.Fit, sorted; nil for an unknown kind.
func Assets(kind string) []string {
	var out []string
	for _, a := range load().d.Assets {
		if strings.HasPrefix(a.ID, kind+"/") {
			out = append(out, a.ID)
		}
	}
	sort.Strings(out)
	return out
}

// Source names the MakeHuman asset an ID was converted from (for
// credits and debugging), or "" for an unknown ID.
func Source(id string) string {
	if a, ok := load().assets[id]; ok {
		return a.Source
	}
	return ""
}

// Group returns the base vertices of one of MakeHuman's helper groups
// ("helper-upper-teeth", "helper-lower-teeth", "helper-tongue",
// "helper-l-eye", "helper-r-eye", "helper-hair", "helper-skirt",
// "helper-tights", "helper-l-eyelashes-1"…), sorted; nil for an unknown
// name. The helpers are what fitted assets bind to; they are never
// rendered.
func Group(name string) []int32 {
	for _, g := range load().d.Groups {
		if g.Name == name {
			return slices.Clone(g.Verts)
		}
	}
	return nil
}

// errUnknown is returned for an asset ID Assets does not list.
func errUnknown(id string) error {
	return fmt.Errorf("human: unknown asset %q", id)
}
