// Pairs for a blind A/B of a change to the look: each picture in OLDDIR
// beside the picture of the same name in NEWDIR (the same avatar, light
// and camera, built before and after the change), sides shuffled by a
// seeded draw, written as pair-NN.png. Judges prefer the left picture
// when the difference is small, so a set whose new side is always on one
// side says nothing; here each side gets about half. The key goes to a
// separate file. Sheets (look.mjs's sheet-*.png) are left out.
//
//   node bench/avatar-look/ab.mjs PAIRDIR KEYFILE OLDDIR NEWDIR [--seed 7]
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../tools/browser-test/page.mjs';
import { args, seeded, shuffle, writePairs } from './pairs.mjs';

const { flags, pos } = args(process.argv.slice(2));
const [dir, keyFile, oldDir, newDir] = pos;
if (!dir || !keyFile || !oldDir || !newDir) {
  console.error('usage: node bench/avatar-look/ab.mjs PAIRDIR KEYFILE OLDDIR NEWDIR [--seed 7]');
  process.exit(2);
}
const olds = new Set(readdirSync(oldDir).filter((f) => f.endsWith('.png') && !f.startsWith('sheet-')));
const names = readdirSync(newDir).filter((f) => olds.has(f)).sort();
if (names.length === 0) {
  console.error(`ab: no picture has the same name in ${oldDir} and ${newDir}`);
  process.exit(2);
}
const rand = seeded(flags.seed || 7);
// Sides are dealt, not drawn one by one: half the pairs (rounded by the
// draw) have the new picture on the left.
const lefts = shuffle(names.map((_, i) => (i < names.length / 2 ? 'A' : 'B')), rand);
const pairs = shuffle(names.map((n, i) => ({ name: n, newSide: lefts[i] })), rand);

await main(async () => {
  const files = pairs.map((p) => [join(oldDir, p.name), join(newDir, p.name)]);
  const written = await writePairs(dir, files.map(([o, n], i) => (pairs[i].newSide === 'A' ? [n, o] : [o, n])));
  const key = pairs.map((p, i) => ({ pair: written[i], newSide: p.newSide, picture: p.name }));
  writeFileSync(keyFile, JSON.stringify(key, null, 2));
  return { pairs: pairs.length, dir, keyFile };
});
