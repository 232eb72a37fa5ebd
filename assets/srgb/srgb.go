// Package srgb is the one sRGB transfer function of Kiln: glTF stores
// base colour and emissive textures sRGB-encoded, and every stage that
// filters, blends, shades or multiplies them must do it in linear light
// (averaging sRGB values darkens fine detail). One table each way, at one
// precision, so the atlas, the texture downscale, the renderer and the
// avatar painter round a colour the same way.
package srgb

import "math"

// steps is the precision of the linear-to-sRGB table: 16 bits, finer
// than any 8-bit result needs, so the table rounds like the exact curve.
const steps = 65535

var (
	toLinear [256]float32
	toSRGB   [steps + 1]uint8
)

func init() {
	for i := range toLinear {
		c := float64(i) / 255
		if c <= 0.04045 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		toLinear[i] = float32(c)
	}
	for i := range toSRGB {
		l := float64(i) / steps
		if l <= 0.0031308 {
			l *= 12.92
		} else {
			l = 1.055*math.Pow(l, 1/2.4) - 0.055
		}
		toSRGB[i] = uint8(math.Round(l * 255))
	}
}

// Linear is the linear light, 0..1, of an sRGB byte.
func Linear(b uint8) float32 { return toLinear[b] }

// Encode is the sRGB byte of linear light, clamped to 0..1.
func Encode(l float64) uint8 {
	if !(l > 0) { // NaN too
		return 0
	}
	return toSRGB[int(min(l, 1)*steps+0.5)]
}

// Encode32 is Encode for float32 light.
func Encode32(l float32) uint8 { return Encode(float64(l)) }
