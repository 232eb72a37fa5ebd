// Pictures of avatars as the viewers people use show them: three.js's
// GLTFLoader in Debian's chromium, lit the two ordinary ways web viewers
// and lip-sync libraries light a model (RoomEnvironment with neutral tone
// mapping, and a three-point rig of key, fill and rim lights), framed the
// same way for every model (portrait on the eyes, full body on the
// bounding box), so Kiln's avatars and the leader's can be put side by
// side. Writes one PNG per model, light and camera, and one sheet per
// light and camera with the models in a row, in the order given.
//
//   node bench/avatar-look/look.mjs OUTDIR A.glb|URL [B.glb ...]
//     [--light room,rig] [--camera portrait,full,eyes,quarter,back,side] [--size 512]
//     [--morph jawOpen=1,viseme_O=0.5] [--clip NAME@SECONDS]
//     [--material white|flat|unlit] [--ssaa 2]
//
// --morph sets those targets on every mesh that has them; --clip poses
// each model at that time of its own animation of that name (download a
// Kiln avatar with ?animations=... for its clips). --material takes the
// pictures apart, to tell which layer a mark on the skin comes from:
// "white" drops the base colour texture (what is left is the lighting of
// the mesh's normals, normal maps and occlusion), "flat" drops the normal
// and occlusion maps too (the mesh's own normals alone), "unlit" shows
// the base colour texture with no lighting (the baked paint alone). Needs
// `npm ci` in tools/browser-test (playwright-core, three).
//
// --ssaa K draws each picture K times wider and taller without
// multisampling and averages each K by K block down to one pixel. The
// default, multisampling (antialias), leaves single dark and light specks
// on the faces, round the mouth most (bench/avatar-look/specks counts
// them): Debian's chromium draws with SwiftShader, which tests a pixel's
// samples against the depth at the pixel's centre, so a triangle seen
// nearly edge on (the mouth's lining, a tooth's side) that crosses one
// sample but not the centre takes that depth from its plane extended to
// the centre, centimetres nearer, and shows through the skin in front of
// it. A GPU tests each sample at its own depth and shows none of them;
// without multisampling each pixel's one sample is its centre, and the
// supersampled pictures show none either.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { main, modules, openPage } from '../../tools/browser-test/page.mjs';

const argv = process.argv.slice(2);
const flags = {};
const inputs = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i].startsWith('--')) flags[argv[i].slice(2)] = argv[++i];
  else inputs.push(argv[i]);
}
const [out, ...models] = inputs;
if (!out || models.length === 0) {
  console.error('usage: node bench/avatar-look/look.mjs OUTDIR A.glb|URL [B.glb ...] [--light room,rig] [--camera portrait,full,eyes,quarter,back,side] [--size 512] [--morph name=v,...] [--clip NAME@SECONDS] [--material white|flat|unlit] [--ssaa K]');
  process.exit(2);
}
const lights = (flags.light || 'room,rig').split(',');
const cameras = (flags.camera || 'portrait,full').split(',');
const size = Number(flags.size || 512);
const material = flags.material || '';
const ssaa = Number(flags.ssaa || 1);
if (!Number.isInteger(ssaa) || ssaa < 1 || ssaa > 4) {
  console.error('--ssaa is 1 to 4');
  process.exit(2);
}
if (!['', 'white', 'flat', 'unlit'].includes(material)) {
  console.error('--material is white, flat or unlit');
  process.exit(2);
}
const morphs = Object.fromEntries((flags.morph || '').split(',').filter(Boolean).map((kv) => {
  const [k, v] = kv.split('=');
  return [k, v === undefined ? 1 : Number(v)];
}));
let clip = null;
if (flags.clip) {
  const [name, t] = flags.clip.split('@');
  clip = { name, t: Number(t || 0) };
}

// The models, read here and served to the page from its own origin.
const files = {};
const names = [];
for (const [i, m] of models.entries()) {
  let bytes;
  if (/^https?:/.test(m)) {
    const res = await fetch(m);
    if (!res.ok) throw new Error(`GET ${m}: ${res.status}`);
    bytes = Buffer.from(await res.arrayBuffer());
  } else {
    bytes = readFileSync(m);
  }
  files[`/m${i}.glb`] = bytes;
  names.push(basename(new URL(m, 'file:///').pathname, '.glb') || `model${i}`);
}

const page = `<!doctype html><html><body style="margin:0">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { RoomEnvironment } from 'three/addons/environments/RoomEnvironment.js';
const count = ${models.length}, size = ${size};
const lights = ${JSON.stringify(lights)}, cameras = ${JSON.stringify(cameras)};
const morphs = ${JSON.stringify(morphs)}, clip = ${JSON.stringify(clip)};
const material = ${JSON.stringify(material)}, ssaa = ${ssaa};
try {
  const renderer = new THREE.WebGLRenderer({ antialias: ssaa === 1, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(size * ssaa, size * ssaa);
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  document.body.appendChild(renderer.domElement);
  const room = new THREE.PMREMGenerator(renderer).fromScene(new RoomEnvironment(), 0.04).texture;

  // light sets up a scene the way a viewer would.
  const light = (kind) => {
    const scene = new THREE.Scene();
    scene.background = new THREE.Color(0xd9d9d9);
    if (kind === 'room') {
      scene.environment = room;
      renderer.toneMapping = THREE.NeutralToneMapping;
    } else {
      renderer.toneMapping = THREE.NoToneMapping;
      scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 0.6));
      const key = new THREE.DirectionalLight(0xfff4e8, 2.6); key.position.set(1.5, 2.5, 2.5);
      const fill = new THREE.DirectionalLight(0xe8f0ff, 0.9); fill.position.set(-2, 1.2, 1.5);
      const rim = new THREE.DirectionalLight(0xffffff, 1.8); rim.position.set(0, 2.5, -2.5);
      scene.add(key, fill, rim);
    }
    return scene;
  };

  // picture is the frame just drawn as a PNG data URL, each ssaa by ssaa
  // block of the drawing averaged to one pixel (the drawing as it is
  // when ssaa is 1).
  const small = document.createElement('canvas');
  small.width = small.height = size;
  const big = document.createElement('canvas');
  big.width = big.height = size * ssaa;
  const picture = () => {
    if (ssaa === 1) return renderer.domElement.toDataURL('image/png');
    const g = big.getContext('2d', { willReadFrequently: true });
    g.drawImage(renderer.domElement, 0, 0);
    const from = g.getImageData(0, 0, size * ssaa, size * ssaa).data;
    const out = new ImageData(size, size);
    const w = size * ssaa, n = ssaa * ssaa;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        for (let c = 0; c < 4; c++) {
          let sum = 0;
          for (let dy = 0; dy < ssaa; dy++) {
            for (let dx = 0; dx < ssaa; dx++) sum += from[4 * ((y * ssaa + dy) * w + x * ssaa + dx) + c];
          }
          out.data[4 * (y * size + x) + c] = Math.round(sum / n);
        }
      }
    }
    small.getContext('2d').putImageData(out, 0, 0);
    return small.toDataURL('image/png');
  };

  const shots = [];
  for (let i = 0; i < count; i++) {
    const gltf = await new GLTFLoader().loadAsync('/m' + i + '.glb');
    const root = gltf.scene;
    root.traverse((o) => {
      if (!o.isMesh || !o.morphTargetDictionary) return;
      for (const [n, v] of Object.entries(morphs)) {
        const k = o.morphTargetDictionary[n];
        if (k !== undefined) o.morphTargetInfluences[k] = v;
      }
    });
    if (material) {
      root.traverse((o) => {
        if (!o.isMesh) return;
        const m = o.material;
        if (material === 'unlit') {
          o.material = new THREE.MeshBasicMaterial({ map: m.map, color: m.color, transparent: m.transparent,
            alphaTest: m.alphaTest, opacity: m.opacity, side: m.side });
          return;
        }
        m.map = null;
        m.color = new THREE.Color(0xffffff);
        if (material === 'flat') { m.normalMap = null; m.aoMap = null; }
        m.needsUpdate = true;
      });
    }
    if (clip) {
      const a = gltf.animations.find((c) => c.name === clip.name);
      if (!a) throw new Error('model ' + i + ' has no clip ' + clip.name + ' (it has ' + gltf.animations.map((c) => c.name).join(', ') + ')');
      const mixer = new THREE.AnimationMixer(root);
      mixer.clipAction(a).play();
      mixer.setTime(clip.t);
    }
    root.updateMatrixWorld(true);
    const box = new THREE.Box3().setFromObject(root, true);
    // The portrait frames the eyes, which both rigs place where the eyes
    // are (their Head joints sit at different heights in the skull). The
    // 'eyes' camera is a close-up on them from the portrait's place (a
    // narrower lens), for the lids, brows and the skin under the eyes; the
    // 'quarter' camera is the portrait turned 40 degrees, for the temples,
    // sideburns and the hair's sides, which a portrait sees edge on. The
    // 'back' and 'side' cameras frame the neck and shoulders (17 cm under
    // the eyes, 5 cm behind them) from behind and from the model's left,
    // head to mid-back: where long hair rests on the shoulders and the
    // back, and a hood or collar meets the hair, none of which a portrait
    // or the full-body view shows.
    const eyeL = root.getObjectByName('LeftEye'), eyeR = root.getObjectByName('RightEye');
    for (const l of lights) {
      const scene = light(l);
      scene.add(root);
      for (const c of cameras) {
        const camera = new THREE.PerspectiveCamera(c === 'portrait' || c === 'quarter' ? 24 : c === 'eyes' ? 9 : 30, 1, 0.01, 20);
        let target;
        if ((c === 'back' || c === 'side') && eyeL && eyeR) {
          target = eyeL.getWorldPosition(new THREE.Vector3()).add(eyeR.getWorldPosition(new THREE.Vector3()))
            .multiplyScalar(0.5).add(new THREE.Vector3(0, -0.17, -0.05));
          const turn = c === 'back' ? Math.PI : Math.PI / 2;
          camera.position.set(target.x + 1.1 * Math.sin(turn), target.y + 0.05, target.z + 1.1 * Math.cos(turn));
        } else if ((c === 'portrait' || c === 'quarter' || c === 'eyes') && eyeL && eyeR) {
          target = eyeL.getWorldPosition(new THREE.Vector3()).add(eyeR.getWorldPosition(new THREE.Vector3()))
            .multiplyScalar(0.5).add(new THREE.Vector3(0, c === 'eyes' ? 0 : -0.03, 0));
          // 'quarter' is the portrait from 40 degrees to the model's left.
          const turn = c === 'quarter' ? THREE.MathUtils.degToRad(40) : 0;
          camera.position.set(target.x + 0.95 * Math.sin(turn), target.y + 0.02, target.z + 0.95 * Math.cos(turn));
        } else {
          target = box.getCenter(new THREE.Vector3());
          const h = box.max.y - box.min.y;
          const d = (h * 0.58) / Math.tan(THREE.MathUtils.degToRad(15));
          camera.position.set(target.x, target.y + 0.05 * h, target.z + d);
        }
        camera.lookAt(target);
        renderer.render(scene, camera);
        shots.push({ model: i, light: l, camera: c, png: picture() });
      }
      scene.remove(root);
    }
  }
  window.result = { shots };
} catch (e) {
  window.result = { error: String(e && e.message || e) };
}
</script></body></html>`;

await main(async () => {
  const { shots } = await openPage(page, { roots: { '/three/': join(modules, 'three') }, files, timeout: 600000 });
  mkdirSync(out, { recursive: true });
  const written = [];
  for (const s of shots) {
    const f = join(out, `${names[s.model]}-${s.light}-${s.camera}.png`);
    writeFileSync(f, Buffer.from(s.png.split(',')[1], 'base64'));
    written.push(f);
  }
  // One sheet per light and camera: the models in a row, drawn by the
  // browser from the pictures just taken.
  const sheets = [];
  for (const l of lights) {
    for (const c of cameras) {
      const row = shots.filter((s) => s.light === l && s.camera === c).map((s) => s.png);
      const sheetPage = `<!doctype html><body><script>
        const srcs = ${JSON.stringify(row)};
        const canvas = document.createElement('canvas');
        canvas.width = ${size} * srcs.length; canvas.height = ${size};
        Promise.all(srcs.map((s) => new Promise((ok) => { const im = new Image(); im.onload = () => ok(im); im.src = s; })))
          .then((ims) => { const g = canvas.getContext('2d'); ims.forEach((im, k) => g.drawImage(im, k * ${size}, 0));
            window.result = { png: canvas.toDataURL('image/png') }; });
      </script></body>`;
      const { png } = await openPage(sheetPage, { timeout: 60000 });
      const f = join(out, `sheet-${l}-${c}.png`);
      writeFileSync(f, Buffer.from(png.split(',')[1], 'base64'));
      sheets.push(f);
    }
  }
  return { pictures: written.length, sheets };
});
