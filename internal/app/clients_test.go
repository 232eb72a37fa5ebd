package app

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kilnhq/kiln/internal/gltfcheck"
	"github.com/kilnhq/kiln/internal/testenv"
)

// The leader's lip-sync URL: the shapes apps ask for.
const lipsyncQuery = "?morphTargets=ARKit,Oculus%20Visemes,mouthOpen,mouthSmile,eyesClosed,eyesLookUp,eyesLookDown&textureAtlas=1024"

// TestModelViewerClient loads Kiln avatars by the leader's URL in Google's
// <model-viewer> (the npm package, tools/browser-test/modelviewer.mjs) in
// chromium, from a page on another origin: a plain download, a meshopt
// one, whose decoder model-viewer fetches from the address Kiln serves it
// at (meshoptDecoderLocation), and a Draco one, whose decoder Kiln serves
// too (dracoDecoderLocation, cross-origin: the wasm is fetched), all load
// and draw the same picture.
func TestModelViewerClient(t *testing.T) {
	node, dir := testenv.BrowserTools(t, "@google/model-viewer")
	r := start(t)
	decoder := r.PlatformURL + "/static/meshopt_decoder.js"
	dracoDecoder := r.PlatformURL + "/static/draco/"
	plain := r.AvatarURL + "/default-female.glb"
	meshopt := plain + "?meshCompression=meshopt"
	draco := plain + "?meshCompression=draco"
	out := runBrowser(t, node, filepath.Join(dir, "modelviewer.mjs"), decoder, dracoDecoder, plain, meshopt, draco)
	var got struct {
		Models []struct {
			Src       string
			Loaded    bool
			Error     string
			Materials []string
			Covered   float64
		}
		DecoderFetched, DracoFetched bool
	}
	if err := json.Unmarshal([]byte(lastLine(out)), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got.Models) != 3 || !got.DecoderFetched || !got.DracoFetched {
		t.Fatalf("model-viewer: %s", out)
	}
	for _, m := range got.Models {
		t.Logf("%s: loaded %t, %d materials, %.1f%% of the picture covered", m.Src, m.Loaded, len(m.Materials), 100*m.Covered)
		if !m.Loaded || !slices.Contains(m.Materials, "Wolf3D_Skin") || m.Covered < 0.05 {
			t.Errorf("model-viewer: %s: loaded %t (%s), materials %v, covered %.3f", m.Src, m.Loaded, m.Error, m.Materials, m.Covered)
		}
	}
	// The same avatar from the same camera: the meshopt and Draco
	// downloads' quantization moves no more than a few edge pixels.
	for _, m := range got.Models[1:] {
		if d := math.Abs(got.Models[0].Covered - m.Covered); d > 0.005 {
			t.Errorf("model-viewer covers %.4f of the picture with the plain download, %.4f with %s", got.Models[0].Covered, m.Covered, m.Src)
		}
	}
}

// TestGLTFTransformClient reads Kiln avatars over HTTP with glTF-Transform
// (tools/browser-test/gltftransform.mjs, in node): a plain download, a
// Draco one (meshCompression=draco, Google's decoder) and a meshopt one
// read with the leader's tree (the meshes under Armature), every mesh one
// primitive with the same triangles and morph targets; Draco's positions
// decode to the plain ones' bounds within its quantization; and what
// glTF-Transform writes back validates with zero errors.
func TestGLTFTransformClient(t *testing.T) {
	node, dir := testenv.BrowserTools(t, "@gltf-transform/core", "@gltf-transform/extensions", "draco3dgltf", "meshoptimizer")
	r := start(t)
	base := r.AvatarURL + "/default-female.glb" + lipsyncQuery
	urls := []string{base, base + "&meshCompression=draco", base + "&meshCompression=meshopt"}
	want := [][]string{nil, {"KHR_draco_mesh_compression"}, {"EXT_meshopt_compression", "KHR_mesh_quantization"}}
	tmp := t.TempDir()
	cmd := exec.Command(node, append([]string{filepath.Join(dir, "gltftransform.mjs"), tmp}, urls...)...)
	raw, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("gltftransform.mjs: %v: %s", err, stderr)
	}
	type mesh struct {
		Name                           string
		Primitives, Triangles, Targets int
		Min, Max                       [3]float64
	}
	var got []struct {
		URL            string
		ExtensionsUsed []string
		Armature       []string
		Meshes         []mesh
		Written        string
		WrittenBytes   int
	}
	if err := json.Unmarshal(raw, &got); err != nil || len(got) != len(urls) {
		t.Fatalf("gltftransform.mjs printed %.300s: %v", raw, err)
	}
	plain := map[string]mesh{}
	for _, m := range got[0].Meshes {
		plain[m.Name] = m
	}
	for i, g := range got {
		t.Logf("%s: extensions %v, %d meshes, written back %d bytes", strings.TrimPrefix(g.URL, r.AvatarURL), g.ExtensionsUsed, len(g.Meshes), g.WrittenBytes)
		for _, e := range want[i] {
			if !slices.Contains(g.ExtensionsUsed, e) {
				t.Errorf("%s: extensions %v, want %s", g.URL, g.ExtensionsUsed, e)
			}
		}
		if len(g.Armature) == 0 || g.Armature[0] != "Hips" || !slices.Contains(g.Armature, "Wolf3D_Head") || !slices.Contains(g.Armature, "Wolf3D_Teeth") {
			t.Errorf("%s: Armature holds %v", g.URL, g.Armature)
		}
		if len(g.Meshes) != len(plain) {
			t.Errorf("%s: %d meshes, plain %d", g.URL, len(g.Meshes), len(plain))
		}
		for _, m := range g.Meshes {
			p := plain[m.Name]
			if m.Primitives != 1 || m.Triangles != p.Triangles || m.Targets != p.Targets {
				t.Errorf("%s: %s has %d primitives, %d triangles, %d targets; plain %d, %d", g.URL, m.Name, m.Primitives, m.Triangles, m.Targets, p.Triangles, p.Targets)
			}
			// Draco keeps positions in metres, within its quantization
			// (14 bits over the mesh: well under a millimetre); meshopt's
			// are integers under a node scale, so they are not compared.
			if i == 1 {
				for c := range 3 {
					if math.Abs(m.Min[c]-p.Min[c]) > 1e-3 || math.Abs(m.Max[c]-p.Max[c]) > 1e-3 {
						t.Errorf("%s: %s spans %v..%v, plain %v..%v", g.URL, m.Name, m.Min, m.Max, p.Min, p.Max)
						break
					}
				}
			}
		}
		written, err := os.ReadFile(g.Written)
		if err != nil {
			t.Fatal(err)
		}
		gltfcheck.RequireValid(t, written)
	}
	if got[0].Meshes[0].Triangles == 0 {
		t.Errorf("glTF-Transform read no triangles: %s", raw)
	}
}

// lastLine is the last line of a script's output, where it prints its
// JSON after whatever runBrowser logged.
func lastLine(out string) string {
	out = strings.TrimSpace(out)
	return out[strings.LastIndex(out, "\n")+1:]
}
