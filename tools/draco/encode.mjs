// Compresses a GLB with Google's Draco encoder (draco3dgltf) through
// glTF-Transform's KHR_draco_mesh_compression writer, the way its users
// (gltf-transform draco, gltf.report) do: edgebreaker at speed 5/5,
// sequential for primitives with morph targets, quantization bits as given
// (default: glTF-Transform's, which are Kiln's too). bench/draco runs it
// beside Kiln's encoder.
//
//   node encode.mjs IN.glb OUT.glb [runs]
//
// It prints {"ms": [...]}: the encode-and-write time of each run, in
// milliseconds, after one warm-up run, with the module loaded and the
// input parsed once.
import { readFileSync, writeFileSync } from 'node:fs';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS, KHRDracoMeshCompression } from '@gltf-transform/extensions';
import draco3d from 'draco3dgltf';

const [input, output, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 1);
const io = new NodeIO()
  .registerExtensions(ALL_EXTENSIONS)
  .registerDependencies({ 'draco3d.encoder': await draco3d.createEncoderModule() });

const source = readFileSync(input);
const ms = [];
let glb;
for (let i = 0; i <= runs; i++) {
  const doc = await io.readBinary(source);
  doc.createExtension(KHRDracoMeshCompression).setRequired(true).setEncoderOptions({
    method: KHRDracoMeshCompression.EncoderMethod.EDGEBREAKER,
    encodeSpeed: 5,
    decodeSpeed: 5,
  });
  const start = performance.now();
  glb = await io.writeBinary(doc);
  if (i > 0) ms.push(performance.now() - start);
}
writeFileSync(output, glb);
console.log(JSON.stringify({ ms }));
