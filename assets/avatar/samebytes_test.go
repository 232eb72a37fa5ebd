package avatar

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// updateSameBytes rewrites testdata/same_bytes.json from the current code.
var updateSameBytes = flag.Bool("update", false, "rewrite testdata/same_bytes.json (TestSameBytes) from the current code")

// sameBytesCases are the configurations whose GLB bytes are pinned: both
// defaults, three random avatars and one with a hat and glasses.
func sameBytesCases() map[string]Config {
	hat := Default(Masculine)
	hat.Glasses = Glasses{Style: "square", Color: "gold"}
	hat.Headwear = Headwear{Style: "cap", Color: "red"}
	return map[string]Config{
		"default-male":   Default(Masculine),
		"default-female": Default(Feminine),
		"random-1":       Random(1),
		"random-2":       Random(2),
		"random-3":       Random(3),
		"hat-glasses":    hat,
	}
}

// TestSameBytes pins the SHA-256 of the GLB of a few configurations, so
// that speed work (heaps, searches, buffer pools, encoder settings) is
// shown to leave the output byte for byte as it was: a speed change that
// alters a hash changed the algorithm, not only its cost.
//
// A change that is meant to alter the look (paint, hair, clothes, shapes)
// alters these hashes too. Then regenerate them with
//
//	go test ./assets/avatar -run TestSameBytes -update
//
// and say in the commit message that the bytes change on purpose, and why.
func TestSameBytes(t *testing.T) {
	path := filepath.Join("testdata", "same_bytes.json")
	want := map[string]string{}
	if !*updateSameBytes {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]string{}
	for name, cfg := range sameBytesCases() {
		s, err := Generate(cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		glb, err := scene.Write(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sum := sha256.Sum256(glb)
		got[name] = hex.EncodeToString(sum[:])
		if !*updateSameBytes && got[name] != want[name] {
			t.Errorf("%s: GLB SHA-256 %s, want %s (%d bytes); if the look changed on purpose: go test ./assets/avatar -run TestSameBytes -update", name, got[name], want[name], len(glb))
		}
	}
	if *updateSameBytes {
		data, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
	}
}
