package scene

import (
	"context"
	"encoding/json"
	"errors"
	"image/color"
	"testing"
	"time"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
)

// bigGrid is a scene of prims flat grids of side×side quads each: large
// enough that decoding it takes a noticeable time.
func bigGrid(prims, side int) *Scene {
	mesh := &Mesh{Name: "grid"}
	for p := range prims {
		pr := &Primitive{Mode: gltf.PrimitiveTriangles}
		for y := 0; y <= side; y++ {
			for x := 0; x <= side; x++ {
				pr.Positions = append(pr.Positions, [3]float32{float32(x), float32(y), float32(p)})
				pr.Normals = append(pr.Normals, [3]float32{0, 0, 1})
			}
		}
		for y := range side {
			for x := range side {
				i := uint32(y*(side+1) + x)
				j := i + uint32(side+1)
				pr.Indices = append(pr.Indices, i, i+1, j+1, i, j+1, j)
			}
		}
		mesh.Primitives = append(mesh.Primitives, pr)
	}
	return &Scene{
		Asset:        gltf.Asset{Version: "2.0"},
		Meshes:       []*Mesh{mesh},
		Nodes:        []*gltf.Node{{Name: "grid", Mesh: gltf.Index(0)}},
		Scenes:       []*gltf.Scene{{Nodes: []int{0}}},
		DefaultScene: gltf.Index(0),
	}
}

// TestReadContextStops reads a generated model of 48 grids (about 1.6 M
// triangles) as a GLB and as a .gltf with its buffer and an image in
// separate files:
// with a live context it reads all of it; with a context cancelled
// before, past its deadline, or cancelled while a file is being fetched
// (mid-read, before the meshes), it returns an error wrapping the context's, which
// is not the file's fault (not Unprocessable).
func TestReadContextStops(t *testing.T) {
	const prims, side = 48, 128
	glbData, err := Write(bigGrid(prims, side))
	if err != nil {
		t.Fatal(err)
	}
	text, bin, _, err := splitContainer(glbData)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	at(doc, "buffers", 0)["uri"] = "grid.bin"
	// An image (unused) read between the buffers and the meshes.
	doc["images"] = []any{map[string]any{"uri": "grid.png"}}
	png := scenetest.PNG(4, 4, color.NRGBA{R: 255, A: 255}, color.NRGBA{B: 255, A: 255})
	gltfText, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	live := func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }
	cancelled := func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx, cancel
	}
	expired := func() (context.Context, context.CancelFunc) {
		return context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	}
	for _, tc := range []struct {
		name string
		data []byte
		ctx  func() (context.Context, context.CancelFunc)
		// cancelOn cancels the context when the reader asks for that
		// file, after it has parsed the JSON.
		cancelOn string
		want     error
	}{
		{"glb live", glbData, live, "", nil},
		{"glb cancelled", glbData, cancelled, "", context.Canceled},
		{"glb past deadline", glbData, expired, "", context.DeadlineExceeded},
		{"gltf live", gltfText, live, "", nil},
		{"gltf cancelled while fetching its buffer", gltfText, live, "grid.bin", context.Canceled},
		{"gltf cancelled while fetching its image", gltfText, live, "grid.png", context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			files := func(uri string) ([]byte, error) {
				if uri == tc.cancelOn {
					cancel()
				}
				switch uri {
				case "grid.bin":
					return bin, nil
				case "grid.png":
					return png, nil
				}
				return nil, errors.New("no such file")
			}
			start := time.Now()
			s, err := ReadContext(ctx, tc.data, ReadOptions{Files: files})
			t.Logf("%d bytes: %v in %v", len(tc.data), err, time.Since(start))
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if st := s.Stats(); st.Triangles != prims*side*side*2 || st.Primitives != prims {
					t.Fatalf("read %+v, want %d triangles in %d primitives", st, prims*side*side*2, prims)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want one wrapping %v", err, tc.want)
			}
			if kiln.KindOf(err) == kiln.KindUnprocessable {
				t.Fatalf("err %v is Unprocessable: a stopped read would fail the file for good", err)
			}
		})
	}
}
