// Reads Kiln models over HTTP with glTF-Transform (@gltf-transform/core
// and /extensions, pinned here), as a pipeline written for the leader's
// avatars does: every extension registered, Draco decoded (and encoded
// again on writing) by Google's draco3dgltf, meshopt by meshoptimizer. Per URL it
// reports the extensions used, the node tree under Armature, each
// mesh's primitives, triangles, morph targets and position bounds as
// decoded; and it writes the document back (io.writeBinary) and reports
// that file's size and where it went, so that a test can validate it.
// It prints one line of JSON; internal/app's TestGLTFTransformClient
// judges it.
//
//   node gltftransform.mjs OUTDIR URL...
//
// Exits 1 with one line when a URL does not answer 200 or does not read.
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import draco3d from 'draco3dgltf';
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [outDir, ...urls] = process.argv.slice(2);
if (!outDir || !urls.length) {
  console.error('usage: node gltftransform.mjs OUTDIR URL...');
  process.exit(2);
}
try {
  await MeshoptDecoder.ready;
  await MeshoptEncoder.ready;
  const io = new NodeIO()
    .registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({
      'draco3d.decoder': await draco3d.createDecoderModule(),
      'draco3d.encoder': await draco3d.createEncoderModule(),
      'meshopt.decoder': MeshoptDecoder,
      'meshopt.encoder': MeshoptEncoder,
    });
  const out = [];
  for (const [n, url] of urls.entries()) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
    const doc = await io.readBinary(new Uint8Array(await res.arrayBuffer()));
    const root = doc.getRoot();
    const armature = root.listNodes().find((x) => x.getName() === 'Armature');
    const meshes = root.listMeshes().map((mesh) => {
      const m = { name: mesh.getName(), primitives: 0, triangles: 0, targets: 0, min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
      const el = [0, 0, 0];
      for (const prim of mesh.listPrimitives()) {
        const pos = prim.getAttribute('POSITION');
        const idx = prim.getIndices();
        m.primitives++;
        m.triangles += (idx ? idx.getCount() : pos.getCount()) / 3;
        m.targets = Math.max(m.targets, prim.listTargets().length);
        for (let i = 0; i < pos.getCount(); i++) {
          pos.getElement(i, el);
          for (let k = 0; k < 3; k++) {
            m.min[k] = Math.min(m.min[k], el[k]);
            m.max[k] = Math.max(m.max[k], el[k]);
          }
        }
      }
      return m;
    });
    const written = join(outDir, `gltftransform-${n}.glb`);
    const bytes = await io.writeBinary(doc);
    writeFileSync(written, bytes);
    out.push({
      url,
      extensionsUsed: root.listExtensionsUsed().map((e) => e.extensionName),
      armature: armature ? armature.listChildren().map((x) => x.getName()) : null,
      meshes,
      written,
      writtenBytes: bytes.length,
    });
  }
  console.log(JSON.stringify(out));
} catch (e) {
  console.error(String(e && e.message || e).split('\n')[0]);
  process.exit(1);
}
