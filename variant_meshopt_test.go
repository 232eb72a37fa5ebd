package kiln_test

import (
	"net/url"
	"testing"

	"github.com/kilnhq/kiln"
)

// useMeshOptCompression reads the leader's spellings, names a variant of
// its own and is refused with a code naming it.
func TestVariantMeshopt(t *testing.T) {
	plain, _, err := kiln.ParseVariant(url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query string
		want  bool
		code  string
	}{
		{"useMeshOptCompression=true", true, ""},
		{"useMeshOptCompression=1", true, ""},
		{"useMeshOptCompression=false", false, ""},
		{"useMeshOptCompression=0", false, ""},
		{"useMeshOptCompression=yes", false, "invalid_use_mesh_opt_compression"},
		{"useMeshOptCompression=", false, "invalid_use_mesh_opt_compression"},
	} {
		q, _ := url.ParseQuery(tc.query)
		v, named, err := kiln.ParseVariant(q)
		if tc.code != "" {
			if code, _ := kiln.CodeOf(err); code != tc.code || kiln.KindOf(err) != kiln.KindInvalid {
				t.Errorf("%s: err %v, want %s", tc.query, err, tc.code)
			}
			continue
		}
		if err != nil || v.Meshopt != tc.want || !named {
			t.Errorf("%s: %+v named %v err %v", tc.query, v, named, err)
		}
		if (v.Key() != plain.Key()) != tc.want {
			t.Errorf("%s: key %s, plain %s", tc.query, v.Key(), plain.Key())
		}
	}
}
