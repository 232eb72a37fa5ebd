// What the blind comparisons share (panel.mjs: Kiln's avatars beside the
// leader's; ab.mjs: Kiln's before beside after): a seeded draw, so a set
// can be made again, and the drawing of each pair as one PNG with the
// two pictures under the letters A and B and nothing else, so a judge
// cannot tell which side is which.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openPage } from '../../tools/browser-test/page.mjs';

// args splits a command line into its --flag value pairs and the rest,
// in order.
export function args(argv) {
  const flags = {};
  const pos = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) flags[argv[i].slice(2)] = argv[++i];
    else pos.push(argv[i]);
  }
  return { flags, pos };
}

// seeded is mulberry32: small, and the same sides for the same seed.
export function seeded(seed) {
  let s = Number(seed) >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// shuffle puts the pairs in a drawn order, so neighbours do not share a
// picture and the order says nothing.
export function shuffle(list, rand) {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

const dataURL = (f) => 'data:image/png;base64,' + readFileSync(f).toString('base64');

// writePairs draws each pair's files [A, B] side by side in one page and
// writes pair-NN.png into dir, in the order given.
export async function writePairs(dir, sides) {
  mkdirSync(dir, { recursive: true });
  const urls = sides.map((pair) => pair.map(dataURL));
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
    Promise.all(${JSON.stringify(urls)}.map((pair) => Promise.all(pair.map(load)).then(draw)))
      .then((pngs) => { window.result = { pngs }; });
  </script></body>`;
  const { pngs } = await openPage(page, { timeout: 300000 });
  return pngs.map((png, i) => {
    const name = `pair-${String(i + 1).padStart(2, '0')}.png`;
    writeFileSync(join(dir, name), Buffer.from(png.split(',')[1], 'base64'));
    return name;
  });
}
