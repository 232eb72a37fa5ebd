package vrm

// eyeRange is how far the eyes turn, in degrees, when the target is 90
// degrees off: a human eye turns about 30 degrees to the side and less up
// and down, and Kiln's eyelids cover the iris sooner looking up, so the
// maps stop short of that (VRM's example, 10 everywhere, hardly moves
// the irises).
var eyeRange = struct{ inner, outer, down, up float64 }{inner: 20, outer: 25, down: 15, up: 12}

// lookAtOrigin is the point between the eyes in the head bone's own
// space (VRM's offsetFromHeadBone), or 6 cm above the head bone when
// the model has no eyes.
func (m *model) lookAtOrigin() [3]float64 {
	head := m.node["Head"]
	l, lok := m.node["LeftEye"]
	r, rok := m.node["RightEye"]
	if !lok || !rok {
		return [3]float64{0, 0.06, 0}
	}
	mid := [3]float64{}
	for k := range 3 {
		mid[k] = (m.world[l][k] + m.world[r][k]) / 2
	}
	inv, ok := m.mats[head].Inverse()
	if !ok {
		return [3]float64{0, 0.06, 0}
	}
	p := inv.Point(mid)
	return [3]float64{round(p[0]), round(p[1]), round(p[2])}
}

// lookAt1 is VRMC_vrm.lookAt: the eye bones turn (type bone).
func lookAt1(m *model) map[string]any {
	rng := func(out float64) map[string]any { return map[string]any{"inputMaxValue": 90, "outputScale": out} }
	o := m.lookAtOrigin()
	return map[string]any{
		"type":                    "bone",
		"offsetFromHeadBone":      []float64{o[0], o[1], o[2]},
		"rangeMapHorizontalInner": rng(eyeRange.inner),
		"rangeMapHorizontalOuter": rng(eyeRange.outer),
		"rangeMapVerticalDown":    rng(eyeRange.down),
		"rangeMapVerticalUp":      rng(eyeRange.up),
	}
}

// lookAt0 are the lookAt fields of VRM 0.x's firstPerson: curves of
// (0,0)-(1,1), linear, over the same ranges.
func lookAt0() map[string]any {
	curve := func(y float64) map[string]any {
		return map[string]any{"curve": []float64{0, 0, 0, 1, 1, 1, 1, 0}, "xRange": 90, "yRange": y}
	}
	return map[string]any{
		"lookAtTypeName":        "Bone",
		"lookAtHorizontalInner": curve(eyeRange.inner),
		"lookAtHorizontalOuter": curve(eyeRange.outer),
		"lookAtVerticalDown":    curve(eyeRange.down),
		"lookAtVerticalUp":      curve(eyeRange.up),
	}
}
