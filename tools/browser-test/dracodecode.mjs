// Decodes Draco bitstreams with Google's decoder as three.js ships it
// (examples/jsm/libs/draco/draco_decoder.js, the build DRACOLoader falls
// back to without WebAssembly) and prints, per file named on the command
// line, its faces' indices and every attribute's values by unique id as
// JSON. assets/draco's tests use it to check Kiln's encoder against the
// reference decoder.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);
const file = require.resolve('three/examples/jsm/libs/draco/draco_decoder.js');
// The file is a CommonJS script but three's package is ESM-typed, so node
// will not require it: run its text as CommonJS and take its factory.
const factory = new Function('require', '__filename', '__dirname', readFileSync(file, 'utf8') + '\nreturn DracoDecoderModule;')(require, file, dirname(file));
const draco = await factory();

const results = [];
for (const path of process.argv.slice(2)) {
  const buf = readFileSync(path);
  const decoder = new draco.Decoder();
  const mesh = new draco.Mesh();
  const status = decoder.DecodeArrayToMesh(buf, buf.length, mesh);
  if (!status.ok()) {
    results.push({ error: status.error_msg() });
    continue;
  }
  const out = { faces: mesh.num_faces(), points: mesh.num_points(), indices: [], attributes: [] };
  const face = new draco.DracoUInt32Array();
  for (let f = 0; f < mesh.num_faces(); f++) {
    decoder.GetFaceFromMesh(mesh, f, face);
    out.indices.push(face.GetValue(0), face.GetValue(1), face.GetValue(2));
  }
  for (let id = 0; ; id++) {
    const att = decoder.GetAttributeByUniqueId(mesh, id);
    if (!att.ptr) break;
    const values = new draco.DracoFloat32Array();
    decoder.GetAttributeFloatForAllPoints(mesh, att, values);
    const list = [];
    for (let i = 0; i < values.size(); i++) list.push(values.GetValue(i));
    out.attributes.push({ type: att.attribute_type(), components: att.num_components(), values: list });
    draco.destroy(values);
  }
  draco.destroy(face);
  draco.destroy(mesh);
  draco.destroy(decoder);
  results.push(out);
}
console.log(JSON.stringify(results));
