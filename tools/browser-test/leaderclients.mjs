// Loads a Kiln avatar in Debian's chromium, from a page on another
// origin, with two clients written for the leader's avatars: three.js's
// GLTFLoader (what react-three-fiber and gltfjsx code reads of the scene)
// and TalkingHead (@met4citizen/talkinghead, a lip-sync library that
// refuses a model whose meshes are not under Armature with "Blend shapes
// not found"). TalkingHead speaks as an app with its own TTS drives it:
// speakAudio with the audio (silence here) and its words' timings, from
// which its English lip-sync module makes the visemes. With its clock
// stopped, the script sets it to the peak of each of the first visemes
// in turn and reads the weight TalkingHead then sets on the face; at
// each the picture is drawn twice, with those weights and with the
// visemes at 0, and for the viseme that changes the mouth most it counts
// the pixels they change around the mouth and elsewhere. It prints what each client found as one line of JSON;
// internal/app's TestLeaderClientsInBrowser judges it.
//
//   node leaderclients.mjs MODEL_URL
//
// Exits 1 with one line when a client fails.
import { join } from 'node:path';
import { main, modules, openPage } from './page.mjs';

const modelURL = process.argv[2];
if (!modelURL) {
  console.error('usage: node leaderclients.mjs MODEL_URL');
  process.exit(2);
}

const page = `<!doctype html><html><body style="margin:0">
<div id="avatar" style="width:400px;height:400px"></div>
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/","talkinghead":"/talkinghead/modules/talkinghead.mjs"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { TalkingHead } from 'talkinghead';
import { visible } from '/pixels.js';
const model = ${JSON.stringify(modelURL)};
const gesture = new Promise((ok) => addEventListener('click', ok, { once: true }));
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

  // No head or eye movement of its own, so that what changes between
  // two pictures is the face.
  const head = new TalkingHead(document.getElementById('avatar'), {
    lipsyncModules: ['en'], lipsyncLang: 'en', cameraView: 'head',
    avatarIdleEyeContact: 1, avatarIdleHeadMove: 0, avatarSpeakingEyeContact: 1, avatarSpeakingHeadMove: 0,
  });
  await head.showAvatar({ url: model, body: 'F', lipsyncLang: 'en', avatarMood: 'neutral' });
  const face = head.morphs.find((m) => m.name === 'Wolf3D_Head' || m.name === 'Wolf3D_Avatar');
  out.talkinghead = { morphs: head.morphs.map((m) => m.name), visemeMax: 0, viseme: '', visemes: [] };
  // The English module loads by a dynamic import after the constructor.
  for (let i = 0; i < 100 && !head.lipsync.en; i++) await new Promise((r) => setTimeout(r, 50));
  await gesture; // the click that lets the page play audio
  await head.audioCtx.resume();
  out.talkinghead.audio = head.audioCtx.state;
  // Speech is timed on TalkingHead's animation clock, which its first
  // frame moves on by the page's age: what is queued before that frame
  // lands in the past and never shows (how an earlier version of this
  // script saw visemes of 0.00-0.01). An app speaks later, as here.
  while (head.animClock === 0) await new Promise((r) => requestAnimationFrame(r));
  // A frame of this avatar takes 0.7-7 s in chromium's software WebGL on
  // a loaded machine, longer than a viseme lasts (about 150 ms), so
  // frames sampled in real time step over most of them. Instead the
  // clock is stopped (TalkingHead's own slow motion, a million times)
  // and set to the peak of each viseme its lip-sync queued: the next
  // frame shows what TalkingHead sets at that moment of the speech.
  head.setSlowdownRate(1e6);

  // Two words of speech, timed in ms, over 1.8 s of silence: TalkingHead
  // scales a vowel's weight by the audio's loudness of the moment, which
  // would make the weights read here depend on where the stopped audio
  // happens to be.
  const rate = head.audioCtx.sampleRate;
  const audio = head.audioCtx.createBuffer(1, Math.round(rate * 1.8), rate);
  head.speakAudio({ audio, words: ['hello', 'world'], wtimes: [100, 900], wdurations: [700, 700] });
  // The lip-sync's visemes reach the animation queue when the audio
  // starts playing.
  const queued = () => head.animQueue.filter((x) => x.template.name === 'viseme');
  for (let i = 0; i < 500 && !queued().length; i++) await new Promise((r) => setTimeout(r, 20));
  const visemes = queued().sort((a, b) => a.ts[1] - b.ts[1]);
  out.talkinghead.queued = visemes.map((x) => Object.keys(x.vs)[0]);

  // Pixels of the picture TalkingHead draws, drawn now.
  const gl = head.renderer.getContext();
  const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
  const draw = () => {
    head.renderer.render(head.scene, head.camera);
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    return px;
  };
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  // The first three visemes of "hello", each at its peak: the frame with
  // the visemes TalkingHead set, then at 0 on every mesh (the teeth carry
  // them too). All three are kept and the one that moves the mouth most
  // is measured: their peaks tie (0.657 each), and picking the highest
  // weight picked by rounding, sometimes viseme_nn, whose lips hardly
  // part.
  const peaks = [];
  for (const x of visemes.slice(0, 3)) {
    const name = Object.keys(x.vs)[0];
    head.animClock = x.ts[1];
    await frame();
    const weight = face.morphTargetInfluences[face.morphTargetDictionary[name]];
    out.talkinghead.visemes.push([name, weight]);
    const spoken = draw();
    const kept = head.morphs.map((m) => [...m.morphTargetInfluences]);
    for (const m of head.morphs) {
      for (const [n, i] of Object.entries(m.morphTargetDictionary)) if (n.startsWith('viseme_')) m.morphTargetInfluences[i] = 0;
    }
    const silent = draw();
    head.morphs.forEach((m, k) => kept[k].forEach((v, i) => { m.morphTargetInfluences[i] = v; }));
    peaks.push({ name, weight, spoken, silent });
  }
  // The mouth on the screen: the teeth's box, or 6.5 cm below the eyes
  // when merged; 7 cm wide and 8 cm tall with the chin.
  const at = (o) => o.getWorldPosition(new THREE.Vector3());
  const teethNow = head.armature.getObjectByName('Wolf3D_Teeth');
  const mouth = teethNow ? new THREE.Box3().setFromObject(teethNow, true).getCenter(new THREE.Vector3())
    : at(head.armature.getObjectByName('LeftEye')).add(at(head.armature.getObjectByName('RightEye'))).multiplyScalar(0.5).add(new THREE.Vector3(0, -0.065, 0.01));
  mouth.y -= 0.02;
  const corner = (dx, dy) => {
    const v = mouth.clone().add(new THREE.Vector3(dx, dy, 0)).project(head.camera);
    return [(v.x + 1) / 2 * w, (v.y + 1) / 2 * h]; // readPixels rows go up, as NDC y does
  };
  const [x0, y0] = corner(-0.035, -0.04), [x1, y1] = corner(0.035, 0.04);
  out.talkinghead.mouthChanged = -1;
  for (const peak of peaks) {
    const n = { in: 0, inChanged: 0, out: 0, outChanged: 0 };
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        const inside = x >= Math.min(x0, x1) && x < Math.max(x0, x1) && y >= Math.min(y0, y1) && y < Math.max(y0, y1);
        n[inside ? 'in' : 'out']++;
        if (visible(peak.spoken, peak.silent, i)) n[inside ? 'inChanged' : 'outChanged']++;
      }
    }
    const mouth = n.in ? n.inChanged / n.in : 0;
    if (mouth > out.talkinghead.mouthChanged) {
      Object.assign(out.talkinghead, { viseme: peak.name, visemeMax: peak.weight, mouthChanged: mouth, elsewhereChanged: n.out ? n.outChanged / n.out : 0 });
    }
  }
  out.talkinghead.mouthChanged = Math.max(out.talkinghead.mouthChanged, 0);
  window.result = out;
} catch (e) {
  window.result = { error: String(e && e.message || e) + ' ' + JSON.stringify(out) };
}
</script></body></html>`;

await main(() => openPage(page, {
  roots: { '/three/': join(modules, 'three'), '/talkinghead/': join(modules, '@met4citizen', 'talkinghead') },
  // A real click: what browsers ask before a page plays sound.
  act: (tab) => tab.mouse.click(10, 10),
}));
