package kiln_test

import (
	"net/url"
	"testing"

	"github.com/kilnhq/kiln"
)

// The two mesh compressions read the leader's spellings, each names a
// variant of its own, a bad value is refused with a code naming the
// parameter, and both at once are refused, since a primitive is
// compressed one way.
func TestVariantCompression(t *testing.T) {
	plain, _, err := kiln.ParseVariant(url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	meshopt := func(v kiln.Variant) bool { return v.Meshopt }
	draco := func(v kiln.Variant) bool { return v.Draco }
	for _, tc := range []struct {
		query string
		flag  func(kiln.Variant) bool
		want  bool
		code  string
	}{
		{"useMeshOptCompression=true", meshopt, true, ""},
		{"useMeshOptCompression=1", meshopt, true, ""},
		{"useMeshOptCompression=false", meshopt, false, ""},
		{"useMeshOptCompression=0", meshopt, false, ""},
		{"useMeshOptCompression=yes", meshopt, false, "invalid_use_mesh_opt_compression"},
		{"useMeshOptCompression=", meshopt, false, "invalid_use_mesh_opt_compression"},
		{"useDracoMeshCompression=true", draco, true, ""},
		{"useDracoMeshCompression=1", draco, true, ""},
		{"useDracoMeshCompression=false", draco, false, ""},
		{"useDracoMeshCompression=0", draco, false, ""},
		{"useDracoMeshCompression=true&useMeshOptCompression=false", draco, true, ""},
		{"useDracoMeshCompression=yes", draco, false, "invalid_use_draco_mesh_compression"},
		{"useDracoMeshCompression=", draco, false, "invalid_use_draco_mesh_compression"},
		{"useDracoMeshCompression=true&useMeshOptCompression=true", draco, false, "conflicting_mesh_compression"},
	} {
		q, _ := url.ParseQuery(tc.query)
		v, named, err := kiln.ParseVariant(q)
		if tc.code != "" {
			if code, _ := kiln.CodeOf(err); code != tc.code || kiln.KindOf(err) != kiln.KindInvalid {
				t.Errorf("%s: err %v, want %s", tc.query, err, tc.code)
			}
			continue
		}
		if err != nil || tc.flag(v) != tc.want || !named {
			t.Errorf("%s: %+v named %v err %v", tc.query, v, named, err)
		}
		if (v.Key() != plain.Key()) != tc.want {
			t.Errorf("%s: key %s, plain %s", tc.query, v.Key(), plain.Key())
		}
	}
}
