// The frame API, as the leader's integrations speak it: every message a
// JSON string with source "readyplayerme" (and "kiln", naming us);
// subscriptions with the leader's wildcards; without frameApi, the bare
// model URL once on export, as the oldest integrations expect.
const SOURCE = 'readyplayerme';

// matches says whether a subscription pattern covers an event name:
// "*" is one dot-separated part, "**" any number of them.
export function matches(pattern, name) {
  const p = pattern.split('.'), n = name.split('.');
  const walk = (i, j) => {
    if (i === p.length) return j === n.length;
    if (p[i] === '**') {
      for (let k = j; k <= n.length; k++) if (walk(i + 1, k)) return true;
      return false;
    }
    if (j === n.length) return false;
    return (p[i] === '*' || p[i] === n[j]) && walk(i + 1, j + 1);
  };
  return walk(0, 0);
}

export class Frame {
  // targetOrigin is where messages go: the app's one allowed origin when
  // it has exactly one, else "*" (the leader's).
  constructor({ enabled, targetOrigin, onLogout, onSubscribe }) {
    this.enabled = enabled;
    this.targetOrigin = targetOrigin || '*';
    this.subscriptions = [];
    this.onLogout = onLogout;
    this.onSubscribe = onSubscribe;
    this.parent = window.parent !== window ? window.parent : null;
    window.addEventListener('message', (e) => this.receive(e));
  }

  post(message) {
    if (!this.parent) return;
    this.parent.postMessage(typeof message === 'string' ? message : JSON.stringify(message), this.targetOrigin);
  }

  // emit posts an event to the parent when it has subscribed to it.
  emit(eventName, data) {
    if (!this.enabled) return;
    if (!this.subscriptions.some((p) => matches(p, eventName))) return;
    this.post({ source: SOURCE, eventName, data, kiln: true });
  }

  ready() {
    if (this.enabled) this.post({ source: SOURCE, eventName: 'v1.frame.ready', data: {}, kiln: true });
  }

  receive(e) {
    if (!this.enabled || e.source !== this.parent) return;
    let msg = e.data;
    if (typeof msg === 'string') {
      try { msg = JSON.parse(msg); } catch { return; }
    }
    if (!msg || msg.target !== SOURCE) return;
    if (msg.type === 'subscribe' && typeof msg.eventName === 'string') {
      if (!this.subscriptions.includes(msg.eventName)) this.subscriptions.push(msg.eventName);
      this.post({ source: SOURCE, eventName: 'v1.subscription.created', correlationId: msg.correlationId ?? null,
        data: { eventName: msg.eventName }, statusCode: 201, kiln: true });
      this.onSubscribe?.();
    } else if (msg.type === 'unsubscribe') {
      this.subscriptions = this.subscriptions.filter((p) => p !== msg.eventName);
    } else if (msg.type === 'query' && msg.eventName === 'v1.user.logout') {
      this.onLogout?.();
      this.post({ source: SOURCE, type: 'queryResponse', eventName: 'v1.user.logout', correlationId: msg.correlationId ?? null,
        data: {}, statusCode: 200, kiln: true });
    }
  }

  // exported tells the parent about a saved avatar: the frame API's two
  // events, or the bare URL without it.
  exported({ url, avatarId, userId, metadata }) {
    if (!this.enabled) {
      this.post(url);
      return;
    }
    this.emit('v1.avatar.exported', { url, avatarId, userId });
    this.emit('v2.avatar.exported', { url, avatarId, userId, metadata });
  }
}
