// Runs meshoptimizer's simplifier (the npm build: WebAssembly) on the meshes
// that main.go exported. It reads the manifest, then one case number per
// line on stdin, runs that case once and answers one JSON line on stdout,
// so that main.go can alternate meshoptimizer and Kiln runs under the same
// machine load. Usage: node meshopt.mjs MANIFEST.json
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { MeshoptSimplifier } from 'meshoptimizer';

function read(file, Type) {
	const buf = fs.readFileSync(file);
	// copy so that the typed array is aligned and owns its memory
	return new Type(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}

await MeshoptSimplifier.ready;
const manifestPath = process.argv[2];
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
const dir = path.dirname(manifestPath);
const meshes = new Map();

for await (const line of readline.createInterface({ input: process.stdin })) {
	const c = manifest.cases[Number(line)];
	let mesh = meshes.get(c.indices);
	if (!mesh) {
		mesh = {
			indices: read(path.join(dir, c.indices), Uint32Array),
			positions: read(path.join(dir, c.positions), Float32Array),
		};
		meshes.set(c.indices, mesh);
	}
	const t0 = process.hrtime.bigint();
	const [out, err] = MeshoptSimplifier.simplify(mesh.indices, mesh.positions, 3, c.target_indices, c.max_error, []);
	const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
	console.log(JSON.stringify({ seconds, indices: out.length, error: err }));
}
