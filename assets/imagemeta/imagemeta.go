// Package imagemeta strips what an image file says about the machine that
// made it: Blender writes the server's temporary paths, its version, the
// date and the render time into every JPEG and PNG it renders, and none
// of that is for the person who downloads the picture. The pixels and
// what is needed to show them right (colour profile, gamma, transparency)
// stay; the bytes of the compressed image are copied, never re-encoded.
package imagemeta

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// Strip returns data without its metadata when it is a JPEG or a PNG, and
// data itself otherwise.
func Strip(data []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(data, pngSignature):
		return stripPNG(data)
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8}):
		return stripJPEG(data)
	}
	return data, nil
}

var errTruncated = errors.New("image file is truncated")

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// pngKept are the ancillary chunks that change how the pixels look; every
// other ancillary chunk (text, time, EXIF, private ones) goes. Critical
// chunks (an upper-case first letter) always stay.
var pngKept = map[string]bool{
	"tRNS": true, "gAMA": true, "cHRM": true, "sRGB": true, "iCCP": true,
	"sBIT": true, "pHYs": true, "bKGD": true,
}

func stripPNG(data []byte) ([]byte, error) {
	out := bytes.NewBuffer(make([]byte, 0, len(data)))
	out.Write(pngSignature)
	for p := len(pngSignature); p < len(data); {
		if p+12 > len(data) {
			return nil, errTruncated
		}
		n := int(binary.BigEndian.Uint32(data[p:]))
		end := p + 12 + n
		if n < 0 || end > len(data) || end < p {
			return nil, errTruncated
		}
		typ := string(data[p+4 : p+8])
		if critical := typ[0] >= 'A' && typ[0] <= 'Z'; critical || pngKept[typ] {
			out.Write(data[p:end])
		}
		if typ == "IEND" {
			break
		}
		p = end
	}
	return out.Bytes(), nil
}

// jpegKept are the application segments that change how the pixels look:
// APP0 (JFIF: density, the colour space), APP2 (ICC profile) and APP14
// (Adobe: the colour transform). EXIF, XMP and comments go.
var jpegKept = map[byte]bool{0xE0: true, 0xE2: true, 0xEE: true}

func stripJPEG(data []byte) ([]byte, error) {
	out := bytes.NewBuffer(make([]byte, 0, len(data)))
	out.Write(data[:2])
	for p := 2; ; {
		if p+4 > len(data) || data[p] != 0xFF {
			return nil, errTruncated
		}
		marker := data[p+1]
		if marker == 0xFF { // fill byte
			p++
			continue
		}
		n := int(binary.BigEndian.Uint16(data[p+2:]))
		end := p + 2 + n
		if n < 2 || end > len(data) {
			return nil, errTruncated
		}
		if marker == 0xDA { // start of scan: the rest is the image
			out.Write(data[p:])
			return out.Bytes(), nil
		}
		metadata := marker == 0xFE || (marker >= 0xE0 && marker <= 0xEF && !jpegKept[marker])
		if !metadata {
			out.Write(data[p:end])
		}
		p = end
	}
}
