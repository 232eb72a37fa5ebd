package app

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// TestVRMDownload asks Kiln for VRMs as an integrator would: both
// versions at /model/{id}.vrm and the root's /{id}.vrm are valid GLBs with
// the VRM extension of their version, a HEAD answers like the GET, and a
// parameter that makes no sense for a VRM is a 400 naming it.
func TestVRMDownload(t *testing.T) {
	r := start(t)
	for _, tc := range []struct {
		path, ext string
	}{
		{"/model/default-male.vrm", "VRMC_vrm"},
		{"/default-male.vrm?vrm=0", "VRM"},
	} {
		res := do(t, "GET", r.AvatarURL+tc.path, "", nil, nil)
		if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "model/gltf-binary" || res.Header.Get("ETag") == "" {
			t.Fatalf("GET %s: %d %v %.300s", tc.path, res.Status, res.Header, res.Body)
		}
		gltfcheck.RequireValid(t, res.Body)
		if !strings.Contains(res.Header.Get("Content-Disposition"), ".vrm") {
			t.Errorf("GET %s: Content-Disposition %q names no .vrm", tc.path, res.Header.Get("Content-Disposition"))
		}
		var used struct {
			ExtensionsUsed []string `json:"extensionsUsed"`
		}
		n := int(res.Body[12]) | int(res.Body[13])<<8 | int(res.Body[14])<<16 | int(res.Body[15])<<24
		if err := json.Unmarshal(res.Body[20:20+n], &used); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(","+strings.Join(used.ExtensionsUsed, ",")+",", ","+tc.ext+",") {
			t.Errorf("GET %s: extensionsUsed %v, want %s", tc.path, used.ExtensionsUsed, tc.ext)
		}
		head := do(t, "HEAD", r.AvatarURL+tc.path, "", nil, nil)
		if head.Status != http.StatusOK || head.Header.Get("Content-Length") != res.Header.Get("Content-Length") {
			t.Errorf("HEAD %s: %d %v", tc.path, head.Status, head.Header)
		}
	}
	for _, tc := range []struct {
		query, code, names string
	}{
		{"?pose=T", "invalid_vrm_parameter", "pose"},
		{"?morphTargets=ARKit", "invalid_vrm_parameter", "morphTargets"},
		{"?useDracoMeshCompression=true", "invalid_vrm_parameter", "useDracoMeshCompression"},
		{"?vrm=2", "invalid_vrm", "vrm"},
		{"?shading=cel", "invalid_shading", "shading"},
	} {
		res := do(t, "GET", r.AvatarURL+"/model/default-female.vrm"+tc.query, "", nil, nil)
		var body struct {
			Error struct{ Message string } `json:"error"`
		}
		res.json(t, &body)
		if res.Status != http.StatusBadRequest || res.errorCode(t) != tc.code || !strings.Contains(body.Error.Message, tc.names) {
			t.Errorf("%s: %d %s, want 400 %s naming %s", tc.query, res.Status, res.Body, tc.code, tc.names)
		}
	}
}

// vrmFigures is what tools/browser-test/vrm.mjs measures of one VRM.
type vrmFigures struct {
	Version     string   `json:"version"`
	Missing     []string `json:"missing"`
	Found       int      `json:"found"`
	Expressions int      `json:"expressions"`
	// Each: the share of pixels that change in the region the expression
	// or the gaze moves (inside), and outside the eyes and mouth.
	AA           change  `json:"aa"`
	AAInEyes     float64 `json:"aaInEyes"`
	Blink        change  `json:"blink"`
	BlinkInMouth float64 `json:"blinkInMouth"`
	Look         change  `json:"look"`
	LookInMouth  float64 `json:"lookInMouth"`
}

type change struct {
	Inside    float64 `json:"inside"`
	Elsewhere float64 `json:"elsewhere"`
}

// deepMoustache is a face whose open mouth shows little: deep skin, dark
// lips, a moustache over the upper one. Random avatars like it failed
// TestVRMInBrowser in CI by chance (aa changed 2.7 % of the mouth, under
// the 5 % bound) while their mouths opened as any other does; this one,
// Random's draw for a seed, changed 2.8 % under the old measure. The
// test holds it every time.
const deepMoustache = `{"version":"1","body":{"type":"masculine","height":1.72,"build":0.54,"age":55,"proportions":0.73},"skin":{"tone":"deep"},"hair":{"style":"bald","color":"dark-brown"},"eyes":{"color":"dark-brown"},"outfit":{"top":{"style":"shirt","color":"light-blue"},"bottom":{"style":"jeans","color":"denim"},"footwear":{"style":"boots","color":"black"}},"glasses":{"style":"none","color":"black"},"face":{"seed":6232998778372613,"head":{"fat":-0.31,"round":0.04,"scale-horiz":-0.23,"square":0.13},"chin":{"jaw-drop":0.03,"prominent":0.15,"width":0.03},"cheeks":{"bones":0.19,"volume":-0.03}},"facialHair":{"style":"moustache"}}`

// The two of Random's draws that came nearest the bounds of
// TestVRMInBrowser among 100 (seeds 1000-1035 and 2000-2063,
// 2026-11-30). The test drew a new avatar ({}) on every run, so what it
// measured, and whether it passed, changed from run to run: over those
// 100 draws blink changed 0.00-0.37 % of the picture outside the eyes'
// boxes (median 0.11 %, bound 0.5 %) and aa 0.00-0.62 % outside the
// mouth and the jaw (median 0.06 %, bound 1 %), by the shape of the
// face and not by any fault. Fixed, the test measures the same faces on
// every run, and the hardest ones of the draw when they were chosen
// (their figures move with the look: a change to the lids or brows
// that takes one over a bound fails the test every time, not by draw).
const (
	// wideLids (Random(2001)): the upper lids close from a fold above
	// the eyes' boxes and past their outer corners, behind square
	// glasses; blink changed 0.37 % elsewhere when chosen, 0.49 % since
	// c563fcb closes the blink on every face (the upper lid travels
	// farther down from that fold): at the bound, so a lids change
	// that moves more outside the eyes' boxes fails here.
	wideLids = `{"version":"1","body":{"type":"feminine","height":1.68,"build":0.52,"age":32,"proportions":0.82},"skin":{"tone":"light"},"hair":{"style":"long","color":"brown"},"eyes":{"color":"dark-brown"},"outfit":{"top":{"style":"shirt","color":"blue"},"bottom":{"style":"skirt","color":"khaki"},"footwear":{"style":"boots","color":"brown"}},"glasses":{"style":"square","color":"brown"},"face":{"seed":1687300202995555,"head":{"fat":-0.21,"round":0.12,"scale-horiz":-0.1,"square":0.01},"chin":{"jaw-drop":-0.15,"prominent":-0.23,"width":-0.29},"cheeks":{"bones":0.15,"volume":-0.07}}}`
	// fullBeard (Random(1011)): the beard's sides swing with the jaw
	// outside the box of what aa moves most; aa changed 0.62 %
	// elsewhere when chosen.
	fullBeard = `{"version":"1","body":{"type":"masculine","height":1.87,"build":0.18,"age":30,"proportions":0.89},"skin":{"tone":"porcelain"},"hair":{"style":"curly","color":"dark-brown"},"eyes":{"color":"brown"},"outfit":{"top":{"style":"tshirt","color":"yellow"},"bottom":{"style":"trousers","color":"charcoal"},"footwear":{"style":"sneakers","color":"black"}},"glasses":{"style":"square","color":"black"},"face":{"seed":1317258000769261,"head":{"fat":-0.24,"round":0.07,"scale-horiz":-0.15,"square":0.02},"chin":{"jaw-drop":-0.01,"prominent":0.18,"width":-0.06},"cheeks":{"bones":0.21,"volume":-0.41}},"facialHair":{"style":"full-beard"}}`
)

// TestVRMInBrowser loads both VRM versions of default-male,
// default-female, wideLids, fullBeard and a deep-skinned avatar with a
// moustache in three.js with @pixiv/three-vrm, in chromium, in one page
// load: three-vrm reads each as the version asked, finds every required
// humanoid bone (and the eyes, fingers, toes, upper chest and neck), and
// its expressions and lookAt move the face: aa changes the mouth, blink
// the eyes, a 30° gaze the irises, each hardly anything else.
func TestVRMInBrowser(t *testing.T) {
	node, viewer := browserTool(t)
	script := filepath.Join(filepath.Dir(viewer), "vrm.mjs")
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	ids := map[string]string{
		"male":   "default-male",
		"female": "default-female",
		"lids":   postAvatar(t, r, key, wideLids),
		"beard":  postAvatar(t, r, key, fullBeard),
		"deep":   postAvatar(t, r, key, deepMoustache),
	}
	args := []string{script}
	for name, id := range ids {
		for _, v := range []string{"1", "0"} {
			url := r.AvatarURL + "/model/" + id + ".vrm?vrm=" + v
			readyVariant(t, url, vrmPendingBound)
			args = append(args, name+v+"="+url)
		}
	}
	// The pictures stay for a person to look at: kiln-vrm-{name}-{rest,aa,blink,look,happy,body}.png.
	args = append(args, "--screenshot", filepath.Join(os.TempDir(), "kiln-vrm"))
	out := runBrowser(t, node, args...)
	var figures map[string]vrmFigures
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &figures); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(figures) != 2*len(ids) {
		t.Fatalf("%d models measured, want %d", len(figures), 2*len(ids))
	}
	for name, f := range figures {
		t.Logf("%s: VRM %s, %d expressions; aa changes %.1f%% of the mouth (%.2f%% elsewhere), blink %.1f%% of the eyes (%.2f%%), lookAt %.1f%% of the eyes (%.2f%%)",
			name, f.Version, f.Expressions, 100*f.AA.Inside, 100*f.AA.Elsewhere, 100*f.Blink.Inside, 100*f.Blink.Elsewhere, 100*f.Look.Inside, 100*f.Look.Elsewhere)
		if want := name[len(name)-1:]; f.Version != want {
			t.Errorf("%s: three-vrm read VRM %q, want %q", name, f.Version, want)
		}
		if len(f.Missing) > 0 || f.Found != 8 {
			t.Errorf("%s: required bones missing %v; %d of 8 optional bones found", name, f.Missing, f.Found)
		}
		// aa drops the jaw: what it moves there is not "elsewhere"
		// (vrm.mjs leaves out the box round what its morph targets move
		// most). In the eyes' boxes it may touch up to 1 % of the
		// pixels (the nose's wings and the cheeks at their lower
		// corners; a random face in CI, 0.73 %), where blink changes
		// 30-40 %.
		if f.AA.Inside < 0.05 || f.AA.Elsewhere > 0.01 || f.AAInEyes > 0.01 {
			t.Errorf("%s: aa should open the mouth (%.3f of it changes) and little else (%.4f, eyes %.4f)", name, f.AA.Inside, f.AA.Elsewhere, f.AAInEyes)
		}
		if f.Blink.Inside < 0.05 || f.Blink.Elsewhere > 0.005 || f.BlinkInMouth > 0.005 {
			t.Errorf("%s: blink should close the eyes (%.3f changes) and little else (%.4f, mouth %.4f)", name, f.Blink.Inside, f.Blink.Elsewhere, f.BlinkInMouth)
		}
		if f.Look.Inside < 0.02 || f.Look.Elsewhere > 0.002 || f.LookInMouth > 0.002 {
			t.Errorf("%s: lookAt should move the irises (%.3f of the eyes change) and nothing else (%.4f, mouth %.4f)", name, f.Look.Inside, f.Look.Elsewhere, f.LookInMouth)
		}
	}
}

// vrmPendingBound bounds how long TestVRMInBrowser goes on asking for a
// VRM the server answers 503 variant_pending for. The server waits 2
// minutes a request (variantWait); on the shared 2-core machine, under
// other tests' builds, a VRM has taken longer, and vrm.mjs's one fetch
// then failed the test.
const vrmPendingBound = 6 * time.Minute

// readyVariant GETs the variant at url as a client is told to (README: a
// variant still being built after 2 minutes answers 503 variant_pending
// with Retry-After): while the answer is variant_pending it waits the
// Retry-After's seconds and asks again, logging each wait, for at most
// bound in all; then the variant must be there. Asked first here, each
// VRM is stored before vrm.mjs fetches it, so the browser's fetch finds
// it at once.
func readyVariant(t *testing.T, url string, bound time.Duration) {
	t.Helper()
	began := time.Now()
	for {
		res := do(t, "GET", url, "", nil, nil)
		if res.Status != http.StatusServiceUnavailable || res.errorCode(t) != "variant_pending" {
			if res.Status != http.StatusOK {
				t.Fatalf("GET %s: %d %.300s", url, res.Status, res.Body)
			}
			t.Logf("GET %s: ready after %v", url, time.Since(began).Round(time.Millisecond))
			return
		}
		secs, err := strconv.Atoi(res.Header.Get("Retry-After"))
		if err != nil || secs < 1 {
			t.Fatalf("GET %s: 503 variant_pending with Retry-After %q, want whole seconds", url, res.Header.Get("Retry-After"))
		}
		wait := time.Duration(secs) * time.Second
		if time.Since(began)+wait > bound {
			t.Fatalf("GET %s: still variant_pending after %v (bound %v)", url, time.Since(began).Round(time.Second), bound)
		}
		t.Logf("GET %s: 503 variant_pending after %v; asking again in %v (its Retry-After)", url, time.Since(began).Round(time.Second), wait)
		time.Sleep(wait)
	}
}
