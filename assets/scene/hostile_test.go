package scene

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// sharedBufferGLB is a GLB of one mesh with n primitives of one triangle
// each, whose indices all point into one POSITION accessor of 3n
// vertices: what an exporter writes for many materials on one vertex
// buffer, and, at large n, the glTF form of issue 25's OBJ of a million
// materials. Each primitive keeps only the vertices it uses.
func sharedBufferGLB(n int) []byte {
	bin := make([]byte, 0, 48*n)
	for i := range 3 * n {
		for _, v := range [3]float32{float32(i / 3), float32(i % 3 / 2), float32(i % 3 % 2)} {
			bin = binary.LittleEndian.AppendUint32(bin, math.Float32bits(v))
		}
	}
	for i := range 3 * n {
		bin = binary.LittleEndian.AppendUint32(bin, uint32(i))
	}
	accessors := []map[string]any{{
		"bufferView": 0, "componentType": 5126, "count": 3 * n, "type": "VEC3",
		"min": []float32{0, 0, 0}, "max": []float32{float32(n - 1), 1, 1},
	}}
	prims := make([]map[string]any, n)
	for i := range n {
		accessors = append(accessors, map[string]any{"bufferView": 1, "byteOffset": 12 * i, "componentType": 5125, "count": 3, "type": "SCALAR"})
		prims[i] = map[string]any{"attributes": map[string]int{"POSITION": 0}, "indices": 1 + i}
	}
	doc := map[string]any{
		"asset":       map[string]string{"version": "2.0"},
		"buffers":     []map[string]int{{"byteLength": len(bin)}},
		"bufferViews": []map[string]int{{"buffer": 0, "byteLength": 36 * n}, {"buffer": 0, "byteOffset": 36 * n, "byteLength": 12 * n}},
		"accessors":   accessors,
		"meshes":      []map[string]any{{"primitives": prims}},
		"nodes":       []map[string]int{{"mesh": 0}},
		"scenes":      []map[string][]int{{"nodes": {0}}},
		"scene":       0,
	}
	js, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	out := binary.LittleEndian.AppendUint32(nil, glbMagic)
	out = binary.LittleEndian.AppendUint32(out, 2)
	out = binary.LittleEndian.AppendUint32(out, uint32(12+8+len(js)+8+len(bin)))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(js)))
	out = binary.LittleEndian.AppendUint32(out, glbChunkJSON)
	out = append(out, js...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(bin)))
	out = binary.LittleEndian.AppendUint32(out, glbChunkBIN)
	return append(out, bin...)
}

// TestReadSharedBuffer reads primitives that share one vertex buffer:
// each keeps its own three vertices, in their order, and its indices
// follow them.
func TestReadSharedBuffer(t *testing.T) {
	const n = 1000
	s, err := Read(sharedBufferGLB(n), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.Meshes[0].Primitives); got != n {
		t.Fatalf("%d primitives, want %d", got, n)
	}
	for i, p := range s.Meshes[0].Primitives {
		want := [][3]float32{{float32(i), 0, 0}, {float32(i), 0, 1}, {float32(i), 1, 0}}
		if fmt.Sprint(p.Positions) != fmt.Sprint(want) || fmt.Sprint(p.Indices) != "[0 1 2]" {
			t.Fatalf("primitive %d: positions %v indices %v, want %v [0 1 2]", i, p.Positions, p.Indices, want)
		}
	}
}

// BenchmarkReadSharedBuffer reads n, 2n and 4n one-triangle primitives
// on one shared vertex buffer: linear when the time per op doubles with
// n (it was quadratic when each primitive marked its vertices in a table
// as long as the whole buffer).
//
//	go test ./assets/scene -run '^$' -bench ReadSharedBuffer -benchtime 3x
func BenchmarkReadSharedBuffer(b *testing.B) {
	for _, n := range []int{10_000, 20_000, 40_000} {
		data := sharedBufferGLB(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Read(data, ReadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
