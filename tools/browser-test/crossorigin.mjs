// Opens crossorigin.html, served from an origin other than Kiln's, in
// Debian's chromium: from a listed origin an avatar and a clip load with
// three.js and the clip moves pixels, a preview becomes a WebGL texture,
// a HEAD reads the model's size, a tracking event posts, and POST /avatar
// with a key works; from an unlisted origin POST /avatar is blocked.
//
//   node crossorigin.mjs LISTED_PAGE_URL [UNLISTED_PAGE_URL]
//
// Prints each step's outcome as JSON, then exits 0 when every check
// passes, else 1 with one line per failure.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [listed, unlisted] = process.argv.slice(2);
if (!listed) {
  console.error('usage: node crossorigin.mjs LISTED_PAGE_URL [UNLISTED_PAGE_URL]');
  process.exit(2);
}

const profile = mkdtempSync(join(tmpdir(), 'kiln-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 400, height: 400 },
});

// run opens a page and answers what it found.
async function run(url) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('body[data-done]', { timeout: 180000 });
  const result = await page.evaluate(() => window.kilnResult);
  await page.close();
  return { result, errors };
}

const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); };
try {
  const { result: r, errors } = await run(listed);
  console.log(JSON.stringify({ origin: new URL(listed).origin, ...r }));
  if (errors.length) console.log(`console errors: ${errors.join(' | ')}`);
  check(r.postAvatar.status === 200 && r.postAvatar.modelId && r.postAvatar.requestId, `POST /avatar from a listed origin: ${JSON.stringify(r.postAvatar)}`);
  check(r.head && r.head.status === 200 && r.head.length > 1000 && r.head.etag, `HEAD of the model with exposed headers: ${JSON.stringify(r.head)}`);
  const a = r.animation || {};
  check(a.tracks > 0 && a.drawn > 0.02, `the avatar drew ${a.drawn} of the canvas: ${JSON.stringify(a)}`);
  check(a.changed > 0.002, `the clip ${a.clip} changed ${a.changed} of the pixels: ${JSON.stringify(a)}`);
  const p = r.preview || {};
  check(p.width === 64 && p.height === 64 && p.drawn > 0.05, `the preview as a texture: ${JSON.stringify(p)}`);
  check(r.tracking && r.tracking.status === 204, `tracking event: ${JSON.stringify(r.tracking)}`);
  if (unlisted) {
    const { result: u } = await run(unlisted + (unlisted.includes('?') ? '&' : '?') + 'only=post');
    console.log(JSON.stringify({ origin: new URL(unlisted).origin, ...u }));
    check(u.postAvatar.error && !u.postAvatar.status, `POST /avatar from an unlisted origin was not blocked: ${JSON.stringify(u.postAvatar)}`);
  }
} catch (e) {
  failures.push(e.message);
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
if (failures.length) {
  for (const f of failures) console.error(f);
  process.exit(1);
}
console.log('ok');
