// What the scripts that play an app written for the leader's avatars
// share: a local origin standing for the app (its page and the npm
// packages it imports, nothing of Kiln's), and Debian's chromium opening
// that page. The page sets window.result; a result with an error field
// fails the run.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

// modules is this folder's node_modules: the pinned packages.
export const modules = join(dirname(fileURLToPath(import.meta.url)), 'node_modules');

const types = {
  '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.glb': 'model/gltf-binary', '.json': 'application/json',
};

// pixels is the pages' shared measure of a changed pixel (pixels.js).
const pixels = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'pixels.js'));

// serve starts the app's origin: the page at /, the measure at
// /pixels.js, each of files at its path, and under each prefix of roots
// the files of a folder (never outside it).
async function serve(page, roots, files) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(page);
      return;
    }
    if (path === '/pixels.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(pixels);
      return;
    }
    if (files[path]) {
      res.writeHead(200, { 'Content-Type': types[extname(path)] || 'application/octet-stream' }).end(files[path]);
      return;
    }
    for (const [prefix, root] of Object.entries(roots)) {
      if (!path.startsWith(prefix)) continue;
      const file = normalize(join(root, path.slice(prefix.length)));
      if (!file.startsWith(root)) break;
      let body;
      try {
        body = readFileSync(file);
      } catch {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': types[extname(file)] || 'application/octet-stream' }).end(body);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return server;
}

// openPage serves page (with roots and files as serve takes them), opens
// it in chromium and returns window.result once the page sets it. A
// result with an error throws it, with what the page logged as errors.
// act, when given, runs on the tab once the page has loaded (a click: a
// user gesture the page may need, as audio does).
export async function openPage(page, { roots = {}, files = {}, timeout = 180000, act } = {}) {
  const server = await serve(page, roots, files);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const profile = mkdtempSync(join(tmpdir(), 'kiln-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--autoplay-policy=no-user-gesture-required'],
    viewport: { width: 600, height: 600 },
  });
  try {
    const tab = await browser.newPage();
    const errors = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    tab.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await tab.goto(origin + '/', { waitUntil: 'domcontentloaded' });
    if (act) await act(tab);
    await tab.waitForFunction(() => window.result !== undefined, null, { timeout });
    const result = await tab.evaluate(() => window.result);
    if (result.error) throw new Error(result.error + (errors.length ? '; ' + errors.join('; ') : ''));
    return result;
  } finally {
    await browser.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

// main prints what fn returns as one line of JSON and exits 0, or exits
// 1 with the first line of its error.
export async function main(fn) {
  let code = 0;
  try {
    console.log(JSON.stringify(await fn()));
  } catch (e) {
    console.error(String(e && e.message || e).split('\n')[0]);
    code = 1;
  }
  process.exit(code);
}
