package avatar

import (
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// TestTwentyRandomAvatars builds 20 random configurations, as POST /avatar
// with {} does by default: each validates with zero errors and keeps the
// skeleton and the triangle budget.
func TestTwentyRandomAvatars(t *testing.T) {
	if testing.Short() {
		t.Skip("20 generations and validator runs")
	}
	for seed := int64(1000); seed < 1020; seed++ {
		cfg := Random(seed)
		s, err := Generate(cfg)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		glb, err := scene.Write(s)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		gltfcheck.RequireValid(t, glb)
		st := s.Stats()
		if st.Joints != 67 || st.Skins != 1 || st.Triangles > 30000 || st.Triangles < 8000 {
			t.Errorf("seed %d (%s, %s hair, %s top): %+v", seed, cfg.Body.Type, cfg.Hair.Style, cfg.Outfit.Top.Style, st)
		}
	}
}
