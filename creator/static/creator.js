// The avatar creator: state, history and controls. A change moves the
// view at once (sliders through morph targets, colours by tinting) and
// asks Kiln for the real build of the configuration, which replaces the
// view when it arrives.
import { View } from './view.js';
import { Frame } from './frame.js';
import { api, retrying } from './api.js';
import { pick, translator } from './i18n.js';
import { boot, q, flag, app, BODY, FIRST_FEATURE, slidersFor, startConfiguration, first, schemaAsked } from './start.js';

const lang = pick(boot.lang, navigator.languages);
const base = (boot.base || location.origin).replace(/\/$/, '');

const FEATURES = ['head', 'nose', 'mouth', 'eyes', 'ears', 'chin', 'cheeks'];
const FACE_PRESETS = [101, 2024, 7331, 48151, 62342, 99991];
const kiln = window.__kiln = { latencies: [], frameLatencies: [], builds: 0, buildMs: [], fetchMs: [], phases: {}, ready: false, shown: 0, parts: 0, changes: [] };

// ---- state and history ----
let cfg = {};
let history = [];
let at = -1;
let faceFeature = FIRST_FEATURE;
let dials = {};
let ranges = {};
let palettes = { skin: {}, hair: {}, eyes: {}, cloth: {} };
let styles = {};
let user = null;
let avatarId = q.get('id') || null;
const storeKey = `kiln-creator:${app.slug}`;
const store = flag('clearCache') ? null : storage();

// storage is the browser's localStorage, or null where the page may not
// use it: Chromium denies it to a cross-site frame when third-party
// storage is blocked, and reading window.localStorage then throws, which
// stopped the whole page before it built anything. The person is then a
// guest for this visit only (an app that wants the user kept passes a
// token).
function storage() {
  try {
    const s = window.localStorage;
    s.getItem(storeKey);
    return s;
  } catch {
    return null;
  }
}

const clone = (o) => JSON.parse(JSON.stringify(o));
const get = (o, path) => path.split('.').reduce((a, k) => (a == null ? undefined : a[k]), o);
function set(o, path, v) {
  const ks = path.split('.');
  let a = o;
  for (const k of ks.slice(0, -1)) a = a[k] ??= {};
  if (v === undefined) delete a[ks.at(-1)]; else a[ks.at(-1)] = v;
}

function commit() {
  history = history.slice(0, at + 1);
  history.push(JSON.stringify(cfg));
  at = history.length - 1;
  updateHistoryButtons();
}

function restore(i) {
  at = i;
  cfg = JSON.parse(history[at]);
  updateHistoryButtons();
  syncControls();
  scheduleBuild(0);
}

// muscleWeight is avatar.Body.MuscleWeight: what the build sets when the
// configuration leaves them out.
function muscleWeight(b) {
  const weight = 0.2 + 0.7 * b;
  const muscle = 0.5 + 0.4 * Math.exp(-(((b - 0.6) / 0.12) ** 2)) - 0.15 * Math.max(0, (0.3 - b) / 0.3);
  return [muscle, weight];
}

// value is a slider's value: the configuration's, else what the build
// resolved it to.
function value(name) {
  const b = cfg.body || {};
  switch (name) {
    case 'body.height': return b.height ?? view.base[name] ?? 1.75;
    case 'body.build': return b.build ?? view.base[name] ?? 0.4;
    case 'body.age': return b.age || view.base[name] || 25;
    case 'body.muscle': return b.muscle ?? (b.build !== undefined ? muscleWeight(b.build)[0] : view.base[name] ?? 0.5);
    case 'body.weight': return b.weight ?? (b.build !== undefined ? muscleWeight(b.build)[1] : view.base[name] ?? 0.5);
    case 'body.proportions': return b.proportions ?? 0.5;
  }
  const [, feature, dial] = name.split('.');
  return cfg.face?.[feature]?.[dial] ?? view.base[name] ?? 0;
}

function setValue(name, v) {
  if (name === 'body.build') {
    set(cfg, 'body.build', v);
    set(cfg, 'body.muscle', undefined);
    set(cfg, 'body.weight', undefined);
    return;
  }
  if (name.startsWith('body.')) {
    if (name === 'body.muscle' || name === 'body.weight') {
      // The other one stays where the build put it.
      const other = name === 'body.muscle' ? 'body.weight' : 'body.muscle';
      set(cfg, other, value(other));
    }
    set(cfg, name, v);
    return;
  }
  const [, feature, dial] = name.split('.');
  set(cfg, `face.${feature}.${dial}`, v);
}

// sliderValues are what the view moves by: muscle and weight when the
// configuration sets them, the build when it drives them.
function sliderValues() {
  const out = {};
  for (const name of Object.keys(view.base)) out[name] = value(name);
  const b = cfg.body || {};
  if (b.muscle === undefined) out['body.muscle'] = view.base['body.muscle'];
  if (b.weight === undefined) out['body.weight'] = view.base['body.weight'];
  if (b.muscle !== undefined || b.weight !== undefined) out['body.build'] = view.base['body.build'];
  return out;
}

// ---- builds ----
let buildTimer = 0, building = false, again = false, lastShown = '';
const status = document.getElementById('status');
const spinner = document.getElementById('spinner');

// sliderSet is what a build carries targets for: the body and the face
// feature whose dials are shown.
function sliderSet() { return slidersFor(faceFeature); }

function scheduleBuild(delay = 300) {
  clearTimeout(buildTimer);
  buildTimer = setTimeout(runBuild, delay);
}

// prefetched is the first build, asked before anything else was ready
// (start.js): on a cold load it is the longest wait.
let prefetched = first;

async function runBuild() {
  if (building) { again = true; return; }
  const sliders = sliderSet();
  const key = JSON.stringify([cfg, sliders]);
  if (key === lastShown) return;
  building = true;
  spinner.hidden = false;
  status.textContent = t('loading');
  const sent = JSON.stringify(cfg);
  const t0 = performance.now();
  try {
    const early = prefetched?.key === key ? prefetched : ahead.get(key) || null;
    kiln.fromAhead = Boolean(early) && early === ahead.get(key);
    prefetched = null;
    const asked = early?.asked ?? t0;
    kiln.phases.sent ??= asked;
    const asking = () => { spend(buildBudget); return api.build(cfg, sliders); };
    const glb = await retried(early ? early.glb : asking(), asking, sent);
    kiln.fetchMs.push(performance.now() - asked);
    kiln.phases.answered ??= performance.now();
    await view.show(glb);
    if (!kiln.ready) kiln.phases.show = view.showPhases;
    kiln.buildMs.push(performance.now() - t0);
    kiln.builds++;
    lastShown = key;
    shownNow(key, 'build');
    // An older build than the configuration's, with a part of the
    // newer one at hand: the part again on top of it.
    if (lastPart && lastPart.key !== key && lastPart.key === JSON.stringify([cfg, sliderSet()]) && await view.swapPart(lastPart.glb)) shownNow(lastPart.key, 'part');
    if (JSON.stringify(cfg) === sent && view.configuration && history.length === 0) {
      cfg = clone(view.configuration);
      commit();
    }
    syncControls();
    status.textContent = t('ready');
    if (!kiln.ready) {
      kiln.ready = true;
      kiln.firstAvatar = performance.now();
      firstShown();
    }
    kiln.shown++;
  } catch (e) {
    status.textContent = `${t('error')} (${e.message})`;
  } finally {
    building = false;
    spinner.hidden = true;
    if (again) { again = false; scheduleBuild(0); } else buildAhead();
  }
}

// retried is a build's answer, asked again while Kiln answers that it is
// busy (503, 502, 504: its build slots full, its Redis slow under load)
// or the connection fails, after 1, 2, 4, 8 and 16 s, saying so and
// counting down; the page gave up at the first 503, and a person on a
// loaded Kiln saw only an error. It stops asking once the person has
// changed the avatar (the newer build asks for itself); other answers
// (a 400, a 429 for too many builds) are errors at once.
const RETRY_STATUS = new Set([502, 503, 504]);
async function retried(first, again, sent) {
  let p = first;
  for (let wait = 1; ; wait *= 2) {
    try {
      return await p;
    } catch (e) {
      const transient = e instanceof TypeError || RETRY_STATUS.has(e.status);
      if (!transient || wait > 16 || JSON.stringify(cfg) !== sent) throw e;
      kiln.retries = (kiln.retries || 0) + 1;
      for (let left = wait; left > 0; left--) {
        status.textContent = t('busy').replace('{s}', left);
        await new Promise((r) => setTimeout(r, 1000));
      }
      status.textContent = t('loading');
      p = again();
    }
  }
}

// firstShown starts what waits for the first avatar: the thumbnails (their
// renders on the server and decoding here competed with the first build
// and its parse) and the warming of the shader programs of the parts the
// avatar does not wear yet.
let thumbsOpen = false;
function firstShown() {
  thumbsOpen = true;
  thumbQueue.splice(0).forEach((start) => askThumb(start));
  setTimeout(warmParts, 300);
}

// warmParts fetches one part of each category whose mesh the avatar on
// screen lacks (a beard, glasses, a hat) and has the view compile their
// shader programs in the background (View.warm): the first beard or
// glasses picked was drawn in 0.9-2.6 s on a software rasteriser, nearly
// all of it compiling its program, against tens of milliseconds once it
// is compiled. The parts are the server's own, fitted to this body.
async function warmParts() {
  const wanted = [];
  for (const cat of ['facialHair', 'glasses', 'headwear']) {
    const part = PARTS[cat] || { path: cat };
    const now = get(cfg, `${part.path}.style`) ?? get(view.configuration || {}, `${part.path}.style`);
    if (now && now !== 'none') continue;
    // Stubble is painted into the head's skin: no mesh of its own.
    const style = (styles[cat] || []).map((x) => x.id).find((id) => id !== 'none' && id !== 'stubble');
    if (!style) continue;
    const next = clone(cfg);
    set(next, `${part.path}.style`, style);
    wanted.push([cat, next]);
  }
  const glbs = [];
  for (const [cat, next] of wanted) {
    if (picking > 0) break;
    if (tokens(partBudget) <= RESERVE) break;
    spend(partBudget);
    try { glbs.push(await api.part(next, cat, view.configuration?.outfit?.footwear?.style)); } catch { /* not warmed: compiled when picked */ }
  }
  const t0 = performance.now();
  kiln.warmed = await view.warm(glbs).catch(() => []);
  await view.warmKinds(view.morphCount, true).catch(() => {});
  kiln.warmMs = performance.now() - t0;
}

// The style swap: a style picked that no build at hand shows yet is
// first shown by its part alone (POST /creator/parts: its meshes fitted
// to this body, a tenth of a build's time), swapped into the avatar on
// screen, while the whole build asked at the same moment follows and
// replaces the avatar (what Done saves is always the whole build). A
// part that comes after its whole build, or after the person moved on,
// is dropped.
const CATEGORIES = ['hair', 'facialHair', 'top', 'bottom', 'footwear', 'glasses', 'headwear'];
const categoryOf = (path) => {
  const c = path.replace(/\.style$/, '').replace(/^outfit\./, '');
  return path.endsWith('.style') && CATEGORIES.includes(c) ? c : null;
};
let lastPart = null;
// picking counts the picks whose part is in flight: nothing is asked
// ahead meanwhile (a part asked ahead shared the server's cores and the
// address's budget with the part the person is waiting for).
let picking = 0;
// swapPart shows the style of category in cfg by its part: from the
// parts asked ahead (partsAhead) when the page has it, asked now
// otherwise. It resolves once the part has answered (or failed), so that
// the whole build is asked after it (choice): asked together, the two
// shared the server's cores and the part, a tenth of the build's work,
// answered later.
async function swapPart(category) {
  const key = JSON.stringify([cfg, sliderSet()]);
  kiln.changes.push({ key, category, at: performance.now() });
  // Also when a build ahead has it: showing a whole build takes a second
  // or two of parsing and drawing on a software renderer, a part a tenth.
  if (key === lastShown) return;
  const change = kiln.changes.findLast((c) => c.key === key);
  picking++;
  try {
    // Standing on the shoes of the avatar on screen: new soles lift the
    // whole avatar only once its whole build comes.
    const asked = askPart(cfg, category);
    asked.picked = true;
    if (change) change.ahead = asked.done ? 'answered' : asked.prefetched ? 'asked' : undefined;
    const glb = await retriedPart(asked.glb, key, category);
    if (change) change.partAnswer = performance.now() - change.at;
    if (key !== JSON.stringify([cfg, sliderSet()]) || key === lastShown) return;
    lastPart = { key, glb };
    if (await view.swapPart(glb)) {
      kiln.parts++;
      if (change) change.swap = view.swapPhases;
      shownNow(key, 'part');
    }
  } catch (e) {
    // The whole build follows.
    if (change) change.partError = e.message;
  } finally {
    picking--;
  }
}

// retriedPart is a part's answer, asked again after 1 and 2 s while Kiln
// answers that it is busy (502, 503, 504) or the connection fails and the
// person has not moved on: a part refused at a busy moment left the pick
// to its whole build (12.7 s at load 24).
async function retriedPart(first, key, category) {
  let p = first;
  for (let wait = 1; ; wait *= 2) {
    try {
      return await p;
    } catch (e) {
      const transient = (e instanceof TypeError || RETRY_STATUS.has(e.status)) && e.name !== 'AbortError';
      if (!transient || wait > 2 || key !== JSON.stringify([cfg, sliderSet()])) throw e;
      await new Promise((r) => setTimeout(r, wait * 1000));
      const again = askPart(cfg, category);
      again.picked = true;
      p = again.glb;
    }
  }
}

// Parts ahead: when a tab of styles opens, the page asks Kiln for the
// part of each style it shows (POST /creator/parts: the style's meshes
// on this body, a tenth of a whole build), one at a time, and draws each
// once into a hidden pixel (View.warm): a style picked then shows from
// memory, without the server's answer (0.3-3.4 s for a part never built,
// at load 15) or a first draw that compiles. At most PARTS_AHEAD a tab
// (the server allows a client address a burst of 30 parts, then 2 a
// second), the one in flight cancelled when the person opens another tab
// or changes the avatar (unless it is the one picked), and stopped by a
// 429. partsAhead keeps the newest PARTS_KEPT answers, by configuration,
// category and the shoes stood on.
const partsAhead = new Map();
const PARTS_AHEAD = 10;
const PARTS_KEPT = 40;
// partBudget and buildBudget mirror the server's limits per address
// (parts: a burst of 30, then 2 a second; builds: a burst of 30, then
// one every 2 s): parts and builds are asked ahead only while more than
// RESERVE would be left, so that the person's own picks are never
// refused for what the page asked on its own. spend takes one.
const RESERVE = 12;
const bucket = (burst, rate) => ({ burst, rate, tokens: burst, at: performance.now() });
const partBudget = bucket(30, 2);
const buildBudget = bucket(30, 0.5);
if (first) spend(buildBudget);
function tokens(b) {
  const now = performance.now();
  b.tokens = Math.min(b.burst, b.tokens + ((now - b.at) / 1000) * b.rate);
  b.at = now;
  return b.tokens;
}
function spend(b) {
  tokens(b);
  b.tokens--;
}
function askPart(conf, category, prefetched = false) {
  const standOn = view.configuration?.outfit?.footwear?.style;
  const key = JSON.stringify([conf, category, standOn ?? null]);
  let e = partsAhead.get(key);
  if (e) {
    partsAhead.delete(key);
    partsAhead.set(key, e);
    return e;
  }
  const ctl = new AbortController();
  spend(partBudget);
  e = { ctl, prefetched, glb: api.part(conf, category, standOn, ctl.signal) };
  e.glb.then(() => { e.done = true; }, () => { if (partsAhead.get(key) === e) partsAhead.delete(key); });
  partsAhead.set(key, e);
  while (partsAhead.size > PARTS_KEPT) partsAhead.delete(partsAhead.keys().next().value);
  return e;
}

let partsTurn = 0;
// runPartsAhead asks ahead the parts of pane's styles (the open tab's,
// or a tab the pointer rests on or the keyboard focuses), until another
// run starts or the avatar changes.
let partsPane = null;
async function runPartsAhead(pane = openPane) {
  const turn = ++partsTurn;
  partsPane = pane;
  const base = JSON.stringify(cfg);
  const moved = () => turn !== partsTurn || JSON.stringify(cfg) !== base || picking > 0;
  if (!pane || !view.model || picking > 0) return;
  kiln.partsAheadDone = false;
  let asked = 0;
  for (const i of pane.querySelectorAll('input[type=radio][data-path$=".style"]')) {
    const category = categoryOf(i.dataset.path);
    if (!category || i.value === 'none' || get(cfg, i.dataset.path) === i.value || get(view.configuration || {}, i.dataset.path) === i.value) continue;
    if (asked >= PARTS_AHEAD || moved()) return;
    const next = clone(cfg);
    set(next, i.dataset.path, i.value);
    if (tokens(partBudget) <= RESERVE) return;
    const e = askPart(next, category, true);
    if (e.warmed) continue;
    asked++;
    let glb;
    try {
      glb = await e.glb;
    } catch (err) {
      if (err.status === 429) return;
      continue;
    }
    if (moved()) return;
    e.warmed = true;
    kiln.partsAhead = (kiln.partsAhead || 0) + 1;
    await view.warm([glb]).catch(() => {});
  }
  if (!moved()) kiln.partsAheadDone = true;
}

// stopPartsAhead cancels what was asked ahead and is in flight (parts,
// unless the person picked it, and whole builds), so that a pick's part
// is the one request the server works on.
function stopPartsAhead() {
  partsTurn++;
  clearTimeout(openTimer);
  clearTimeout(aheadTimer);
  for (const [key, e] of partsAhead) {
    if (e.done || e.picked || !e.prefetched) continue;
    e.ctl.abort();
    partsAhead.delete(key);
  }
  const now = JSON.stringify([cfg, sliderSet()]);
  for (const [key, e] of ahead) {
    if (e.done || key === now) continue;
    e.ctl.abort();
    ahead.delete(key);
  }
}

// shownNow notes, for the benchmark, when a change first showed and by
// what (its part or its whole build).
function shownNow(key, by) {
  const now = performance.now();
  for (const c of kiln.changes) {
    if (c.key !== key) continue;
    if (c.shown === undefined) { c.shown = now - c.at; c.by = by; }
    if (by === 'build' && c.built === undefined) { c.built = now - c.at; c.show = view.showPhases; }
  }
}

// Building ahead: while the person looks at a tab of styles, the page
// asks Kiln, one at a time, for the builds of the current avatar in each
// other style the tab shows (the first group's first), and keeps their
// bytes; a pick then shows without waiting for a build (about a second of
// a core each, more on a loaded server). They are the server's own builds
// of those configurations, so what shows is exactly what Done saves. The
// newest AHEAD_MAX are kept (so going back and forth between styles
// finds them); any other change to the avatar makes them miss; a 429
// stops it (the builds share the address's budget with the person's
// own).
const ahead = new Map();
let aheadFor = '', aheadTimer = 0, openPane = null;
const AHEAD_MAX = 12;
// partsRun is the run of parts ahead in progress: the whole builds ahead
// wait for it (the parts are what a pick shows first).
let partsRun = Promise.resolve();
// A tab opened while the page is idle has its parts asked ahead only
// after AHEAD_AFTER_OPEN ms without a pick, and while no build is
// running (a running build's answer asks them, runBuild): asked at the
// opening, the first part ahead shared the server's cores with the
// style picked a moment later (issue 20: the cap's part, asked ahead,
// beside the beanie's, 0.86-1.06 s against 800 ms; at load 22 the
// benchmark's click came 0.65 s after its tab's, beside a part asked
// ahead at 600 ms). A person looks at a tab's pictures longer than that
// before picking.
const AHEAD_AFTER_OPEN = 1200;
let openTimer = 0;
function askAheadWhenIdle() {
  clearTimeout(openTimer);
  openTimer = setTimeout(() => { if (!building && picking === 0) buildAhead(); }, AHEAD_AFTER_OPEN);
}
// Whole builds ahead start only after BUILDS_AHEAD_AFTER ms without a
// pick: a whole build cannot be stopped once its generator runs (it
// holds both cores of issue 20's machine for 1-12 s), and one asked
// 0.8 s after the last build's answer ran beside the next pick's part
// (the beanie's part took 3.4 s beside it at load 27, 1.2 s alone). A
// person who looks that long at a tab is browsing it.
const BUILDS_AHEAD_AFTER = 8000;
function buildAhead() {
  partsRun = runPartsAhead();
  clearTimeout(aheadTimer);
  aheadTimer = setTimeout(() => partsRun.then(runAhead), BUILDS_AHEAD_AFTER);
}
async function runAhead() {
  if (building || picking > 0 || !openPane || !lastShown) return;
  const sliders = sliderSet();
  const base = JSON.stringify(cfg);
  if (aheadFor !== base) { aheadFor = base; kiln.aheadDone = 0; }
  const groups = new Map();
  for (const i of openPane.querySelectorAll('input[type=radio][data-path$=".style"]')) {
    if (!groups.has(i.dataset.path)) groups.set(i.dataset.path, []);
    groups.get(i.dataset.path).push(i.value);
  }
  for (const [path, ids] of groups) {
    for (const id of ids) {
      if (building || picking > 0 || JSON.stringify(cfg) !== base) return;
      const next = clone(cfg);
      set(next, path, id);
      const key = JSON.stringify([next, sliders]);
      if (key === lastShown || get(view.configuration || {}, path) === id) continue;
      if (ahead.has(key)) {
        // Kept from an earlier look: the newest again.
        const kept = ahead.get(key);
        ahead.delete(key);
        ahead.set(key, kept);
        kiln.aheadDone = (kiln.aheadDone || 0) + 1;
        continue;
      }
      if (tokens(buildBudget) <= RESERVE) return;
      spend(buildBudget);
      const ctl = new AbortController();
      const entry = { ctl, glb: api.build(next, sliders, ctl.signal), asked: performance.now() };
      ahead.set(key, entry);
      // The oldest go: each is a few MB.
      while (ahead.size > AHEAD_MAX) ahead.delete(ahead.keys().next().value);
      try {
        await entry.glb;
        entry.done = true;
        kiln.aheadDone = (kiln.aheadDone || 0) + 1;
      } catch (e) {
        if (ahead.get(key) === entry) ahead.delete(key);
        if (e.status === 429 || e.name === 'AbortError') return;
      }
    }
  }
}

// ---- controls ----
const panel = document.getElementById('panels');
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids.flat()) if (k != null) e.append(k);
  return e;
};
const labelOf = (id) => id.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_]/g, ' ').toLowerCase().replace(/^./, (c) => c.toUpperCase());
const sliders = new Map();
const radios = new Map();
let uid = 0;

function slider(name, label) {
  const [lo, hi] = ranges[name] || [0, 1];
  const id = `s${uid++}`;
  const out = el('output', { for: id });
  const step = name === 'body.age' ? 1 : name === 'body.height' ? 0.01 : 0.01;
  const input = el('input', { type: 'range', id, min: lo, max: hi, step, 'data-slider': name });
  const show = () => { out.textContent = name === 'body.height' ? `${Number(input.value).toFixed(2)} m` : name === 'body.age' ? input.value : Number(input.value).toFixed(2); };
  input.addEventListener('input', (e) => {
    setValue(name, Number(input.value));
    view.apply(sliderValues());
    const now = performance.now();
    kiln.latencies.push(now - e.timeStamp);
    requestAnimationFrame(() => kiln.frameLatencies.push(performance.now() - e.timeStamp));
    show();
  });
  input.addEventListener('change', () => { commit(); scheduleBuild(); });
  sliders.set(name, { input, show });
  return el('div', { class: 'slider' }, el('label', { for: id }, label), input, out);
}

// choice is a radio group: styles with thumbnails, or colour swatches.
function choice(path, legend, options, { kind = 'text', onpick } = {}) {
  const name = `r${uid++}`;
  const inputs = [];
  const items = options.map((o) => {
    const input = el('input', { type: 'radio', name, value: o.id, 'data-path': path, 'aria-label': o.label });
    input.addEventListener('change', () => {
      set(cfg, path, o.id);
      onpick?.(o);
      commit();
      // The new style's own colour (a hat's) shows picked at once, not
      // once the whole build has come.
      syncControls();
      const category = categoryOf(path);
      // swapPart first: it claims the part asked ahead for this pick
      // (answered or in flight) before the others in flight are dropped.
      const swapped = category ? swapPart(category) : null;
      stopPartsAhead();
      // Once the pick's part is in, its whole build is asked; the tab's
      // other parts are asked ahead again once that build has answered
      // (runBuild), not beside it: at a pick the server builds what
      // the person waits for and nothing else.
      if (swapped) swapped.finally(() => scheduleBuild(0));
      else scheduleBuild(0);
    });
    inputs.push(input);
    let face;
    if (kind === 'swatch') face = el('span', { class: 'swatch', style: `background:${o.hex}`, title: o.label });
    else if (kind === 'thumb') face = el('span', { class: 'thumb' }, thumbnail(o.thumbnailUrl), el('span', {}, o.label)); else face = el('span', { class: 'pill' }, o.label);
    return el('label', { class: `opt ${kind}` }, input, face);
  });
  radios.set(`${path}#${name}`, { path, inputs });
  return el('fieldset', { class: `choice ${kind}` }, el('legend', {}, legend), el('div', { class: 'opts' }, items));
}

// thumbnail is a style's picture. Kiln renders a picture the first time
// it is asked for, and holds the request until it has (up to two
// minutes): the frame shows a spinner meanwhile and asks again after an
// error, rather than an empty box. At most THUMBS_AT_ONCE pictures are
// asked at a time: a browser opens six connections to a host, and a tab
// of pictures still rendering held all six, so that a style's part and
// build waited behind them for over a minute.
const THUMBS_AT_ONCE = 2;
let thumbsAsked = 0;
const thumbQueue = [];
function askThumb(start) {
  if (thumbsOpen && thumbsAsked < THUMBS_AT_ONCE) { thumbsAsked++; start(); } else thumbQueue.push(start);
}
function thumbDone() {
  thumbsAsked--;
  const next = thumbQueue.shift();
  if (next) { thumbsAsked++; next(); }
}
function thumbnail(url) {
  const box = el('span', { class: 'pic loading' });
  if (!url) return box;
  let tries = 0;
  const img = el('img', { alt: '', width: 64, height: 64 });
  const load = (src) => askThumb(() => { img.src = src; });
  img.addEventListener('load', () => { box.classList.remove('loading'); thumbDone(); });
  img.addEventListener('error', () => {
    thumbDone();
    if (++tries > 8) { box.classList.remove('loading'); img.remove(); return; }
    setTimeout(() => load(`${url}${url.includes('?') ? '&' : '?'}try=${tries}`), Math.min(15000, 1500 * tries));
  });
  box.append(img);
  // Asked once the picture is on screen (its tab open), as loading=lazy
  // did.
  new IntersectionObserver((es, o) => {
    if (!es.some((e) => e.isIntersecting)) return;
    o.disconnect();
    load(url);
  }).observe(box);
  return box;
}

// colour is a palette plus a free picker for any "#rrggbb".
function colour(path, legend, palette, materials) {
  const opts = Object.entries(palette).map(([id, hex]) => ({ id, label: labelOf(id), hex }));
  const tintTo = (hex) => {
    // The painted texture has the old colour in it: the tint is the
    // ratio, so the shown colour is near the new one until the build.
    const old = hexOf(get(cfg, path), palette);
    if (!old || !materials) return;
    const a = rgb(old), b = rgb(hex);
    view.tint(materials, a.map((x, i) => Math.min(4, b[i] / Math.max(0.04, x))));
  };
  const group = choice(path, legend, opts, { kind: 'swatch' });
  const id = `c${uid++}`;
  const picker = el('input', { type: 'color', id, 'data-path': path });
  picker.addEventListener('input', () => { tintTo(picker.value); });
  picker.addEventListener('change', () => {
    set(cfg, path, picker.value);
    commit();
    scheduleBuild(0);
  });
  Object.assign(radios.get([...radios.keys()].at(-1)), { picker, palette });
  group.append(el('div', { class: 'picker' }, el('label', { for: id }, t('anyColor')), picker));
  return group;
}
const hexOf = (v, palette) => (v && v.startsWith('#') ? v : palette[v]);
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);

function styleOptions(category, list) {
  const fromCatalog = styles[category];
  const type = cfg.body?.type || 'masculine';
  // The pictures show the style on the body type being made.
  const onBody = (u) => (u && !u.includes('type=') ? `${u}${u.includes('?') ? '&' : '?'}type=${type}` : u);
  if (fromCatalog?.length) return fromCatalog.map((s) => ({ id: s.id, label: s.label || labelOf(s.id), thumbnailUrl: onBody(s.thumbnailUrl) }));
  return list.map((id) => ({ id, label: id === 'none' ? t('none') : labelOf(id), thumbnailUrl: `/creator/thumbnails/${category}/${id}.png?type=${type}` }));
}

function tabs(defs) {
  const list = el('div', { role: 'tablist', 'aria-label': t('controls'), class: 'tabs' });
  const panes = [];
  defs.forEach(([key, build], i) => {
    const tab = el('button', { role: 'tab', id: `tab-${key}`, 'aria-controls': `pane-${key}`, 'aria-selected': i === 0 ? 'true' : 'false', tabindex: i === 0 ? '0' : '-1', type: 'button' }, tr(key));
    const pane = el('section', { role: 'tabpanel', id: `pane-${key}`, 'aria-labelledby': `tab-${key}`, tabindex: '0', class: 'pane' }, build());
    pane.hidden = i !== 0;
    tab.addEventListener('click', () => select(key));
    // A tab the pointer rests on (or the keyboard reaches) has its parts
    // asked ahead before it is opened.
    let hover = 0;
    const soon = () => {
      clearTimeout(hover);
      hover = setTimeout(() => { if (pane.hidden && !picking && !building) { stopPartsAhead(); partsRun = runPartsAhead(pane); } }, 150);
    };
    tab.addEventListener('pointerenter', soon);
    tab.addEventListener('focus', soon);
    tab.addEventListener('pointerleave', () => clearTimeout(hover));
    list.append(tab);
    panes.push(pane);
  });
  const select = (key) => {
    for (const b of list.children) {
      const on = b.id === `tab-${key}`;
      b.setAttribute('aria-selected', on); b.tabIndex = on ? 0 : -1;
      document.getElementById(b.getAttribute('aria-controls')).hidden = !on;
    }
    openPane = document.getElementById(`pane-${key}`);
    // The parts asked ahead for this tab (the pointer rested on it) go
    // on; others in flight are dropped.
    if (partsPane !== openPane) stopPartsAhead();
    askAheadWhenIdle();
  };
  list.addEventListener('keydown', (e) => {
    const all = [...list.children];
    const i = all.indexOf(document.activeElement);
    if (i < 0) return;
    const j = e.key === 'ArrowRight' ? (i + 1) % all.length : e.key === 'ArrowLeft' ? (i + all.length - 1) % all.length : e.key === 'Home' ? 0 : e.key === 'End' ? all.length - 1 : -1;
    if (j < 0) return;
    e.preventDefault();
    all[j].focus(); all[j].click();
  });
  panel.replaceChildren(list, ...panes);
  return select;
}

// Where each catalogue category the creator knows lives in the
// configuration, and the materials a colour change tints at once. A
// category the catalogue lists that is not here (added to Kiln after
// this page) is found in the schema, at the top level or under outfit,
// and gets its controls all the same.
const PARTS = {
  hair: { path: 'hair', materials: ['Wolf3D_Hair', 'Wolf3D_Eyebrows'] },
  facialHair: { path: 'facialHair', materials: ['Wolf3D_Beard'] },
  top: { path: 'outfit.top', materials: ['Wolf3D_Outfit_Top'] },
  bottom: { path: 'outfit.bottom', materials: ['Wolf3D_Outfit_Bottom'] },
  footwear: { path: 'outfit.footwear', materials: ['Wolf3D_Outfit_Footwear'] },
  glasses: { path: 'glasses', materials: ['Wolf3D_Glasses'] },
};
const schemaAt = (schema, path) => path.split('.').reduce((a, k) => a?.properties?.[k], schema);
const enumOf = (p) => p?.enum || p?.anyOf?.find((x) => x.enum)?.enum || [];
// tr is a word of the UI, or a readable name made from its key where
// the language has none (a category or option newer than the words).
const tr = (key) => { const w = t(key); return w === key ? labelOf(key) : w; };

function partOf(schema, cat) {
  if (PARTS[cat]) return PARTS[cat];
  for (const path of [cat, `outfit.${cat}`]) {
    if (schemaAt(schema, `${path}.style`)) return { path, materials: [`Wolf3D_${cat[0].toUpperCase()}${cat.slice(1)}`] };
  }
  return null;
}

// categories are the catalogue's style categories, the known ones in
// their order and then any other, by name.
function categories(catalog) {
  const listed = Object.keys(catalog?.styles || {});
  if (!listed.length) return Object.keys(PARTS);
  return [...Object.keys(PARTS).filter((c) => listed.includes(c)), ...listed.filter((c) => !PARTS[c]).sort()];
}

// paletteFor is the palette whose names a colour property takes.
function paletteFor(names) {
  let best = palettes.cloth, score = -1;
  for (const pal of Object.values(palettes)) {
    const n = names.filter((x) => x in pal).length;
    if (n > score) { best = pal; score = n; }
  }
  return best;
}

// partControls are a category's controls, read from the schema: its
// styles (with thumbnails), its colour (palette and free picker), and any
// other option it has (a print...).
function partControls(schema, cat, titled) {
  const part = partOf(schema, cat);
  if (!part) return null;
  const node = schemaAt(schema, part.path);
  const name = (k) => (titled ? `${tr(cat)}: ${t(k)}` : t(k));
  const kids = [choice(`${part.path}.style`, name('style'), styleOptions(cat, enumOf(node.properties.style)), { kind: 'thumb' })];
  for (const [k, p] of Object.entries(node.properties)) {
    if (k === 'style') continue;
    if (k === 'color') {
      kids.push(colour(`${part.path}.color`, name('color'), palettes[cat] || paletteFor(enumOf(p)), part.materials));
      continue;
    }
    // An option is a list of names, or an object of an id and its own
    // colour (the print on a top and its ink).
    const opts = enumOf(p).length ? enumOf(p) : enumOf(p.properties?.id);
    const path = enumOf(p).length ? `${part.path}.${k}` : `${part.path}.${k}.id`;
    const legend = titled ? `${tr(cat)}: ${tr(k)}` : tr(k);
    if (opts.length) kids.push(choice(path, legend, opts.map((id) => ({ id, label: id === 'none' ? t('none') : labelOf(id) }))));
    if (opts.length && p.properties?.color) kids.push(colour(`${part.path}.${k}.color`, `${legend}: ${t('color')}`, paletteFor(enumOf(p.properties.color)), null));
  }
  return el('div', { class: 'group' }, titled ? el('h2', {}, tr(cat)) : null, kids);
}

function buildControls(schema, catalog) {
  const bodyPane = () => el('div', {},
    choice('body.type', t('bodyType'), ['masculine', 'feminine'].map((id) => ({ id, label: t(id) })), {}),
    BODY.map((n) => slider(n, t(n))));
  const facePane = () => {
    const sub = el('div', { class: 'dials' });
    const showFeature = (f) => {
      faceFeature = f;
      sub.replaceChildren(...(dials[f] || []).map((d) => slider(`face.${f}.${d}`, labelOf(d))));
      syncControls();
      scheduleBuild(0);
    };
    const featureSel = el('select', { id: 'feature' }, FEATURES.map((f) => el('option', { value: f, selected: f === faceFeature }, t(f))));
    featureSel.addEventListener('change', () => showFeature(featureSel.value));
    const presets = el('div', { class: 'opts' }, FACE_PRESETS.map((seed, i) => el('button', { type: 'button', class: 'pill', onclick: () => {
      cfg.face = { seed }; commit(); syncControls(); scheduleBuild(0);
    } }, `${t('preset')} ${i + 1}`)));
    sub.replaceChildren(...(dials[faceFeature] || []).map((d) => slider(`face.${faceFeature}.${d}`, labelOf(d))));
    return el('div', {}, el('fieldset', { class: 'choice' }, el('legend', {}, t('facePreset')), presets),
      el('div', { class: 'slider' }, el('label', { for: 'feature' }, t('feature')), featureSel), sub);
  };
  const skinPane = () => colour('skin.tone', t('tone'), palettes.skin, ['Wolf3D_Body', 'Wolf3D_Skin']);
  const eyesPane = () => colour('eyes.color', t('color'), palettes.eyes, ['Wolf3D_Eye']);
  const startPane = () => {
    const list = (catalog?.templates || []).map((tp) => el('button', { type: 'button', class: 'template', onclick: () => {
      cfg = clone(tp.configuration); commit(); syncControls(); scheduleBuild(0);
    } }, tp.previewUrl ? el('img', { src: tp.previewUrl, alt: '', width: 96, height: 96, loading: 'lazy' }) : null, el('span', {}, tp.label)));
    for (const g of ['feminine', 'masculine']) {
      list.push(el('button', { type: 'button', class: 'template', onclick: () => {
        cfg = { body: { type: g } }; history = []; at = -1; scheduleBuild(0);
      } }, el('span', {}, t(g))));
    }
    return el('div', {}, el('h2', {}, t('templates')), el('div', { class: 'templates' }, list));
  };
  // The style categories: the outfit's garments share one tab, every
  // other category has its own, after the eyes.
  const cats = categories(catalog).filter((c) => partOf(schema, c));
  const worn = cats.filter((c) => partOf(schema, c).path.startsWith('outfit.'));
  const own = cats.filter((c) => !worn.includes(c));
  // Tabs: body, face, skin, eyes, then the head's categories (hair,
  // facial hair), the outfit, and every other category in the
  // catalogue's order (glasses, headwear, ...).
  const head = own.filter((c) => c === 'hair' || c === 'facialHair');
  const defs = [['body', bodyPane], ['face', facePane], ['skin', skinPane], ['eyes', eyesPane]];
  for (const c of head) defs.push([c, () => partControls(schema, c, false)]);
  if (worn.length) defs.push(['outfit', () => el('div', {}, worn.map((c) => partControls(schema, c, true)))]);
  for (const c of own) if (!head.includes(c)) defs.push([c, () => partControls(schema, c, false)]);
  if (flag('quickStart')) defs.unshift(['start', startPane]); else defs.push(['start', startPane]);
  return tabs(defs);
}

function syncControls() {
  for (const [name, s] of sliders) {
    if (!s.input.isConnected) { sliders.delete(name); continue; }
    s.input.value = value(name);
    s.show();
  }
  for (const r of radios.values()) {
    let v = get(cfg, r.path) ?? get(view.configuration || {}, r.path);
    // A part the configuration leaves out (facial hair, headwear) is
    // its "none".
    if (v === undefined && /\.(style|id)$/.test(r.path) && r.inputs.some((i) => i.value === 'none')) v = 'none';
    // A colour the configuration leaves out is the part's own default
    // (a beard the hair's colour, a hat its style's): shown as such, not
    // as black with no swatch picked.
    if (v === undefined && r.picker) v = defaultColour(r.path);
    for (const i of r.inputs) i.checked = i.value === v;
    if (r.picker && typeof v === 'string') r.picker.value = hexOf(v, r.palette) || hexOf(v, palettes.cloth) || hexOf(v, palettes.hair) || r.picker.value;
  }
}

// defaultColour is the colour the build gives a part whose colour the
// configuration leaves out: a beard the hair's, a style the colour the
// catalogue gives it (a hat's own, GET /creator/catalog's "color").
function defaultColour(path) {
  const conf = view.configuration || {};
  const of = (p) => get(cfg, p) ?? get(conf, p);
  if (path === 'facialHair.color') return of('hair.color');
  const cat = Object.keys(styles).find((c) => (PARTS[c]?.path || c) === path.replace(/\.color$/, ''));
  const style = cat && of(`${PARTS[cat]?.path || cat}.style`);
  return styles[cat]?.find((x) => x.id === style)?.color;
}

// ---- history buttons, shuffle, reset, camera, clips ----
const $ = (id) => document.getElementById(id);
function updateHistoryButtons() {
  $('undo').disabled = at <= 0;
  $('redo').disabled = at >= history.length - 1;
}

// shuffle is a random avatar as Kiln draws one (GET /creator/random:
// looks-good ranges, outfits that go together), kept to the styles this
// app offers; offline, one drawn here from the catalogue.
async function shuffle(schema) {
  const r = (list) => list[Math.floor(Math.random() * list.length)];
  let next;
  try {
    next = (await api.random()).configuration;
  } catch {
    const type = r(['masculine', 'feminine']);
    next = { version: '1', body: { type, build: +Math.random().toFixed(2) }, face: { seed: 1 + Math.floor(Math.random() * 2 ** 40) } };
  }
  for (const cat of Object.keys(styles)) {
    const part = partOf(schema, cat);
    const offered = styles[cat].map((x) => x.id);
    if (!part || !offered.length) continue;
    const chosen = get(next, `${part.path}.style`);
    if (chosen !== undefined && !offered.includes(chosen)) set(next, `${part.path}.style`, r(offered));
  }
  cfg = next;
  commit(); syncControls(); scheduleBuild(0);
}

async function setupClips(gender) {
  const box = $('clips');
  let names = [];
  try { names = (await api.animations())[gender] || []; } catch { return; }
  const buttons = [el('button', { type: 'button', class: 'pill', 'aria-pressed': 'false', onclick: (e) => playClip(null, e.currentTarget) }, t('none'))];
  for (const n of names) buttons.push(el('button', { type: 'button', class: 'pill', 'aria-pressed': 'false', 'data-clip': n, onclick: (e) => playClip(n, e.currentTarget) }, labelOf(n.replace(/_/g, ' '))));
  box.replaceChildren(...buttons);
  // The idle clip plays on its own, unless the person asked for less
  // motion (the buttons still play any clip).
  const idle = names.find((n) => /idle/.test(n));
  if (idle && !matchMedia('(prefers-reduced-motion: reduce)').matches) playClip(idle, box.querySelector(`[data-clip="${idle}"]`));
  async function playClip(name, button) {
    for (const b of box.children) b.setAttribute('aria-pressed', b === button);
    if (!name) { view.play(null); return; }
    try { view.play(await view.loadClip(`/animations/${gender}/${name}.glb`)); } catch { /* the avatar stays still */ }
  }
}

// ---- users, saving, the frame API ----
function loadUser() {
  try { return JSON.parse(store?.getItem(storeKey) || 'null'); } catch { return null; }
}
function saveUser() {
  try { store?.setItem(storeKey, JSON.stringify(user)); } catch { /* full or denied: kept for this visit */ }
}

const allowed = app.allowedOrigins || [];
const frame = new Frame({
  enabled: flag('frameApi'),
  targetOrigin: allowed.length === 1 && allowed[0] !== '*' ? allowed[0] : '*',
  onLogout: () => { user = null; try { store?.removeItem(storeKey); } catch { /* denied */ } },
  // What happened before the parent subscribed (it subscribes after
  // v1.frame.ready) is told again once it has.
  onSubscribe: () => {
    if (!user) return;
    frame.emit('v1.user.set', { id: user.id });
    if (user.authorized) frame.emit('v1.user.authorized', { id: user.id, url: location.href });
  },
});

async function ensureUser() {
  if (user) return user;
  const u = await api.createUser(app.slug);
  user = { id: u.userId, token: u.token };
  saveUser();
  frame.emit('v1.user.set', { id: user.id });
  return user;
}

async function done() {
  const btn = $('done');
  btn.disabled = true;
  status.textContent = t('saving');
  try {
    const u = await ensureUser();
    const saved = avatarId ? await api.updateAvatar(avatarId, cfg, u.token) : await api.createAvatar(cfg, u.token);
    avatarId = saved.id;
    const url = `${base}/${saved.id}.glb`;
    kiln.exported = { url, id: saved.id, modelUrl: saved.modelUrl };
    status.textContent = t('saved');
    const c = saved.configuration || cfg;
    frame.exported({ url, avatarId: saved.id, userId: u.id, metadata: {
      bodyType: 'fullbody', outfitGender: c.body?.type, skinTone: hexOf(c.skin?.tone, palettes.skin) || c.skin?.tone,
      createdAt: saved.createdAt, updatedAt: saved.updatedAt, kiln: { modelUrl: saved.modelUrl } } });
    frame.emit('v1.user.updated', { id: u.id });
  } catch (e) {
    status.textContent = `${t('error')} (${e.message})`;
  } finally {
    btn.disabled = false;
  }
}

// ---- start ----
// The view first, and the kinds of mesh of the first build drawn as soon
// as the schema (asked by start.js) gives their morph target count: the
// sliders of the first build, the body's and the first feature's dials.
// The programs compiled meanwhile are what the first avatar's first draw
// needs (View.warmKinds); the words of the UI can wait.
const view = new View($('view'));
kiln.view = view;
kiln.phases.view = performance.now();
if (first) {
  schemaAsked.then((s) => view.warmKinds(BODY.length + Object.keys(s.properties.face.properties[FIRST_FEATURE].properties).length)).then((n) => {
    kiln.phases.warmed = performance.now();
    kiln.phases.warmPrograms = n;
  }).catch(() => { /* compiled at the first draw instead */ });
}
const t = await translator(lang);
document.documentElement.lang = lang;
document.title = t('title');
for (const e of document.querySelectorAll('[data-t]')) e.textContent = t(e.dataset.t);
for (const e of document.querySelectorAll('[data-t-label]')) e.setAttribute('aria-label', t(e.dataset.tLabel));

async function start() {
  const [schema, pal, catalog] = await Promise.all([
    schemaAsked, retrying(api.palettes).catch(() => palettes), retrying(() => api.catalog(app.slug)).catch(() => null)]);
  kiln.phases.data = performance.now();
  palettes = pal;
  styles = catalog?.styles || {};
  const faceProps = schema.properties.face.properties;
  for (const f of FEATURES) {
    dials[f] = Object.keys(faceProps[f].properties).sort();
    for (const [d, p] of Object.entries(faceProps[f].properties)) ranges[`face.${f}.${d}`] = [p.minimum, p.maximum];
  }
  const bp = schema.properties.body.properties;
  ranges['body.height'] = [bp.height.minimum, bp.height.maximum];
  ranges['body.age'] = [bp.age?.minimum ?? 18, bp.age?.maximum ?? 90];
  for (const n of ['body.build', 'body.muscle', 'body.weight', 'body.proportions']) ranges[n] = [0, 1];

  cfg = startConfiguration();

  user = loadUser();
  const token = q.get('token');
  if (token) {
    try {
      const me = await api.me(token);
      user = { id: me.userId, token, authorized: true };
      saveUser();
    } catch { /* an expired token: the person goes on as a guest */ }
  }
  if (avatarId && user) {
    try { cfg = clone((await api.avatar(avatarId, user.token)).configuration); } catch { avatarId = null; }
  } else avatarId = null;

  const select = buildControls(schema, catalog);
  if (flag('selectBodyType')) select('body');
  $('undo').addEventListener('click', () => at > 0 && restore(at - 1));
  $('redo').addEventListener('click', () => at < history.length - 1 && restore(at + 1));
  $('shuffle').addEventListener('click', () => shuffle(schema));
  $('reset').addEventListener('click', () => {
    if (!history.length) return;
    cfg = JSON.parse(history[0]); commit(); syncControls(); scheduleBuild(0);
  });
  $('portrait').addEventListener('click', () => view.setCamera('portrait'));
  $('fullbody').addEventListener('click', () => view.setCamera('fullbody'));
  $('done').addEventListener('click', done);
  document.addEventListener('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.target.matches('input[type=text]')) return;
    if (e.key === 'z' && !e.shiftKey) { e.preventDefault(); $('undo').click(); }
    if (e.key === 'y' || (e.key === 'z' && e.shiftKey)) { e.preventDefault(); $('redo').click(); }
  });
  updateHistoryButtons();
  frame.ready();
  await runBuild();
  setupClips(cfg.body?.type || view.configuration?.body?.type || 'masculine');
}
start().catch((e) => { status.textContent = `${t('error')} (${e.message})`; });
