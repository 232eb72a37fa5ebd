package xform

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qmuntal/gltf"
)

func randomTRS(r *rand.Rand) Mat4 {
	q := [4]float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	for i := range q {
		q[i] /= l
	}
	t := [3]float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
	s := [3]float64{0.5 + r.Float64(), 0.5 + r.Float64(), 0.5 + r.Float64()}
	return TRS(t, q, s)
}

func TestInverseAndNormalMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		m := randomTRS(r)
		inv, ok := m.Inverse()
		if !ok || !m.Mul(inv).Near(Identity, 1e-9) || !inv.Mul(m).Near(Identity, 1e-9) {
			t.Fatalf("inverse of %v: %v (%v)", m, inv, ok)
		}
		// The normal matrix is the transpose of the linear part's inverse.
		n := m.NormalMatrix()
		for c := range 3 {
			for row := range 3 {
				if math.Abs(n[c*4+row]-inv[row*4+c]) > 1e-9 {
					t.Fatalf("normal matrix %v, inverse %v", n, inv)
				}
			}
		}
		// A normal stays perpendicular to a tangent under the transform.
		tangent, normal := [3]float64{1, 2, 0}, [3]float64{-2, 1, 5}
		a, b := m.Vector(tangent), n.Vector(normal)
		if d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2]; math.Abs(d) > 1e-9 {
			t.Fatalf("normal not perpendicular after transform: %v", d)
		}
	}
	if _, ok := (Mat4{}).Inverse(); ok {
		t.Error("the zero matrix inverted")
	}
}

func TestQuaternionRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		q := [4]float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		if q[3] < 0 {
			l = -l
		}
		for i := range q {
			q[i] /= l
		}
		got := Quaternion(Rotation(q))
		for i := range q {
			if math.Abs(got[i]-q[i]) > 1e-9 {
				t.Fatalf("Quaternion(Rotation(%v)) = %v", q, got)
			}
		}
	}
}

func TestRotationsAndPoints(t *testing.T) {
	near := func(a, b [3]float64) bool {
		return math.Abs(a[0]-b[0]) < 1e-12 && math.Abs(a[1]-b[1]) < 1e-12 && math.Abs(a[2]-b[2]) < 1e-12
	}
	quarter := AxisAngle([3]float64{0, 0, 1}, math.Pi/2)
	if got := quarter.Vector([3]float64{1, 0, 0}); !near(got, [3]float64{0, 1, 0}) {
		t.Errorf("a quarter turn about z takes x to %v", got)
	}
	p := [3]float64{1, 2, 3}
	around := About(quarter, p)
	if got := around.Point(p); !near(got, p) {
		t.Errorf("a rotation about %v moves it to %v", p, got)
	}
	if got := around.Point([3]float64{2, 2, 3}); !near(got, [3]float64{1, 3, 3}) {
		t.Errorf("a quarter turn about %v takes (2,2,3) to %v", p, got)
	}
	if d := TRS([3]float64{}, [4]float64{0, 0, 0, 1}, [3]float64{-1, 1, 1}).Det3(); d >= 0 {
		t.Errorf("a mirror has determinant %v", d)
	}
}

func TestLocal(t *testing.T) {
	q := [4]float64{0, math.Sin(0.3), 0, math.Cos(0.3)}
	want := TRS([3]float64{1, 2, 3}, q, [3]float64{2, 2, 2})
	tests := []struct {
		name string
		node gltf.Node
		want Mat4
	}{
		{"empty", gltf.Node{}, Identity},
		{"trs", gltf.Node{Translation: [3]float64{1, 2, 3}, Rotation: q, Scale: [3]float64{2, 2, 2}}, want},
		{"matrix", gltf.Node{Matrix: [16]float64(want)}, want},
		// A node with both (invalid glTF, but it happens) is matrix·TRS
		// in every stage.
		{"both", gltf.Node{Matrix: [16]float64(want), Translation: [3]float64{1, 0, 0}},
			want.Mul(TRS([3]float64{1, 0, 0}, [4]float64{0, 0, 0, 1}, [3]float64{1, 1, 1}))},
	}
	for _, tt := range tests {
		if got := Local(&tt.node); !got.Near(tt.want, 1e-12) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
