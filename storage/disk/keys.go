package disk

import (
	"strings"

	"github.com/kilnhq/kiln"
)

// checkKey admits slash-separated names that cannot leave the store's
// folder or reach its temporary folder: no "..", no empty segment, no
// segment starting with a dot, no backslash (a separator on Windows).
// storage/minio applies the same rule, so a key valid on one store is valid
// on every store.
func checkKey(key string) error {
	bad := key == "" || len(key) > 1024 || strings.ContainsAny(key, "\\\x00") || strings.Contains(key, "..")
	for seg := range strings.SplitSeq(key, "/") {
		bad = bad || seg == "" || seg[0] == '.'
	}
	if bad {
		return kiln.Errorf(kiln.KindInvalid, "invalid_blob_key", "blob key %q must be slash-separated names, none empty or starting with a dot, without backslashes", key)
	}
	return nil
}

// checkPrefix admits the empty prefix and any valid key, with or without a
// trailing slash.
func checkPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	return checkKey(strings.TrimSuffix(prefix, "/"))
}
