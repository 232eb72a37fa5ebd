package kiln_test

import (
	"net/url"
	"testing"

	"github.com/kilnhq/kiln"
)

// useDracoMeshCompression reads the leader's spellings and names a
// variant of its own; with useMeshOptCompression too it is refused, since
// a primitive is compressed one way.
func TestVariantDraco(t *testing.T) {
	plain, _, err := kiln.ParseVariant(url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query string
		want  bool
		code  string
	}{
		{"useDracoMeshCompression=true", true, ""},
		{"useDracoMeshCompression=1", true, ""},
		{"useDracoMeshCompression=false", false, ""},
		{"useDracoMeshCompression=0", false, ""},
		{"useDracoMeshCompression=true&useMeshOptCompression=false", true, ""},
		{"useDracoMeshCompression=yes", false, "invalid_use_draco_mesh_compression"},
		{"useDracoMeshCompression=", false, "invalid_use_draco_mesh_compression"},
		{"useDracoMeshCompression=true&useMeshOptCompression=true", false, "conflicting_mesh_compression"},
	} {
		q, _ := url.ParseQuery(tc.query)
		v, named, err := kiln.ParseVariant(q)
		if tc.code != "" {
			if code, _ := kiln.CodeOf(err); code != tc.code || kiln.KindOf(err) != kiln.KindInvalid {
				t.Errorf("%s: err %v, want %s", tc.query, err, tc.code)
			}
			continue
		}
		if err != nil || v.Draco != tc.want || !named {
			t.Errorf("%s: %+v named %v err %v", tc.query, v, named, err)
		}
		if (v.Key() != plain.Key()) != tc.want {
			t.Errorf("%s: key %s, plain %s", tc.query, v.Key(), plain.Key())
		}
	}
}
