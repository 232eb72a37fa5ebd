// Creator benchmark, in headless Chromium (playwright-core of
// tools/browser-test): cold load (time to the first avatar shown, bytes
// before it), slider latency (input event to the morphed geometry drawn,
// and to the next animation frame), and a style change (click to the new
// build shown), uncached and cached. Usage:
//   node bench/creator/run.mjs [creator URL, default http://127.0.0.1:8081/avatar] [--cold N]
// (--cold N: only N cold loads, each in a new browser context)
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../tools/browser-test/package.json'));
const { chromium } = require('playwright-core');

const args = process.argv.slice(2);
const coldRuns = args.includes('--cold') ? Number(args[args.indexOf('--cold') + 1]) : 0;
const url = args.find((a) => /^https?:/.test(a)) || 'http://127.0.0.1:8081/avatar';
// KILN_CREATOR_STATIC serves the page's files from a creator/static
// folder instead of the server's (to measure a change without a rebuild).
const local = process.env.KILN_CREATOR_STATIC;
const load0 = os.loadavg().map((x) => x.toFixed(1)).join(' ');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'] });

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const ms = (x) => (x === undefined ? '-' : `${x.toFixed(1)} ms`);

// open is a new browser context (nothing cached) on the creator, with
// the bytes it transfers counted.
async function open() {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  if (local) {
    await page.route('**/creator/static/**', (route) => {
      const f = path.join(local, new URL(route.request().url()).pathname.slice('/creator/static/'.length));
      if (!existsSync(f)) return route.continue();
      const type = f.endsWith('.js') ? 'text/javascript' : f.endsWith('.css') ? 'text/css' : 'application/json';
      return route.fulfill({ body: readFileSync(f), contentType: type });
    });
  }
  // Failed answers and page errors are printed: a page that never shows
  // its avatar says why.
  page.on('response', (r) => { if (r.status() >= 400) console.log(`  answer ${r.status()} to ${r.request().method()} ${new URL(r.url()).pathname}`); });
  page.on('pageerror', (e) => console.log(`  page error: ${e.message}`));
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const net = { bytes: 0, requests: 0 };
  cdp.on('Network.loadingFinished', (e) => { net.bytes += e.encodedDataLength; net.requests++; });
  return { ctx, page, net };
}

// coldLoad is a navigation to the first avatar on screen, with its phases.
async function coldLoad(page, net) {
  const load = os.loadavg()[0].toFixed(1);
  await page.goto(url, { waitUntil: 'commit', timeout: 300000 });
  await page.waitForFunction(() => window.__kiln?.ready, null, { timeout: 300000, polling: 20 });
  const cold = await page.evaluate(() => ({ firstAvatar: window.__kiln.firstAvatar, ...window.__kiln.phases }));
  const s = cold.show;
  console.log(`cold load: first avatar ${ms(cold.firstAvatar)} after navigation, ${(net.bytes / 1e6).toFixed(2)} MB in ${net.requests} requests before it`);
  console.log(`  (after navigation) build asked ${ms(cold.sent)}, view made ${ms(cold.view)}, schema and palettes ${ms(cold.data)}, ` +
    `warm-up drawn ${ms(cold.warmed)} (${cold.warmPrograms ?? '-'} programs), build answered ${ms(cold.answered)}, ` +
    `parsed in ${ms(s.parse)}, textures uploaded in ${ms(s.upload)}, first draw ${ms(s.draw)} (${s.programs} shader programs, ${s.newPrograms} new), ` +
    `avatar shown ${ms(cold.firstAvatar)}; load ${load}`);
  return cold;
}

if (coldRuns) {
  // Only cold loads, each in a new context (the server's cache stays: the
  // first is a cold server's, the rest a warm one's).
  const all = [];
  for (let i = 0; i < coldRuns; i++) {
    const { ctx, page, net } = await open();
    all.push((await coldLoad(page, net)).firstAvatar);
    await ctx.close();
  }
  console.log(`cold loads: median ${ms(pct(all, 0.5))} of ${all.length}`);
  await browser.close();
  process.exit(0);
}

const { page, net } = await open();
await coldLoad(page, net);
const firstAvatarBytes = net.bytes;
// The page then warms the parts the avatar does not wear (a beard,
// glasses, a hat: their first draw compiles shaders).
await page.waitForFunction(() => window.__kiln.warmMs !== undefined, null, { timeout: 300000, polling: 100 }).catch(() => {});
const warm = await page.evaluate(() => ({ each: window.__kiln.warmed, all: window.__kiln.warmMs, programs: window.__kiln.view.renderer.info.programs.length }));
console.log(`parts warmed after the first avatar: ${(warm.each || []).map(ms).join(', ')} (${warm.programs} programs)`);

// Slider latency: drag the height slider across with the mouse.
const slider = page.locator('input[data-slider="body.height"]');
const box = await slider.boundingBox();
await page.evaluate(() => { window.__kiln.latencies.length = 0; window.__kiln.frameLatencies.length = 0; });
await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
await page.mouse.down();
for (let i = 0; i <= 120; i++) {
  const f = 0.5 + 0.4 * Math.sin(i / 120 * 2 * Math.PI);
  await page.mouse.move(box.x + box.width * f, box.y + box.height / 2);
  await page.waitForTimeout(16);
}
await page.mouse.up();
await page.waitForTimeout(200);
const lat = await page.evaluate(() => ({ l: window.__kiln.latencies, f: window.__kiln.frameLatencies }));
console.log(`slider (${lat.l.length} input events): geometry drawn median ${ms(pct(lat.l, 0.5))}, p95 ${ms(pct(lat.l, 0.95))}; next frame median ${ms(pct(lat.f, 0.5))}, p95 ${ms(pct(lat.f, 0.95))}`);

// Style change: pick a style of each category that no build has made
// yet, and time from the click to the new style on screen (its part
// swapped in, or the whole build if it came first), then wait for the
// whole build too (shown is what a person sees; built is when the
// avatar that Done saves is on screen).
await page.waitForFunction(() => !document.getElementById('spinner') || document.getElementById('spinner').hidden, null, { timeout: 300000 });
const loadNow = () => os.loadavg()[0].toFixed(1);
// watchFrames starts recording, in the page, how long its main thread
// was away: the gap between one animation frame and the next (what a
// person sees as a stall: the view and every control frozen) and the
// long tasks (over 50 ms) the browser reports. The page draws on
// demand, so the frames are asked by this loop, not by the page.
const watchFrames = () => page.evaluate(() => {
  const j = window.__frames = { gaps: [], long: [], loaf: [], t0: performance.now(), on: true };
  j.obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) j.long.push({ at: e.startTime - j.t0, d: e.duration }); });
  j.obs.observe({ type: 'longtask' });
  // The long animation frames name the scripts that held them.
  j.loafObs = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      j.loaf.push({ at: e.startTime - j.t0, d: e.duration, scripts: e.scripts.map((x) => ({ d: x.duration, what: `${x.invoker} ${x.sourceFunctionName || ''}@${(x.sourceURL || '').split('/').pop()}:${x.sourceCharPosition}` })) });
    }
  });
  try { j.loafObs.observe({ type: 'long-animation-frame' }); } catch { /* not in this browser */ }
  let last = performance.now();
  const tick = (t) => {
    if (!j.on) return;
    j.gaps.push({ at: last - j.t0, d: t - last });
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});
// stopFrames ends it and answers the longest frame and long task, with
// when they started (ms after the watch began), and the long tasks' count.
const stopFrames = () => page.evaluate(() => {
  const j = window.__frames;
  j.on = false;
  j.obs.disconnect();
  j.loafObs.disconnect();
  const top = (xs) => xs.reduce((a, b) => (b.d > a.d ? b : a), { at: 0, d: 0 });
  const loaf = top(j.loaf);
  const held = (loaf.scripts || []).sort((a, b) => b.d - a.d).slice(0, 2).map((x) => `${x.what} ${x.d.toFixed(0)} ms`).join(', ');
  return { frame: top(j.gaps), task: top(j.long), tasks: j.long.length, frames: j.gaps.length, held };
});
// FREEZE_WINDOW is how long after a pick its frames are watched: at
// least 3 s, and at least a second after its whole build is on screen
// (the swap to the whole build is where the page froze).
const FREEZE_WINDOW = 3000;
async function pickStyle(tab, path, style) {
  await page.getByRole('tab', { name: tab, exact: true }).click();
  const n = await page.evaluate(() => window.__kiln.changes.length);
  const load = loadNow();
  await watchFrames();
  const clicked = Date.now();
  await page.locator(`input[data-path="${path}"][value="${style}"]`).check({ force: true });
  try {
    await page.waitForFunction((k) => window.__kiln.changes.length > k && window.__kiln.changes.at(-1).shown !== undefined, n, { timeout: 120000, polling: 10 });
    await page.waitForFunction(() => window.__kiln.changes.at(-1).built !== undefined, null, { timeout: 120000, polling: 50 });
  } catch (e) {
    console.log(`${path} ${style}: not shown within 2 minutes; the page says "${await page.locator('#status').textContent()}", load ${loadNow()}`);
    throw e;
  }
  await page.waitForTimeout(Math.max(1000, FREEZE_WINDOW - (Date.now() - clicked)));
  const frames = await stopFrames();
  const c = await page.evaluate(() => window.__kiln.changes.at(-1));
  const fetch = await page.evaluate(() => window.__kiln.fetchMs.at(-1));
  return { what: `${path.replace(/\.style$/, '')} ${style}`, shown: c.shown, by: c.by, ahead: c.ahead, part: c.partAnswer, partError: c.partError, swap: c.swap, built: c.built, buildAnswer: fetch, load, frames, show: c.show };
}
// freeze says a pick's longest frame and longest task, and when.
const freeze = (r) => `longest frame ${ms(r.frames.frame.d)} at +${(r.frames.frame.at / 1000).toFixed(2)} s, longest task ${ms(r.frames.task.d)} at +${(r.frames.task.at / 1000).toFixed(2)} s (${r.frames.tasks} long tasks)` +
  (r.frames.held ? ` (held by ${r.frames.held})` : '') +
  (r.show ? `; whole build swapped in ${r.show.slices} slices, longest ${ms(r.show.longest)}, readied in ${ms(r.show.staged)} (${ms(r.show.waited)} of it waiting for the GPU)` : '');
const picks = [
  ['Hair', 'hair.style', 'curly'], ['Hair', 'hair.style', 'bun'],
  ['Facial hair', 'facialHair.style', 'full-beard'], ['Facial hair', 'facialHair.style', 'goatee'],
  ['Outfit', 'outfit.top.style', 'hoodie'], ['Outfit', 'outfit.bottom.style', 'shorts'], ['Outfit', 'outfit.footwear.style', 'boots'],
  ['Headwear', 'headwear.style', 'beanie'], ['Glasses', 'glasses.style', 'round'],
];
// The page asks the parts of an open tab's styles ahead (one at a
// time, from the tab's opening): a pick's part was answered before the
// click (from memory), in flight at the click, or asked at the click.
const AHEAD = { answered: 'its part asked ahead and answered before the click', asked: 'its part asked ahead, in flight at the click', undefined: 'its part asked at the click' };
const changes = [];
for (const [tab, p, style] of picks) {
  const r = await pickStyle(tab, p, style);
  changes.push(r);
  console.log(`style change, never built: ${r.what}: shown ${ms(r.shown)} by its ${r.by}, ${AHEAD[r.ahead]} (part answered ${r.part === undefined ? `- ${r.partError || 'skipped'}` : ms(r.part)}${r.swap ? `, parsed in ${ms(r.swap.parse)}, drawn in ${ms(r.swap.draw)}, ${r.swap.newPrograms} new programs` : ''}), whole build shown ${ms(r.built)} (answered ${ms(r.buildAnswer)}), load ${r.load}`);
  console.log(`  after the pick: ${freeze(r)}`);
}
const summary = (label, list) => {
  if (!list.length) { console.log(`${label}: none`); return; }
  const shown = list.map((c) => c.shown);
  console.log(`${label} (${list.length} picks): shown median ${ms(pct(shown, 0.5))}, worst ${ms(Math.max(...shown))}, ${shown.filter((x) => x <= 800).length} within 800 ms; whole build shown median ${ms(pct(list.map((c) => c.built), 0.5))}`);
};
const frozen = (label, list) => {
  const f = list.map((c) => c.frames.frame.d);
  console.log(`${label} (${list.length} picks): longest frame median ${ms(pct(f, 0.5))}, worst ${ms(Math.max(...f))}, ${f.filter((x) => x <= 100).length} picks with none over 100 ms; longest task worst ${ms(Math.max(...list.map((c) => c.frames.task.d)))}`);
};
summary('style change, never built, all', changes);
summary('  of which the part was not answered before the click', changes.filter((c) => c.ahead !== 'answered'));
summary('  of which the part was answered ahead (from memory)', changes.filter((c) => c.ahead === 'answered'));
frozen('after a pick, until a second after its whole build (at least 3 s)', changes);
const back = await pickStyle('Hair', 'hair.style', 'curly');
console.log(`style change, back to a style built before: shown ${ms(back.shown)} by its ${back.by}, load ${back.load}; ${freeze(back)}`);
// A person looks at the styles before picking: the page asks the tab's
// parts ahead meanwhile (and then whole builds). Dwell until the parts
// are in (or 60 s).
await page.getByRole('tab', { name: 'Hair', exact: true }).click();
const dwellStart = Date.now();
await page.waitForFunction(() => window.__kiln.partsAheadDone, null, { timeout: 60000, polling: 200 }).catch(() => {});
const dwell = ((Date.now() - dwellStart) / 1000).toFixed(1);
const ahead1 = await pickStyle('Hair', 'hair.style', 'long');
const ahead2 = await pickStyle('Hair', 'hair.style', 'ponytail');
console.log(`style change (hair) after ${dwell} s on the tab (its parts asked ahead): long ${ms(ahead1.shown)} by its ${ahead1.by}, ${AHEAD[ahead1.ahead]}; ponytail ${ms(ahead2.shown)} by its ${ahead2.by}, ${AHEAD[ahead2.ahead]}`);
console.log(`  after those picks: long: ${freeze(ahead1)}; ponytail: ${freeze(ahead2)}`);
console.log(`transferred in all: ${(net.bytes / 1e6).toFixed(2)} MB in ${net.requests} requests (${(firstAvatarBytes / 1e6).toFixed(2)} MB before the first avatar)`);
console.log(`load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} (at the start: ${load0})`);
await browser.close();
