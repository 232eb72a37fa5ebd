// The live 3D view: one avatar, lit by a room environment, turned with
// OrbitControls. Sliders move it through the morph targets of the build
// (one per slider, offsets per unit around the build's own values); a new
// build replaces it whole.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/addons/environments/RoomEnvironment.js';
import { kindsGLB } from './kinds.js';

export class View {
  constructor(canvas) {
    this.canvas = canvas;
    // On a software rasteriser (SwiftShader, llvmpipe: headless
    // browsers, virtual machines, old GPUs on a block list) every pixel
    // costs the CPU the page needs to answer the person: no multisampling
    // and one pixel per CSS pixel there.
    this.software = softwareGL();
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: !this.software, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(this.software ? 1 : Math.min(2, window.devicePixelRatio || 1));
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
    this.renderer.toneMapping = THREE.NeutralToneMapping;
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color('#e9ecf1');
    if (this.software) {
      // Prefiltering the room environment (PMREM) compiles and runs blur
      // shaders that took a software rasteriser most of a minute on a
      // loaded machine, during which the page answered nothing: lights
      // there instead.
      this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8d8f94, 2.2));
      const key = new THREE.DirectionalLight(0xffffff, 1.6);
      key.position.set(1, 2, 2.5);
      const rim = new THREE.DirectionalLight(0xffffff, 0.8);
      rim.position.set(-1.5, 1.5, -2);
      this.scene.add(key, rim);
    } else {
      const pmrem = new THREE.PMREMGenerator(this.renderer);
      this.scene.environment = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
      pmrem.dispose();
    }
    this.camera = new THREE.PerspectiveCamera(30, 1, 0.05, 50);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enablePan = false;
    this.controls.minDistance = 0.4;
    this.controls.maxDistance = 6;
    this.controls.addEventListener('change', () => this.requestRender());
    this.textures = new Map();
    this.loader = new GLTFLoader().register((parser) => new KeepTextures(parser, this));
    this.timer = new THREE.Timer();
    this.model = null;
    this.base = {};
    this.values = {};
    this.meshes = [];
    this.mixer = null;
    this.action = null;
    this.clip = null;
    this.frames = 0;
    this.dirty = true;
    this.framing = 'fullbody';
    this.scheduled = 0;
    this.lastFrame = 0;
    // visible is false while the page is hidden or the canvas scrolled
    // out of sight: nothing is drawn then, not even the animation.
    this.onScreen = true;
    new IntersectionObserver((es) => {
      this.onScreen = es.at(-1).isIntersecting;
      this.requestRender();
    }).observe(canvas);
    document.addEventListener('visibilitychange', () => this.requestRender());
    new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    this.keys(canvas);
    this.resize();
    this.setCamera('fullbody');
  }

  get visible() { return this.onScreen && document.visibilityState !== 'hidden'; }

  // requestRender draws on demand: one frame when something changed, and
  // frames while a clip plays. Nothing runs while the avatar stands still,
  // so an idle page costs nothing; a page that drew every frame starved
  // its own input handling and the page embedding it with software WebGL
  // (the first browser test never got past the first avatar).
  requestRender() {
    this.dirty = true;
    if (this.scheduled || !this.visible) return;
    this.scheduled = requestAnimationFrame((now) => this.frame(now));
  }

  frame(now) {
    this.scheduled = 0;
    if (!this.visible) return;
    const playing = this.mixer && this.action;
    // A playing clip is drawn at most every frameGap ms: 30 frames a
    // second on a GPU, 10 on a software rasteriser, where a frame takes
    // tens of milliseconds of the CPU.
    const frameGap = this.software ? 100 : 33;
    // A clip's next frame also waits for the GPU to finish the last one
    // (paced), and for a build being readied (stage) to be in: a
    // software rasteriser took 0.7-1.8 s a frame at load 14, so frames
    // asked every 100 ms piled up in the GPU process, and every upload
    // the page made waited behind the pile (the page froze for seconds).
    if (playing && !this.dirty && (now - this.lastFrame < frameGap || this.staging || !this.paced())) {
      this.scheduled = requestAnimationFrame((t) => this.frame(t));
      return;
    }
    this.timer.update(now);
    if (playing) this.mixer.update(Math.min(0.25, this.timer.getDelta()));
    this.lastFrame = now;
    this.render();
    if (playing) this.scheduled = requestAnimationFrame((t) => this.frame(t));
  }

  // keys turns and zooms the view from the keyboard once the canvas has
  // focus: arrow keys orbit (left/right around, up/down over), + and -
  // (or Page Up/Down) zoom, Home frames the whole avatar again.
  keys(canvas) {
    canvas.tabIndex = 0;
    canvas.addEventListener('keydown', (e) => {
      const step = THREE.MathUtils.degToRad(e.shiftKey ? 30 : 10);
      const c = this.controls;
      const offset = this.camera.position.clone().sub(c.target);
      const sph = new THREE.Spherical().setFromVector3(offset);
      switch (e.key) {
        case 'ArrowLeft': sph.theta -= step; break;
        case 'ArrowRight': sph.theta += step; break;
        case 'ArrowUp': sph.phi = Math.max(0.1, sph.phi - step); break;
        case 'ArrowDown': sph.phi = Math.min(Math.PI - 0.1, sph.phi + step); break;
        case '+': case '=': case 'PageUp': sph.radius = Math.max(c.minDistance, sph.radius * 0.85); break;
        case '-': case '_': case 'PageDown': sph.radius = Math.min(c.maxDistance, sph.radius / 0.85); break;
        case 'Home': this.setCamera(this.framing); e.preventDefault(); return;
        default: return;
      }
      e.preventDefault();
      this.camera.position.copy(c.target).add(new THREE.Vector3().setFromSpherical(sph));
      c.update();
      this.requestRender();
    });
  }

  resize() {
    const el = this.canvas.parentElement;
    const w = Math.max(1, el.clientWidth), h = Math.max(1, el.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    if (this.height) this.setCamera(this.framing);
    this.requestRender();
  }

  render() {
    this.renderer.render(this.scene, this.camera);
    this.dirty = false;
    this.frames++;
    const gl = this.renderer.getContext();
    if (gl.fenceSync && !this.drawn) {
      this.drawn = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
      gl.flush();
    }
  }

  // paced says whether the GPU has finished the last frame drawn (its
  // fence signalled; asking does not wait).
  paced() {
    if (!this.drawn) return true;
    const gl = this.renderer.getContext();
    if (gl.getSyncParameter(this.drawn, gl.SYNC_STATUS) !== gl.SIGNALED) return false;
    gl.deleteSync(this.drawn);
    this.drawn = null;
    return true;
  }

  // setCamera frames the face (portrait) or the whole avatar.
  setCamera(kind) {
    this.framing = kind;
    const h = this.height || 1.75;
    if (kind === 'portrait') {
      // Head and shoulders with room above the hair, whichever of height
      // and width binds at this aspect (at 0.9 m the face filled a
      // desktop view from chin to brow).
      const half = THREE.MathUtils.degToRad(this.camera.fov / 2);
      const d = Math.max(0.32 / Math.tan(half), 0.26 / (Math.tan(half) * this.camera.aspect));
      this.controls.target.set(0, h * 0.91, 0);
      this.camera.position.set(0, h * 0.93, d);
    } else {
      // The whole avatar with a margin, whichever of height and width
      // binds at this aspect.
      const half = THREE.MathUtils.degToRad(this.camera.fov / 2);
      const d = Math.max((h * 0.56) / Math.tan(half), (0.5 * h * 0.56) / (Math.tan(half) * this.camera.aspect));
      this.controls.target.set(0, h * 0.47, 0);
      this.camera.position.set(0, h * 0.52, d);
    }
    this.controls.update();
    this.requestRender();
  }

  // show parses a build (a GLB) and puts it in place of the shown one,
  // keeping the clip that plays and where it was. The old model's
  // materials are freed only once the new ones hold their shader
  // programs (after the first render): freeing first dropped the
  // programs both share, and every build compiled them again.
  //
  // With an avatar on screen (a whole build after a style's part, a
  // slider's build) the new one is readied in slices first (stage): the
  // page's thread comes back between them, so the view and the controls
  // never stall for the whole of it (the swap was one task of 1-2 s on
  // a software rasteriser, right after the part had shown the pick).
  async show(glb) {
    const t0 = performance.now();
    const gltf = await this.loader.parseAsync(glb, '');
    this.showPhases = { parse: performance.now() - t0 };
    const root = gltf.scene;
    const extras = root.userData || {};
    const meshes = [];
    const all = [];
    root.traverse((o) => {
      if (o.isMesh) {
        o.frustumCulled = false;
        all.push(o);
        if (o.morphTargetDictionary) meshes.push(o);
      }
    });
    this.morphCount = Math.max(0, ...all.map((m) => m.geometry.morphAttributes.position?.length || 0));
    for (const m of all) { padMorphs(m, this.morphCount); alike(m.material); }
    const { textures } = gltf.parser.plugins[KeepTextures.NAME];
    if (this.model) Object.assign(this.showPhases, await this.stage(root, all, textures));
    const time = this.action ? this.action.time : 0;
    const old = this.model;
    this.model = root;
    this.meshes = meshes;
    this.textures = textures;
    this.base = extras.sliders || {};
    this.configuration = extras.configuration || null;
    if (old) this.scene.remove(old);
    this.scene.add(root);
    const box = new THREE.Box3().setFromObject(root);
    const h = box.max.y - box.min.y;
    const reframe = !this.height;
    this.height = h;
    if (reframe) this.setCamera(this.framing);
    this.mixer = new THREE.AnimationMixer(root);
    if (this.clip) this.play(this.clip, time);
    // The textures are uploaded first, apart from the draw, so the
    // benchmark tells the two apart (the same work either way; staged,
    // already done).
    const programs = this.renderer.info.programs?.length || 0;
    const t1 = performance.now();
    for (const t of textures.values()) this.renderer.initTexture(t);
    const t2 = performance.now();
    this.apply(this.values);
    this.showPhases.upload = t2 - t1;
    this.showPhases.draw = performance.now() - t2;
    this.showPhases.programs = this.renderer.info.programs?.length;
    this.showPhases.newPrograms = this.showPhases.programs - programs;
    this.showPhases.longest = Math.max(this.showPhases.longest || 0, this.showPhases.draw + this.showPhases.upload);
    if (old) {
      const kept = new Set(textures.values());
      old.traverse((o) => {
        if (!o.isMesh) return;
        o.geometry.dispose();
        for (const m of [].concat(o.material)) {
          for (const v of Object.values(m)) if (v?.isTexture && !kept.has(v) && v !== FLAT) v.dispose();
          m.dispose();
        }
      });
    }
  }

  // stage readies a parsed build (root, its meshes all and its textures)
  // while the shown avatar stays on screen, one slice a task: each
  // texture's upload (initTexture; those the shown avatar has are kept,
  // KeepTextures), then each mesh drawn alone into one scissored pixel,
  // which uploads its geometry, morph targets and bones and links its
  // program (the programs are the shown avatar's: same kinds, same
  // morph target count). The last draw, the swap itself, then finds
  // everything on the GPU. It answers the slices, the longest one, the
  // whole and the time spent waiting for the GPU, in ms.
  async stage(root, all, textures) {
    const r = this.renderer;
    // A texture the shown avatar has (KeepTextures) is on the GPU already.
    const fresh = [...textures.values()].filter((t) => !r.properties.get(t).__webglTexture);
    const steps = fresh.map((t) => () => r.initTexture(t));
    for (const m of all) {
      steps.push(() => {
        const shown = this.model;
        shown.visible = false;
        for (const o of all) o.visible = o === m;
        try {
          this.scissored(root);
        } finally {
          shown.visible = true;
        }
      });
    }
    let longest = 0, waited = 0;
    const start = performance.now();
    this.staging = true;
    try {
      for (const step of steps) {
        const w = performance.now();
        await this.caughtUp();
        waited += performance.now() - w;
        const t0 = performance.now();
        step();
        longest = Math.max(longest, performance.now() - t0);
        await nextTask();
      }
    } finally {
      this.staging = false;
    }
    for (const o of all) o.visible = true;
    return { slices: steps.length, longest, staged: performance.now() - start, waited };
  }

  // swapPart puts a part (POST /creator/parts: the meshes of one style
  // category, skinned to the same 67 joints) into the shown avatar in
  // place of the meshes it replaces: bound to the avatar's own skeleton,
  // so the playing clip moves it, and the replaced meshes freed. It is
  // what a style change shows within a frame of its answer, until the
  // whole build (show) replaces the avatar. It answers whether it
  // swapped (false with no avatar shown).
  async swapPart(glb) {
    if (!this.model) return false;
    const t0 = performance.now();
    const gltf = await this.loader.parseAsync(glb, '');
    this.swapPhases = { parse: performance.now() - t0 };
    const replaces = new Set(gltf.scene.userData?.replaces || []);
    const old = [];
    this.model.traverse((o) => { if (replaces.has(o.name)) old.push(o); });
    const { host, added, kept } = this.fitPart(gltf, old);
    if (!host) return false;
    for (const o of old) o.removeFromParent();
    for (const m of added) host.parent.add(m);
    this.meshes = this.meshes.filter((m) => !replaces.has(m.name));
    const programs = this.renderer.info.programs?.length || 0;
    const t1 = performance.now();
    this.render();
    this.swapPhases.draw = performance.now() - t1;
    this.swapPhases.programs = this.renderer.info.programs?.length;
    this.swapPhases.newPrograms = this.swapPhases.programs - programs;
    // Freed after the new meshes are drawn, so that a shader program both
    // use stays (freed first, it was released and compiled again).
    // A disposed texture that a later build reuses (KeepTextures) is
    // uploaded again when drawn.
    for (const o of old) {
      o.traverse((x) => {
        if (!x.isMesh) return;
        x.geometry.dispose();
        for (const m of [].concat(x.material)) {
          if (kept.has(m)) continue;
          for (const v of Object.values(m)) if (v?.isTexture && v !== FLAT) v.dispose();
          m.dispose();
        }
      });
    }
    return true;
  }

  // fitPart readies a part's skinned meshes for the shown avatar: bound
  // to its skeleton, with as many (empty) morph targets as the meshes
  // they replace (old) or their sibling have, so that the renderer
  // reuses the shader program those have (a program of its own is
  // compiled, seconds on a software rasteriser), and with the shown
  // body's painted material where the part asks to keep it. It answers
  // the skeleton's host mesh (null with no avatar), the meshes and the
  // materials kept.
  fitPart(gltf, old) {
    const replaces = new Set(gltf.scene.userData?.replaces || []);
    // Meshes whose material stays the shown one's (the body a garment's
    // part cuts anew comes with a plain material; its skin is painted).
    const keep = new Set(gltf.scene.userData?.keepMaterial || []);
    const kept = new Set();
    let host = null;
    this.model?.traverse((o) => {
      if (o.isSkinnedMesh && !host && !replaces.has(o.name)) host = o;
    });
    const added = [];
    if (!host) return { host, added, kept };
    gltf.scene.traverse((o) => { if (o.isSkinnedMesh) added.push(o); });
    for (const m of added) {
      m.removeFromParent();
      m.frustumCulled = false;
      const was = old.find((o) => o.name === m.name && o.isMesh);
      padMorphs(m, this.morphCount || 0);
      alike(m.material);
      if (keep.has(m.name) && was?.material) {
        m.material.dispose();
        m.material = was.material;
        kept.add(was.material);
      }
      m.bind(host.skeleton, host.bindMatrix);
    }
    return { host, added, kept };
  }

  // warmKinds draws, before any avatar is shown, one triangle of each
  // kind of mesh a build holds (kinds.js), skinned and with morphCount
  // morph targets as show pads a build's meshes to, into one scissored
  // pixel: their shader programs and pipelines are compiled while the
  // first build is on its way, and the avatar's first draw finds them
  // (9.4 s of its 12.9 s cold load was that first draw, at load 14).
  // One kind a task, so that a build that arrives meanwhile is parsed
  // between them. The materials are kept, so the programs stay. It
  // answers the number of programs then.
  async warmKinds(morphCount, later = false) {
    const gltf = await this.loader.parseAsync(kindsGLB(later), '');
    const meshes = [];
    gltf.scene.traverse((o) => { if (o.isSkinnedMesh) meshes.push(o); });
    const holder = new THREE.Group();
    holder.add(gltf.scene);
    this.warmed ??= [];
    this.warmed.push(holder);
    for (const m of meshes) {
      m.frustumCulled = false;
      padMorphs(m, morphCount);
      alike(m.material);
      m.visible = false;
    }
    // Compiling every kind's program first queues their links at once
    // in the GPU process; the page's thread waits for one only at its
    // first draw, and meanwhile parses what arrives.
    for (const m of meshes) m.visible = true;
    this.renderer.compile(holder, this.camera, this.scene);
    for (const m of meshes) m.visible = false;
    for (const m of meshes) {
      m.visible = true;
      this.scissored(holder);
      m.visible = false;
      await new Promise((r) => setTimeout(r, 0));
    }
    return this.renderer.info.programs?.length;
  }

  // caughtUp resolves once the GPU has done every command given so far
  // (a WebGL fence, polled between tasks: asking it does not wait). The
  // page's thread sends textures and buffers to the GPU process through
  // a bounded buffer and waits when that is full: a slice of stage given
  // while the GPU was still drawing earlier frames waited there for up
  // to 3.4 s (a 1,335-vertex mesh, on SwiftShader at load 22), where
  // given after it, it only copies its bytes.
  async caughtUp() {
    const gl = this.renderer.getContext();
    if (!gl.fenceSync) return;
    const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (!sync) return;
    gl.flush();
    try {
      while (gl.clientWaitSync(sync, 0, 0) === gl.TIMEOUT_EXPIRED) await new Promise((r) => setTimeout(r, 8));
    } finally {
      gl.deleteSync(sync);
    }
  }

  // scissored draws the scene with extra (a group not in it) into one
  // pixel of the canvas, which the next frame draws over: what compiles a
  // mesh's program and pipeline on a software rasteriser.
  scissored(extra) {
    this.scene.add(extra);
    this.scissoredHere(extra);
  }

  // scissoredHere is scissored for a group already placed (a part under
  // the avatar's skeleton), which it takes out after the draw.
  scissoredHere(extra) {
    const r = this.renderer;
    r.setScissorTest(true);
    r.setScissor(0, 0, 1, 1);
    try {
      r.render(this.scene, this.camera);
    } finally {
      r.setScissorTest(false);
      extra.removeFromParent();
    }
  }

  // warm readies, in the background, the drawing of parts the shown
  // avatar has no mesh for yet (the first beard, glasses or hat): each is
  // readied as swapPart would (fitPart) and drawn once into one pixel of
  // the canvas (scissored), which the next frame draws over. On a
  // software rasteriser the first draw of a new kind of mesh compiles its
  // shaders and pipeline, 1-5 s on a loaded machine (compiling the
  // program alone, WebGLRenderer.compile, was not enough: SwiftShader
  // compiles at the first draw); done here, the person's pick draws in
  // tens of milliseconds. Their materials are kept, so the programs stay
  // (a program is released with its last material). One part at a time,
  // when the page is idle; it answers the milliseconds each took.
  async warm(glbs) {
    this.warmed ??= [];
    const took = [];
    const idle = () => new Promise((r) => (window.requestIdleCallback ? requestIdleCallback(r, { timeout: 2000 }) : setTimeout(r, 50)));
    for (const glb of glbs) {
      await idle();
      if (!this.model) break;
      const t0 = performance.now();
      const gltf = await this.loader.parseAsync(glb, '');
      // Drawn once the GPU has caught up, as stage's slices are: drawn
      // behind frames not done yet, its uploads held the page's thread.
      await this.caughtUp();
      if (!this.model) break;
      const { host, added } = this.fitPart(gltf, []);
      if (!host || !added.length) continue;
      const holder = new THREE.Group();
      holder.add(...added);
      const programs = this.renderer.info.programs?.length || 0;
      host.parent.add(holder);
      this.scissoredHere(holder);
      // Kept only if it compiled a program (the programs are released
      // with their last material); else freed, but for the textures the
      // shown avatar has too (KeepTextures).
      if ((this.renderer.info.programs?.length || 0) > programs) this.warmed.push(holder);
      else free(holder, new Set(this.textures.values()));
      this.requestRender();
      took.push(performance.now() - t0);
    }
    return took;
  }

  // apply sets every slider's influence from its value: the offset from
  // the value the build was made at. It renders at once, so the geometry
  // is updated before the input handler returns.
  apply(values) {
    this.values = { ...values };
    for (const m of this.meshes) {
      const dict = m.morphTargetDictionary;
      for (const [name, i] of Object.entries(dict)) {
        const v = values[name];
        m.morphTargetInfluences[i] = v === undefined || this.base[name] === undefined ? 0 : v - this.base[name];
      }
    }
    this.render();
  }

  // tint multiplies a material's colour: the page's instant answer to a
  // colour change, until the build with the painted colour arrives.
  tint(materialNames, rgb) {
    if (!this.model) return;
    this.model.traverse((o) => {
      if (!o.isMesh) return;
      for (const m of [].concat(o.material)) {
        if (materialNames.includes(m.name)) m.color.setRGB(rgb[0], rgb[1], rgb[2], THREE.SRGBColorSpace);
      }
    });
    this.render();
  }

  // play runs a clip (an AnimationClip on the avatar's joint names) in a
  // loop; null stops.
  play(clip, time = 0) {
    this.clip = clip;
    if (!this.mixer) return;
    this.mixer.stopAllAction();
    this.action = null;
    if (!clip) {
      this.model?.traverse((o) => { if (o.isSkinnedMesh) o.skeleton.pose(); });
      this.requestRender();
      return;
    }
    this.action = this.mixer.clipAction(clip);
    this.action.play();
    this.action.time = time % clip.duration;
    this.timer.update(performance.now());
    this.requestRender();
  }

  async loadClip(url) {
    const gltf = await this.loader.loadAsync(url);
    const clip = gltf.animations[0];
    if (!clip) return null;
    // Keep rotations only: the avatar's own rest lengths stay (clips on
    // a same-named skeleton of another height would stretch it).
    clip.tracks = clip.tracks.filter((t) => t.name.endsWith('.quaternion'));
    return clip;
  }
}

// nextTask resolves in a later task, after the browser has had its turn
// to draw a frame and take input (a MessageChannel message: unlike
// setTimeout, not clamped to 4 ms once nested, nor held in a hidden tab
// as requestAnimationFrame is).
function nextTask() {
  return new Promise((resolve) => {
    const c = new MessageChannel();
    c.port1.onmessage = () => { c.port1.close(); resolve(); };
    c.port2.postMessage(null);
  });
}

// free releases the meshes under root: their geometry, materials and
// textures, but for the textures in keep.
function free(root, keep) {
  root.traverse((o) => {
    if (!o.isMesh) return;
    o.geometry.dispose();
    for (const m of [].concat(o.material)) {
      for (const v of Object.values(m)) if (v?.isTexture && v !== FLAT && !keep.has(v)) v.dispose();
      m.dispose();
    }
  });
}

// padMorphs gives a mesh n morph targets, adding empty ones (influence
// 0, named nowhere) to those it has: the morph target count is part of a
// shader program's key, so meshes whose materials are alike share one
// program only with the same count. Every mesh of a build is padded to
// the build's largest count (the body and the skin, the top and the
// bottom then share theirs: 9 programs compiled for the first avatar
// became N), and a part to the avatar's, so that it reuses the programs
// on screen. Each program is seconds of a software rasteriser's first
// draw.
function padMorphs(m, n) {
  const g = m.geometry;
  const have = g.morphAttributes.position?.length || 0;
  if (!n || have >= n) return;
  const zeros = new Float32Array(g.attributes.position.count * 3);
  for (const key of have ? Object.keys(g.morphAttributes) : ['position']) {
    const list = g.morphAttributes[key] || [];
    while (list.length < n) list.push(new THREE.BufferAttribute(zeros, 3));
    g.morphAttributes[key] = list;
  }
  if (!have) g.morphTargetsRelative = true;
  m.morphTargetInfluences ??= [];
  m.morphTargetDictionary ??= {};
  while (m.morphTargetInfluences.length < n) m.morphTargetInfluences.push(0);
}

// FLAT is a flat normal map (every texel the unperturbed normal).
const FLAT = new THREE.DataTexture(new Uint8Array([128, 128, 255, 255]), 1, 1);
FLAT.generateMipmaps = true;
FLAT.minFilter = THREE.LinearMipmapLinearFilter;
FLAT.magFilter = THREE.LinearFilter;
FLAT.wrapS = FLAT.wrapT = THREE.RepeatWrapping;
FLAT.needsUpdate = true;

// alike makes a build's materials of nearly the same kind one kind, so
// they share a shader program (each is about a second of a software
// rasteriser's first draw; 7 programs for the first avatar become 3:
// the skin, the teeth and the rest). A textured material other than the
// skin (the only one with an occlusion map; the teeth have no texture)
// is drawn double-sided, normal-mapped and alpha-tested as the
// hair is: without a normal map it gets a flat one, and it is
// alpha-tested only if its colour texture has no alpha (a PNG without
// one: every texel passes) or it was already. None of it changes a pixel
// that shows: the flat map gives the mesh's own normal, and the back
// faces of a closed shoe or an eyeball are behind its front ones.
function alike(material) {
  for (const m of [].concat(material)) {
    if (!m?.isMeshStandardMaterial || !m.map || m.aoMap) continue;
    if (!m.normalMap) m.normalMap = FLAT;
    m.side = THREE.DoubleSide;
    if (!m.alphaTest && !m.transparent && m.map.userData.opaque) m.alphaTest = 0.5;
  }
}

// softwareGL says whether WebGL here is a software rasteriser, from a
// throwaway context's renderer name.
function softwareGL() {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return true;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|softpipe|software/i.test(String(name));
  } catch {
    return true;
  }
}

// KeepTextures is a GLTFLoader plugin: a texture whose image bytes the
// shown model already has is that texture, neither decoded nor uploaded
// again (a style change repaints one part, not eighteen images).
class KeepTextures {
  static NAME = 'kiln_keep_textures';

  constructor(parser, view) {
    this.name = KeepTextures.NAME;
    this.parser = parser;
    this.shown = view.textures;
    // textures are this build's, by digest.
    this.textures = new Map();
  }

  loadTexture(index) {
    const { json } = this.parser;
    const bufferView = json.images[json.textures[index].source]?.bufferView;
    if (bufferView === undefined) return null;
    return this.parser.getDependency('bufferView', bufferView).then(async (bytes) => {
      const key = digest(new Uint8Array(bytes));
      const texture = this.shown.get(key) ?? await this.parser.loadTexture(index);
      texture.userData.opaque ??= opaquePNG(new Uint8Array(bytes));
      this.textures.set(key, texture);
      return texture;
    });
  }
}

// opaquePNG says whether bytes are a PNG without alpha: greyscale or
// RGB, and no transparent colour (tRNS) before the image data.
function opaquePNG(b) {
  if (b.length < 33 || b[0] !== 0x89 || b[1] !== 0x50 || (b[25] !== 0 && b[25] !== 2)) return false;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let at = 8; at + 8 <= b.length;) {
    const type = String.fromCharCode(b[at + 4], b[at + 5], b[at + 6], b[at + 7]);
    if (type === 'tRNS') return false;
    if (type === 'IDAT') return true;
    at += 12 + dv.getUint32(at);
  }
  return false;
}

// digest is a 32-bit FNV-1a of bytes with their length: enough to tell
// the images of two builds apart.
function digest(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return `${bytes.length}.${(h >>> 0).toString(16)}`;
}
