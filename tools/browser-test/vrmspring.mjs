// Loads a Kiln VRM and a Kiln VRM Animation in three.js with
// @pixiv/three-vrm and @pixiv/three-vrm-animation, in Debian's chromium,
// in one page load, and measures two things a VRM app shows:
//
// - spring bones: after the hair settles, the head is turned 50 degrees
//   in a sixth of a second and held; the chain tips' positions in the
//   head's own frame are followed frame by frame (0 if the hair were
//   rigid), and every hair vertex that follows the chains by half or more
//   is tested against the body colliders of its springs (how deep any
//   gets inside, frame by frame);
// - VRM Animation: the clip is played with createVRMAnimationClip and an
//   AnimationMixer, and each humanoid bone's world position is read at
//   four times of the clip.
//
// It prints the figures as one line of JSON; internal/app's
// TestVRMSpringBonesInBrowser judges them.
//
//   node vrmspring.mjs VRM_URL VRMA_URL [--vrm0 VRM0_URL] [--screenshot PREFIX]
//
// With --vrm0, the spring figures of a VRM 0.x (secondaryAnimation) are
// measured too, in the same page, as spring0.
//
// The files are fetched here and served to the page from the same origin
// as the pinned modules, so the page needs nothing from the network.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main, modules, openPage } from './page.mjs';

const args = process.argv.slice(2);
const [vrmURL, vrmaURL] = args;
const opt = (name) => {
  const i = args.indexOf(name);
  return i > 0 ? args[i + 1] : undefined;
};
const shots = opt('--screenshot');
const v0URL = opt('--vrm0');
if (!vrmURL || !vrmaURL) {
  console.error('usage: node vrmspring.mjs VRM_URL VRMA_URL [--vrm0 VRM0_URL] [--screenshot PREFIX]');
  process.exit(2);
}

async function get(url) {
  const res = await fetch(url);
  if (!res.ok) {
    console.error(`GET ${url}: ${res.status} ${await res.text()}`);
    process.exit(1);
  }
  return Buffer.from(await res.arrayBuffer());
}
const model = await get(vrmURL);
const clip = await get(vrmaURL);
const v0 = v0URL ? await get(v0URL) : undefined;

const page = `<!doctype html><html><body style="margin:0;background:#fff">
<script type="importmap">{"imports":{
  "three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/",
  "@pixiv/three-vrm":"/pixiv/three-vrm/lib/three-vrm.module.js",
  "@pixiv/three-vrm-animation":"/pixiv/three-vrm-animation/lib/three-vrm-animation.module.js"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, createVRMAnimationClip } from '@pixiv/three-vrm-animation';
const size = 512;
try {
  const loader = new GLTFLoader();
  loader.register((p) => new VRMLoaderPlugin(p));
  loader.register((p) => new VRMAnimationLoaderPlugin(p));
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xffffff);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2.5));
  const key = new THREE.DirectionalLight(0xffffff, 2);
  key.position.set(0.5, 2, 3);
  scene.add(key);
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setSize(size, size);
  document.body.appendChild(renderer.domElement);
  const camera = new THREE.PerspectiveCamera(30, 1, 0.05, 20);
  const shot = (from, at) => {
    camera.position.set(...from);
    camera.lookAt(new THREE.Vector3(...at));
    renderer.render(scene, camera);
    return renderer.domElement.toDataURL('image/png');
  };

  // springOf loads a VRM into the scene, lets its hair settle, turns its
  // head and measures the hair (see the top of this file).
  const springOf = async (url) => {
    const gltf = await loader.loadAsync(url);
    const vrm = gltf.userData.vrm;
    if (!vrm) throw new Error('three-vrm found no VRM in the model');
    // 0.x faces -Z: turned as three-vrm's examples do, so one camera serves both.
    // The springs' tails were taken in world space at load: after the
    // turn they must be taken again, or they start on the wrong side.
    if (vrm.meta && vrm.meta.metaVersion === '0') {
      VRMUtils.rotateVRM0(vrm);
      vrm.scene.updateMatrixWorld(true);
      if (vrm.springBoneManager) vrm.springBoneManager.reset();
    }
    scene.add(vrm.scene);
    const sb = vrm.springBoneManager;
    if (!sb) throw new Error('three-vrm found no spring bones');
    const joints = [...sb.joints];
    const hair = joints.filter((j) => j.bone.name.startsWith('Kiln_hair'));
    if (hair.length === 0) throw new Error('no spring joint on the hair (' + joints.map((j) => j.bone.name).join(', ') + ')');
    // Chain tips: the joints' children that are not joints themselves
    // (VRM 1.0), or the joints without a child (0.x makes the tip a joint).
    const bones = new Set(hair.map((j) => j.bone));
    const all = new Set([...bones, ...hair.map((j) => j.child).filter((c) => c)]);
    const tips = [...all].filter((c) => !c.children.some((k) => all.has(k)));
    const head = vrm.humanoid.getRawBoneNode('head');
    const headN = vrm.humanoid.getNormalizedBoneNode('head');
    // The colliders the hair springs collide with, in world space.
    const colliders = new Set();
    for (const j of hair) for (const g of j.colliderGroups || []) for (const c of g.colliders) colliders.add(c);
    const shapes = () => [...colliders].map((c) => {
      const s = c.shape;
      const a = s.offset.clone().applyMatrix4(c.matrixWorld);
      const b = (s.tail || s.offset).clone().applyMatrix4(c.matrixWorld);
      return { a, b, r: s.radius };
    });
    // The hair vertices that follow the chains by half or more.
    const moving = [];
    vrm.scene.traverse((o) => {
      if (!o.isSkinnedMesh || !/hair/i.test(o.name)) return;
      const jt = o.geometry.attributes.skinIndex, wt = o.geometry.attributes.skinWeight;
      for (let v = 0; v < jt.count; v++) {
        let w = 0;
        for (let k = 0; k < 4; k++) {
          const bone = o.skeleton.bones[jt.getComponent(v, k)];
          if (bone && bone.name.startsWith('Kiln_hair')) w += wt.getComponent(v, k);
        }
        if (w >= 0.5) moving.push([o, v, w]);
      }
    });
    if (moving.length === 0) throw new Error('no hair vertex follows the spring chains');
    const seg = new THREE.Line3(), near = new THREE.Vector3(), p = new THREE.Vector3();
    // depth is how far the deepest moving hair vertex is inside a collider
    // (0 when none is), and how many are inside by more than 5 mm: for the
    // vertices that follow the chains by 90 % or more (hanging hair, which
    // the springs move), and for those between half and 90 % (near the
    // roots, mostly carried by the head itself).
    const depth = () => {
      const sh = shapes();
      const out = { worst: 0, deep: 0, rootWorst: 0 };
      for (const [mesh, v, w] of moving) {
        mesh.getVertexPosition(v, p);
        p.applyMatrix4(mesh.matrixWorld);
        let d = 0;
        for (const s of sh) {
          if (s.a.equals(s.b)) {
            near.copy(s.a); // a sphere (Line3 divides by the length)
          } else {
            seg.set(s.a, s.b);
            seg.closestPointToPoint(p, true, near);
          }
          d = Math.max(d, s.r - near.distanceTo(p));
        }
        if (w < 0.9) {
          out.rootWorst = Math.max(out.rootWorst, d);
          continue;
        }
        out.worst = Math.max(out.worst, d);
        if (d > 0.005) out.deep++;
      }
      return out;
    };
    const local = () => {
      vrm.scene.updateMatrixWorld(true);
      const inv = head.matrixWorld.clone().invert();
      return tips.map((t) => t.getWorldPosition(new THREE.Vector3()).applyMatrix4(inv));
    };
    const dt = 1 / 60;
    // Settle: the chains fall under gravity from their rest.
    for (let f = 0; f < 120; f++) vrm.update(dt);
    const rest = local();
    const atRest = depth();
    const front = shot([0, 1.45, 1.6], [0, 1.3, 0]);
    const back = shot([-1.0, 1.55, -1.3], [0, 1.35, 0]);
    // Turn the head 50 degrees in 10 frames, then hold it for a second.
    const turn = 50 * Math.PI / 180;
    let sway = 0, swayEnd = 0, worst = atRest.worst, deep = atRest.deep, rootWorst = atRest.rootWorst, peakFrame = 0;
    let turned, later;
    for (let f = 1; f <= 70; f++) {
      headN.rotation.y = turn * Math.min(1, f / 10);
      vrm.update(dt);
      const now = local();
      const m = Math.max(...now.map((q, k) => q.distanceTo(rest[k])));
      if (m > sway) { sway = m; peakFrame = f; }
      swayEnd = m;
      const d = depth();
      worst = Math.max(worst, d.worst);
      deep = Math.max(deep, d.deep);
      rootWorst = Math.max(rootWorst, d.rootWorst);
      if (f === 14) turned = shot([-1.0, 1.55, -1.3], [0, 1.35, 0]);
      if (f === 70) later = shot([-1.0, 1.55, -1.3], [0, 1.35, 0]);
    }
    const spring = {
      joints: joints.length, hairJoints: hair.length, tips: tips.length, colliders: colliders.size,
      movingVertices: moving.length, hangingVertices: moving.filter((m) => m[2] >= 0.9).length, swayPeak: sway, swayPeakFrame: peakFrame, swayAfterSecond: swayEnd,
      restDepth: atRest.worst, maxDepth: worst, maxDeepVertices: deep, rootRestDepth: atRest.rootWorst, rootMaxDepth: rootWorst,
    };
    headN.rotation.y = 0;
    for (let f = 0; f < 30; f++) vrm.update(dt);
    return { vrm, spring, pictures: [front, back, turned, later] };

  };
  const one = await springOf('/model.vrm');
  const vrm = one.vrm, spring = one.spring;
  let spring0;
  if (${JSON.stringify(!!v0)}) {
    vrm.scene.visible = false;
    spring0 = (await springOf('/model0.vrm')).spring;
  }
  // VRM Animation.
  const va = await loader.loadAsync('/clip.vrma');
  const anim = va.userData.vrmAnimations && va.userData.vrmAnimations[0];
  if (!anim) throw new Error('three-vrm-animation found no VRM Animation in the clip');
  const clip = createVRMAnimationClip(anim, vrm);
  const mixer = new THREE.AnimationMixer(vrm.scene);
  mixer.clipAction(clip).play();
  const names = Object.keys(vrm.humanoid.humanBones);
  const sample = (t) => {
    mixer.setTime(t);
    vrm.update(0);
    vrm.scene.updateMatrixWorld(true);
    const out = {};
    for (const n of names) {
      const b = vrm.humanoid.getRawBoneNode(n);
      if (b) out[n] = b.getWorldPosition(new THREE.Vector3());
    }
    return out;
  };
  const times = [0, 0.25, 0.5, 0.75].map((f) => f * clip.duration);
  const poses = times.map(sample);
  let moved = 0, movedBone = '';
  for (const n of names) {
    for (const q of poses.slice(1)) {
      if (!q[n] || !poses[0][n]) continue;
      const d = q[n].distanceTo(poses[0][n]);
      if (d > moved) { moved = d; movedBone = n; }
    }
  }
  mixer.setTime(clip.duration * 0.5);
  vrm.update(0);
  const playing = shot([0, 1.2, 3.2], [0, 1.0, 0]);
  window.result = {
    spring, spring0,
    animation: { tracks: clip.tracks.length, duration: clip.duration, moved, movedBone,
      hips: poses.map((q) => q.hips && q.hips.toArray().map((x) => +x.toFixed(3))) },
    pictures: [...one.pictures, playing],
  };
} catch (e) {
  window.result = { error: String(e && e.stack || e) };
}
</script></body></html>`;

await main(async () => {
  const result = await openPage(page, {
    roots: { '/three/': join(modules, 'three'), '/pixiv/': join(modules, '@pixiv') },
    files: v0 ? { '/model.vrm': model, '/clip.vrma': clip, '/model0.vrm': v0 } : { '/model.vrm': model, '/clip.vrma': clip },
    timeout: 120000,
  });
  const pictures = result.pictures;
  delete result.pictures;
  if (shots) {
    ['front', 'back', 'turned', 'later', 'vrma'].forEach((n, k) => writeFileSync(`${shots}-${n}.png`, Buffer.from(pictures[k].split(',')[1], 'base64')));
  }
  return result;
});
