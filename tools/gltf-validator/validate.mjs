// Usage: node validate.mjs FILE.glb [FILE.glb ...]
// Prints one JSON line per file: {file, numErrors, numWarnings, errors, info}.
// Exits 0 even when a file has errors: the caller judges the counts.
import { readFileSync } from 'node:fs';
import validator from 'gltf-validator';

for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(readFileSync(file));
  const report = await validator.validateBytes(bytes, { maxIssues: 0 });
  const errors = report.issues.messages
    .filter((m) => m.severity === 0)
    .slice(0, 20)
    .map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`);
  console.log(JSON.stringify({
    file,
    numErrors: report.issues.numErrors,
    numWarnings: report.issues.numWarnings,
    errors,
    info: report.info ?? {},
  }));
}
