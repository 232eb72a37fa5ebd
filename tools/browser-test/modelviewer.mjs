// Loads Kiln models with Google's <model-viewer> (the npm package, pinned
// here) in Debian's chromium, from a page on another origin, as an app
// written for the leader's avatars does: <model-viewer src="{id}.glb">,
// with ModelViewerElement.meshoptDecoderLocation naming the decoder
// script Kiln serves, so that meshopt downloads decode without a CDN, and
// ModelViewerElement.dracoDecoderLocation naming the folder of Google's
// Draco decoder Kiln serves (model-viewer's default is Google's CDN).
// Per model it reports whether model-viewer fired load or error, its
// materials and animations, and the share of its picture (toDataURL)
// unlike the commonest colour; and whether the page fetched the decoders.
// It prints one line of JSON; internal/app's TestModelViewerClient
// judges it.
//
//   node modelviewer.mjs DECODER_URL DRACO_FOLDER_URL MODEL_URL...
//
// Exits 1 with one line when the page fails.
import { join } from 'node:path';
import { main, modules, openPage } from './page.mjs';

const [decoder, draco, ...models] = process.argv.slice(2);
if (!decoder || !draco || !models.length) {
  console.error('usage: node modelviewer.mjs DECODER_URL DRACO_FOLDER_URL MODEL_URL...');
  process.exit(2);
}

const page = `<!doctype html><html><body style="margin:0">
<script>self.ModelViewerElement = { meshoptDecoderLocation: ${JSON.stringify(decoder)}, dracoDecoderLocation: ${JSON.stringify(draco)} };</script>
<script type="module" src="/model-viewer/dist/model-viewer.min.js"></script>
<script type="module">
const models = ${JSON.stringify(models)};
const out = { models: [] };
try {
  await customElements.whenDefined('model-viewer');
  for (const src of models) {
    const mv = document.createElement('model-viewer');
    mv.style.cssText = 'width:300px;height:300px;background:#fff';
    mv.setAttribute('loading', 'eager');
    const done = new Promise((ok) => {
      mv.addEventListener('load', () => ok(''), { once: true });
      mv.addEventListener('error', (e) => ok(String(e.detail && (e.detail.sourceError || e.detail.type) || 'error')), { once: true });
    });
    mv.src = src;
    document.body.appendChild(mv);
    const error = await done;
    const r = { src, loaded: !error, error };
    if (!error) {
      for (let i = 0; i < 100 && !mv.modelIsVisible; i++) await new Promise((ok) => setTimeout(ok, 100));
      for (let i = 0; i < 3; i++) await new Promise((ok) => requestAnimationFrame(ok));
      r.materials = mv.model ? mv.model.materials.map((m) => m.name) : [];
      r.animations = mv.availableAnimations;
      // The picture: the share of pixels unlike the commonest colour.
      const img = new Image();
      img.src = mv.toDataURL('image/png');
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      const px = g.getImageData(0, 0, c.width, c.height).data;
      const counts = new Map();
      for (let i = 0; i < px.length; i += 4) {
        const k = (px[i] >> 3) << 10 | (px[i + 1] >> 3) << 5 | px[i + 2] >> 3;
        counts.set(k, (counts.get(k) || 0) + 1);
      }
      r.covered = 1 - Math.max(...counts.values()) / (px.length / 4);
    }
    out.models.push(r);
    mv.remove();
  }
  out.decoderFetched = performance.getEntriesByType('resource').some((e) => e.name === ${JSON.stringify(decoder)});
  out.dracoFetched = performance.getEntriesByType('resource').some((e) => e.name.startsWith(${JSON.stringify(draco)}));
  window.result = out;
} catch (e) {
  window.result = { error: String(e && e.message || e) + ' ' + JSON.stringify(out) };
}
</script></body></html>`;

await main(() => openPage(page, { roots: { '/model-viewer/': join(modules, '@google', 'model-viewer') } }));
