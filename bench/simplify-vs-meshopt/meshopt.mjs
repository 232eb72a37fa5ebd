// Runs meshoptimizer's simplifier (the npm build: WebAssembly) on the meshes
// that main.go exported, and prints one JSON line per case on stdout.
// Usage: node meshopt.mjs MANIFEST.json
import fs from 'node:fs';
import path from 'node:path';
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
let warm = false;

for (const c of manifest.cases) {
	const indices = read(path.join(dir, c.indices), Uint32Array);
	const positions = read(path.join(dir, c.positions), Float32Array);
	const target = c.target_indices;
	if (!warm) {
		// compile and warm up the WebAssembly once, outside the timings
		MeshoptSimplifier.simplify(indices, positions, 3, target, c.max_error, []);
		warm = true;
	}
	const seconds = [];
	let out, err;
	for (let r = 0; r < c.runs; r++) {
		const t0 = process.hrtime.bigint();
		[out, err] = MeshoptSimplifier.simplify(indices, positions, 3, target, c.max_error, []);
		seconds.push(Number(process.hrtime.bigint() - t0) / 1e9);
	}
	console.log(JSON.stringify({ name: c.name, seconds, indices: out.length, error: err }));
}
