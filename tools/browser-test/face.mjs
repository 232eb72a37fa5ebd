// Loads an avatar in three.js (GLTFLoader, WebGLRenderer) in Debian's
// chromium, frames its face, and draws it four times: at rest, with the
// blink shapes at 1, with the viseme at 1 and with jawOpen at 1. It
// measures how many pixels change around the eyes, around the mouth and
// everywhere else, and how dark the open mouth is and how much white
// shows between the lips at rest, and prints the figures as one line of
// JSON; internal/app's
// TestFaceMorphTargetsInBrowser judges them.
//
//   node face.mjs MODEL_URL [--blink eyeBlinkLeft,eyeBlinkRight] [--viseme viseme_aa] [--screenshot PREFIX]
//
// The model is fetched here and served to the page from the same origin
// as three's modules, so the page needs nothing from the network. Exits 1
// with one line when the model does not load or lacks a named target.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main, modules, openPage } from './page.mjs';

const args = process.argv.slice(2);
const modelURL = args[0];
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i > 0 ? args[i + 1] : def;
};
const blink = opt('--blink', 'eyeBlinkLeft,eyeBlinkRight').split(',');
const viseme = opt('--viseme', 'viseme_aa');
const shots = opt('--screenshot');
if (!modelURL) {
  console.error('usage: node face.mjs MODEL_URL [--blink A,B] [--viseme V] [--screenshot PREFIX]');
  process.exit(2);
}

const res = await fetch(modelURL);
if (!res.ok) {
  console.error(`GET ${modelURL}: ${res.status} ${await res.text()}`);
  process.exit(1);
}
const model = Buffer.from(await res.arrayBuffer());

const page = `<!doctype html><html><body style="margin:0;background:#fff">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { visible } from '/pixels.js';
const blink = ${JSON.stringify(blink)};
const viseme = ${JSON.stringify(viseme)};
const size = 512;
try {
  const gltf = await new GLTFLoader().loadAsync('/model.glb');
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xffffff);
  scene.add(gltf.scene);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2.5));
  const key = new THREE.DirectionalLight(0xffffff, 2);
  key.position.set(0.5, 2, 3);
  scene.add(key);
  gltf.scene.updateMatrixWorld(true);

  // Every mesh with morph targets, by name: the head, teeth and eyes, or
  // Wolf3D_Avatar when merged.
  const morphed = [];
  gltf.scene.traverse((o) => { if (o.isMesh && o.morphTargetDictionary) morphed.push(o); });
  const head = gltf.scene.getObjectByName('Wolf3D_Head') || gltf.scene.getObjectByName('Wolf3D_Avatar');
  if (!head || !head.morphTargetDictionary) throw new Error('no Wolf3D_Head (or Wolf3D_Avatar) with morph targets');
  for (const n of [...blink, viseme]) {
    if (!(n in head.morphTargetDictionary)) {
      throw new Error(head.name + ' has no morph target ' + n + ' (it has ' + Object.keys(head.morphTargetDictionary).join(', ') + ')');
    }
  }
  const set = (names) => {
    for (const m of morphed) {
      m.morphTargetInfluences.fill(0);
      for (const n of names) {
        const i = m.morphTargetDictionary[n];
        if (i !== undefined) m.morphTargetInfluences[i] = 1;
      }
    }
  };

  // The face: the eyes are the LeftEye and RightEye joints, the mouth the
  // middle of the teeth (found from the skinned rest pose, not from the
  // shapes being measured).
  const at = (name) => {
    const o = gltf.scene.getObjectByName(name);
    if (!o) throw new Error('no ' + name);
    return o.getWorldPosition(new THREE.Vector3());
  };
  const eyeL = at('LeftEye'), eyeR = at('RightEye');
  const teeth = gltf.scene.getObjectByName('Wolf3D_Teeth');
  let mouth;
  if (teeth) {
    mouth = new THREE.Box3().setFromObject(teeth, true).getCenter(new THREE.Vector3());
  } else {
    // merged: the mouth sits 6.5 cm below the eyes, on the midline
    mouth = eyeL.clone().add(eyeR).multiplyScalar(0.5).add(new THREE.Vector3(0, -0.065, 0.01));
  }
  const centre = eyeL.clone().add(eyeR).add(mouth).multiplyScalar(1 / 3);
  const camera = new THREE.PerspectiveCamera(30, 1, 0.01, 10);
  camera.position.set(centre.x, centre.y, centre.z + 0.55);
  camera.lookAt(centre);
  camera.updateMatrixWorld(true);

  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(size, size);
  document.body.appendChild(renderer.domElement);
  const gl = renderer.getContext();
  const draw = (names) => {
    set(names);
    renderer.render(scene, camera);
    const px = new Uint8Array(size * size * 4);
    gl.readPixels(0, 0, size, size, gl.RGBA, gl.UNSIGNED_BYTE, px);
    return { px, png: renderer.domElement.toDataURL('image/png') };
  };

  // Screen boxes (pixels, y down) around a point, w × h metres.
  const box = (p, w, h) => {
    const a = p.clone().add(new THREE.Vector3(-w / 2, h / 2, 0)).project(camera);
    const b = p.clone().add(new THREE.Vector3(w / 2, -h / 2, 0)).project(camera);
    const toPx = (v) => [Math.round((v.x + 1) / 2 * size), Math.round((1 - v.y) / 2 * size)];
    const [x0, y0] = toPx(a), [x1, y1] = toPx(b);
    return { x0: Math.min(x0, x1), x1: Math.max(x0, x1), y0: Math.min(y0, y1), y1: Math.max(y0, y1) };
  };
  const inBox = (b, x, y) => x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1;
  const eyes = [box(eyeL, 0.04, 0.03), box(eyeR, 0.04, 0.03)];
  // the mouth with the chin below it, which follows an opening jaw
  const mouthBox = box(mouth.clone().add(new THREE.Vector3(0, -0.02, 0)), 0.07, 0.08);
  // Changed pixels (pixels.js) in each region, as a share of the region.
  const compare = (a, b, region) => {
    const n = { in: 0, inChanged: 0, out: 0, outChanged: 0 };
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const i = ((size - 1 - y) * size + x) * 4; // readPixels rows go up
        const inside = region(x, y);
        n[inside ? 'in' : 'out']++;
        if (visible(a, b, i)) n[inside ? 'inChanged' : 'outChanged']++;
      }
    }
    return { inside: n.inChanged / n.in, outside: n.outChanged / n.out, insidePixels: n.inChanged, outsidePixels: n.outChanged };
  };
  const rest = draw([]);
  const blinked = draw(blink);
  const spoken = draw([viseme]);
  // The mouth's inside: with jawOpen the opening (a box 2.5 × 1.4 cm
  // just below the lips' line, where the lower lip was) should be dark,
  // a mouth and not a lit void; at rest a band 5 × 0.6 cm along the
  // lips' line should show no teeth (white: bright and grey).
  const opened = draw(['jawOpen']);
  const inner = box(mouth.clone().add(new THREE.Vector3(0, -0.011, 0)), 0.025, 0.014);
  const band = box(mouth, 0.05, 0.006);
  const figures = (px, b) => {
    let n = 0, luma = 0, dark = 0, white = 0;
    for (let y = b.y0; y < b.y1; y++) {
      for (let x = b.x0; x < b.x1; x++) {
        const i = ((size - 1 - y) * size + x) * 4;
        const r = px[i], g = px[i + 1], bl = px[i + 2];
        const l = 0.2126 * r + 0.7152 * g + 0.0722 * bl;
        n++;
        luma += l;
        if (l < 70) dark++;
        if (l > 170 && Math.max(r, g, bl) - Math.min(r, g, bl) < 30) white++;
      }
    }
    return { luma: luma / n, dark: dark / n, white: white / n, pixels: n };
  };
  window.result = {
    mesh: head.name,
    targets: Object.keys(head.morphTargetDictionary).length,
    eyes, mouth: mouthBox,
    blink: compare(rest.px, blinked.px, (x, y) => inBox(eyes[0], x, y) || inBox(eyes[1], x, y)),
    blinkInMouth: compare(rest.px, blinked.px, (x, y) => inBox(mouthBox, x, y)).inside,
    viseme: compare(rest.px, spoken.px, (x, y) => inBox(mouthBox, x, y)),
    visemeInEyes: compare(rest.px, spoken.px, (x, y) => inBox(eyes[0], x, y) || inBox(eyes[1], x, y)).inside,
    mouthOpen: figures(opened.px, inner),
    mouthShut: figures(rest.px, inner),
    lipsAtRest: figures(rest.px, band),
    pictures: [rest.png, blinked.png, spoken.png],
  };
} catch (e) {
  window.result = { error: String(e && e.message || e) };
}
</script></body></html>`;

// The page, three's modules and the model, all from one local origin.
await main(async () => {
  const result = await openPage(page, { roots: { '/three/': join(modules, 'three') }, files: { '/model.glb': model }, timeout: 120000 });
  const pictures = result.pictures;
  delete result.pictures;
  if (shots) {
    ['rest', 'blink', 'viseme'].forEach((n, i) => writeFileSync(`${shots}-${n}.png`, Buffer.from(pictures[i].split(',')[1], 'base64')));
  }
  return result;
});
