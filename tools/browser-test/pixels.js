// How the browser tests' pages tell whether a pixel changed between two
// pictures: one rule, served to every page at /pixels.js (page.mjs).
//
// A pixel changes visibly when its colour moves more than 6 in CIELAB
// (ΔE 1976), about a 16-level step of a mid grey. A fixed step of the
// summed sRGB channels (48, before) hid what shows on deep skin: the
// tongue (91,43,48) where a dark lip had been (66,46,42) is ΔE 14 but
// sums to 34, so an opened mouth on a deep-skinned random avatar with a
// moustache counted as 2.8 % changed (TestVRMInBrowser in CI,
// 2026-11-29).

const linear = Array.from({ length: 256 }, (_, u) => (u /= 255) <= 0.04045 ? u / 12.92 : ((u + 0.055) / 1.055) ** 2.4);

// lab is an 8-bit sRGB colour in CIELAB (D65).
function lab(r, g, b) {
  const [R, G, B] = [linear[r], linear[g], linear[b]];
  const f = (t) => t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116;
  const x = f((0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047);
  const y = f(0.2126 * R + 0.7152 * G + 0.0722 * B);
  const z = f((0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

// visible tells whether the RGBA pixel at byte offset i differs visibly
// between the pixel arrays a and b.
export function visible(a, b, i) {
  const p = lab(a[i], a[i + 1], a[i + 2]), q = lab(b[i], b[i + 1], b[i + 2]);
  return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2 > 36;
}
