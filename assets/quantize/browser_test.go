package quantize_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/kilnhq/kiln/assets/animation"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/quantize"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
	"github.com/kilnhq/kiln/internal/testenv"
)

// page loads /model.glb with three.js and its MeshoptDecoder, frames it,
// and draws the first clip at its start and its middle.
const page = `<!doctype html><html><body style="margin:0">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
try {
  const size = 256;
  const renderer = new THREE.WebGLRenderer({ antialias: false, preserveDrawingBuffer: true });
  renderer.setSize(size, size);
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xffffff);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x404040, 3));
  const gltf = await new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).loadAsync('/model.glb');
  scene.add(gltf.scene);
  let triangles = 0;
  gltf.scene.traverse((o) => {
    if (o.isMesh) {
      o.frustumCulled = false;
      const g = o.geometry;
      triangles += (g.index ? g.index.count : g.attributes.position.count) / 3;
    }
  });
  const box = new THREE.Box3().setFromObject(gltf.scene, true);
  const center = box.getCenter(new THREE.Vector3());
  const height = box.max.y - box.min.y;
  const camera = new THREE.PerspectiveCamera(30, 1, 0.01, 100);
  camera.position.set(center.x, center.y, center.z + height * 2.2);
  camera.lookAt(center);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const clip = gltf.animations[0];
  mixer.clipAction(clip).play();
  const gl = renderer.getContext();
  const shot = (t) => {
    mixer.setTime(t);
    renderer.render(scene, camera);
    const px = new Uint8Array(size * size * 4);
    gl.readPixels(0, 0, size, size, gl.RGBA, gl.UNSIGNED_BYTE, px);
    return px;
  };
  const a = shot(0);
  const b = shot(clip.duration / 2);
  let covered = 0, moved = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i] < 250 || a[i + 1] < 250 || a[i + 2] < 250) covered++;
    if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 30) moved++;
  }
  window.kilnResult = {
    triangles, covered, moved, pixels: size * size, clip: clip.name, duration: clip.duration,
    height, extensions: gltf.parser.json.extensionsRequired || [],
    min: box.min.toArray(), max: box.max.toArray(),
  };
} catch (e) {
  window.kilnError = String(e && e.stack || e);
}
</script></body></html>`

// TestBrowserPlaysCompressedAvatar: a Kiln avatar with a clip, written
// quantized and compressed, loads in three.js through its MeshoptDecoder
// with every triangle, covers the picture as an avatar does, and the clip
// moves it.
func TestBrowserPlaysCompressedAvatar(t *testing.T) {
	node, dir := testenv.BrowserTools(t)
	script := filepath.Join(dir, "meshopt.mjs")
	three := filepath.Join(dir, "node_modules", "three")

	s, err := avatar.Generate(avatar.Default(avatar.Masculine))
	if err != nil {
		t.Fatal(err)
	}
	clip := animation.Names()[0]
	if err := animation.Attach(s, avatar.Masculine, []string{clip}); err != nil {
		t.Fatal(err)
	}
	rest := world(s)
	quantize.Apply(s, quantize.Options{})
	if err := s.Weld(); err != nil {
		t.Fatal(err)
	}
	s.OptimizeOrder()
	glb, err := scene.WriteWith(s, scene.WriteOptions{Meshopt: true})
	if err != nil {
		t.Fatal(err)
	}
	gltfcheck.RequireValid(t, glb)
	want := s.Stats().Triangles

	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	mux.HandleFunc("/model.glb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "model/gltf-binary")
		w.Write(glb)
	})
	mux.Handle("/three/", http.StripPrefix("/three/", http.FileServer(http.Dir(three))))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, script, srv.URL+"/").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("meshopt.mjs: %v: %s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var got struct {
		Triangles  int        `json:"triangles"`
		Covered    int        `json:"covered"`
		Moved      int        `json:"moved"`
		Pixels     int        `json:"pixels"`
		Clip       string     `json:"clip"`
		Height     float64    `json:"height"`
		Extensions []string   `json:"extensions"`
		Min        [3]float64 `json:"min"`
		Max        [3]float64 `json:"max"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	t.Logf("three.js: %s (%d bytes)", out, len(glb))
	if got.Triangles != want {
		t.Errorf("three.js decoded %d triangles, the scene has %d", got.Triangles, want)
	}
	if got.Clip != clip {
		t.Errorf("clip %q, want %q", got.Clip, clip)
	}
	// An avatar framed by its height covers a tall strip of the picture:
	// a few percent at least, never most of it.
	if f := float64(got.Covered) / float64(got.Pixels); f < 0.03 || f > 0.6 {
		t.Errorf("the avatar covers %.1f%% of the picture", 100*f)
	}
	if got.Height < 1.4 || got.Height > 2.1 {
		t.Errorf("the avatar is %.2f m tall in three.js", got.Height)
	}
	// three.js's skinned bounds at rest (decoded, dequantized, skinned
	// through the folded inverse bind matrices) match the source's within
	// the position grid and float rounding.
	lo, hi := [3]float64{1e9, 1e9, 1e9}, [3]float64{-1e9, -1e9, -1e9}
	for _, p := range rest {
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = min(lo[k], float64(p[k])), max(hi[k], float64(p[k]))
		}
	}
	tol := extentOf(rest) * 2 / 16383
	for k := 0; k < 3; k++ {
		if d := max(abs(got.Min[k]-lo[k]), abs(got.Max[k]-hi[k])); d > tol {
			t.Errorf("axis %d: three.js bounds %.5f..%.5f, source %.5f..%.5f (tolerance %.5f)", k, got.Min[k], got.Max[k], lo[k], hi[k], tol)
		}
	}
	if got.Moved < got.Covered/50 {
		t.Errorf("the clip moved %d pixels of %d covered", got.Moved, got.Covered)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
