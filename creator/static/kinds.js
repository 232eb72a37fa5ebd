// The kinds of mesh a build holds, as a tiny GLB made here: one skinned
// triangle per kind of material a whole build uses (the materials written
// as avatar's GLB writer writes them, the same vertex attributes and
// types, a 1x1 PNG for each texture, the build's sampler). The view draws
// it while the first build is on its way (View.warmKinds): on a software
// rasteriser the first draw of a kind compiles its shader program and
// pipeline, over a second each on a loaded machine (the first draw was
// 9.4 s of a 12.9 s cold load at load 14, with the build answered at
// 1.9 s), and a draw of this file's triangles compiles the same programs
// as the avatar's, because it goes through the same GLTFLoader and the
// same changes (padMorphs, alike in view.js: the 7 kinds below make 3
// programs). If a build comes to use a kind not listed here, its first
// draw compiles it as before: the benchmark prints the programs new at
// the first draw.

// KINDS are the builds' materials by what decides their program: their
// textures, alpha mode, sides, and vertex colours (the teeth).
const KINDS = [
  // The body and the head's skin: base colour, normal, and one
  // occlusion-roughness-metalness texture.
  { name: 'skin', material: { pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicRoughnessTexture: { index: 2 } }, normalTexture: { index: 1 }, occlusionTexture: { index: 2 } } },
  { name: 'eye', material: { pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 0.08 } } },
  { name: 'teeth', colors: true, material: { pbrMetallicRoughness: { metallicFactor: 0, roughnessFactor: 0.8 } } },
  { name: 'hair', material: { pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 0.71 }, normalTexture: { index: 1 }, alphaMode: 'MASK', doubleSided: true } },
  { name: 'brows', material: { pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 0.71 }, alphaMode: 'MASK', doubleSided: true } },
  { name: 'garment', material: { pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 0.83 }, normalTexture: { index: 1 }, doubleSided: true } },
  { name: 'shoes', material: { pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 0.82 }, normalTexture: { index: 1 } } },
];

// LATER are kinds a first build does not hold but a pick brings, drawn
// once the first avatar shows: a garment with vertex colours (the
// hoodie; its part's first draw took 2.25 s at load 15, nearly all of it
// compiling that program).
const LATER = [
  { name: 'garment_colours', colors: true, material: { pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 0.82 }, normalTexture: { index: 1 }, doubleSided: true } },
];

// A white 1x1 RGB PNG (the builds' opaque textures have no alpha; see
// alike in view.js).
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC'), (c) => c.charCodeAt(0));

// kindsGLB is the GLB of KINDS (or LATER), each mesh with one (empty)
// morph target.
export function kindsGLB(later = false) {
  const kinds = later ? LATER : KINDS;
  const parts = [];
  let length = 0;
  const views = [];
  const add = (bytes, target) => {
    const pad = (4 - (length % 4)) % 4;
    if (pad) { parts.push(new Uint8Array(pad)); length += pad; }
    views.push({ buffer: 0, byteOffset: length, byteLength: bytes.byteLength, ...(target ? { target } : {}) });
    parts.push(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    length += bytes.byteLength;
    return views.length - 1;
  };
  const accessors = [];
  const accessor = (array, componentType, type, count, extra = {}) => {
    accessors.push({ bufferView: add(array, extra.indices ? 34963 : 34962), componentType, count, type, ...extra.minmax });
    return accessors.length - 1;
  };
  const position = accessor(new Float32Array([0, 0, 0, 0.01, 0, 0, 0, 0.01, 0]), 5126, 'VEC3', 3, { minmax: { min: [0, 0, 0], max: [0.01, 0.01, 0] } });
  const normal = accessor(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]), 5126, 'VEC3', 3);
  const uv = accessor(new Float32Array([0, 0, 1, 0, 0, 1]), 5126, 'VEC2', 3);
  const joints = accessor(new Uint8Array(12), 5121, 'VEC4', 3);
  const weights = accessor(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]), 5126, 'VEC4', 3);
  const color = accessor(new Float32Array(9).fill(1), 5126, 'VEC3', 3);
  const target = accessor(new Float32Array(9), 5126, 'VEC3', 3, { minmax: { min: [0, 0, 0], max: [0, 0, 0] } });
  const indices = accessor(new Uint16Array([0, 1, 2, 0]).subarray(0, 3), 5123, 'SCALAR', 3, { indices: true });
  // Base colour (sRGB), normal and occlusion-roughness-metalness
  // (linear) are three textures: a texture serves one colour space.
  const images = [0, 1, 2].map(() => ({ bufferView: add(PNG), mimeType: 'image/png' }));
  const json = {
    asset: { version: '2.0', generator: 'Kiln creator warm-up' },
    scene: 0,
    scenes: [{ nodes: [0, ...kinds.map((_, i) => i + 1)] }],
    nodes: [{ name: 'warm_joint' }, ...kinds.map((k, i) => ({ name: `warm_${k.name}`, mesh: i, skin: 0 }))],
    skins: [{ joints: [0] }],
    meshes: kinds.map((k, i) => ({
      name: `warm_${k.name}`,
      weights: [0],
      primitives: [{
        attributes: { POSITION: position, NORMAL: normal, TEXCOORD_0: uv, JOINTS_0: joints, WEIGHTS_0: weights, ...(k.colors ? { COLOR_0: color } : {}) },
        indices, material: i, targets: [{ POSITION: target }],
      }],
    })),
    materials: kinds.map((k) => ({ name: `warm_${k.name}`, ...k.material })),
    samplers: [{ magFilter: 9729, minFilter: 9987 }],
    textures: images.map((_, i) => ({ sampler: 0, source: i })),
    images,
    accessors,
    bufferViews: views,
    buffers: [{ byteLength: length }],
  };
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLen = Math.ceil(text.length / 4) * 4;
  const binLen = Math.ceil(length / 4) * 4;
  const out = new Uint8Array(12 + 8 + jsonLen + 8 + binLen);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, out.length, true);
  dv.setUint32(12, jsonLen, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLen);
  out.set(text, 20);
  dv.setUint32(20 + jsonLen, binLen, true);
  dv.setUint32(24 + jsonLen, 0x004e4942, true);
  let at = 28 + jsonLen;
  for (const p of parts) { out.set(p, at); at += p.byteLength; }
  return out.buffer;
}
