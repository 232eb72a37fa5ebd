// Opens a Kiln viewer page in Debian's chromium, waits for model-viewer's
// load event, checks that the canvas drew something, and, when asked,
// clicks the first annotation hotspot and checks its text shows.
//
//   node viewer.mjs URL [--screenshot FILE] [--hotspot TEXT] [--animations]
//
// Exits 0 when every check passes, else 1 with one line saying why.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const url = args[0];
const opt = (name) => {
  const i = args.indexOf(name);
  return i > 0 ? args[i + 1] : undefined;
};
const screenshot = opt('--screenshot');
const hotspotText = opt('--hotspot');
const wantAnimations = args.includes('--animations');
if (!url) {
  console.error('usage: node viewer.mjs URL [--screenshot FILE] [--hotspot TEXT] [--animations]');
  process.exit(2);
}

const profile = mkdtempSync(join(tmpdir(), 'kiln-chromium-'));
// A new empty profile each run; playwright takes it as userDataDir.
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  // The flags that keep chromium off the closed network of CI machines.
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1000, height: 800 },
});
let failed = '';
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('body[data-loaded]', { timeout: 120000 });
  if (await page.getAttribute('body', 'data-loaded') !== 'true') {
    throw new Error(`the model did not load: ${errors.join('; ')}`);
  }
  // Let a frame or two draw after load, then take the pixels of the page.
  await page.waitForTimeout(1500);
  const png = await page.locator('model-viewer').screenshot();
  const stats = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    // The background is the commonest colour; count pixels that differ.
    const counts = new Map();
    for (let i = 0; i < d.length; i += 4) {
      const k = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
      counts.set(k, (counts.get(k) || 0) + 1);
    }
    let bg = 0;
    let most = 0;
    for (const [k, n] of counts) if (n > most) { most = n; bg = k; }
    const [r0, g0, b0] = [bg >> 16, (bg >> 8) & 255, bg & 255];
    let other = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - r0) + Math.abs(d[i + 1] - g0) + Math.abs(d[i + 2] - b0) > 24) other++;
    }
    return { width: c.width, height: c.height, other, fraction: other / (c.width * c.height) };
  }, png.toString('base64'));
  console.log(`canvas ${stats.width}x${stats.height}: ${stats.other} pixels not background (${(stats.fraction * 100).toFixed(1)}%)`);
  if (stats.fraction < 0.01) throw new Error('the canvas is blank');

  // Turn the model by a drag, as a visitor does: an interaction event.
  const box = await page.locator('model-viewer').boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.7);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.7, { steps: 8 });
  await page.mouse.up();

  if (wantAnimations) {
    const names = await page.$$eval('#animations button[data-name]', (bs) => bs.map((b) => b.dataset.name));
    console.log(`animations: ${names.join(', ')}`);
    if (!names.length) throw new Error('no animation buttons');
    const pick = names.find((n) => n.includes('wave')) || names[0];
    await page.click(`#animations button[data-name="${pick}"]`);
    await page.waitForTimeout(1200);
    const paused = await page.$eval('model-viewer', (mv) => mv.paused);
    if (paused) throw new Error(`animation ${pick} does not play`);
  }

  if (hotspotText !== undefined) {
    const hotspot = page.locator('.hotspot').first();
    const text = hotspot.locator('.hotspot-text');
    if (await text.isVisible()) throw new Error('the annotation text shows before a click');
    await hotspot.click();
    await text.waitFor({ state: 'visible', timeout: 5000 });
    const shown = await text.innerText();
    if (shown.trim() !== hotspotText) throw new Error(`the hotspot shows ${JSON.stringify(shown)}, want ${JSON.stringify(hotspotText)}`);
    console.log(`hotspot opened: ${shown.trim()}`);
  }
  if (screenshot) await page.screenshot({ path: screenshot });
  // Give the tracking requests (keepalive fetches) time to leave.
  await page.waitForTimeout(500);
  await page.close();
} catch (e) {
  failed = e.message;
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
if (failed) {
  console.error(failed);
  process.exit(1);
}
console.log('ok');
