// Package lod builds levels of detail of a scene: lod 0 is the source,
// lod 1 keeps about half of its triangles, lod 2 about a quarter (the
// README's Model variants). Each level is simplified from the one before, as
// meshoptimizer advises, so a chain costs less than simplifying the
// source twice and its errors add up.
package lod

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/simplify"
)

// Max is the coarsest level.
const Max = 2

// stepRatio is what each level keeps of the one before it.
const stepRatio = 0.5

// Bound is the most of the source's triangles a level may keep; beyond
// it the permissive fallback takes over.
func Bound(level int) float64 {
	switch level {
	case 0:
		return 1
	case 1:
		return 0.55
	}
	return 0.30
}

// TextureCap is the largest side of any image at a level: lighter levels
// are seen from farther, so they are lighter in GPU memory too, not only
// in triangles. Lod 0 keeps the source's images (0: no cap of its own).
func TextureCap(level int) int {
	switch level {
	case 0:
		return 0
	case 1:
		return 1024
	}
	return 512
}

// Level reports one built level.
type Level struct {
	Level     int     `json:"lod"`
	Triangles int     `json:"triangles"`
	Ratio     float64 `json:"ratio"`
	// Error is the relative error reached (largest over the primitives,
	// summed over the chain), relative to each primitive's extent.
	Error float64 `json:"error"`
}

// Chain simplifies s in place down to level, calling emit with the scene
// at every level from 0 on, so that a caller can write each one out. It
// stops with ctx's error when ctx ends, within one simplifier pass.
func Chain(ctx context.Context, s *scene.Scene, level int, emit func(Level, *scene.Scene) error) error {
	if level < 0 || level > Max {
		return kiln.Errorf(kiln.KindInvalid, "invalid_lod", "lod must be 0, 1 or 2, got %d", level)
	}
	source := s.Stats().Triangles
	var total float64
	rep := Level{Triangles: source, Ratio: 1}
	if err := emit(rep, s); err != nil {
		return err
	}
	for l := 1; l <= level; l++ {
		target := float64(source) * math.Pow(stepRatio, float64(l))
		if err := ctx.Err(); err != nil {
			return err
		}
		e, err := reduce(ctx, s, target)
		if err != nil {
			return fmt.Errorf("lod %d: %w", l, err)
		}
		total += e
		tris := s.Stats().Triangles
		rep = Level{Level: l, Triangles: tris, Error: total}
		if source > 0 {
			rep.Ratio = float64(tris) / float64(source)
		}
		if err := emit(rep, s); err != nil {
			return err
		}
	}
	return nil
}

// borderError bounds the error a primitive may reach while its borders
// stay locked: 2% of its size.
const borderError = 0.02

// reduce brings the scene's triangles from what it has to about target
// and reports the largest error, in three steps: every primitive is
// planned (planParts: simplified by one ratio, its small parts kept); the
// primitives that ratio would ruin (a 12-triangle box halved is no longer
// a box) are spared and the others take their share; the plans are
// applied.
func reduce(ctx context.Context, s *scene.Scene, target float64) (float64, error) {
	prims, err := primitives(s)
	if err != nil {
		return 0, err
	}
	have := float64(s.Stats().Triangles)
	if have == 0 || have <= target {
		return 0, nil
	}
	works := make([]*work, len(prims))
	for i, p := range prims {
		m := mesh(p)
		ps := findParts(m)
		w := &work{p: p, m: m, parts: ps, keep: make([]bool, len(ps.size))}
		for k, n := range ps.size {
			w.keep[k] = n <= minPart
		}
		works[i] = w
	}
	plans, err := planParts(ctx, works, have, target)
	if err != nil {
		return 0, err
	}
	var worst float64
	for i, p := range prims {
		if plans[i].indices == nil {
			continue
		}
		p.Indices = plans[i].indices
		// The vertices no index uses go from every stream, so skin
		// weights and morph targets follow their vertices untouched.
		if err := p.Compact(); err != nil {
			return 0, err
		}
		worst = max(worst, plans[i].error)
	}
	return worst, nil
}

// work is one primitive being planned: its mesh as the simplifier sees
// it, its connected parts, the parts kept whole and their triangles.
type work struct {
	p      *scene.Primitive
	m      simplify.Mesh
	parts  parts
	keep   []bool
	locked int
}

// partRounds bounds how often planParts plans the level again after
// keeping more parts whole or fewer.
const partRounds = 6

// planParts plans every primitive so that the scene lands on target while
// no connected part ends with fewer than minPart triangles (or fewer than
// its own): the small parts are kept whole from the start; a larger part
// that a plan takes below minPart is kept whole too and the level planned
// again, the rest of the model giving up what those parts keep. The
// level's ratio and its error come first: the kept parts may hold at
// most what leaves the rest half the level's ratio, and when the rest
// cannot get there around them (locked parts lock their neighbours'
// corners too) or only at more than worseError times the error of
// keeping nothing, that budget halves, down to keeping nothing.
func planParts(ctx context.Context, works []*work, have, target float64) ([]plan, error) {
	keep := make([][]bool, len(works))
	for i, w := range works {
		keep[i] = slices.Clone(w.keep)
		clear(w.keep)
	}
	base, err := planLevel(ctx, works, have, target)
	if err != nil {
		return nil, err
	}
	// A level that keeping nothing leaves nearly exact (a flat panel) may
	// still spend the error a locked border may cost to keep its parts.
	limit := max(worseError*worst(base), borderError)
	for i, w := range works {
		w.keep = keep[i]
	}
	grow(works, base)
	// With k triangles kept, the rest keeps (target-k)/(have-k) of its
	// own; that is at least r/2 while k <= (target - have*r/2)/(1 - r/2).
	half := target / have / 2
	budget := (target - have*half) / (1 - half)
	fit := base // the last plan that landed on target within limit
	for range partRounds {
		if !trimKept(works, budget) {
			break
		}
		plans, err := planLevel(ctx, works, have, target)
		if err != nil {
			return nil, err
		}
		if planned(works, plans, have) > target*overshoot || worst(plans) > limit {
			budget /= 2
			continue
		}
		fit = plans
		if !grow(works, plans) {
			break
		}
	}
	return fit, nil
}

// grow keeps whole the parts that plans take below minPart triangles (or
// below their own count) and reports whether there were any.
func grow(works []*work, plans []plan) bool {
	grew := false
	for i, w := range works {
		if plans[i].indices == nil {
			continue
		}
		for k, n := range w.parts.count(plans[i].indices) {
			if !w.keep[k] && n < min(w.parts.size[k], minPart) {
				w.keep[k], grew = true, true
			}
		}
	}
	return grew
}

// worseError is how many times the error of keeping no part a level may
// reach by keeping parts: a kept eye is not worth a melted helmet.
const worseError = 1.5

// worst is the largest error of the plans.
func worst(plans []plan) float64 {
	var e float64
	for _, p := range plans {
		e = max(e, p.error)
	}
	return e
}

// overshoot is how far past its target a level may land before planParts
// keeps fewer parts: the bands allow 10 % (55 % for a target of 50 %).
const overshoot = 1.08

// planned is the scene's triangle count once plans are applied.
func planned(works []*work, plans []plan, have float64) float64 {
	for i, w := range works {
		if plans[i].indices != nil {
			have -= float64(w.p.Triangles() - len(plans[i].indices)/3)
		}
	}
	return have
}

// planLevel locks the kept parts and plans every primitive at the ratio
// the rest of the scene must then reach.
func planLevel(ctx context.Context, works []*work, have, target float64) ([]plan, error) {
	var kept float64
	for _, w := range works {
		w.m.Locked, w.locked = nil, 0
		if slices.Contains(w.keep, true) {
			w.m.Locked = make([]bool, w.p.VertexCount())
			w.locked = w.parts.lock(w.m.Locked, w.keep)
		}
		kept += float64(w.locked)
	}
	rest, left := have-kept, target-kept
	ratio := left / rest
	plans := make([]plan, len(works))
	if err := simplifyAll(ctx, works, plans, func(int) bool { return true }, ratio); err != nil {
		return nil, err
	}
	if err := spareRuined(ctx, works, plans, rest, left, ratio); err != nil {
		return nil, err
	}
	return plans, nil
}

// trimKept lets go of the largest kept parts until the others hold at
// most budget triangles: the smallest parts, the ones a simplifier
// removes first, are the cheapest to keep. It reports whether any part
// is still kept.
func trimKept(works []*work, budget float64) bool {
	type ref struct{ w, k, size int }
	var kept []ref
	var total int
	for i, w := range works {
		for k, on := range w.keep {
			if on {
				kept = append(kept, ref{i, k, w.parts.size[k]})
				total += w.parts.size[k]
			}
		}
	}
	slices.SortStableFunc(kept, func(a, b ref) int { return b.size - a.size })
	for _, r := range kept {
		if float64(total) <= budget {
			break
		}
		works[r.w].keep[r.k] = false
		total -= r.size
	}
	return total > 0
}

// primitives indexes every primitive and returns those worth simplifying.
func primitives(s *scene.Scene) ([]*scene.Primitive, error) {
	var out []*scene.Primitive
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			if err := index(p); err != nil {
				return nil, err
			}
			if simplifiable(p) {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// plan is a primitive's simplified index buffer and its error; nil
// indices keep the primitive as it is.
type plan struct {
	indices []uint32
	error   float64
}

// ruinError is the error, relative to a primitive's size, past which its
// share of the level would destroy its shape rather than lighten it.
const ruinError = 0.25

// spareRuined keeps the primitives whose plan passes ruinError as they
// are, when the others can make up for them without giving up more than
// twice their ratio: a box or a wedge among curved parts (CAD sets, game
// props) stays a box, and the level still lands on its target. have and
// target count the triangles outside kept parts, and so does ratio.
func spareRuined(ctx context.Context, works []*work, plans []plan, have, target, ratio float64) error {
	var kept float64
	for i, w := range works {
		if plans[i].error > ruinError {
			kept += float64(w.p.Triangles() - w.locked)
		}
	}
	rest := have - kept
	if kept == 0 || rest <= 0 {
		return nil
	}
	spared := (target - kept) / rest
	if spared < ratio/2 {
		return nil
	}
	ruined := make([]bool, len(works))
	for i := range works {
		if ruined[i] = plans[i].error > ruinError; ruined[i] {
			plans[i] = plan{}
		}
	}
	return simplifyAll(ctx, works, plans, func(i int) bool { return !ruined[i] }, spared)
}

// simplifyAll plans, at ratio, the primitives for which which(i) holds
// in parallel (simplify.Each): they are
// independent, and a user waits for the whole model. The first error in
// order of the works wins, as in a loop.
func simplifyAll(ctx context.Context, works []*work, plans []plan, which func(int) bool, ratio float64) error {
	errs := make([]error, len(works))
	simplify.Each(len(works), func(i int) int { return works[i].p.Triangles() }, func(i int) {
		if which(i) {
			plans[i], errs[i] = simplifyPrimitive(ctx, works[i], ratio)
		}
	})
	return firstError(errs)
}

// firstError is the first non-nil error of errs, or nil.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// simplifyPrimitive plans w's primitive keeping its locked parts and
// ratio of its other triangles.
func simplifyPrimitive(ctx context.Context, w *work, ratio float64) (plan, error) {
	m := w.m
	tris := float64(w.p.Triangles())
	ratio = (float64(w.locked) + ratio*(tris-float64(w.locked))) / tris
	want := tris * ratio
	// Each attempt gives up a little more: locked borders within a small
	// error, then free borders at any error, then the permissive stages
	// (seams, clustering) that always reach the target. Borders stay
	// locked where that costs little, so primitives of different
	// materials (and separate meshes that meet, like an avatar's head and
	// body) do not crack apart.
	attempts := []simplify.Options{
		{TargetRatio: float32(ratio), LockBorder: true, MaxError: borderError, Done: ctx.Done()},
		{TargetRatio: float32(ratio), Done: ctx.Done()},
		{TargetRatio: float32(ratio), Permissive: true, Done: ctx.Done()},
	}
	var res simplify.Result
	var err error
	for _, opt := range attempts {
		res, err = simplify.Simplify(m, opt)
		if err != nil || float64(len(res.Indices)/3) <= want*1.05 {
			break
		}
	}
	if errors.Is(err, simplify.ErrStopped) {
		return plan{}, ctx.Err()
	}
	if err != nil {
		return plan{}, kiln.Errorf(kiln.KindUnprocessable, "invalid_model", "cannot simplify: %v", err)
	}
	// A result without triangles keeps the primitive as it was: an empty
	// primitive is not valid glTF.
	if len(res.Indices) == 0 {
		return plan{}, nil
	}
	return plan{indices: res.Indices, error: float64(res.Error)}, nil
}

// index welds p and gives it an index buffer: the simplifier finds seams
// and neighbours through shared indices, and per-corner exports (voxel
// models, OBJ) have none.
func index(p *scene.Primitive) error {
	if p.Mode != gltf.PrimitiveTriangles {
		return nil
	}
	if err := p.Weld(); err != nil {
		return err
	}
	if p.Indices == nil {
		p.Indices = make([]uint32, p.VertexCount())
		for i := range p.Indices {
			p.Indices[i] = uint32(i)
		}
	}
	return nil
}

// simplifiable reports whether p is a triangle list worth simplifying.
func simplifiable(p *scene.Primitive) bool {
	return p.Mode == gltf.PrimitiveTriangles && p.Indices != nil && p.Triangles() > 1
}

// Attribute weights: how much a unit change of the attribute counts
// against moving the surface by the whole model's size.
const (
	normalWeight = 0.5
	uvWeight     = 1.0
	colorWeight  = 0.5
)

// mesh flattens the primitive's positions and the attributes that should
// guide the collapses (normals, first texture coordinates, first colours).
// A primitive whose vertices are split by their normals alone (flat
// shading, hard edges) is given as sites with their normals instead, so
// that it simplifies as one surface and keeps its normals per side.
func mesh(p *scene.Primitive) simplify.Mesh {
	n := p.VertexCount()
	m := simplify.Mesh{Indices: p.Indices, Positions: make([]float32, 0, 3*n)}
	for _, v := range p.Positions {
		m.Positions = append(m.Positions, v[0], v[1], v[2])
	}
	var weights []float32
	if p.Normals != nil {
		if sites, split := p.ShadingSites(); split {
			m.Sites = sites
			m.Normals = make([]float32, 0, 3*n)
			for _, v := range p.Normals {
				m.Normals = append(m.Normals, v[0], v[1], v[2])
			}
		} else {
			weights = append(weights, normalWeight, normalWeight, normalWeight)
		}
	}
	var uv [][2]float32
	if len(p.TexCoords) > 0 {
		uv = p.TexCoords[0]
		weights = append(weights, uvWeight, uvWeight)
	}
	var col [][4]float32
	if len(p.Colors) > 0 {
		col = p.Colors[0]
		weights = append(weights, colorWeight, colorWeight, colorWeight, colorWeight)
	}
	if len(weights) == 0 {
		return m
	}
	m.AttrStride = len(weights)
	m.AttrWeights = weights
	m.Attributes = make([]float32, 0, n*len(weights))
	for i := range n {
		if p.Normals != nil && m.Sites == nil {
			m.Attributes = append(m.Attributes, p.Normals[i][:]...)
		}
		if uv != nil {
			m.Attributes = append(m.Attributes, uv[i][:]...)
		}
		if col != nil {
			m.Attributes = append(m.Attributes, col[i][:]...)
		}
	}
	return m
}
