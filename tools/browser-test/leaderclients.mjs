// Loads a Kiln avatar in Debian's chromium, from a page on another
// origin, with two clients written for the leader's avatars: three.js's
// GLTFLoader (what react-three-fiber and gltfjsx code reads of the scene)
// and TalkingHead (@met4citizen/talkinghead, a lip-sync library that
// refuses a model whose meshes are not under Armature with "Blend shapes
// not found"). TalkingHead is given words to speak over silence and the
// viseme weights it sets on Wolf3D_Head are sampled frame by frame. It
// prints what each client found as one line of JSON; internal/app's
// TestLeaderClientsInBrowser judges it.
//
//   node leaderclients.mjs MODEL_URL
//
// Exits 1 with one line when a client fails.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const modelURL = process.argv[2];
if (!modelURL) {
  console.error('usage: node leaderclients.mjs MODEL_URL');
  process.exit(2);
}
const modules = join(dirname(fileURLToPath(import.meta.url)), 'node_modules');
const roots = { '/three/': join(modules, 'three'), '/talkinghead/': join(modules, '@met4citizen', 'talkinghead') };

const page = `<!doctype html><html><body style="margin:0">
<div id="avatar" style="width:400px;height:400px"></div>
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/","talkinghead":"/talkinghead/modules/talkinghead.mjs"}}</script>
<script type="module">
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { TalkingHead } from 'talkinghead';
const model = ${JSON.stringify(modelURL)};
const out = {};
try {
  const gltf = await new GLTFLoader().loadAsync(model);
  const teeth = gltf.scene.getObjectByName('Wolf3D_Teeth');
  const armature = gltf.scene.getObjectByName('Armature');
  out.three = {
    roots: gltf.scene.children.map((o) => o.name),
    armature: armature ? armature.children.map((o) => o.name) : null,
    teethIsMesh: !!(teeth && teeth.isMesh),
    teethTargets: teeth && teeth.morphTargetDictionary ? Object.keys(teeth.morphTargetDictionary) : [],
    groups: [],
  };
  gltf.scene.traverse((o) => { if (o.isGroup && o.name.startsWith('Wolf3D_')) out.three.groups.push(o.name); });

  const head = new TalkingHead(document.getElementById('avatar'), {
    lipsyncModules: ['en'], lipsyncLang: 'en', cameraView: 'head', avatarMute: true,
  });
  await head.showAvatar({ url: model, body: 'F', lipsyncLang: 'en', avatarMood: 'neutral' });
  const face = head.morphs.find((m) => m.name === 'Wolf3D_Head' || m.name === 'Wolf3D_Avatar');
  out.talkinghead = { morphs: head.morphs.map((m) => m.name), visemeMax: 0, viseme: '' };
  const silence = head.audioCtx.createBuffer(1, 22050 * 2, 22050);
  head.speakAudio({ audio: silence, words: ['hello', 'world'], wtimes: [100, 800], wdurations: [600, 600] });
  const t0 = performance.now();
  while (performance.now() - t0 < 3000) {
    await new Promise((r) => requestAnimationFrame(r));
    for (const [name, i] of Object.entries(face.morphTargetDictionary)) {
      if (name.startsWith('viseme_') && face.morphTargetInfluences[i] > out.talkinghead.visemeMax) {
        out.talkinghead.visemeMax = face.morphTargetInfluences[i];
        out.talkinghead.viseme = name;
      }
    }
  }
  window.result = out;
} catch (e) {
  window.result = { error: String(e && e.message || e), partial: out };
}
</script></body></html>`;

// The app's origin: its page and the libraries, nothing of Kiln's.
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (path === '/') {
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(page);
    return;
  }
  for (const [prefix, root] of Object.entries(roots)) {
    if (!path.startsWith(prefix)) continue;
    const file = normalize(join(root, path.slice(prefix.length)));
    if (!file.startsWith(root)) break;
    try {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
    return;
  }
  res.writeHead(404).end();
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const origin = `http://127.0.0.1:${server.address().port}`;

const profile = mkdtempSync(join(tmpdir(), 'kiln-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--autoplay-policy=no-user-gesture-required'],
  viewport: { width: 600, height: 600 },
});
let code = 0;
try {
  const tab = await browser.newPage();
  const errors = [];
  tab.on('pageerror', (e) => errors.push(e.message));
  await tab.goto(origin + '/', { waitUntil: 'domcontentloaded' });
  await tab.waitForFunction(() => window.result !== undefined, null, { timeout: 180000 });
  const result = await tab.evaluate(() => window.result);
  if (result.error) throw new Error(result.error + ' ' + JSON.stringify(result.partial) + (errors.length ? '; ' + errors.join('; ') : ''));
  console.log(JSON.stringify(result));
} catch (e) {
  console.error(String(e.message || e).split('\n')[0]);
  code = 1;
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(code);
