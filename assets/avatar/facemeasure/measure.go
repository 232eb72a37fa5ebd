// Package facemeasure measures an avatar's face on its meshes, Kiln's and
// the leader's alike, so the two can be put side by side by number
// (issue 22: the judges read Kiln's faces as long and flat with a wide,
// thin mouth beside the leader's, which are short below the nose, wide
// at the cheekbones, with a narrower, fuller mouth). The bench tool
// bench/avatar-look/faceprops prints the table; the avatar package's
// proportion tests hold Kiln's faces to it.
//
// Every figure is in units of the distance between the eyes' centres
// (the EyeLeft and EyeRight meshes' boxes), so meshes of other sizes
// compare. The face is the Wolf3D_Head mesh, facing +Z with +Y up and
// its middle at x = 0, as both Kiln's and the leader's GLBs are.
package facemeasure

import (
	"fmt"
	"math"

	"github.com/kilnhq/kiln/assets/scene"
)

// Props is one face's measures, in eye-distances.
type Props struct {
	// Nose is the eyes' height over the nose's underside (see
	// midLine.parting).
	Nose float64
	// Lip is from the nose's underside down to the lips' parting, where
	// the upper lip's underside rests on the lower lip's top: see
	// midLine.parting.
	Lip float64
	// Chin is from the parting down to the chin's lowest middle-line
	// point in front of the throat (see midLine).
	Chin float64
	// Cheek is the face's greatest width seen from the front between 0.3
	// and 0.9 under the eyes: the cheekbones.
	Cheek float64
	// Temple is the head's greatest width seen from the front between
	// 0.3 and 0.8 over the eyes: the forehead at the temples, where the
	// lead saw Kiln's heads narrow at the top (a small cranium) beside
	// the leader's wide, rounded ones.
	Temple float64
	// MouthLevel is the face's width at the parting's height, and Jaw at
	// 1.4 under the eyes (about the lower lip's height): where a narrow
	// or a square jaw shows.
	MouthLevel, Jaw float64
	// Neck is the neck's width seen from the front (the head mesh's at
	// every depth, the neck being part of it) neckDrop under the chin's
	// lowest point, just under the jaw: where the lead saw Kiln's
	// masculine necks as wide as the jaw, flaring into the shoulders
	// right under the chin, beside the leader's narrower, longer ones.
	Neck float64
	// Mouth is the painted lips' width, corner to corner, and LipHeight
	// their height in the middle (within 0.05 of x = 0): see lips.
	Mouth, LipHeight float64
	// MouthCorner is how far the painted lips' corners sit behind the
	// lips' front in the middle (see cornerDepth): how far the mouth
	// wraps round the face.
	MouthCorner float64
	// EarOut is how far the ears stand out from the skull's side and
	// EarHeight how tall they are: see Ears.
	EarOut, EarHeight float64
	// CheekStand is how far the cheek stands in front of the eyes' fronts
	// (see CheekStand).
	CheekStand float64
}

// Width seen from the front counts only the surface less than 0.6
// eye-distances behind the eyes' centres: the cheeks and jaw, not the
// ears or the back of the head.
const sideDepth = 0.6

// neckDrop is how far under the chin's lowest point the neck is
// measured, in eye-distances: under the jaw, over the collars.
const neckDrop = 0.25

// Measure finds the landmarks and measures the face of s.
func Measure(s *scene.Scene) (Props, error) {
	var out Props
	el, err := mesh(s, "EyeLeft")
	if err != nil {
		return out, err
	}
	er, err := mesh(s, "EyeRight")
	if err != nil {
		return out, err
	}
	head, err := mesh(s, "Wolf3D_Head")
	if err != nil {
		return out, err
	}
	if len(head.Normals) != len(head.Positions) {
		return out, fmt.Errorf("the head has no normals")
	}
	a, b := Centre(el), Centre(er)
	f := frame{ipd: math.Abs(a[0] - b[0]), eyeY: (a[1] + b[1]) / 2, eyeZ: (a[2] + b[2]) / 2}
	m := f.middle(head)
	if math.IsInf(m.menY, 1) {
		return out, fmt.Errorf("no chin found on the middle line")
	}
	// The lips' colour between the nose and the chin picks the parting
	// among the lips' and nose's undersides; then the lips are measured
	// again near the parting, the skin beside them at its height (a
	// beard's colour under the lips would set a lower cut).
	lp, err := lips(s, head, f, m.menY, m.tipY, m.menY, m.tipY)
	if err != nil {
		return out, err
	}
	partY, noseY := m.parting(f, lp.mid)
	if math.IsInf(noseY, 1) || math.IsInf(partY, 1) {
		return out, fmt.Errorf("no nose or lips' parting found on the middle line")
	}
	r := 0.35 * f.ipd
	if lp, err = lips(s, head, f, partY-r, partY+r, partY-0.05*f.ipd, partY+0.05*f.ipd); err != nil {
		return out, err
	}
	out.Nose, out.Lip, out.Chin = (f.eyeY-noseY)/f.ipd, (noseY-partY)/f.ipd, (partY-m.menY)/f.ipd
	zmin := f.eyeZ - sideDepth*f.ipd
	for y := f.eyeY - 0.9*f.ipd; y <= f.eyeY-0.3*f.ipd; y += 0.01 * f.ipd {
		out.Cheek = math.Max(out.Cheek, SliceWidth(head, y, zmin)/f.ipd)
	}
	for y := f.eyeY + 0.3*f.ipd; y <= f.eyeY+0.8*f.ipd; y += 0.01 * f.ipd {
		out.Temple = math.Max(out.Temple, SliceWidth(head, y, zmin)/f.ipd)
	}
	out.MouthLevel = SliceWidth(head, partY, zmin) / f.ipd
	out.Jaw = SliceWidth(head, f.eyeY-1.4*f.ipd, zmin) / f.ipd
	out.Neck = SliceWidth(head, m.menY-neckDrop*f.ipd, math.Inf(-1)) / f.ipd
	out.Mouth, out.LipHeight = lp.width/f.ipd, lp.height/f.ipd
	out.MouthCorner = lp.depth / f.ipd
	out.EarOut, out.EarHeight = Ears(head, f.ipd, f.eyeY)
	out.CheekStand = CheekStand(head, f.ipd, f.eyeY, (front(el)+front(er))/2)
	return out, nil
}

// earSkullLift is how far over the eyes Ears takes the skull's side, in
// eye-distances: over the top of every ear (the leader's reach 0.10 over
// the eyes, Kiln's panel faces' 0.30 at most), under the temples' taper.
const earSkullLift = 0.4

// Ears measures the ears of a head whose eyes' centres are ipd apart at
// height eyeY, in eye-distances: the head's half-width seen from the
// front (the farthest |x| where its edges cross the plane, at every
// depth, as SliceWidth) at each height from 0.3 over the eyes down to
// 1.3 under them, every 0.01. The ears stand out (out) by the widest
// from 0.1 over the eyes down, less the skull's half-width earSkullLift
// over the eyes, and are as tall (height) as the span of heights where
// the head is more than 0.05 wider than the skull: the issue's "ears
// sticking out" beside the leader's, which lie closer to the head.
func Ears(head *scene.Primitive, ipd, eyeY float64) (out, height float64) {
	half := func(k float64) float64 {
		return SliceWidth(head, eyeY+k*ipd, math.Inf(-1)) / 2 / ipd
	}
	skull := half(earSkullLift)
	widest, top, bottom := 0.0, math.Inf(-1), math.Inf(1)
	for i := 30; i >= -130; i-- {
		k := float64(i) / 100
		w := half(k)
		if k <= 0.1 {
			widest = math.Max(widest, w)
		}
		if w > skull+0.05 {
			top, bottom = math.Max(top, k), math.Min(bottom, k)
		}
	}
	if math.IsInf(top, -1) {
		return widest - skull, 0
	}
	return widest - skull, top - bottom
}

// Where CheekStand looks for the cheek, in eye-distances: off the
// middle from inside the eye's centre to past its outer corner, and
// from under the lower lid down to the nose's wings.
const (
	cheekInner, cheekOuter = 0.45, 0.8
	cheekTop, cheekBottom  = -0.2, -0.9
)

// CheekStand is how far the cheek's most forward point under the eye
// (the head's vertices cheekInner to cheekOuter off the middle,
// cheekTop to cheekBottom under the eyes' height eyeY) stands in front
// of the eyes' fronts (frontZ, their corneas' tips), in eye-distances
// (ipd). The eyes' fronts, not their boxes' centres, are the measure's
// zero: the leader's eye meshes are caps half as deep as they are wide
// (their box centres 0.16 eye-distances ahead of where a ball's would
// be), Kiln's whole balls grown about their fronts (the avatar
// package's growEyes), so measured from the boxes' centres Kiln's
// default faces' cheeks stood 0.38 and 0.42 in front against the
// leader's 0.24, a gap that was only the eye meshes' depth; from the
// corneas they stand 0.04 and 0.09 against the leader's 0.08.
func CheekStand(head *scene.Primitive, ipd, eyeY, frontZ float64) float64 {
	best := math.Inf(-1)
	for _, q := range head.Positions {
		x, y := math.Abs(float64(q[0]))/ipd, (float64(q[1])-eyeY)/ipd
		if x >= cheekInner && x <= cheekOuter && y <= cheekTop && y >= cheekBottom {
			best = math.Max(best, float64(q[2]))
		}
	}
	return (best - frontZ) / ipd
}

// front is the most forward z of a primitive: an eye's cornea.
func front(p *scene.Primitive) float64 {
	z := math.Inf(-1)
	for _, q := range p.Positions {
		z = math.Max(z, float64(q[2]))
	}
	return z
}

// frame is where the eyes are: their distance, and their centres' mean
// height and depth.
type frame struct{ ipd, eyeY, eyeZ float64 }

// midLine is the head's middle line (vertices within 2 mm of x = 0,
// under the eyes and in front of them): the nose's tip (the foremost),
// the chin's lowest point in front of the throat (less than 0.55
// eye-distances behind the tip), and the vertices facing up (normal y
// over 0.5) and down (under -0.7, not facing back).
type midLine struct {
	tipY, menY float64
	up, down   [][3]float32
}

func (f frame) middle(head *scene.Primitive) midLine {
	onLine := func(q [3]float32) bool {
		return math.Abs(float64(q[0])) < 0.002 && float64(q[1]) < f.eyeY && float64(q[1]) > f.eyeY-3*f.ipd &&
			float64(q[2]) >= f.eyeZ
	}
	m := midLine{menY: math.Inf(1)}
	tipZ := math.Inf(-1)
	for i, q := range head.Positions {
		if !onLine(q) {
			continue
		}
		if float64(q[2]) > tipZ {
			m.tipY, tipZ = float64(q[1]), float64(q[2])
		}
		switch n := head.Normals[i]; {
		case n[1] > 0.5:
			m.up = append(m.up, q)
		case n[1] < -0.7 && n[2] > -0.3:
			m.down = append(m.down, q)
		}
	}
	for _, q := range head.Positions {
		if onLine(q) && float64(q[2]) > tipZ-0.55*f.ipd {
			m.menY = math.Min(m.menY, float64(q[1]))
		}
	}
	return m
}

// parting finds the lips' parting and the nose's underside. The parting
// is where the upper lip's underside (facing down) rests on the lower
// lip's top (facing up): of the down-facing vertices with an up-facing
// one within 0.08 eye-distances, the one nearest the painted lips'
// middle (lipMid). The nose's underside and the lower lip's underside
// face down too, but neither lies in the lips' colour's middle. The
// nose's underside is the lowest down-facing vertex under the tip and
// 0.12 or more over the parting.
func (m midLine) parting(f frame, lipMid float64) (partY, noseY float64) {
	partY, noseY = math.Inf(1), math.Inf(1)
	best := math.Inf(1)
	for _, q := range m.down {
		y := float64(q[1])
		if d := math.Abs(y - lipMid); d < best && meets(q, m.up, 0.08*f.ipd) {
			partY, best = y, d
		}
	}
	for _, q := range m.down {
		if y := float64(q[1]); y < m.tipY && y > partY+0.12*f.ipd {
			noseY = math.Min(noseY, y)
		}
	}
	return partY, noseY
}

// meets reports whether an upward-facing vertex lies within reach of q.
func meets(q [3]float32, up [][3]float32, reach float64) bool {
	for _, u := range up {
		d := 0.0
		for k := range 3 {
			d += float64(u[k]-q[k]) * float64(u[k]-q[k])
		}
		if d <= reach*reach {
			return true
		}
	}
	return false
}

// SliceWidth is a mesh's width (twice the farthest x off the middle) in
// the plane at height y, in front of zmin: where its triangles' edges
// cross the plane, so a coarse mesh measures as a fine one.
func SliceWidth(p *scene.Primitive, y, zmin float64) float64 {
	w := 0.0
	for i := 0; i+2 < len(p.Indices); i += 3 {
		for e := range 3 {
			a, b := p.Positions[p.Indices[i+e]], p.Positions[p.Indices[i+(e+1)%3]]
			ya, yb := float64(a[1]), float64(b[1])
			if (ya-y)*(yb-y) > 0 || ya == yb {
				continue
			}
			f := (y - ya) / (yb - ya)
			if z := float64(a[2]) + f*float64(b[2]-a[2]); z > zmin {
				w = math.Max(w, 2*math.Abs(float64(a[0])+f*float64(b[0]-a[0])))
			}
		}
	}
	return w
}

// mesh is the first primitive of the scene's mesh called name.
func mesh(s *scene.Scene, name string) (*scene.Primitive, error) {
	for _, m := range s.Meshes {
		if m.Name == name && len(m.Primitives) > 0 {
			return m.Primitives[0], nil
		}
	}
	return nil, fmt.Errorf("no mesh %s", name)
}

// Centre is the middle of a primitive's box: where facemeasure takes an
// eye to be, so tests that measure from the eyes agree with it.
func Centre(p *scene.Primitive) (c [3]float64) {
	lo, hi := [3]float64{1e9, 1e9, 1e9}, [3]float64{-1e9, -1e9, -1e9}
	for _, q := range p.Positions {
		for a := range 3 {
			lo[a], hi[a] = math.Min(lo[a], float64(q[a])), math.Max(hi[a], float64(q[a]))
		}
	}
	for a := range 3 {
		c[a] = (lo[a] + hi[a]) / 2
	}
	return c
}
