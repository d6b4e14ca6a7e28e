// js/live.js, the live seat map's stream: a snapshot, then a delta a version; a replayed delta is
// skipped, a gap starts again from a snapshot, a tab hidden for long or a machine that slept resyncs,
// the network's loss is said at once. Run against an EventSource stand-in playing the server, fed with
// the encodings the Swift engine wrote (Vectors/codec, WebCodecVectorsTests), so the two never drift.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const vectors = JSON.parse(readFileSync(new URL('./Vectors/codec/availability.json', import.meta.url), 'utf8'));
// A map at version 2 and the delta that takes it to 3, as the engine encoded them.
const second = vectors.availabilities.find(a => a.delta && a.changes.length > 2);
const [from, to] = [Number(second.from), Number(second.to)];

/// The browser around the stream: listeners by event, the page's visibility, the network.
const listeners = { document: {}, window: {} };
const on = target => ({
  addEventListener: (name, f) => { (listeners[target][name] ??= []).push(f); },
  removeEventListener: (name, f) => { listeners[target][name] = (listeners[target][name] ?? []).filter(g => g !== f); },
});
const fire = (target, name) => { for (const f of listeners[target][name] ?? []) f(); };
globalThis.document = { visibilityState: 'visible', ...on('document') };
globalThis.window = on('window');
Object.defineProperty(globalThis, 'navigator', { value: { onLine: true }, configurable: true });

/// Every stream the page opened; the server sends on the latest.
const streams = [];
class FakeEventSource {
  static CLOSED = 2;
  constructor(url) { this.url = url; this.readyState = 1; this.handlers = {}; streams.push(this); }
  addEventListener(name, f) { (this.handlers[name] ??= []).push(f); }
  send(name, data) { for (const f of this.handlers[name] ?? []) f({ data }); }
  close() { this.readyState = FakeEventSource.CLOSED; }
}
globalThis.EventSource = FakeEventSource;

const { LiveAvailability } = await import('../../Sources/SeatServer/Web/Site/js/live.js');

/// Each live map made is closed after its test, passed or failed (its watchdog timer would keep Node up).
const made = [];
test.afterEach(() => { for (const l of made.splice(0)) l.close(); });

function live() {
  const said = { snapshots: [], deltas: [], states: [], shows: [] };
  const l = new LiveAvailability('show 1', {
    onSnapshot: s => said.snapshots.push(s), onDelta: d => said.deltas.push(d), onState: s => said.states.push(s), onShow: s => said.shows.push(s),
  });
  made.push(l);
  return { l, said, stream: () => streams.at(-1) };
}

test('a snapshot, then each delta that continues it; a replayed delta is skipped', () => {
  const { l, said, stream } = live();
  assert.equal(stream().url, '/v1/shows/show%201/events', 'the show id is escaped in the URL');
  stream().send('open');
  stream().send('snapshot', second.encoded);
  assert.equal(said.snapshots.length, 1);
  assert.equal(said.snapshots[0].version, from);
  assert.equal(l.version, from);
  stream().send('seats', second.delta);
  assert.equal(said.deltas.length, 1);
  assert.deepEqual(said.deltas[0].changes, second.changes, 'the changes as the engine wrote them');
  assert.equal(l.version, to);
  stream().send('seats', second.delta);  // the server's replay after a reconnect
  assert.equal(said.deltas.length, 1, 'already applied');
  assert.deepEqual(said.states, ['live']);
  l.close();
});

test('a gap in the versions starts again from a snapshot on a new stream', () => {
  const { l, said, stream } = live();
  stream().send('snapshot', second.encoded);
  const first = stream();
  stream().send('seats', `skd1;${to + 4};${to + 5};3h`);
  assert.notEqual(stream(), first, 'a new stream');
  assert.equal(first.readyState, FakeEventSource.CLOSED, 'the old one closed');
  assert.equal(said.deltas.length, 0, 'nothing applied across the gap');
  stream().send('reset', second.encoded);
  assert.equal(said.snapshots.length, 2);
  l.close();
});

test('the network lost is said at once; back, the map resyncs from a snapshot', () => {
  const { l, said, stream } = live();
  stream().send('snapshot', second.encoded);
  const first = stream();
  globalThis.navigator.onLine = false;
  fire('window', 'offline');
  assert.equal(said.states.at(-1), 'offline');
  first.send('error');
  assert.equal(said.states.at(-1), 'offline', 'an error while offline stays offline');
  globalThis.navigator.onLine = true;
  fire('window', 'online');
  assert.equal(said.states.at(-1), 'reconnecting');
  assert.notEqual(stream(), first);
  assert.equal(l.version, -1, 'the next snapshot is taken whole');
  l.close();
});

test('a tab hidden for over 30 s resyncs when shown; a short glance does not', () => {
  const { l, stream } = live();
  stream().send('snapshot', second.encoded);
  const first = stream();
  document.visibilityState = 'hidden';
  fire('document', 'visibilitychange');
  document.visibilityState = 'visible';
  fire('document', 'visibilitychange');
  assert.equal(stream(), first, 'shown again at once: the same stream');
  document.visibilityState = 'hidden';
  fire('document', 'visibilitychange');
  l.hiddenAt -= 31_000;
  document.visibilityState = 'visible';
  fire('document', 'visibilitychange');
  assert.notEqual(stream(), first, 'hidden for long: a fresh stream');
  l.close();
});

test('a changed show is handed on; closing stops listening', () => {
  const { l, said, stream } = live();
  stream().send('show', JSON.stringify({ id: 'show 1', onSale: false }));
  assert.deepEqual(said.shows, [{ id: 'show 1', onSale: false }]);
  const before = (listeners.document.visibilitychange ?? []).length;
  l.close();
  assert.equal(stream().readyState, FakeEventSource.CLOSED);
  assert.equal((listeners.document.visibilitychange ?? []).length, before - 1, 'its page listener removed');
});
