// Opens a page in Debian's chromium that loads compressed GLBs with
// three.js and prints, as one JSON line, what the page found. The meshopt
// page (assets/quantize/browser_test.go) loads a meshopt-compressed GLB
// with GLTFLoader and its MeshoptDecoder, plays the first clip and
// reports the triangles and extensions three.js decoded, the pixels the
// model covers and how many the clip moved; draco.html
// (internal/app/draco_test.go) compares Draco downloads, read through
// DRACOLoader, with the plain ones triangle by triangle.
//
//   node meshopt.mjs URL
//
// The page sets window.kilnResult or window.kilnError. Exits 0 with the
// JSON when the page loaded its models, else 1 with one line.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const url = process.argv[2];
if (!url) {
  console.error('usage: node meshopt.mjs URL');
  process.exit(2);
}
const profile = mkdtempSync(join(tmpdir(), 'kiln-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  viewport: { width: 600, height: 600 },
});
let code = 0;
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => window.kilnResult || window.kilnError, null, { timeout: 120000 });
  const { result, error } = await page.evaluate(() => ({ result: window.kilnResult, error: window.kilnError }));
  if (error) throw new Error(`${error}; ${errors.join('; ')}`);
  console.log(JSON.stringify(result));
} catch (e) {
  console.error(`meshopt.mjs: ${e.message}`);
  code = 1;
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(code);
