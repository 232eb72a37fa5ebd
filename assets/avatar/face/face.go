// Package face serves the morph targets of Kiln's avatar faces: the 52
// ARKit blendshapes, the 15 Oculus visemes and Kiln's two default mouth
// shapes. They are built ahead of time from MakeHuman's face rig (CC0) by
// tools/makehuman/face: the face pose units are blended per shape, the
// face bones posed by linear blend skinning on the MakeHuman base mesh,
// and the vertex offsets kept. The result is embedded here, so a build
// needs nothing outside the repository.
//
// Offsets are sparse, over base-mesh vertex indices, in metres, in the
// base mesh's frame (Y up, facing +Z, the face's left at +X, as glTF).
// They include the helper vertices of the eyes, teeth, tongue and
// eyelashes, so assets fitted to those helpers move with the lids, the
// gaze and the jaw. To carry a shape onto a fitted vertex bound to base
// vertices v1, v2, v3 with weights w1, w2, w3 (a MakeHuman .mhclo line),
// take w1*d[v1] + w2*d[v2] + w3*d[v3], where d[v] is the shape's offset
// of v (zero when v is not listed); a vertex bound to one base vertex
// takes that vertex's offset. See Dense for the lookup by vertex.
package face

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// Set names, as the leader's morphTargets parameter takes them.
const (
	SetARKit   = "ARKit"
	SetVisemes = "Oculus Visemes"
	SetDefault = "Default"
	SetNone    = "none"
	// SetEyesExtra is the leader's group of whole-eye shapes, which its
	// clients asked for beside ARKit.
	SetEyesExtra = "Eyes Extra"
)

// ARKit is Apple's 52 blendshapes in Apple's order.
var ARKit = []string{
	"eyeBlinkLeft", "eyeLookDownLeft", "eyeLookInLeft", "eyeLookOutLeft", "eyeLookUpLeft", "eyeSquintLeft", "eyeWideLeft",
	"eyeBlinkRight", "eyeLookDownRight", "eyeLookInRight", "eyeLookOutRight", "eyeLookUpRight", "eyeSquintRight", "eyeWideRight",
	"jawForward", "jawLeft", "jawRight", "jawOpen",
	"mouthClose", "mouthFunnel", "mouthPucker", "mouthLeft", "mouthRight",
	"mouthSmileLeft", "mouthSmileRight", "mouthFrownLeft", "mouthFrownRight",
	"mouthDimpleLeft", "mouthDimpleRight", "mouthStretchLeft", "mouthStretchRight",
	"mouthRollLower", "mouthRollUpper", "mouthShrugLower", "mouthShrugUpper",
	"mouthPressLeft", "mouthPressRight", "mouthLowerDownLeft", "mouthLowerDownRight",
	"mouthUpperUpLeft", "mouthUpperUpRight",
	"browDownLeft", "browDownRight", "browInnerUp", "browOuterUpLeft", "browOuterUpRight",
	"cheekPuff", "cheekSquintLeft", "cheekSquintRight",
	"noseSneerLeft", "noseSneerRight",
	"tongueOut",
}

// Visemes is the 15 Oculus (Meta) lip-sync visemes in their order.
var Visemes = []string{
	"viseme_sil", "viseme_PP", "viseme_FF", "viseme_TH", "viseme_DD", "viseme_kk", "viseme_CH",
	"viseme_SS", "viseme_nn", "viseme_RR", "viseme_aa", "viseme_E", "viseme_I", "viseme_O", "viseme_U",
}

// Default is what an avatar carries when nothing is asked: the two mouth
// shapes Kiln avatars had before the face rig.
var Default = []string{"mouthOpen", "mouthSmile"}

// EyesExtra is the leader's "Eyes Extra" group: both eyes at once. Each
// is the sum of its two ARKit halves (eyesClosed = eyeBlinkLeft +
// eyeBlinkRight), so it moves exactly what they move.
var EyesExtra = []string{"eyesClosed", "eyesLookUp", "eyesLookDown"}

// eyesExtraOf names the ARKit halves each EyesExtra shape adds up.
var eyesExtraOf = map[string][2]string{
	"eyesClosed":   {"eyeBlinkLeft", "eyeBlinkRight"},
	"eyesLookUp":   {"eyeLookUpLeft", "eyeLookUpRight"},
	"eyesLookDown": {"eyeLookDownLeft", "eyeLookDownRight"},
}

// sets are the group names Names takes, each with its shapes.
var sets = []struct {
	name   string
	shapes []string
}{{SetARKit, ARKit}, {SetVisemes, Visemes}, {SetDefault, Default}, {SetEyesExtra, EyesExtra}}

// All lists every shape this package has, in the order Names gives them
// for "ARKit,Oculus Visemes,Default,Eyes Extra".
func All() []string {
	return slices.Concat(ARKit, Visemes, Default, EyesExtra)
}

// Names resolves a morphTargets value: "ARKit", "Oculus Visemes",
// "Default", "Eyes Extra", "none", or a comma-separated list of those and
// of shape names, in the order given without repeats. Set names match without
// regard to case (the leader's clients spell them variously); shape
// names match exactly, as glTF clients look them up. An unknown or empty
// item is an error naming it.
func Names(set string) ([]string, error) {
	names := []string{}
	seen := map[string]bool{}
	var unknown []string
	for item := range strings.SplitSeq(set, ",") {
		item = strings.TrimSpace(item)
		add, ok := resolve(item)
		if !ok {
			unknown = append(unknown, fmt.Sprintf("%q", item))
		}
		for _, n := range add {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	switch len(unknown) {
	case 0:
		return names, nil
	case 1:
		return nil, fmt.Errorf("unknown morph target %s: use ARKit, Oculus Visemes, Eyes Extra, Default, none or names of those sets", unknown[0])
	}
	return nil, fmt.Errorf("unknown morph targets %s: use ARKit, Oculus Visemes, Eyes Extra, Default, none or names of those sets", strings.Join(unknown, ", "))
}

// resolve is the shapes of one item of a morphTargets list: a set name
// (any case), none, or a shape name (exactly).
func resolve(item string) ([]string, bool) {
	if strings.EqualFold(item, SetNone) {
		return nil, true
	}
	for _, s := range sets {
		if strings.EqualFold(item, s.name) {
			return s.shapes, true
		}
	}
	if slices.Contains(All(), item) {
		return []string{item}, true
	}
	return nil, false
}

// Deltas is a shape's offsets: base-mesh vertex indices (rising) and the
// offset of each in metres. A name that is not a shape, and viseme_sil
// (the rest face), have none. The slices are shared: do not change them.
//
// The head (Wolf3D_Head) should carry every name of All, viseme_sil
// included as a target of zero offsets: lip-sync clients look each
// viseme up by name and drive viseme_sil like the others, and
// morphTargets=Oculus Visemes promises all 15.
func Deltas(name string) (idx []int32, d [][3]float32) {
	s := shapes()[name]
	return s.idx, s.d
}

// Dense returns a shape's offsets indexed by base-mesh vertex, n long
// (zero where the shape moves nothing), for carrying it onto fitted
// vertices by their bindings.
func Dense(name string, n int) [][3]float32 {
	out := make([][3]float32, n)
	idx, d := Deltas(name)
	for i, v := range idx {
		if int(v) < n {
			out[v] = d[i]
		}
	}
	return out
}

type shape struct {
	idx []int32
	d   [][3]float32
}

//go:embed data/shapes.bin.gz
var shapesData []byte

// shapes decodes the embedded data once, on first use. The data is built
// and checked by this package's tests, so a decoding failure is a broken
// build and panics.
var shapes = sync.OnceValue(func() map[string]shape {
	m, err := decode(shapesData)
	if err != nil {
		panic("face: embedded shapes: " + err.Error())
	}
	for name, halves := range eyesExtraOf {
		m[name] = sum(m[halves[0]], m[halves[1]])
	}
	return m
})

// sum adds two sparse shapes: the offsets of a vertex both move add up.
func sum(a, b shape) shape {
	var out shape
	i, j := 0, 0
	for i < len(a.idx) || j < len(b.idx) {
		switch {
		case j == len(b.idx) || i < len(a.idx) && a.idx[i] < b.idx[j]:
			out.idx, out.d = append(out.idx, a.idx[i]), append(out.d, a.d[i])
			i++
		case i == len(a.idx) || b.idx[j] < a.idx[i]:
			out.idx, out.d = append(out.idx, b.idx[j]), append(out.d, b.d[j])
			j++
		default:
			d := a.d[i]
			for c := range 3 {
				d[c] += b.d[j][c]
			}
			out.idx, out.d = append(out.idx, a.idx[i]), append(out.d, d)
			i++
			j++
		}
	}
	return out
}

// unit is the step of the stored offsets, 0.01 mm in metres.
const unit = 1e-5

// decode reads the format tools/makehuman/face writes (see its encode.go).
func decode(gz []byte) (map[string]shape, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	r := reader{b: raw}
	if string(r.next(9)) != "kilnface1" {
		return nil, errors.New("not a kilnface1 file")
	}
	count := int(r.u16())
	out := make(map[string]shape, count)
	for range count {
		name := string(r.next(int(r.next(1)[0])))
		n := int(r.u32())
		s := shape{idx: make([]int32, n), d: make([][3]float32, n)}
		v := int32(0)
		for i := range n {
			v += int32(r.u16())
			s.idx[i] = v
		}
		for i := range n {
			for c := range 3 {
				s.d[i][c] = float32(int16(r.u16())) * unit
			}
		}
		if r.err != nil {
			return nil, fmt.Errorf("shape %q: %w", name, r.err)
		}
		out[name] = s
	}
	return out, r.err
}

// reader reads little-endian values, remembering the first overrun.
type reader struct {
	b   []byte
	err error
}

func (r *reader) next(n int) []byte {
	if r.err != nil || n > len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return make([]byte, n)
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *reader) u16() uint16 { return binary.LittleEndian.Uint16(r.next(2)) }
func (r *reader) u32() uint32 { return binary.LittleEndian.Uint32(r.next(4)) }
