// Screenshots of the creator at a phone's size (390x844) and a desktop's
// (1280x800), in headless Chromium (playwright-core of tools/browser-test,
// WebGL on SwiftShader): the page once its first avatar shows, the
// Hair tab with its thumbnails, the portrait camera on the Facial hair tab,
// a hair style's part swapped in before its whole build, and a beanie
// with its colour picked. Usage:
//   node bench/creator/screenshots.mjs [creator URL, default http://127.0.0.1:8081/avatar] [out dir, default .]
// Set KILN_CREATOR_STATIC to a creator/static folder to serve the page's
// files from it instead of the server's (to look at a change without a
// rebuild).
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../tools/browser-test/package.json'));
const { chromium } = require('playwright-core');

const url = process.argv[2] || 'http://127.0.0.1:8081/avatar';
const out = process.argv[3] || '.';
const local = process.env.KILN_CREATOR_STATIC;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'] });
for (const [name, viewport, mobile] of [['phone', { width: 390, height: 844 }, true], ['desktop', { width: 1280, height: 800 }, false]]) {
  const ctx = await browser.newContext({ viewport, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: 1, reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error(`${name}: page error: ${e.message}`));
  if (local) {
    await page.route('**/creator/static/**', (route) => {
      const f = path.join(local, new URL(route.request().url()).pathname.slice('/creator/static/'.length));
      if (!existsSync(f)) return route.continue();
      const type = f.endsWith('.js') ? 'text/javascript' : f.endsWith('.css') ? 'text/css' : 'application/json';
      return route.fulfill({ body: readFileSync(f), contentType: type });
    });
  }
  const t0 = Date.now();
  await page.goto(url, { timeout: 300000 });
  await page.waitForFunction(() => window.__kiln?.ready, null, { timeout: 300000 });
  const firstAvatar = (Date.now() - t0) / 1000;
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(out, `creator-${name}.png`) });
  await page.getByRole('tab', { name: 'Hair', exact: true }).click();
  await page.waitForTimeout(3000);
  await page.screenshot({ path: path.join(out, `creator-${name}-hair.png`) });
  // The portrait camera, and the Facial hair tab of an avatar whose
  // configuration gives the beard no colour (the picker shows the hair's).
  await page.locator('#portrait').click();
  await page.getByRole('tab', { name: 'Facial hair', exact: true }).click();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(out, `creator-${name}-portrait.png`) });
  // A style never built, the moment its part is swapped in (before the
  // whole build): the hair of the avatar on screen is the new one.
  await page.getByRole('tab', { name: 'Hair', exact: true }).click();
  await page.locator('input[data-path="hair.style"][value="curly"]').check({ force: true });
  await page.waitForFunction(() => window.__kiln.changes.at(-1)?.shown !== undefined, null, { timeout: 300000, polling: 10 });
  const swapped = await page.evaluate(() => window.__kiln.changes.at(-1));
  await page.screenshot({ path: path.join(out, `creator-${name}-part.png`) });
  console.log(`${name}: curly hair shown by its ${swapped.by} after ${swapped.shown.toFixed(0)} ms${swapped.built === undefined ? ', before its whole build' : ''}`);
  // A hat with no colour of its own in the configuration: its colour
  // swatch (the catalogue's "color") shows picked.
  await page.getByRole('tab', { name: 'Headwear', exact: true }).click();
  await page.locator('input[data-path="headwear.style"][value="beanie"]').check({ force: true });
  await page.waitForFunction(() => window.__kiln.changes.at(-1)?.shown !== undefined, null, { timeout: 300000, polling: 10 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(out, `creator-${name}-hat.png`) });
  console.log(`${name}: hat colour picked: ${await page.locator('input[data-path="headwear.color"]:checked').getAttribute('value').catch(() => 'none')}`);
  console.log(`${name}: first avatar after ${firstAvatar.toFixed(1)} s; ${path.join(out, `creator-${name}.png`)}, creator-${name}-hair.png`);
  await ctx.close();
}
await browser.close();
