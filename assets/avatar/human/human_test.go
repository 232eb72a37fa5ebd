package human_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// sub, dist and norm are small vector helpers for the checks below.
func sub(a, b [3]float32) [3]float32 { return [3]float32{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func norm(a [3]float32) float64 {
	return math.Sqrt(float64(a[0])*float64(a[0]) + float64(a[1])*float64(a[1]) + float64(a[2])*float64(a[2]))
}
func dist(a, b [3]float32) float64 { return norm(sub(a, b)) }

// bodyVerts lists the base vertices the body's render mesh uses.
func bodyVerts() []int32 {
	seen := map[int32]bool{}
	var out []int32
	for _, v := range human.BodyMesh().Base {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func TestMeshIsConsistent(t *testing.T) {
	m := human.BodyMesh()
	b := human.Shape(human.Average(0.5))
	if len(m.Base) != len(m.UV) || len(m.Head) != len(m.Tris) {
		t.Fatalf("lengths: base %d uv %d tris %d head %d", len(m.Base), len(m.UV), len(m.Tris), len(m.Head))
	}
	// MakeHuman's body group: 13,378 quads, two triangles each.
	if len(m.Tris) != 2*13378 {
		t.Errorf("%d body triangles, want %d", len(m.Tris), 2*13378)
	}
	heads := 0
	for i, tri := range m.Tris {
		for _, c := range tri {
			if int(c) >= len(m.Base) {
				t.Fatalf("triangle %d: vertex %d of %d", i, c, len(m.Base))
			}
		}
		if m.Head[i] {
			heads++
		}
	}
	for i, v := range m.Base {
		if v < 0 || int(v) >= len(b.Pos) {
			t.Fatalf("vertex %d: base %d of %d", i, v, len(b.Pos))
		}
		if uv := m.UV[i]; uv[0] < 0 || uv[0] > 1 || uv[1] < 0 || uv[1] > 1 {
			t.Fatalf("vertex %d: uv %v outside the unit square", i, uv)
		}
	}
	// The head with the neck is a sizeable part, not all of the body.
	if share := float64(heads) / float64(len(m.Tris)); share < 0.1 || share > 0.4 {
		t.Errorf("head triangles: %.0f%% of the body", 100*share)
	}
	// Every head triangle lies above the shoulders.
	j := b.Joints()
	for i, tri := range m.Tris {
		if !m.Head[i] {
			continue
		}
		for _, c := range tri {
			if y := b.Pos[m.Base[c]][1]; y < j["LeftShoulder"][1]-0.05 {
				t.Fatalf("head triangle %d at y %.3f, below the shoulders (%.3f)", i, y, j["LeftShoulder"][1])
			}
		}
	}
}

func TestHeightsSpanAdults(t *testing.T) {
	// The Height dial alone spans MakeHuman's range over the grid.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, g := range []float64{0, 1} {
		for _, a := range []float64{0, 1} {
			for _, h := range []float64{0, 0.5, 1} {
				p := human.Params{Gender: g, Age: a, Muscle: 0.5, Weight: 0.5, Height: h, Proportions: 0.5}
				height := float64(human.Shape(p).Height())
				lo, hi = math.Min(lo, height), math.Max(hi, height)
			}
		}
	}
	t.Logf("Height dial over the grid: %.3f .. %.3f m", lo, hi)
	if lo > 1.50 || hi < 2.05 || lo < 1.0 || hi > 2.6 {
		t.Errorf("heights %.3f..%.3f m", lo, hi)
	}
	// Stature reaches 1.50 and 2.05 m for every corner of the build grid.
	for _, g := range []float64{0, 1} {
		for _, a := range []float64{0, 1} {
			for _, mu := range []float64{0, 1} {
				for _, w := range []float64{0, 1} {
					for _, want := range []float64{1.50, 1.75, 2.05} {
						p := human.Params{Gender: g, Age: a, Muscle: mu, Weight: w, Proportions: 0.5, Stature: want}
						if got := float64(human.Shape(p).Height()); math.Abs(got-want) > 0.01 {
							t.Errorf("%+v: %.3f m tall", p, got)
						}
					}
				}
			}
		}
	}
	f, m := human.Shape(human.Average(0)).Height(), human.Shape(human.Average(1)).Height()
	t.Logf("average female %.3f m, male %.3f m", f, m)
	if f < 1.55 || f > 1.75 || m < 1.65 || m > 1.88 || f >= m {
		t.Errorf("average female %.3f m, male %.3f m", f, m)
	}
}

func TestFrame(t *testing.T) {
	b := human.Shape(human.Average(1))
	j := b.Joints()
	minY := float32(math.Inf(1))
	for _, v := range bodyVerts() {
		minY = min(minY, b.Pos[v][1])
	}
	if minY != 0 {
		t.Errorf("lowest body vertex at y %g, want 0", minY)
	}
	if h := j["Hips"]; h[0] != 0 || h[2] != 0 || h[1] < 0.8 || h[1] > 1.1 {
		t.Errorf("Hips at %v, want above the origin about 0.9 m up", h)
	}
	// Facing +Z with the left on +X, as Ready Player Me avatars.
	if j["LeftHand"][0] <= 0.2 || j["RightHand"][0] >= -0.2 {
		t.Errorf("hands at %v and %v: left should be on +X", j["LeftHand"], j["RightHand"])
	}
	if j["LeftEye"][2] <= j["Head"][2] || j["LeftToeBase"][2] <= j["LeftFoot"][2] {
		t.Errorf("eyes %v and toes %v should be ahead (+Z) of head %v and ankle %v",
			j["LeftEye"], j["LeftToeBase"], j["Head"], j["LeftFoot"])
	}
	names := human.JointNames()
	if len(names) != 67 || len(j) != 67 {
		t.Fatalf("%d names, %d joints", len(names), len(j))
	}
}

func TestJointsInsideBody(t *testing.T) {
	for _, p := range []human.Params{
		human.Average(0), human.Average(1),
		{Gender: 1, Age: 1, Muscle: 1, Weight: 1, Height: 1, Proportions: 1},
		{Gender: 0, Age: 0, Muscle: 0, Weight: 0, Height: 0, Proportions: 0},
	} {
		b := human.Shape(p)
		j := b.Joints()
		verts := bodyVerts()
		// Hips between the hip joints, under the spine.
		if h := j["Hips"]; h[1] < j["LeftUpLeg"][1]-0.05 || h[1] > j["Spine"][1] || j["LeftUpLeg"][0] <= 0 || j["RightUpLeg"][0] >= 0 {
			t.Errorf("%+v: Hips %v, up legs %v %v, spine %v", p, h, j["LeftUpLeg"], j["RightUpLeg"], j["Spine"])
		}
		// Chains run down the arms and legs.
		for _, s := range []string{"Left", "Right"} {
			if !(j[s+"Arm"][1] > j[s+"ForeArm"][1] && j[s+"ForeArm"][1] > j[s+"Hand"][1]) {
				t.Errorf("%+v: %s arm chain not descending", p, s)
			}
			if !(j[s+"UpLeg"][1] > j[s+"Leg"][1] && j[s+"Leg"][1] > j[s+"Foot"][1] && j[s+"Foot"][1] > 0) {
				t.Errorf("%+v: %s leg chain not descending", p, s)
			}
		}
		// Each joint lies within a few centimetres of the skin (inside
		// the limb at the wrist, knee, knuckles...), the skull ones
		// within the head.
		for name, q := range j {
			near := math.Inf(1)
			for _, v := range verts {
				near = math.Min(near, dist(q, b.Pos[v]))
			}
			limit := 0.06
			switch strings.TrimPrefix(strings.TrimPrefix(name, "Left"), "Right") {
			case "Shoulder", "Arm", "UpLeg":
				limit = 0.10
			case "Hips", "Spine", "Spine1", "Spine2", "Neck", "Head":
				limit = 0.16
			}
			if near > limit {
				t.Errorf("%+v: %s is %.3f m from the nearest skin", p, name, near)
			}
		}
		// The wrist joint sits at the wrist: between forearm and fingers.
		hand, fore, mid := j["LeftHand"], j["LeftForeArm"], j["LeftHandMiddle1"]
		if d1, d2 := dist(hand, fore), dist(hand, mid); d2 > d1 || d2 < 0.05 || d2 > 0.15 {
			t.Errorf("%+v: wrist %.3f m from the elbow, %.3f m from the knuckles", p, d1, d2)
		}
	}
}

func TestWeights(t *testing.T) {
	ws := human.Weights()
	names := human.JointNames()
	check := func(what string, inf human.Influence) {
		var sum float64
		for k, w := range inf.Weight {
			if w < 0 || int(inf.Joint[k]) >= len(names) {
				t.Fatalf("%s: bad influence %+v", what, inf)
			}
			sum += float64(w)
		}
		if math.Abs(sum-1) > 1e-4 {
			t.Fatalf("%s: weights sum to %g", what, sum)
		}
	}
	for _, v := range bodyVerts() {
		check("body vertex", ws[v])
	}
	// Each limb moves with its own joints: a finger tip's vertex follows a
	// finger joint, an ankle's the leg or foot.
	b := human.Shape(human.Average(1))
	j := b.Joints()
	nearest := func(q [3]float32) int32 {
		best, bv := math.Inf(1), int32(-1)
		for _, v := range bodyVerts() {
			if d := dist(q, b.Pos[v]); d < best {
				best, bv = d, v
			}
		}
		return bv
	}
	for _, c := range []struct{ at, want string }{
		{"LeftHandIndex4", "LeftHandIndex"},
		{"RightHandPinky4", "RightHandPinky"},
		{"HeadTop_End", "Head"},
		{"LeftToe_End", "LeftToeBase"},
	} {
		inf := ws[nearest(j[c.at])]
		if top := names[inf.Joint[0]]; !strings.HasPrefix(top, c.want) {
			t.Errorf("skin at %s follows %s most, want %s…", c.at, top, c.want)
		}
	}
	for _, id := range slices.Concat(human.Assets("top"), human.Assets("hair"), human.Assets("eyes")) {
		f, err := b.Fit(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, inf := range f.Weights() {
			check(id, inf)
		}
	}
}

func TestAssetsCoverStyles(t *testing.T) {
	want := map[string][]string{
		"top":       {"tshirt", "shirt", "hoodie", "blouse", "tank"},
		"bottom":    {"jeans", "trousers", "shorts", "skirt"},
		"footwear":  {"sneakers", "boots", "shoes"},
		"hair":      {"short", "buzz", "long", "bun", "ponytail", "curly"},
		"eyebrows":  {"default"},
		"eyelashes": {"default"},
		"eyes":      {"left", "right"},
		"teeth":     {"default"},
		"tongue":    {"default"},
	}
	for kind, styles := range want {
		have := human.Assets(kind)
		for _, s := range styles {
			if !slices.Contains(have, kind+"/"+s) {
				t.Errorf("no %s/%s in %v", kind, s, have)
			}
		}
	}
	if human.Assets("hats") != nil {
		t.Error("an unknown kind lists assets")
	}
	if _, err := human.Shape(human.Average(0)).Fit("top/cape"); err == nil {
		t.Error("Fit of an unknown asset did not fail")
	}
}

func TestFaceModifiersMoveTheFace(t *testing.T) {
	mods := human.Modifiers()
	for _, n := range []string{"nose/nose-scale-horiz", "chin/chin-width", "head/head-oval", "mouth/mouth-scale-horiz", "ears/ear-lobe"} {
		if !slices.Contains(mods, n) {
			t.Fatalf("no modifier %s among %d", n, len(mods))
		}
	}
	base := human.Shape(human.Average(1))
	p := human.Average(1)
	p.Face = map[string]float64{"nose/nose-scale-horiz": 1}
	wide := human.Shape(p)
	j := base.Joints()
	moved, far := 0, 0
	for v := range base.Pos {
		if d := dist(base.Pos[v], wide.Pos[v]); d > 1e-4 {
			moved++
			if dist(base.Pos[v], j["Head"]) > 0.25 {
				far++
			}
		}
	}
	if moved < 20 || far > 0 {
		t.Errorf("a wider nose moved %d vertices, %d of them far from the head", moved, far)
	}
	// Deterministic: the same parameters give the same bits.
	again := human.Shape(p)
	if !slices.Equal(again.Pos, wide.Pos) {
		t.Error("Shape is not deterministic")
	}
}

// The face's assets sit in the head: teeth and tongue behind the lips and
// below the eyes, eyes in their sockets, brows above them.
func TestFaceAssetsInPlace(t *testing.T) {
	b := human.Shape(human.Average(0))
	j := b.Joints()
	m := human.BodyMesh()
	lo := [3]float32{1e9, 1e9, 1e9}
	hi := [3]float32{-1e9, -1e9, -1e9}
	for i, tri := range m.Tris {
		if !m.Head[i] {
			continue
		}
		for _, c := range tri {
			p := b.Pos[m.Base[c]]
			for a := 0; a < 3; a++ {
				lo[a], hi[a] = min(lo[a], p[a]), max(hi[a], p[a])
			}
		}
	}
	centre := func(id string) [3]float32 {
		f, err := b.Fit(id)
		if err != nil {
			t.Fatal(err)
		}
		var c [3]float32
		for _, p := range f.Pos {
			for a := 0; a < 3; a++ {
				if p[a] < lo[a]-0.01 || p[a] > hi[a]+0.01 {
					t.Fatalf("%s: vertex %v outside the head %v..%v", id, p, lo, hi)
				}
				c[a] += p[a] / float32(len(f.Pos))
			}
		}
		return c
	}
	eyeY := j["LeftEye"][1]
	for _, id := range []string{"teeth/default", "teeth/low", "tongue/default"} {
		c := centre(id)
		if c[1] > eyeY-0.04 || c[2] > hi[2]-0.005 || math.Abs(float64(c[0])) > 0.01 {
			t.Errorf("%s centred at %v: want below the eyes (%.3f), behind the lips (%.3f), on the midline", id, c, eyeY, hi[2])
		}
	}
	if l, r := centre("eyes/left"), centre("eyes/right"); dist(l, j["LeftEye"]) > 0.02 || dist(r, j["RightEye"]) > 0.02 {
		t.Errorf("eyes at %v and %v, joints at %v and %v", l, r, j["LeftEye"], j["RightEye"])
	}
	if c := centre("eyebrows/default"); c[1] < eyeY {
		t.Errorf("eyebrows at %v, under the eyes", c)
	}
	centre("eyelashes/default")
}

// Normals point out of the body: away from the bone they wrap (the
// forearm's skin away from the forearm's axis, the face forward), and
// render vertices split by a UV seam share one normal.
func TestNormalsPointOut(t *testing.T) {
	b := human.Shape(human.Average(1))
	m := human.BodyMesh()
	n := b.Normals()
	j := b.Joints()
	same := map[int32][3]float32{}
	out, total := 0, 0
	for i, v := range m.Base {
		if prev, ok := same[v]; ok && prev != n[i] {
			t.Fatalf("base vertex %d has two normals %v and %v", v, prev, n[i])
		}
		same[v] = n[i]
		p := b.Pos[v]
		// Skin around the left forearm: compare with the direction from
		// the nearest point of the elbow-wrist axis.
		e, w := j["LeftForeArm"], j["LeftHand"]
		axis := sub(w, e)
		l2 := axis[0]*axis[0] + axis[1]*axis[1] + axis[2]*axis[2]
		s := (sub(p, e)[0]*axis[0] + sub(p, e)[1]*axis[1] + sub(p, e)[2]*axis[2]) / l2
		if s < 0.2 || s > 0.8 {
			continue
		}
		q := [3]float32{e[0] + s*axis[0], e[1] + s*axis[1], e[2] + s*axis[2]}
		if dist(p, q) > 0.06 {
			continue
		}
		r := sub(p, q)
		total++
		if r[0]*n[i][0]+r[1]*n[i][1]+r[2]*n[i][2] > 0 {
			out++
		}
	}
	if total < 50 || float64(out) < 0.97*float64(total) {
		t.Errorf("%d of %d forearm normals point out", out, total)
	}
	f, err := b.Fit("top/tshirt")
	if err != nil {
		t.Fatal(err)
	}
	fn := f.Normals()
	var front, back int
	for i, p := range f.Pos {
		if p[1] > j["Spine1"][1] && p[1] < j["Spine2"][1] && math.Abs(float64(p[0])) < 0.05 {
			if p[2] > 0 && fn[i][2] > 0.5 {
				front++
			}
			if p[2] < 0 && fn[i][2] < -0.5 {
				back++
			}
		}
	}
	if front < 5 || back < 5 {
		t.Errorf("T-shirt chest normals: %d forward at the front, %d backward at the back", front, back)
	}
}

// Tops follow the torso, never the legs; trousers follow the legs.
func TestTopsDoNotFollowTheLegs(t *testing.T) {
	b := human.Shape(human.Average(1))
	names := human.JointNames()
	for _, id := range slices.Concat(human.Assets("top"), human.Assets("bottom")) {
		f, err := b.Fit(id)
		if err != nil {
			t.Fatal(err)
		}
		legs := 0
		for _, inf := range f.Weights() {
			for k, j := range inf.Joint {
				if inf.Weight[k] > 0 && (strings.Contains(names[j], "Leg") || strings.Contains(names[j], "Foot")) {
					legs++
					break
				}
			}
		}
		top := strings.HasPrefix(id, "top/")
		if top && legs > 0 || !top && id != "bottom/skirt" && legs < len(f.Pos)/3 {
			t.Errorf("%s: %d of %d vertices follow a leg", id, legs, len(f.Pos))
		}
	}
}

// Any face, even every dial at an end, keeps a sane body of the asked
// height.
func TestExtremeFaces(t *testing.T) {
	mods := human.Modifiers()
	for seed, sign := range []float64{-1, 1, 0.5} {
		p := human.Average(float64(seed % 2))
		p.Stature = 1.8
		p.Face = map[string]float64{}
		for i, n := range mods {
			if strings.HasPrefix(n, "head/") || strings.HasPrefix(n, "nose/") || strings.HasPrefix(n, "chin/") || strings.HasPrefix(n, "ears/") {
				p.Face[n] = sign * float64(1-2*(i%2))
			}
		}
		b := human.Shape(p)
		if h := float64(b.Height()); math.Abs(h-1.8) > 0.01 {
			t.Errorf("face %v: %.3f m tall, want 1.8", sign, h)
		}
		for name, q := range b.Joints() {
			for _, x := range q {
				if math.IsNaN(float64(x)) || math.Abs(float64(x)) > 2.5 {
					t.Fatalf("face %v: joint %s at %v", sign, name, q)
				}
			}
		}
	}
}

// The helper groups hold the vertices the face assets bind to.
func TestGroups(t *testing.T) {
	b := human.Shape(human.Average(1))
	teeth, err := b.Fit("teeth/low")
	if err != nil {
		t.Fatal(err)
	}
	upper, lower := human.Group("helper-upper-teeth"), human.Group("helper-lower-teeth")
	if len(upper) == 0 || len(lower) == 0 || human.Group("helper-cape") != nil {
		t.Fatalf("teeth groups: %d and %d vertices", len(upper), len(lower))
	}
	for _, bd := range teeth.Bind {
		if !slices.Contains(upper, bd.V[0]) && !slices.Contains(lower, bd.V[0]) {
			t.Fatalf("teeth/low vertex bound to base vertex %d, in neither teeth group", bd.V[0])
		}
	}
	// The lower arch sits under the upper one.
	var uy, ly float64
	for _, v := range upper {
		uy += float64(b.Pos[v][1]) / float64(len(upper))
	}
	for _, v := range lower {
		ly += float64(b.Pos[v][1]) / float64(len(lower))
	}
	if ly >= uy {
		t.Errorf("lower teeth at %.3f m, upper at %.3f m", ly, uy)
	}
}
