// Drives the avatar creator embedded in an app on another origin
// (creator-parent.html), as a person and the app would, in Debian's
// chromium:
//
//   node creator.mjs PARENT_URL CREATOR_URL USER_TOKEN OUT_DIR
//
// CREATOR_URL is the creator page without its query (…/apps/acme/avatar).
// After each export the model is also fetched as any client would (its
// bytes go to OUT_DIR/first.glb and OUT_DIR/edited.glb, with their ETag
// and the avatar's updatedAt in the output) so the Go test can check
// that an edit changes them under the same URL.
//
// 1. frameApi: the parent gets v1.frame.ready, subscribes, gets
//    v1.subscription.created; axe-core finds no serious or critical
//    violation in the creator; Tab reaches every control with a visible
//    focus; the arrow keys turn the focused view and - zooms out; the
//    person changes the body (height slider), drags a face slider, picks
//    the "bun" hair, colours the top #c0307a with the free picker and
//    presses Done; the parent gets v1.avatar.exported (and no
//    v2.avatar.exported, which v1.** does not cover), and three.js loads
//    the URL.
// 2. without frameApi: Done posts the bare URL.
// 3. reopened with id, the parent also subscribed to v2.avatar.exported:
//    the top turned #2080c0, Done: v1 and v2 with the same URL, and
//    three.js loads the changed model.
// Prints one JSON object (what was seen) for the Go test to check.
import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const [parentURL, creator, token, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node creator.mjs PARENT_URL CREATOR_URL USER_TOKEN OUT_DIR');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const axeSource = readFileSync(createRequire(join(here, 'package.json')).resolve('axe-core/axe.min.js'), 'utf8');
const LONG = 5 * 60 * 1000;

const profile = mkdtempSync(join(tmpdir(), 'kiln-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu-vsync',
    '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1200, height: 800 },
  // The creator then plays no idle clip on its own: with software WebGL
  // on a shared machine every drawn frame is CPU the steps wait for.
  reducedMotion: 'reduce',
});
const out = { errors: [] };
const started = Date.now();
// step tells the Go test (stderr) how far the run got.
const step = (what) => console.error(`creator.mjs ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);

async function open(query) {
  const page = await browser.newPage();
  // Software WebGL on a shared machine: a keypress redraws the avatar.
  page.setDefaultTimeout(LONG);
  page.on('pageerror', (e) => out.errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') step(`console: ${m.text()} (${m.location()?.url || 'no URL'})`); });
  step(`open ${query.replace(/token=[^&]*/, 'token=…')}`);
  const src = `${creator}?${query}`;
  await page.goto(`${parentURL}?src=${encodeURIComponent(src)}`, { waitUntil: 'domcontentloaded', timeout: LONG });
  const frame = page.frameLocator('#frame');
  const inner = () => page.frames().find((f) => f !== page.mainFrame() && f.url().startsWith(creator));
  await page.waitForFunction(() => window.threeReady, null, { timeout: LONG });
  for (let i = 0; i < 600 && !inner(); i++) await page.waitForTimeout(100);
  step('creator frame loaded');
  await inner().waitForFunction(() => window.__kiln?.ready, null, { timeout: LONG, polling: 100 });
  step('first avatar shown');
  return { page, frame, inner: inner() };
}
// fetched downloads an exported model outside the browser, keeps its
// bytes in OUT_DIR/name, and answers its ETag and the avatar's
// updatedAt and configuration as the creator API says them (the user's
// token).
async function fetched(url, id, name) {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  writeFileSync(join(outDir, name), Buffer.from(await res.arrayBuffer()));
  const api = await fetch(new URL(`/creator/avatars/${id}`, creator), { headers: { Authorization: `Bearer ${token}` } });
  if (!api.ok) throw new Error(`GET /creator/avatars/${id}: ${api.status}`);
  const { data } = await api.json();
  return { file: name, etag: res.headers.get('etag'), cacheControl: res.headers.get('cache-control'), updatedAt: data.updatedAt, configuration: data.configuration };
}
const received = (page) => page.evaluate(() => window.received);
async function waitFor(page, pred, what) {
  step(`waiting for ${what}`);
  const t = Date.now();
  let told = t;
  while (Date.now() - t < LONG) {
    const all = await received(page);
    const r = all.find(pred);
    if (r) return r;
    if (Date.now() - told > 30000) {
      told = Date.now();
      step(`still waiting for ${what}; the parent has ${JSON.stringify(all.map((m) => m.eventName || 'bare'))}`);
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no ${what} within ${LONG} ms; got ${JSON.stringify(await received(page))}`);
}

process.on('uncaughtException', (e) => { console.error(e); console.error(JSON.stringify(out)); process.exit(1); });
process.on('unhandledRejection', (e) => { console.error(e); console.error(JSON.stringify(out)); process.exit(1); });

// 1. frameApi.
{
  const { page, frame, inner } = await open(`frameApi&token=${encodeURIComponent(token)}`);
  await waitFor(page, (m) => m.eventName === 'v1.subscription.created', 'v1.subscription.created');

  await inner.addScriptTag({ content: axeSource });
  const axe = await inner.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  });
  out.axe = axe;
  step(`axe-core: ${axe.length} violations`);

  // Keyboard: Tab from the top; every focus stop is a control with a
  // visible outline (read by the frame as focus arrives, so the 60
  // presses need no round trip each).
  await inner.evaluate(() => {
    document.activeElement?.blur();
    window.focus();
    window.__stops = [];
    // One cycle: once focus leaves the frame, a stop re-entering it is
    // caught before :focus-visible applies and says nothing of the page.
    window.addEventListener('blur', () => { window.__left = true; });
    document.addEventListener('focusin', (ev) => {
      if (window.__left) return;
      const e = ev.target;
      const s = getComputedStyle(e);
      window.__stops.push({ id: e.id, role: e.getAttribute('role'), tag: e.tagName.toLowerCase(), type: e.type || '',
        text: (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30),
        outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 });
    });
  });
  for (let i = 0; i < 60; i++) await page.keyboard.press('Tab');
  out.tabStops = await inner.evaluate(() => window.__stops);
  step(`Tab: ${out.tabStops.length} stops`);

  // Orbit by keyboard: the focused view turns with the arrow keys and
  // zooms with -.
  const camera = () => inner.evaluate(() => window.__kiln.view.camera.position.toArray().map((x) => +x.toFixed(4)));
  await frame.locator('#view').focus();
  const before = await camera();
  await page.keyboard.press('ArrowLeft');
  const turned = await camera();
  await page.keyboard.press('-');
  const zoomed = await camera();
  out.orbit = { before, turned, zoomed };

  // The person: body, face, hair, top colour, Done.
  const k = async (locator, key, n) => { await locator.focus(); for (let i = 0; i < n; i++) await locator.press(key); };
  await frame.getByRole('tab', { name: 'Body', exact: true }).click();
  await k(frame.locator('input[data-slider="body.height"]'), 'ArrowRight', 6);
  await frame.getByRole('tab', { name: 'Face', exact: true }).click();
  const dial = frame.locator('input[data-slider^="face."]').first();
  await dial.waitFor({ timeout: LONG });
  await k(dial, 'ArrowRight', 20);
  out.faceSlider = await dial.getAttribute('data-slider');
  await frame.getByRole('tab', { name: 'Hair', exact: true }).click();
  await frame.locator('input[data-path="hair.style"][value="bun"]').check();
  // The new hair shows first by its part, swapped into the avatar on
  // screen before the whole build of bun comes.
  const hairChange = () => inner.evaluate(() => {
    const c = window.__kiln.changes.findLast((x) => x.category === 'hair');
    const hair = window.__kiln.view.model.getObjectByName('Wolf3D_Hair');
    return c && { by: c.by ?? null, shown: c.shown ?? null, built: c.built ?? null, parts: window.__kiln.parts, hairVertices: hair?.geometry.attributes.position.count ?? 0 };
  });
  await inner.waitForFunction(() => window.__kiln.changes.findLast((x) => x.category === 'hair')?.shown !== undefined, null, { timeout: LONG, polling: 100 });
  out.hairChange = await hairChange();
  step(`hair bun shown by its ${out.hairChange.by} after ${Math.round(out.hairChange.shown)} ms`);
  await frame.getByRole('tab', { name: 'Outfit', exact: true }).click();
  await frame.locator('input[type=color][data-path="outfit.top.color"]').fill('#c0307a');
  step('shaped; Done');
  await frame.getByRole('button', { name: 'Done' }).click();
  const v1 = await waitFor(page, (m) => m.eventName === 'v1.avatar.exported', 'v1.avatar.exported');
  await waitFor(page, (m) => m.eventName === 'v1.user.updated', 'v1.user.updated');
  // v1.** does not cover v2.avatar.exported: the leader's quick start
  // gets v1 only (section 3 subscribes to v2).
  out.first = { v1, messages: (await received(page)).map((m) => m.eventName || 'bare') };
  out.first.loaded = await page.evaluate((u) => window.loadAvatar(u), v1.data.url);
  out.first.fetched = await fetched(v1.data.url, v1.data.avatarId, 'first.glb');
  await page.close();
}

// 2. Without frameApi: the bare URL.
{
  const { page, frame } = await open(`token=${encodeURIComponent(token)}`);
  await frame.getByRole('button', { name: 'Done' }).click();
  out.bare = (await waitFor(page, (m) => m.bare, 'a bare URL')).bare;
  await page.waitForTimeout(1000); // a second post would come now
  out.bareCount = (await received(page)).filter((m) => m.bare).length;
  out.bareOthers = (await received(page)).filter((m) => !m.bare).length;
  await page.close();
}

// 3. Reopen with id and edit.
{
  const id = out.first.v1.data.avatarId;
  const { page, frame } = await open(`frameApi&id=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`);
  await waitFor(page, (m) => m.eventName === 'v1.subscription.created', 'v1.subscription.created');
  // An app that wants the metadata subscribes to v2.avatar.exported too.
  await page.evaluate(() => document.getElementById('frame').contentWindow.postMessage(
    JSON.stringify({ target: 'readyplayerme', type: 'subscribe', eventName: 'v2.avatar.exported' }), '*'));
  await waitFor(page, (m) => m.eventName === 'v1.subscription.created' && m.data?.eventName === 'v2.avatar.exported', 'the v2 subscription');
  await frame.getByRole('tab', { name: 'Outfit', exact: true }).click();
  out.reopenedTop = await frame.locator('input[type=color][data-path="outfit.top.color"]').inputValue();
  await frame.locator('input[type=color][data-path="outfit.top.color"]').fill('#2080c0');
  await frame.getByRole('button', { name: 'Done' }).click();
  const v1 = await waitFor(page, (m) => m.eventName === 'v1.avatar.exported', 'v1.avatar.exported');
  const v2 = await waitFor(page, (m) => m.eventName === 'v2.avatar.exported', 'v2.avatar.exported');
  out.edited = { v1, v2 };
  out.edited.loaded = await page.evaluate((u) => window.loadAvatar(u), v1.data.url);
  out.edited.fetched = await fetched(v1.data.url, id, 'edited.glb');
  await page.close();
}

await browser.close();
rmSync(profile, { recursive: true, force: true });
console.log(JSON.stringify(out));
