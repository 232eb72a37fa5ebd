package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar/human/hmdata"
)

// jointNames lists Kiln's 67 joints in the order of
// assets/avatar.JointNames (Ready Player Me's), which package human's
// tests hold it to. The converter keeps its own copy so that it does not
// build the whole avatar generator.
func jointNames() []string {
	names := []string{"Hips", "Spine", "Spine1", "Spine2", "Neck", "Head", "HeadTop_End", "LeftEye", "RightEye"}
	for _, side := range []string{"Left", "Right"} {
		names = append(names, side+"Shoulder", side+"Arm", side+"ForeArm", side+"Hand")
		for _, f := range []string{"Thumb", "Index", "Middle", "Ring", "Pinky"} {
			for k := 1; k <= 4; k++ {
				names = append(names, fmt.Sprintf("%sHand%s%d", side, f, k))
			}
		}
	}
	for _, side := range []string{"Left", "Right"} {
		names = append(names, side+"UpLeg", side+"Leg", side+"Foot", side+"ToeBase", side+"Toe_End")
	}
	return names
}

// skeleton is the part of a .mhskel the converter reads.
type skeleton struct {
	Joints map[string][]int32 `json:"joints"`
	Bones  map[string]struct {
		Parent string `json:"parent"`
	} `json:"bones"`
}

// jointSources places each of Kiln's 67 joints (Ready Player Me's names)
// on MakeHuman joint vertex groups ("bone____head" or "bone____tail");
// with several, the joint sits at the average of their means. Chosen by
// comparing heights with Mixamo's proportions: the Hips at the pelvis
// bones' common head, Spine/Spine1/Spine2 at the heads of spine04,
// spine02 and spine01 (the chest, where the clavicles hang), the Head at
// the skull base, the toe base at the ball of the foot.
func jointSources() map[string][]string {
	h := func(b string) string { return b + "____head" }
	t := func(b string) string { return b + "____tail" }
	m := map[string][]string{
		"Hips":        {h("spine05")},
		"Spine":       {h("spine04")},
		"Spine1":      {h("spine02")},
		"Spine2":      {h("spine01")},
		"Neck":        {h("neck01")},
		"Head":        {h("head")},
		"HeadTop_End": {t("head")},
		"LeftEye":     {h("eye.L")},
		"RightEye":    {h("eye.R")},
	}
	fingers := []string{"Thumb", "Index", "Middle", "Ring", "Pinky"}
	for _, s := range []struct{ rpm, mh string }{{"Left", "L"}, {"Right", "R"}} {
		b := func(name string) string { return name + "." + s.mh }
		m[s.rpm+"Shoulder"] = []string{h(b("clavicle"))}
		m[s.rpm+"Arm"] = []string{h(b("upperarm01"))}
		m[s.rpm+"ForeArm"] = []string{h(b("lowerarm01"))}
		m[s.rpm+"Hand"] = []string{h(b("wrist"))}
		for i, f := range fingers {
			n := fmt.Sprintf("finger%d-", i+1)
			for k := 1; k <= 3; k++ {
				m[fmt.Sprintf("%sHand%s%d", s.rpm, f, k)] = []string{h(b(fmt.Sprintf("%s%d", n, k)))}
			}
			m[s.rpm+"Hand"+f+"4"] = []string{t(b(n + "3"))}
		}
		m[s.rpm+"UpLeg"] = []string{h(b("upperleg01"))}
		m[s.rpm+"Leg"] = []string{h(b("lowerleg01"))}
		m[s.rpm+"Foot"] = []string{h(b("foot"))}
		var balls []string
		for k := 1; k <= 5; k++ {
			balls = append(balls, h(b(fmt.Sprintf("toe%d-1", k))))
		}
		m[s.rpm+"ToeBase"] = balls
		m[s.rpm+"Toe_End"] = []string{t(b("toe1-2")), t(b("toe2-3")), t(b("toe3-3"))}
	}
	return m
}

// rigJoints resolves jointSources in Kiln's joint order.
func rigJoints(skel skeleton) ([]hmdata.Joint, error) {
	src := jointSources()
	var out []hmdata.Joint
	for _, name := range jointNames() {
		groups, ok := src[name]
		if !ok {
			return nil, fmt.Errorf("rig: no MakeHuman source for joint %s", name)
		}
		j := hmdata.Joint{Name: name}
		for _, g := range groups {
			vs, ok := skel.Joints[g]
			if !ok || len(vs) == 0 {
				return nil, fmt.Errorf("rig: joint %s: no vertex group %s", name, g)
			}
			j.Parts = append(j.Parts, vs)
		}
		out = append(out, j)
	}
	return out, nil
}

// boneJoint maps a MakeHuman bone to the Kiln joint whose segment it
// lies in: face bones (jaw, lips, lids, brows, cheeks, tongue) go to the
// Head, metacarpals to the Hand, toes to the toe base, the breast to the
// chest.
func boneJoint(bone string) string {
	side := ""
	name := bone
	if strings.HasSuffix(bone, ".L") {
		side, name = "Left", strings.TrimSuffix(bone, ".L")
	} else if strings.HasSuffix(bone, ".R") {
		side, name = "Right", strings.TrimSuffix(bone, ".R")
	}
	switch {
	case name == "root" || name == "pelvis" || name == "spine05":
		return "Hips"
	case name == "spine04" || name == "spine03":
		return "Spine"
	case name == "spine02":
		return "Spine1"
	case name == "spine01" || name == "breast":
		return "Spine2"
	case strings.HasPrefix(name, "neck"):
		return "Neck"
	case name == "eye":
		return side + "Eye"
	case name == "clavicle" || name == "shoulder01":
		return side + "Shoulder"
	case strings.HasPrefix(name, "upperarm"):
		return side + "Arm"
	case strings.HasPrefix(name, "lowerarm"):
		return side + "ForeArm"
	case name == "wrist" || strings.HasPrefix(name, "metacarpal"):
		return side + "Hand"
	case strings.HasPrefix(name, "finger"):
		// fingerN-K: N counts thumb to pinky, K the phalanx.
		var n, k int
		fmt.Sscanf(name, "finger%d-%d", &n, &k)
		return fmt.Sprintf("%sHand%s%d", side, []string{"Thumb", "Index", "Middle", "Ring", "Pinky"}[n-1], k)
	case strings.HasPrefix(name, "upperleg"):
		return side + "UpLeg"
	case strings.HasPrefix(name, "lowerleg"):
		return side + "Leg"
	case name == "foot":
		return side + "Foot"
	case strings.HasPrefix(name, "toe"):
		return side + "ToeBase"
	}
	return "Head"
}

// rigWeights maps the MakeHuman weights onto Kiln's joints: per vertex
// the weights of bones mapped to one joint add up, the four largest are
// kept and normalised to 65535.
func rigWeights(skel skeleton, weights map[string][][2]float64, verts int) ([]uint8, []uint16, error) {
	index := map[string]int{}
	for i, n := range jointNames() {
		index[n] = i
	}
	per := make([]map[int]float64, verts)
	// Bones in name order: float sums then come out the same on every
	// run, and so does the file.
	bones := make([]string, 0, len(weights))
	for b := range weights {
		bones = append(bones, b)
	}
	sort.Strings(bones)
	for _, bone := range bones {
		list := weights[bone]
		if _, ok := skel.Bones[bone]; !ok {
			return nil, nil, fmt.Errorf("weights: bone %s not in the skeleton", bone)
		}
		j, ok := index[boneJoint(bone)]
		if !ok {
			return nil, nil, fmt.Errorf("weights: bone %s maps to unknown joint %s", bone, boneJoint(bone))
		}
		for _, vw := range list {
			v := int(vw[0])
			if v < 0 || v >= verts {
				return nil, nil, fmt.Errorf("weights: bone %s: vertex %d out of range", bone, v)
			}
			if per[v] == nil {
				per[v] = map[int]float64{}
			}
			per[v][j] += vw[1]
		}
	}
	joints := make([]uint8, 4*verts)
	values := make([]uint16, 4*verts)
	for v, m := range per {
		type jw struct {
			j int
			w float64
		}
		var list []jw
		for j, w := range m {
			if w > 0 {
				list = append(list, jw{j, w})
			}
		}
		if len(list) == 0 {
			// Joint markers carry no weights; they are never rendered.
			// Give them to the Hips so every vertex has a valid influence.
			values[4*v] = 65535
			continue
		}
		sort.Slice(list, func(a, b int) bool {
			if list[a].w != list[b].w {
				return list[a].w > list[b].w
			}
			return list[a].j < list[b].j
		})
		if len(list) > 4 {
			list = list[:4]
		}
		sum := 0.0
		for _, e := range list {
			sum += e.w
		}
		left := 65535
		for k, e := range list {
			q := int(e.w/sum*65535 + 0.5)
			if k == len(list)-1 {
				q = left
			}
			joints[4*v+k] = uint8(e.j)
			values[4*v+k] = uint16(q)
			left -= q
		}
	}
	return joints, values, nil
}

// lowerShare gives, per base vertex, the share of its skin weight on the
// Hips and the legs: the part of the body bottoms cover.
func lowerShare(joints []hmdata.Joint, wj []uint8, wv []uint16) weightsFunc {
	low := make([]bool, len(joints))
	for i, j := range joints {
		n := strings.TrimPrefix(strings.TrimPrefix(j.Name, "Left"), "Right")
		low[i] = n == "Hips" || n == "UpLeg" || n == "Leg" || n == "Foot" || n == "ToeBase" || n == "Toe_End"
	}
	return func(v int32) float32 {
		var s float32
		for k := 0; k < 4; k++ {
			if low[wj[4*v+int32(k)]] {
				s += float32(wv[4*v+int32(k)]) / 65535
			}
		}
		return s
	}
}
