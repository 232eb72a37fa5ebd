// Package imagetype recognises the image formats glTF and its extensions
// carry by their signatures: declared MIME types are often missing (.gltf
// files, OBJ materials) or wrong, and a MIME type that contradicts the
// bytes is an error for the glTF validator.
package imagetype

import "bytes"

// The MIME types Sniff answers.
const (
	PNG  = "image/png"
	JPEG = "image/jpeg"
	WebP = "image/webp"
	KTX2 = "image/ktx2"
)

// Sniff is the MIME type of an encoded image, or "" for anything else.
func Sniff(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return PNG
	case bytes.HasPrefix(b, []byte("\xFF\xD8\xFF")):
		return JPEG
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return WebP
	case bytes.HasPrefix(b, []byte("\xABKTX 20\xBB\r\n\x1A\n")):
		return KTX2
	}
	return ""
}
