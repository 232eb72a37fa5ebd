package minio

import (
	"strings"

	"github.com/kilnhq/kiln"
)

// checkKey is the rule of storage/disk, kept here too so that a key valid
// on one store is valid on every store: slash-separated names, none empty
// or starting with a dot, no "..", no backslash.
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
