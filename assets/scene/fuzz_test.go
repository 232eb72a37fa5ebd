package scene

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
)

// FuzzRead checks that no input makes Read panic or fail with anything
// but an invalid_model error, and that whatever Read accepts, Write
// writes and Read accepts again. Limits are small so that the fuzzer
// explores instead of allocating.
func FuzzRead(f *testing.F) {
	for _, glb := range scenetest.Fixtures() {
		f.Add(glb)
		f.Add(glb[:len(glb)/3])
		bad := append([]byte(nil), glb...)
		bad[4] = 1 // version 1
		f.Add(bad)
		bad = append([]byte(nil), glb...)
		bad[12] = 0xFF // JSON chunk longer than the file
		f.Add(bad)
	}
	f.Add([]byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAA","byteLength":12}],` +
		`"bufferViews":[{"buffer":0,"byteLength":12}],"accessors":[{"bufferView":0,"componentType":5126,"count":1,"type":"VEC3"}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0},"mode":0}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]}`))
	// The small shared third-party models widen the corpus when present;
	// they are never copied into testdata. Large seeds would make the
	// fuzzer spend its time minimizing them.
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "testdata", "*.glb"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	opts := ReadOptions{MaxVertices: 1 << 16, MaxIndices: 1 << 18, MaxImageBytes: 1 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Read(data, opts)
		if err != nil {
			if kiln.KindOf(err) != kiln.KindUnprocessable {
				t.Fatalf("error of kind %v: %v", kiln.KindOf(err), err)
			}
			return
		}
		out, err := Write(s)
		if err != nil {
			t.Fatalf("Read accepted what Write refuses: %v", err)
		}
		if _, err := Read(out, opts); err != nil {
			t.Fatalf("Read refuses what Write wrote: %v", err)
		}
	})
}
