// js/pay.js, the Pay step's rules: which way each provider is paid on a phone and a desktop, the order
// the providers are offered in, the countdown's text, and what a hold's resource (or its refusal) says
// of its payment. And js/session.js's checkout: the seats pushed first, one order reference kept across
// tries, the hold `paying` after it. Run against a fetch stand-in playing the server.

import { test } from 'node:test';
import assert from 'node:assert/strict';

const store = new Map();
globalThis.localStorage = {
  getItem: k => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, String(v)), removeItem: k => store.delete(k),
};
globalThis.addEventListener = () => {};
globalThis.removeEventListener = () => {};
globalThis.location = { search: '' };
Object.defineProperty(globalThis, 'navigator', { value: { language: 'zh-CN', onLine: true }, configurable: true });
const { methodFor, offered, clock, paymentState } = await import('../../Sources/SeatServer/Web/Site/js/pay.js');
const { ApiProblem } = await import('../../Sources/SeatServer/Web/Site/js/api.js');
const { HoldSession } = await import('../../Sources/SeatServer/Web/Site/js/session.js');

// What `GET /v1/payments` answers with both wallets online (ChinaPaymentTests holds the server to it).
const wechat = { provider: 'wechatpay', methods: ['native', 'h5', 'jsapi'], testMoney: false };
const alipay = { provider: 'alipay', methods: ['qr', 'page', 'wap'], testMoney: false };
const card = { provider: 'stripe', methods: ['card'], testMoney: true, publishableKey: 'pk_test_1', script: 'https://js.stripe.com/v3/' };

test('a phone goes to the provider’s page, a desktop shows the QR code', () => {
  assert.equal(methodFor(wechat, true), 'h5');
  assert.equal(methodFor(wechat, false), 'native');
  assert.equal(methodFor(alipay, true), 'wap');
  assert.equal(methodFor(alipay, false), 'qr');
  assert.equal(methodFor(card, true), 'card');
  // A server that offers fewer ways: its first.
  assert.equal(methodFor({ provider: 'wechatpay', methods: ['native'], testMoney: false }, true), 'native');
});

test('the wallets are offered first, then a card', () => {
  assert.deepEqual(offered([card, alipay, wechat]).map(o => o.provider), ['wechatpay', 'alipay', 'stripe']);
});

test('a card is offered only where the server gives Stripe.js its key', () => {
  const { publishableKey, script, ...keyless } = card;
  assert.ok(publishableKey && script);
  assert.deepEqual(offered([keyless, wechat]).map(o => o.provider), ['wechatpay']);
  assert.deepEqual(offered([{ ...card, script: undefined }]).map(o => o.provider), []);
});

test('what a card payment’s answer tells the page to do', async () => {
  const { cardOutcome } = await import('../../Sources/SeatServer/Web/Site/js/card.js');
  const problem = (status, type, detail) => new ApiProblem(status, { type, status, title: '', detail });
  assert.equal(cardOutcome({ state: 'succeeded' }, null).next, 'check');
  assert.equal(cardOutcome({ state: 'processing' }, null).next, 'check');
  const action = cardOutcome({ state: 'requires_action', clientSecret: 'pi_1_secret_2' }, null);
  assert.deepEqual([action.next, action.secret], ['action', 'pi_1_secret_2']);
  const declined = cardOutcome(null, problem(402, '/problems/card-declined', 'Your card was declined.'));
  assert.equal(declined.next, 'retry');
  assert.match(declined.words, /Your card was declined\./);
  assert.equal(cardOutcome(null, problem(503, '/problems/provider-unavailable')).next, 'retry');
  assert.equal(cardOutcome(null, new TypeError('offline')).next, 'retry');
  // The hold sold meanwhile (the webhook was faster) or its window over: the server is asked.
  assert.equal(cardOutcome(null, problem(409, '/problems/hold-confirmed')).next, 'check');
  assert.equal(cardOutcome(null, problem(410, '/problems/hold-expired')).next, 'check');
});

test('the countdown is minutes and seconds, never below zero', () => {
  assert.equal(clock(15 * 60_000), '15:00');
  assert.equal(clock(61_999), '01:01');
  assert.equal(clock(-5000), '00:00');
});

test('what a hold says of its payment', async () => {
  const refusal = (status, type) => async () => { throw new ApiProblem(status, { type, status, title: '' }); };
  assert.equal(await paymentState(async () => ({ state: 'paying' })), 'paying');
  assert.equal(await paymentState(async () => ({ state: 'confirmed' })), 'paid');
  assert.equal(await paymentState(async () => ({ state: 'expired' })), 'ended');
  assert.equal(await paymentState(refusal(410, '/problems/hold-confirmed')), 'paid');
  assert.equal(await paymentState(refusal(410, '/problems/hold-expired')), 'ended');
  assert.equal(await paymentState(refusal(404, '/problems/not-found')), 'ended');
  assert.equal(await paymentState(refusal(503, '/problems/store-unavailable')), null, 'unknown: asked again later');
  assert.equal(await paymentState(async () => { throw new TypeError('offline'); }), null);
});

test('a checkout keeps one order reference across tries and leaves the hold paying', async () => {
  const later = new Date(Date.now() + 600_000).toISOString();
  const bodies = [];
  let tries = 0;
  globalThis.fetch = async (url, init) => {
    const body = init.body ? JSON.parse(init.body) : null;
    const answer = (status, json) => new Response(JSON.stringify(json), { status, headers: { 'Content-Type': 'application/json' } });
    if (url.endsWith('/holds')) return answer(201, { token: 'tok', state: 'active', seats: body.seats, expiresAt: later });
    bodies.push(body);
    // The provider unreachable the first time, then the payment.
    if (tries++ === 0) return answer(503, { type: '/problems/provider-unavailable', status: 503, title: 'Payment provider unavailable' });
    return answer(201, { payment: { id: 'pay_1', provider: 'wechatpay', state: 'pending', amount: '58.00', currency: 'CNY', expiresAt: later },
                         hold: { token: 'tok', state: 'paying', seats: ['7-1'], expiresAt: later } });
  };
  const s = new HoldSession('pay', { onChange: () => {}, onProblem: () => {}, onHeld: () => {}, onExpired: () => {} });
  s.toggle('7-1');
  const first = await s.checkout('wechatpay', 'native');
  assert.equal(first.problem?.status, 503);
  assert.equal(s.hold.state, 'active', 'still the buyer’s to change');
  const second = await s.checkout('wechatpay', 'native');
  assert.equal(second.payment.id, 'pay_1');
  assert.equal(s.hold.state, 'paying');
  assert.equal(s.token, 'tok', 'a paying hold is still the buyer’s');
  assert.match(bodies[0].orderRef, /^WEB-[A-Z0-9]+$/);
  assert.equal(bodies[1].orderRef, bodies[0].orderRef, 'the same order, however often tried');
  assert.deepEqual({ ...bodies[1], orderRef: undefined }, { provider: 'wechatpay', method: 'native', orderRef: undefined });
  s.stop();
});
