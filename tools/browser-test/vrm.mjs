// Loads Kiln VRMs in three.js with @pixiv/three-vrm, in Debian's
// chromium, all in one page load, and measures what a VTuber app shows of
// each: the VRM version three-vrm read, the required humanoid bones it
// did not find, and how many pixels change around the mouth, the eyes
// and everywhere else when the expression aa is set, when blink is set,
// and when lookAt turns the eyes 30 degrees to the side. It prints the
// figures as one line of JSON; internal/app's TestVRMInBrowser judges
// them.
//
//   node vrm.mjs NAME=VRM_URL... [--screenshot PREFIX]
//
// With --screenshot it writes PREFIX-NAME-{rest,aa,blink,look,happy,body}.png
// (body: the whole avatar in its rest pose, smiling).
// The files are fetched here and served to the page from the same origin
// as the pinned modules, so the page needs nothing from the network.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main, modules, openPage } from './page.mjs';

const args = process.argv.slice(2);
const s = args.indexOf('--screenshot');
const shots = s >= 0 ? args[s + 1] : undefined;
const models = args.filter((a, i) => a.includes('=') && (s < 0 || i !== s + 1)).map((a) => a.split(/=(.*)/s, 2));
if (models.length === 0) {
  console.error('usage: node vrm.mjs NAME=VRM_URL... [--screenshot PREFIX]');
  process.exit(2);
}
const files = {};
for (const [name, url] of models) {
  const res = await fetch(url);
  if (!res.ok) {
    console.error(`GET ${url}: ${res.status} ${await res.text()}`);
    process.exit(1);
  }
  files[`/${name}.vrm`] = Buffer.from(await res.arrayBuffer());
}

const page = `<!doctype html><html><body style="margin:0;background:#fff">
<script type="importmap">{"imports":{
  "three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/",
  "@pixiv/three-vrm":"/pixiv/three-vrm/lib/three-vrm.module.js"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils } from '@pixiv/three-vrm';
import { visible } from '/pixels.js';
const names = ${JSON.stringify(models.map(([n]) => n))};
// VRM 1.0's required humanoid bones.
const required = ['hips', 'spine', 'head', 'leftUpperArm', 'leftLowerArm', 'leftHand', 'rightUpperArm', 'rightLowerArm',
  'rightHand', 'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot'];
const size = 384;
try {
  const loader = new GLTFLoader();
  loader.register((p) => new VRMLoaderPlugin(p));
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(size, size);
  document.body.appendChild(renderer.domElement);
  const gl = renderer.getContext();
  const out = {};
  for (const name of names) {
    const gltf = await loader.loadAsync('/' + name + '.vrm');
    const vrm = gltf.userData.vrm;
    if (!vrm) throw new Error(name + ': three-vrm found no VRM');
    const version = vrm.meta.metaVersion;
    // 0.x models face -Z; apps turn them round (three-vrm's own helper).
    if (version === '0') VRMUtils.rotateVRM0(vrm);
    const scene = new THREE.Scene();
    scene.background = new THREE.Color(0xffffff);
    scene.add(vrm.scene);
    scene.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2.5));
    const key = new THREE.DirectionalLight(0xffffff, 2);
    key.position.set(0.5, 2, 3);
    scene.add(key);
    vrm.lookAt.autoUpdate = false;
    vrm.update(0);
    const missing = required.filter((b) => !vrm.humanoid.getRawBoneNode(b));
    const found = ['leftEye', 'rightEye', 'leftThumbProximal', 'leftIndexProximal', 'rightLittleDistal', 'leftToes', 'upperChest', 'neck']
      .filter((b) => vrm.humanoid.getRawBoneNode(b)).length;
    const at = (bone) => vrm.humanoid.getRawBoneNode(bone).getWorldPosition(new THREE.Vector3());
    const eyeL = at('leftEye'), eyeR = at('rightEye');
    const mid = eyeL.clone().add(eyeR).multiplyScalar(0.5);
    const mouth = mid.clone().add(new THREE.Vector3(0, -0.065, 0.01));
    const centre = mid.clone().add(mouth).multiplyScalar(0.5);
    const camera = new THREE.PerspectiveCamera(30, 1, 0.01, 10);
    camera.position.set(centre.x, centre.y, centre.z + 0.5);
    camera.lookAt(centre);
    camera.updateMatrixWorld(true);
    const draw = (expr, yaw) => {
      for (const e of vrm.expressionManager.expressions) vrm.expressionManager.setValue(e.expressionName, 0);
      for (const [n, w] of Object.entries(expr)) vrm.expressionManager.setValue(n, w);
      vrm.lookAt.yaw = yaw;
      vrm.lookAt.pitch = 0;
      vrm.lookAt.update(0);
      vrm.update(0);
      renderer.render(scene, camera);
      const px = new Uint8Array(size * size * 4);
      gl.readPixels(0, 0, size, size, gl.RGBA, gl.UNSIGNED_BYTE, px);
      return { px, png: renderer.domElement.toDataURL('image/png') };
    };
    const box = (p, w, h) => {
      const a = p.clone().add(new THREE.Vector3(-w / 2, h / 2, 0)).project(camera);
      const b = p.clone().add(new THREE.Vector3(w / 2, -h / 2, 0)).project(camera);
      const toPx = (v) => [Math.round((v.x + 1) / 2 * size), Math.round((1 - v.y) / 2 * size)];
      const [x0, y0] = toPx(a), [x1, y1] = toPx(b);
      return { x0: Math.min(x0, x1), x1: Math.max(x0, x1), y0: Math.min(y0, y1), y1: Math.max(y0, y1) };
    };
    // The jaw's region is where the face shape under aa moves the face
    // most: the picture's box round every vertex its morph targets move
    // more than a fifth of the most any moves, at rest and opened. aa
    // drops the jaw and the chin with it (a beard too), which is no fault;
    // a long face's chin lies below the mouth's box, set at a fixed
    // distance under the eyes (a random avatar failed so in CI).
    const movedBy = (shape) => {
      vrm.scene.updateMatrixWorld(true);
      const moves = [];
      vrm.scene.traverse((o) => {
        const k = o.morphTargetDictionary?.[shape];
        if (k === undefined || !o.geometry.morphAttributes.position) return;
        const d = o.geometry.morphAttributes.position[k];
        const turn = new THREE.Matrix3().setFromMatrix4(o.matrixWorld);
        for (let i = 0; i < d.count; i++) {
          const q = new THREE.Vector3().fromBufferAttribute(d, i).applyMatrix3(turn);
          if (q.lengthSq() > 0) moves.push([o, i, q]);
        }
      });
      const most = Math.max(0, ...moves.map(([, , q]) => q.length()));
      if (most === 0) return null;
      const b = { x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity };
      const toPx = (v) => {
        v.project(camera);
        const x = (v.x + 1) / 2 * size, y = (1 - v.y) / 2 * size;
        b.x0 = Math.min(b.x0, x); b.x1 = Math.max(b.x1, x); b.y0 = Math.min(b.y0, y); b.y1 = Math.max(b.y1, y);
      };
      for (const [o, i, q] of moves) {
        if (q.length() < most / 5) continue;
        const p = o.getVertexPosition(i, new THREE.Vector3()).applyMatrix4(o.matrixWorld);
        toPx(p.clone());
        toPx(p.add(q));
      }
      return { x0: Math.floor(b.x0), x1: Math.ceil(b.x1), y0: Math.floor(b.y0), y1: Math.ceil(b.y1) };
    };
    const inBox = (b, x, y) => x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1;
    const eyes = [box(eyeL, 0.04, 0.03), box(eyeR, 0.04, 0.03)];
    const mouthBox = box(mouth.clone().add(new THREE.Vector3(0, -0.02, 0)), 0.07, 0.08);
    const jaw = movedBy('viseme_aa');
    if (!jaw) throw new Error(name + ': no mesh has a viseme_aa morph target that moves');
    const inJaw = (x, y) => inBox(jaw, x, y);
    const inEyes = (x, y) => inBox(eyes[0], x, y) || inBox(eyes[1], x, y);
    const inMouth = (x, y) => inBox(mouthBox, x, y);
    // Changed pixels: the share of the region, the share of the picture
    // outside both regions. moves, when given, is a region the change
    // may move too (aa's jaw).
    const compare = (a, b, region, moves = () => false) => {
      const n = { in: 0, inChanged: 0, out: 0, outChanged: 0 };
      for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
          const i = ((size - 1 - y) * size + x) * 4;
          const d = visible(a, b, i);
          const inside = region(x, y);
          const elsewhere = !inEyes(x, y) && !inMouth(x, y) && !moves(x, y);
          if (inside) { n.in++; if (d) n.inChanged++; }
          if (elsewhere) { n.out++; if (d) n.outChanged++; }
        }
      }
      return { inside: n.inChanged / n.in, elsewhere: n.outChanged / n.out };
    };
    const rest = draw({}, 0);
    const aa = draw({ aa: 1 }, 0);
    const blink = draw({ blink: 1 }, 0);
    const look = draw({}, 30);
    const happy = draw({ happy: 1 }, 0);
    // The whole body in its rest pose (VRM's T-pose), smiling.
    const hips = at('hips');
    camera.position.set(0, hips.y * 0.95, 4.2);
    camera.lookAt(0, hips.y * 0.95, 0);
    camera.updateMatrixWorld(true);
    const body = draw({ happy: 1 }, 0);
    out[name] = {
      version, missing, found,
      expressions: vrm.expressionManager.expressions.length,
      springJoints: vrm.springBoneManager ? vrm.springBoneManager.joints.size : 0,
      aa: compare(rest.px, aa.px, inMouth, inJaw), aaInEyes: compare(rest.px, aa.px, inEyes).inside,
      blink: compare(rest.px, blink.px, inEyes), blinkInMouth: compare(rest.px, blink.px, inMouth).inside,
      look: compare(rest.px, look.px, inEyes), lookInMouth: compare(rest.px, look.px, inMouth).inside,
      pictures: [rest.png, aa.png, blink.png, look.png, happy.png, body.png],
    };
    scene.remove(vrm.scene);
    VRMUtils.deepDispose(vrm.scene);
  }
  window.result = out;
} catch (e) {
  window.result = { error: String(e && e.stack || e) };
}
</script></body></html>`;

await main(async () => {
  const result = await openPage(page, {
    roots: { '/three/': join(modules, 'three'), '/pixiv/': join(modules, '@pixiv') },
    files, timeout: 120000,
  });
  for (const [name, r] of Object.entries(result)) {
    if (shots) {
      ['rest', 'aa', 'blink', 'look', 'happy', 'body'].forEach((n, i) =>
        writeFileSync(`${shots}-${name}-${n}.png`, Buffer.from(r.pictures[i].split(',')[1], 'base64')));
    }
    delete r.pictures;
  }
  return result;
});
