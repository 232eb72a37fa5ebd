// Runs meshoptimizer's simplifyWithAttributes on the model primitives that
// models.go exported, the way Kiln's lod chain runs: every primitive at
// half of its triangles for lod 1, lod 2 simplified from lod 1 at half
// again, the errors of the chain added; once without flags and once
// 'Permissive' with texture seams protected (lock 2). Prints one JSON
// document: per model and mode, the triangles (summed) and the error
// (largest over the primitives) of lod 0, 1 and 2.
// Usage: node models.mjs MODELS.json
import fs from 'node:fs';
import path from 'node:path';
import { MeshoptSimplifier } from 'meshoptimizer';

function read(file, Type) {
	const buf = fs.readFileSync(file);
	return new Type(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}

await MeshoptSimplifier.ready;
const manifestPath = process.argv[2];
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
const dir = path.dirname(manifestPath);

function chain(p, permissive) {
	const positions = read(path.join(dir, p.positions), Float32Array);
	const attributes = p.stride > 0 ? read(path.join(dir, p.attributes), Float32Array) : new Float32Array(0);
	const lock = permissive ? new Uint8Array(fs.readFileSync(path.join(dir, p.protect))) : null;
	let indices = read(path.join(dir, p.indices), Uint32Array);
	const levels = [{ triangles: indices.length / 3, error: 0 }];
	let total = 0;
	for (let l = 1; l <= 2; l++) {
		const target = Math.floor(p.triangles * Math.pow(0.5, l)) * 3;
		const flags = permissive ? ['Permissive'] : [];
		const [out, err] = p.stride > 0
			? MeshoptSimplifier.simplifyWithAttributes(indices, positions, 3, attributes, p.stride, p.weights, lock, target, 1e9, flags)
			: MeshoptSimplifier.simplify(indices, positions, 3, target, 1e9, flags);
		if (out.length > 0) {
			indices = out;
			total += err;
		}
		levels.push({ triangles: indices.length / 3, error: total });
	}
	return levels;
}

const models = [];
for (const m of manifest.models) {
	const result = {};
	for (const [mode, permissive] of [['plain', false], ['permissive', true]]) {
		const sum = [0, 1, 2].map(() => ({ triangles: 0, error: 0 }));
		for (const p of m.primitives) {
			chain(p, permissive).forEach((lv, l) => {
				sum[l].triangles += lv.triangles;
				sum[l].error = Math.max(sum[l].error, lv.error);
			});
		}
		result[mode] = sum;
	}
	models.push(result);
}
console.log(JSON.stringify({ models }));
