package kiln

import (
	"crypto/rand"
	"encoding/base32"
	"regexp"
	"strings"
)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidID reports whether id may be used in a storage key or a file path.
// Every id that comes from a request passes here first.
func ValidID(id string) bool { return idPattern.MatchString(id) }

// CheckID returns a KindInvalid error naming the field when id is not valid.
func CheckID(field, id string) error {
	if !ValidID(id) {
		return Errorf(KindInvalid, "invalid_id", "%s must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -", field)
	}
	return nil
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewID returns a random id with a prefix that tells its type in logs
// ("obj_…", "key_…"): 80 random bits, lower case, URL-safe.
func NewID(prefix string) string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return prefix + "_" + strings.ToLower(idEncoding.EncodeToString(b[:]))
}

var extPattern = regexp.MustCompile(`^[a-z0-9]{1,10}$`)
