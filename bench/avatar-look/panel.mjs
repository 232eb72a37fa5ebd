// Pairs for a blind panel: each of Kiln's portraits beside each of the
// leader's, the sides shuffled by a seeded draw, written as pair-NN.png
// with the two pictures labelled A and B and nothing else. The key (which
// side is Kiln's) goes to a separate file, so judges shown the pairs
// folder cannot see it.
//
//   node bench/avatar-look/panel.mjs PAIRDIR KEYFILE --kiln a.png,b.png --leader c.png,d.png [--seed 7]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { main, openPage } from '../../tools/browser-test/page.mjs';

const argv = process.argv.slice(2);
const flags = {};
const pos = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i].startsWith('--')) flags[argv[i].slice(2)] = argv[++i];
  else pos.push(argv[i]);
}
const [dir, keyFile] = pos;
if (!dir || !keyFile || !flags.kiln || !flags.leader) {
  console.error('usage: node bench/avatar-look/panel.mjs PAIRDIR KEYFILE --kiln a.png,... --leader c.png,... [--seed 7]');
  process.exit(2);
}
// mulberry32: a small seeded generator, so a panel can be made again.
let s = Number(flags.seed || 7) >>> 0;
const rand = () => {
  s = (s + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const dataURL = (f) => 'data:image/png;base64,' + readFileSync(f).toString('base64');
const pairs = [];
for (const k of flags.kiln.split(',')) {
  for (const l of flags.leader.split(',')) pairs.push({ kiln: k, leader: l, kilnSide: rand() < 0.5 ? 'A' : 'B' });
}
// Shown in a shuffled order, so neighbours do not share a picture.
for (let i = pairs.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
}

// Every pair drawn in one page: the two pictures side by side under
// their letters.
await main(async () => {
  mkdirSync(dir, { recursive: true });
  const sides = pairs.map((p) => (p.kilnSide === 'A' ? [p.kiln, p.leader] : [p.leader, p.kiln]).map(dataURL));
  const page = `<!doctype html><body><script>
    const load = (s) => new Promise((ok) => { const im = new Image(); im.onload = () => ok(im); im.src = s; });
    const draw = ([a, b]) => {
      const c = document.createElement('canvas');
      c.width = a.width + b.width + 16; c.height = Math.max(a.height, b.height) + 40;
      const g = c.getContext('2d');
      g.fillStyle = '#fff'; g.fillRect(0, 0, c.width, c.height);
      g.drawImage(a, 0, 40); g.drawImage(b, a.width + 16, 40);
      g.fillStyle = '#000'; g.font = 'bold 28px sans-serif';
      g.fillText('A', a.width / 2 - 8, 30); g.fillText('B', a.width + 16 + b.width / 2 - 8, 30);
      return c.toDataURL('image/png');
    };
    Promise.all(${JSON.stringify(sides)}.map((pair) => Promise.all(pair.map(load)).then(draw)))
      .then((pngs) => { window.result = { pngs }; });
  </script></body>`;
  const { pngs } = await openPage(page, { timeout: 300000 });
  const key = pairs.map((p, i) => {
    const name = `pair-${String(i + 1).padStart(2, '0')}.png`;
    writeFileSync(join(dir, name), Buffer.from(pngs[i].split(',')[1], 'base64'));
    return { pair: name, kilnSide: p.kilnSide, kiln: basename(p.kiln), leader: basename(p.leader) };
  });
  writeFileSync(keyFile, JSON.stringify(key, null, 2));
  return { pairs: pairs.length, dir, keyFile };
});
