// Pairs for a blind panel: each of Kiln's portraits beside each of the
// leader's, the sides shuffled by a seeded draw, written as pair-NN.png.
// The key (which side is Kiln's) goes to a separate file, so judges shown
// the pairs folder cannot see it. panel.sh makes a whole panel.
//
//   node bench/avatar-look/panel.mjs PAIRDIR KEYFILE --kiln a.png,b.png --leader c.png,d.png [--seed 7]
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { main } from '../../tools/browser-test/page.mjs';
import { args, seeded, shuffle, writePairs } from './pairs.mjs';

const { flags, pos } = args(process.argv.slice(2));
const [dir, keyFile] = pos;
if (!dir || !keyFile || !flags.kiln || !flags.leader) {
  console.error('usage: node bench/avatar-look/panel.mjs PAIRDIR KEYFILE --kiln a.png,... --leader c.png,... [--seed 7]');
  process.exit(2);
}
const rand = seeded(flags.seed || 7);
const pairs = [];
for (const k of flags.kiln.split(',')) {
  for (const l of flags.leader.split(',')) pairs.push({ kiln: k, leader: l, kilnSide: rand() < 0.5 ? 'A' : 'B' });
}
shuffle(pairs, rand);

await main(async () => {
  const names = await writePairs(dir, pairs.map((p) => (p.kilnSide === 'A' ? [p.kiln, p.leader] : [p.leader, p.kiln])));
  const key = pairs.map((p, i) => ({ pair: names[i], kilnSide: p.kilnSide, kiln: basename(p.kiln), leader: basename(p.leader) }));
  writeFileSync(keyFile, JSON.stringify(key, null, 2));
  return { pairs: pairs.length, dir, keyFile };
});
