// The creator's first request, in a module that imports nothing but
// api.js: the page loads it ahead of creator.js, whose graph holds
// three.js (over a megabyte of script to fetch and compile, seconds on a
// loaded machine), so the first build is asked as soon as the page is
// parsed rather than once three.js has loaded (4.1 s after navigation at
// load 20, with a build the server had at hand).
import { api, retrying } from './api.js';

export const boot = JSON.parse(document.getElementById('kiln-boot').textContent || '{}');
export const q = new URLSearchParams(location.search);
export const flag = (name) => q.has(name) && q.get(name) !== 'false';
export const app = boot.app || { slug: 'default' };

// BODY are the body's sliders; a build carries their targets and those
// of the face feature whose dials are shown (FIRST_FEATURE at first).
export const BODY = ['body.height', 'body.build', 'body.age', 'body.muscle', 'body.weight', 'body.proportions'];
export const FIRST_FEATURE = 'nose';
export const slidersFor = (feature) => [...BODY, `face.${feature}.*`];

// startConfiguration is the app's default avatar, of the gender asked for.
export function startConfiguration() {
  const d = app.defaults || {};
  const c = JSON.parse(JSON.stringify(d.configuration || {}));
  const gender = q.get('gender') || d.gender;
  if (gender) (c.body ??= {}).type = /^f/.test(gender) ? 'feminine' : 'masculine';
  return c;
}

// first is the build of the start configuration, asked now, with what
// the creator matches it by; none when the page opens a saved avatar
// (?id=), whose configuration it reads first.
export const first = q.get('id') ? null : ask(startConfiguration(), slidersFor(FIRST_FEATURE));

function ask(configuration, sliders) {
  const glb = api.build(configuration, sliders);
  glb.catch(() => {}); // the creator reports a failure if it uses this one
  return { key: JSON.stringify([configuration, sliders]), glb, asked: performance.now() };
}

// schemaAsked is the configuration's schema, asked now too: its first
// face feature's dials give the first build's morph target count, which
// the view's warm-up needs before the build comes (View.warmKinds).
export const schemaAsked = retrying(api.schema);
schemaAsked.catch(() => {});
