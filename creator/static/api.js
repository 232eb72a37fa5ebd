// The creator's calls to Kiln: same origin, no API key; a guest user's
// token where the call needs one.
async function call(method, path, { body, token, raw, signal } = {}) {
  const headers = {};
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

export const api = {
  build: (configuration, sliders) => call('POST', '/creator/builds', { body: { configuration, sliders }, raw: true }),
  part: (configuration, part, standOn, signal) => call('POST', '/creator/parts', { body: { configuration, part, standOn }, raw: true, signal }),
  palettes: () => call('GET', '/creator/palettes'),
  random: () => call('GET', '/creator/random'),
  schema: () => fetch('/avatar/schema.json').then((r) => r.json()),
  catalog: (app) => call('GET', `/creator/catalog?app=${encodeURIComponent(app)}`),
  animations: () => call('GET', '/animations'),
  createUser: (app) => call('POST', '/creator/users', { body: { app } }),
  me: (token) => call('GET', '/creator/users/me', { token }),
  avatar: (id, token) => call('GET', `/creator/avatars/${encodeURIComponent(id)}`, { token }),
  createAvatar: (configuration, token) => call('POST', '/creator/avatars', { body: configuration, token }),
  updateAvatar: (id, configuration, token) => call('PUT', `/creator/avatars/${encodeURIComponent(id)}`, { body: configuration, token }),
};
