// read.mjs reads a GLB with glTF-Transform, EXT_meshopt_compression decoded
// by meshoptimizer's own decoder, and prints what glTF-Transform sees as
// JSON, so that a Go test can hold Kiln's compressed output against a
// second, independent reader (issue 16 names three.js and glTF-Transform).
//
// Usage: node read.mjs FILE.glb
//
// Per primitive, in file order: the mesh's index and name, the primitive's
// index, its mode, vertex count, index count, the index buffer itself
// (null when the primitive draws its vertices in order) and the bounds of
// its POSITION accessor as decoded (normalized integers mapped to floats,
// as glTF says), without node transforms.
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer/decoder';

const file = process.argv[2];
if (!file) {
  console.error('usage: node read.mjs FILE.glb');
  process.exit(2);
}
await MeshoptDecoder.ready;
const io = new NodeIO()
  .registerExtensions(ALL_EXTENSIONS)
  .registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
const doc = await io.read(file);
const root = doc.getRoot();
const primitives = [];
root.listMeshes().forEach((mesh, m) => {
  mesh.listPrimitives().forEach((prim, p) => {
    const pos = prim.getAttribute('POSITION');
    const idx = prim.getIndices();
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    const el = [0, 0, 0];
    for (let i = 0; i < pos.getCount(); i++) {
      pos.getElement(i, el);
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k], el[k]);
        max[k] = Math.max(max[k], el[k]);
      }
    }
    primitives.push({
      mesh: m,
      name: mesh.getName(),
      primitive: p,
      mode: prim.getMode(),
      vertices: pos.getCount(),
      indexCount: idx ? idx.getCount() : 0,
      indices: idx ? Array.from(idx.getArray()) : null,
      min,
      max,
    });
  });
});
const json = doc.getRoot().listExtensionsUsed().map((e) => e.extensionName);
process.stdout.write(JSON.stringify({ extensionsUsed: json, primitives }) + '\n');
