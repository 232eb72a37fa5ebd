package merge

import (
	"slices"
	"sort"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
)

// retargetWeights moves the morph weight channels of merged nodes onto
// the merged mesh nodes. A channel sets all of a mesh's weights, so the
// merged channel writes each source's weights at that source's target
// indices and the defaults elsewhere; several channels driving one
// merged mesh in one clip are resampled on the union of their key times
// (LINEAR, or STEP when all are; cubic-spline values are taken without
// their tangents). Channels of merged nodes that drive nothing merged
// any more are dropped, as are the samplers only they used.
func retargetWeights(s *scene.Scene, insts []*instance, nodeIndex [nKinds]int, unions [nKinds][]string) {
	byNode := map[int]*instance{}
	for _, in := range insts {
		byNode[in.node] = in
	}
	for _, a := range s.Animations {
		var keep []scene.Channel
		var moved [nKinds][]scene.Channel
		for _, c := range a.Channels {
			if c.Node == nil || c.Path != gltf.TRSWeights || byNode[*c.Node] == nil {
				keep = append(keep, c)
				continue
			}
			for kind := range moved {
				if nodeIndex[kind] >= 0 && len(unions[kind]) > 0 {
					moved[kind] = append(moved[kind], c)
				}
			}
		}
		if len(keep) == len(a.Channels) {
			continue
		}
		for kind, chans := range moved {
			var relevant []scene.Channel
			for _, c := range chans {
				in := byNode[*c.Node]
				for _, n := range in.names {
					if slices.Contains(unions[kind], n) {
						relevant = append(relevant, c)
						break
					}
				}
			}
			if len(relevant) == 0 {
				continue
			}
			sampler := mergeWeightSamplers(a, relevant, byNode, unions[kind], defaults(insts, unions[kind]))
			a.Samplers = append(a.Samplers, sampler)
			keep = append(keep, scene.Channel{Sampler: len(a.Samplers) - 1, Node: gltf.Index(nodeIndex[kind]), Path: gltf.TRSWeights})
		}
		a.Channels = keep
		dropUnusedSamplers(a)
	}
	// An animation left without channels is invalid glTF: drop it.
	s.Animations = slices.DeleteFunc(s.Animations, func(a *scene.Animation) bool { return len(a.Channels) == 0 })
}

// defaults are the merged mesh's default weights, by union index.
func defaults(insts []*instance, union []string) []float32 {
	out := make([]float32, len(union))
	set := make([]bool, len(union))
	for _, in := range insts {
		for i, n := range in.names {
			if k := slices.Index(union, n); k >= 0 && !set[k] {
				out[k], set[k] = float32(in.weights[i]), true
			}
		}
	}
	return out
}

func mergeWeightSamplers(a *scene.Animation, chans []scene.Channel, byNode map[int]*instance, union []string, def []float32) scene.AnimationSampler {
	u := len(union)
	places := func(c scene.Channel) []int {
		in := byNode[*c.Node]
		out := make([]int, len(in.names))
		for i, n := range in.names {
			out[i] = slices.Index(union, n)
		}
		return out
	}
	if len(chans) == 1 {
		// One channel: same keys and interpolation, values moved.
		src := a.Samplers[chans[0].Sampler]
		to := places(chans[0])
		t := len(to)
		keys := len(src.Input)
		blocks := 1
		if src.Interpolation == gltf.InterpolationCubicSpline {
			blocks = 3
		}
		out := make([]float32, keys*blocks*u)
		for k := 0; k < keys*blocks; k++ {
			if blocks == 1 || k%3 == 1 {
				copy(out[k*u:(k+1)*u], def)
			}
			for i, dst := range to {
				if dst >= 0 && (k*t+i) < len(src.Output) {
					out[k*u+dst] = src.Output[k*t+i]
				}
			}
		}
		return scene.AnimationSampler{Interpolation: src.Interpolation, Input: slices.Clone(src.Input), Output: out}
	}
	var times []float32
	step := true
	for _, c := range chans {
		smp := a.Samplers[c.Sampler]
		times = append(times, smp.Input...)
		step = step && smp.Interpolation == gltf.InterpolationStep
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	times = slices.Compact(times)
	out := make([]float32, len(times)*u)
	for k := range times {
		copy(out[k*u:(k+1)*u], def)
	}
	for _, c := range chans {
		smp := a.Samplers[c.Sampler]
		to := places(c)
		for k, tm := range times {
			vals := sample(smp, len(to), tm)
			for i, dst := range to {
				if dst >= 0 {
					out[k*u+dst] = vals[i]
				}
			}
		}
	}
	interp := gltf.InterpolationLinear
	if step {
		interp = gltf.InterpolationStep
	}
	return scene.AnimationSampler{Interpolation: interp, Input: times, Output: out}
}

// sample evaluates a weights sampler of width w at time t.
func sample(smp scene.AnimationSampler, w int, t float32) []float32 {
	keys := len(smp.Input)
	out := make([]float32, w)
	if keys == 0 {
		return out
	}
	value := func(k int) []float32 {
		off := k * w
		if smp.Interpolation == gltf.InterpolationCubicSpline {
			off = (3*k + 1) * w
		}
		if off+w > len(smp.Output) {
			return out
		}
		return smp.Output[off : off+w]
	}
	k := sort.Search(keys, func(i int) bool { return smp.Input[i] > t }) - 1
	switch {
	case k < 0:
		copy(out, value(0))
	case k >= keys-1 || smp.Interpolation == gltf.InterpolationStep:
		copy(out, value(k))
	default:
		t0, t1 := smp.Input[k], smp.Input[k+1]
		f := float32(0)
		if t1 > t0 {
			f = (t - t0) / (t1 - t0)
		}
		a, b := value(k), value(k+1)
		for i := range out {
			out[i] = a[i] + (b[i]-a[i])*f
		}
	}
	return out
}

// dropUnusedSamplers removes samplers no channel uses and renumbers.
func dropUnusedSamplers(a *scene.Animation) {
	used := make([]bool, len(a.Samplers))
	for _, c := range a.Channels {
		if c.Sampler >= 0 && c.Sampler < len(used) {
			used[c.Sampler] = true
		}
	}
	remap := make([]int, len(a.Samplers))
	var kept []scene.AnimationSampler
	for i, smp := range a.Samplers {
		remap[i] = -1
		if used[i] {
			remap[i] = len(kept)
			kept = append(kept, smp)
		}
	}
	a.Samplers = kept
	for i := range a.Channels {
		a.Channels[i].Sampler = remap[a.Channels[i].Sampler]
	}
}
