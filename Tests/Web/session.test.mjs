// js/session.js, the buyer's hold in the browser (SeatSync's SeatSession): a tap shows at once and the
// request follows; taps made while one is out go together in the next; a refusal rolls back to what the
// server holds and says why; an ended hold clears; the hold is shared with the other tabs. Run against a
// fetch stand-in playing the server, and an in-memory localStorage.

import { test } from 'node:test';
import assert from 'node:assert/strict';

const store = new Map();
globalThis.localStorage = {
  getItem: k => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, String(v)), removeItem: k => store.delete(k),
};
globalThis.addEventListener = () => {};
globalThis.removeEventListener = () => {};
const { HoldSession } = await import('../../Sources/SeatServer/Web/Site/js/session.js');

const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const later = new Date(Date.now() + 600_000).toISOString();

/// A server that holds seats for one token and refuses those in `taken`; every request recorded.
function server({ taken = [] } = {}) {
  const calls = [];
  let seats = [];
  globalThis.fetch = async (url, init) => {
    const body = init.body ? JSON.parse(init.body) : null;
    calls.push({ url, method: init.method, body });
    await new Promise(r => setTimeout(r, 5));
    const refused = [...(body?.seats ?? []), ...(body?.add ?? [])].filter(s => taken.includes(s));
    if (refused.length) return json(409, { type: '/problems/seats-taken', detail: `seat ${refused[0]} is taken`, conflicts: refused });
    if (url.endsWith('/holds') && init.method === 'POST') seats = body.seats;
    else if (url.endsWith('/seats')) seats = [...seats.filter(s => !body.remove.includes(s)), ...body.add];
    else if (init.method === 'DELETE') return new Response(null, { status: 204 });
    return json(url.endsWith('/holds') ? 201 : 200, { token: 'tok', state: 'active', seats: [...seats], expiresAt: later, version: calls.length });
  };
  return calls;
}

const sessions = [];
test.after(() => { for (const s of sessions) s.stop(); });

function session(show = 'show') {
  const said = { problems: [], expired: 0, changes: 0 };
  const s = new HoldSession(show, {
    onChange: () => { said.changes += 1; }, onProblem: (e, attempted) => said.problems.push([e.status, attempted]), onHeld: () => {},
    onExpired: () => { said.expired += 1; },
  });
  sessions.push(s);
  return { s, said };
}

test('a tap shows at once; taps made while a request is out are sent together in the next', async () => {
  const calls = server();
  const { s } = session('a');
  const first = s.toggle('7-1');
  assert.deepEqual([...s.desired], ['7-1'], 'selected before the server answers');
  assert.equal(s.held.size, 0);
  await new Promise(r => setTimeout(r, 1));  // the hold's request is out now
  s.toggle('7-2');
  s.toggle('7-3');
  await first;
  await s.chain;
  assert.deepEqual([...s.held].sort(), ['7-1', '7-2', '7-3']);
  assert.equal(calls.length, 2, 'one hold, then one change for the two taps made meanwhile');
  assert.deepEqual(calls[1].body, { add: ['7-2', '7-3'], remove: [] });
  s.stop();
});

test('a refusal rolls back to what the server holds and says which seats', async () => {
  server({ taken: ['8-5'] });
  const { s, said } = session('b');
  await s.toggle('8-4');
  await s.toggle('8-5');
  assert.deepEqual([...s.desired], ['8-4'], 'back to the server’s truth');
  assert.deepEqual(said.problems, [[409, ['8-5']]]);
  s.stop();
});

test('the hold is shared with the other tabs, and forgotten when released', async () => {
  server();
  const { s } = session('c');
  await s.toggle('9-1');
  assert.deepEqual(JSON.parse(localStorage.getItem('seatkit.hold.c')).seats, ['9-1']);
  await s.release();
  assert.equal(localStorage.getItem('seatkit.hold.c'), null);
  assert.equal(s.token, null);
  s.stop();
});

test('a hold the server says has ended clears the selection and says it expired', async () => {
  server();
  const { s, said } = session('d');
  await s.toggle('10-1');
  globalThis.fetch = async () => json(410, { type: '/problems/hold-expired', detail: 'the hold expired' });
  await s.toggle('10-2');
  assert.equal(said.expired, 1);
  assert.equal(s.desired.size, 0);
  assert.equal(s.token, null);
  s.stop();
});

test('a hold being paid for (paying) is still the buyer\'s: a tab takes it up, an ended one it drops', async () => {
  const { isLive } = await import('../../Sources/SeatServer/Web/Site/js/session.js');
  assert.deepEqual(['active', 'paying', 'confirmed', 'expired', 'released'].map(state => isLive({ state })), [true, true, false, false, false]);
  for (const [state, kept] of [['paying', true], ['expired', false]]) {
    globalThis.fetch = async () => json(200, { token: 'paid-tok', state, seats: ['9-1'], expiresAt: later, version: 3 });
    const key = `seatkit.hold.pay-${state}`;
    store.set(key, JSON.stringify({ token: 'paid-tok', seats: ['9-1'], version: 3 }));
    const { s } = session(`pay-${state}`);
    assert.equal(s.key, key);
    await s.adopt();
    assert.equal(s.token, kept ? 'paid-tok' : null, state);
    assert.deepEqual([...s.held], kept ? ['9-1'] : [], state);
  }
});

/// A server with a 5-place floor that chooses which places (the first free ones), as SeatKit's does by count.
function floorServer() {
  const calls = [];
  let seats = [];
  globalThis.fetch = async (url, init) => {
    const body = init.body ? JSON.parse(init.body) : null;
    calls.push({ url, method: init.method, body });
    await new Promise(r => setTimeout(r, 5));
    const places = () => seats.filter(s => s.startsWith('floor:'));
    const setFloor = want => {
      if (want === undefined) return true;
      if (want > 5) return false;
      const have = places();
      if (want < have.length) seats = seats.filter(s => !have.slice(want).includes(s));
      for (let k = 1; places().length < want; k++) if (!seats.includes(`floor:${k}`)) seats.push(`floor:${k}`);
      return true;
    };
    if (url.endsWith('/holds')) { seats = [...body.seats]; if (!setFloor(body.areas?.floor)) return json(409, { type: '/problems/area-full', detail: 'floor: 5 of 5 places free' }); }
    else if (url.endsWith('/seats')) {
      const before = seats;
      seats = [...seats.filter(s => !body.remove.includes(s)), ...body.add];
      if (!setFloor(body.areas?.floor)) { seats = before; return json(409, { type: '/problems/area-full', detail: 'floor: 5 of 5 places free' }); }
    }
    return json(url.endsWith('/holds') ? 201 : 200, { token: 'tok', state: 'active', seats: [...seats], expiresAt: later, version: calls.length });
  };
  return calls;
}

test('places are asked for by count and follow what the server chose; a refusal goes back to what is held', async () => {
  const calls = floorServer();
  const { s, said } = session('ga');
  s.areas = new Map([['floor', 'places']]);
  await s.setPlaces('floor', 2);
  assert.deepEqual(calls[0].body, { seats: [], wheelchair: false, areas: { floor: 2 } });
  assert.deepEqual([...s.held].sort(), ['floor:1', 'floor:2']);
  assert.equal(s.places('floor'), 2);
  assert.ok(s.settled, 'nothing left to send');
  // A seat and one place fewer, in one change; the chips (seats) never list places.
  s.toggle('A-1');
  await s.setPlaces('floor', 1);
  const change = calls.at(-1).body;
  assert.deepEqual(change.areas, { floor: 1 });
  assert.deepEqual(s.seatsOf(s.held), ['A-1']);
  assert.equal(s.placeCounts(s.held).get('floor'), 1);
  // More than the floor has: refused, back to what is held, and said.
  await s.setPlaces('floor', 9);
  assert.equal(s.places('floor'), 1, 'the stepper shows what is held again');
  assert.equal(said.problems.at(-1)[0], 409);
  // None of the floor: the seat kept.
  await s.setPlaces('floor', 0);
  assert.deepEqual([...s.held], ['A-1']);
  assert.equal(calls.at(-1).body.areas.floor, 0);
});
