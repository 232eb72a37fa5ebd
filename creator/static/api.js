// The creator's calls to Kiln: same origin, no API key; a guest user's
// token where the call needs one.
async function call(method, path, { body, token, raw, signal, headers: extra } = {}) {
  const headers = { ...extra };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  if (!res.ok) {
    let msg = `${res.status}`;
    try { const j = await res.json(); msg = j.error?.message || j.message || msg; } catch { /* not JSON */ }
    const err = new Error(msg);
    err.status = res.status;
    throw err;
  }
  if (raw) return res.arrayBuffer();
  const j = await res.json();
  return j.data;
}

// session names this page load to Kiln (Kiln-Creator-Session): a newer
// whole build of the page replaces its older one on the server, and two
// tabs behind one address and browser do not replace each other's.
// getRandomValues, since randomUUID needs a secure context and a creator
// on a LAN host is served over plain HTTP.
const session = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

export const api = {
  build: (configuration, sliders, signal) => call('POST', '/creator/builds', { body: { configuration, sliders }, raw: true, signal, headers: { 'Kiln-Creator-Session': session } }),
  part: (configuration, part, standOn, signal) => call('POST', '/creator/parts', { body: { configuration, part, standOn }, raw: true, signal }),
  palettes: () => call('GET', '/creator/palettes'),
  random: () => call('GET', '/creator/random'),
  schema: () => fetch('/avatar/schema.json').then((r) => {
    if (r.ok) return r.json();
    const err = new Error(`${r.status}`);
    err.status = r.status;
    throw err;
  }),
  catalog: (app) => call('GET', `/creator/catalog?app=${encodeURIComponent(app)}`),
  animations: () => call('GET', '/animations'),
  createUser: (app) => call('POST', '/creator/users', { body: { app } }),
  me: (token) => call('GET', '/creator/users/me', { token }),
  avatar: (id, token) => call('GET', `/creator/avatars/${encodeURIComponent(id)}`, { token }),
  createAvatar: (configuration, token) => call('POST', '/creator/avatars', { body: configuration, token }),
  updateAvatar: (id, configuration, token) => call('PUT', `/creator/avatars/${encodeURIComponent(id)}`, { body: configuration, token }),
};

// retrying is fn's answer, asked again after 1, 2 and 4 s while Kiln
// answers that it is busy (502, 503, 504) or the connection fails: the
// page's start reads the schema, palettes and catalogue once, and a 503
// from a server starting under load (its Redis slow to answer) left a
// page that never built its avatar.
export async function retrying(fn) {
  for (let wait = 1; ; wait *= 2) {
    try {
      return await fn();
    } catch (e) {
      const transient = e instanceof TypeError || [502, 503, 504].includes(e.status);
      if (!transient || wait > 4) throw e;
      await new Promise((r) => setTimeout(r, wait * 1000));
    }
  }
}
