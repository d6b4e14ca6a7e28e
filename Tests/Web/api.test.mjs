// js/api.js, the pages' one way to the network: its retry (once, with the same idempotency key),
// problem documents thrown as ApiProblem, a 429's wait, a deadline, the server's clock. Run against a
// fetch stand-in that records what was sent and answers as the server would.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiProblem, api, request, serverNow } from '../../Sources/SeatServer/Web/Site/js/api.js';

/// A fetch that answers each call with the next of `answers` (a Response, an Error to throw, or a
/// function of (url, init) giving either), recording every call.
function stand(answers) {
  const calls = [];
  globalThis.fetch = async (url, init) => {
    calls.push({ url, init });
    let a = answers.shift();
    if (typeof a === 'function') a = await a(url, init);
    if (a instanceof Error) throw a;
    return a;
  };
  return calls;
}

const json = (status, body, headers = {}) =>
  new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

test('a hold is sent with an idempotency key, and a network failure is retried once with the same key', async () => {
  const calls = stand([new TypeError('network down'), json(201, { token: 't', seats: ['7-1'] })]);
  const hold = await api.createHold('show', ['7-1'], false);
  assert.equal(hold.token, 't');
  assert.equal(calls.length, 2);
  const [first, second] = calls.map(c => c.init.headers['Idempotency-Key']);
  assert.match(first, /^[0-9a-f]{32}$/);
  assert.equal(first, second, 'the retry is the same request');
  assert.deepEqual(JSON.parse(calls[1].init.body), { seats: ['7-1'], wheelchair: false });
  assert.equal(calls[0].url, '/v1/shows/show/holds');
});

test('a second failure is the caller’s, and calls that must not be repeated are not retried', async () => {
  stand([new TypeError('down'), new TypeError('still down')]);
  await assert.rejects(api.show('s'), /still down/);
  const calls = stand([new TypeError('down')]);
  await assert.rejects(api.release('tok'), /down/);
  assert.equal(calls.length, 1, 'a release is not sent twice');
});

test('a refusal is an ApiProblem with its document; a 429 says how long to wait', async () => {
  stand([json(409, { type: '/problems/seats-taken', title: 'Seats taken', detail: 'seat 7-1 is taken', conflicts: ['7-1'] })]);
  const refused = await api.changeHold('tok', ['7-1'], []).catch(e => e);
  assert.ok(refused instanceof ApiProblem);
  assert.equal(refused.status, 409);
  assert.equal(refused.message, 'seat 7-1 is taken');
  assert.deepEqual(refused.problem.conflicts, ['7-1']);
  stand([json(429, { title: 'Too many requests' }, { 'Retry-After': '3' })]);
  const slow = await api.show('s').catch(e => e);
  assert.equal(slow.problem.retryAfter, 3);
  // Not a problem document at all (a proxy's page): the status and its text still say what happened.
  stand([new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })]);
  const gateway = await api.show('s').catch(e => e);
  assert.equal(gateway.status, 502);
  assert.equal(gateway.message, 'Bad Gateway');
});

test('a call with a deadline is abandoned when the server does not answer in time', async () => {
  stand([(url, init) => new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(new Error('aborted'))))]);
  const started = Date.now();
  await assert.rejects(api.checkIn({ code: 'SK1X' }, { Authorization: 'Bearer key' }, 50), /aborted/);
  assert.ok(Date.now() - started < 1000, 'within the deadline, not the server’s');
  const calls = stand([json(200, { result: 'ok' })]);
  assert.equal((await api.checkIn({ code: 'SK1X' }, { Authorization: 'Bearer door-key' }, 3000)).result, 'ok');
  assert.equal(calls[0].init.headers.Authorization, 'Bearer door-key');
  // A person signed in by password: their session's cookie goes by itself, the CSRF token with the scan.
  const session = stand([json(200, { result: 'ok' })]);
  await api.checkIn({ code: 'SK1X' }, { 'X-CSRF-Token': 'c'.repeat(32) }, 3000);
  assert.equal(session[0].init.headers['X-CSRF-Token'], 'c'.repeat(32));
  assert.equal(session[0].init.headers.Authorization, undefined);
});

test('the server’s clock is taken from its Date header', async () => {
  const ahead = new Date(Date.now() + 3_600_000).toUTCString();
  stand([json(200, [], { Date: ahead })]);
  await api.shows();
  assert.ok(Math.abs(serverNow() - Date.now() - 3_600_000) < 2_000, `${serverNow() - Date.now()}`);
});

test('204 is null, text is text', async () => {
  stand([new Response(null, { status: 204 }), new Response('AQID', { status: 200 })]);
  assert.equal(await request('DELETE', '/v1/holds/x', { retry: false }), null);
  assert.equal(await api.availability('s'), 'AQID');
});
