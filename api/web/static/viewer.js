// Kiln's viewer page: hotspots that open on click, play buttons for the
// model's animations, and tracking events for the viewer's analytics.
const viewer = document.getElementById('viewer');
const status = document.getElementById('status');
const trackingURL = viewer.dataset.trackingUrl;

// A session is the visit: the id lives as long as the tab.
function sessionId() {
  let id = sessionStorage.getItem('kiln-session');
  if (!id) {
    const b = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    sessionStorage.setItem('kiln-session', id);
  }
  return id;
}

function track(key, payload) {
  if (!trackingURL) return;
  const body = JSON.stringify({ sessionId: sessionId(), event: { key, payload } });
  fetch(trackingURL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
    keepalive: true,
  }).catch(() => {});
}

track('view', { path: location.pathname });

// Camera moves come many a second while a visitor drags: one event in 5 s.
let lastInteraction = 0;
viewer.addEventListener('camera-change', (e) => {
  if (e.detail.source !== 'user-interaction') return;
  const now = Date.now();
  if (now - lastInteraction < 5000) return;
  lastInteraction = now;
  track('interaction', { kind: 'camera' });
});

setInterval(() => {
  if (document.visibilityState === 'visible') track('heartbeat');
}, 30000);

for (const h of viewer.querySelectorAll('.hotspot')) {
  h.addEventListener('click', () => {
    const open = h.getAttribute('aria-expanded') !== 'true';
    h.setAttribute('aria-expanded', String(open));
    h.querySelector('.hotspot-text').hidden = !open;
    if (open) track('interaction', { kind: 'annotation', slot: h.slot });
  });
}

viewer.addEventListener('load', () => {
  status.textContent = 'Drag to turn the model, scroll to zoom.';
  document.body.dataset.loaded = 'true';
  const names = viewer.availableAnimations || [];
  if (!names.length) return;
  const nav = document.getElementById('animations');
  nav.hidden = false;
  const play = (name) => {
    viewer.animationName = name;
    viewer.play();
    for (const b of nav.querySelectorAll('button')) b.classList.toggle('playing', b.dataset.name === name);
  };
  for (const name of names) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.name = name;
    b.textContent = name.replace(/_/g, ' ');
    b.addEventListener('click', () => play(name));
    nav.append(b);
  }
  const stop = document.createElement('button');
  stop.type = 'button';
  stop.textContent = 'pause';
  stop.addEventListener('click', () => viewer.pause());
  nav.append(stop);
});

viewer.addEventListener('error', () => {
  status.textContent = 'The model could not be loaded.';
  document.body.dataset.loaded = 'error';
});
