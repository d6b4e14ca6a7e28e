// @ts-check
// The Pay step (#52). With money taken online the buyer's Confirm becomes Pay: the buyer picks WeChat Pay
// or Alipay, the server makes the payment and keeps the seats for its window (the hold is `paying`), and
// the page shows the provider's QR code on a desktop or sends a phone to the provider's own page (a phone
// cannot scan its own screen), counting the window down. The receipt comes only when the server says
// sold: the show's event stream turning the seats sold wakes the page, and the hold's own resource
// confirms it (a check every 5 s covers a stream that dropped).

import { api, ApiProblem, serverNow } from './api.js';
import { CardForm } from './card.js';
import { pw } from './pay-words.js';
import { $, announce, el } from './ui.js';

/** The Pay button. @returns {HTMLButtonElement} */
const payButton = () => /** @type {HTMLButtonElement} */ ($('pay-go'));

/**
 * @typedef {{ provider: string, methods: string[], testMoney: boolean, publishableKey?: string, script?: string }} PaymentOption
 * @typedef {{ id: string, provider: string, state: string, amount: string, currency: string, expiresAt: string,
 *   orderRef?: string, codeUrl?: string, qrCode?: string, redirectUrl?: string, testPayUrl?: string }} Payment
 * @typedef {{ title: string, when: string, seats: string, total: string }} Summary
 * @typedef {Payment & { token: string, method: string, summary: Summary }} KeptPayment
 */

/// The order the providers are offered in: China's two wallets first (Maoyan's order), then a card.
const ORDER = ['wechatpay', 'alipay', 'stripe'];

/**
 * The way a provider is paid on this device: a phone goes to the provider's page (WeChat Pay H5, Alipay
 * wap), a desktop shows the QR code (WeChat Pay Native, Alipay precreate); the option's first method
 * when the server does not offer that one.
 * @param {PaymentOption} option @param {boolean} phone
 */
export function methodFor(option, phone) {
  const want = { wechatpay: phone ? 'h5' : 'native', alipay: phone ? 'wap' : 'qr', stripe: 'card' }[option.provider];
  return want && option.methods.includes(want) ? want : option.methods[0];
}

/**
 * The options the page offers, in its order: a card only where the server gives Stripe.js's key (else
 * the card is the operator's own page's to take).
 * @param {PaymentOption[]} options
 */
export const offered = options =>
  options.filter(o => o.provider !== 'stripe' || (o.publishableKey && o.script)).sort((a, b) => ORDER.indexOf(a.provider) - ORDER.indexOf(b.provider));

/** Milliseconds as "mm:ss", never below zero. @param {number} ms */
export function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * What a hold's resource (or its refusal) says of its payment: `paid`, `paying` or `ended`; null when
 * it cannot be told (offline, the server busy).
 * @param {() => Promise<{ state: string }>} read
 */
export async function paymentState(read) {
  try {
    const hold = await read();
    return hold.state === 'confirmed' ? 'paid' : hold.state === 'paying' || hold.state === 'active' ? 'paying' : 'ended';
  } catch (error) {
    if (!(error instanceof ApiProblem)) return null;
    if (error.problem?.type === '/problems/hold-confirmed') return 'paid';
    return error.status === 410 || error.status === 404 ? 'ended' : null;
  }
}

/// A payment in progress is kept per show (the provider's page sends a phone away and back again).
const keyOf = showId => `seatkit.payment.${showId}`;
/** @param {string} showId @returns {KeptPayment | null} */
export function keptPayment(showId) {
  try { return JSON.parse(localStorage.getItem(keyOf(showId)) ?? 'null'); } catch { return null; }
}
function keep(showId, value) {
  try { if (value) localStorage.setItem(keyOf(showId), JSON.stringify(value)); else localStorage.removeItem(keyOf(showId)); } catch { /* no storage */ }
}

export class PayPage {
  /**
   * @param {{ showId: string, session: any, options: PaymentOption[], phone: () => boolean,
   *   summary: () => Summary,
   *   onPaid: (done: { orderRef: string, token: string }, summary: Summary) => void, onBack: () => void }} config
   */
  constructor(config) {
    this.showId = config.showId; this.session = config.session; this.phone = config.phone; this.summary = config.summary;
    this.onPaid = config.onPaid; this.onBack = config.onBack;
    this.options = offered(config.options);
    this.checking = false;
    /** @type {ReturnType<typeof setInterval> | null} */ this.poll = null;
    /** @type {ReturnType<typeof setInterval> | null} */ this.timer = null;
    /** @type {KeptPayment | null} */ this.payment = null;
    /** @type {CardForm | null} */ this.card = null;
    $('pay-back').addEventListener('click', () => { this.close(); this.onBack(); });
    $('pay-go').addEventListener('click', () => this.pay());
  }

  get open() { return !$('pay-page').hidden; }

  /** Shows the step: the choice, or the payment already under way for this hold (back from a provider's page, a reload). */
  show() {
    // A payment kept for this hold, or for a hold already gone (sold while the buyer was on the
    // provider's page): waited for. One kept for another hold is stale.
    const kept = keptPayment(this.showId), live = this.session.hold?.token;
    const resume = kept && (!live || kept.token === live) ? kept : null;
    if (kept && !resume) keep(this.showId, null);
    $('show-page').hidden = true;
    $('pay-page').hidden = false;
    window.scrollTo(0, 0);
    const s = resume?.summary ?? this.summary();
    $('pay-title').textContent = pw('title');
    $('pay-summary').replaceChildren(
      el('p', { class: 'pay-film' }, s.title), el('p', { class: 'pay-when' }, s.when),
      el('p', { class: 'pay-seats' }, `${pw('seats')} ${s.seats}`), el('p', { class: 'pay-total' }, pw('total'), ' ', el('strong', {}, s.total)));
    $('pay-test').textContent = pw('testMoney');
    $('pay-test').hidden = !this.options.some(o => o.testMoney);
    if (resume) { this.wait(resume, Boolean(resume.redirectUrl)); return; }
    this.choose(s.total);
  }

  /** The providers as a radio group, the first chosen; one button pays. @param {string} total */
  choose(total) {
    $('pay-choice').hidden = false; $('pay-wait').hidden = true; $('pay-back').hidden = false;
    $('pay-legend').textContent = pw('payWith');
    $('pay-options').replaceChildren(...this.options.map((o, k) => el('label', { class: 'pay-option', 'data-provider': o.provider },
      el('input', { type: 'radio', name: 'provider', value: o.provider, checked: k === 0 }),
      el('span', { class: 'pay-mark', 'aria-hidden': 'true' }, { wechatpay: '微', alipay: '支', stripe: '卡' }[o.provider] ?? ''),
      el('span', { class: 'pay-name' }, pw(o.provider), el('small', {}, pw(`${o.provider}Note`))))));
    $('pay-go').textContent = pw('payAmount', total);
    payButton().disabled = false;
    $('pay-back').textContent = pw('back');
    this.say('');
    this.tick();
    this.timer ??= setInterval(() => this.tick(), 1000);
    /** @type {HTMLInputElement | null} */ (document.querySelector('#pay-options input:checked'))?.focus();
  }

  async pay() {
    const chosen = /** @type {HTMLInputElement | null} */ (document.querySelector('#pay-options input:checked'))?.value;
    const option = this.options.find(o => o.provider === chosen);
    if (!option) { this.say(pw('choose')); return; }
    const method = methodFor(option, this.phone());
    payButton().disabled = true;
    const token = this.session.hold?.token, summary = this.summary();
    const result = await this.session.checkout(option.provider, method);
    if (!result.payment) { payButton().disabled = false; this.refused(result.problem); return; }
    /** @type {KeptPayment} */
    const kept = { ...result.payment, token, method, summary };
    keep(this.showId, kept);
    // A phone (or Alipay's desktop cashier) pays on the provider's page, which sends it back here.
    if (kept.redirectUrl) { location.assign(kept.redirectUrl); return; }
    this.wait(kept, false);
  }

  /** Why the payment could not be made, in words. @param {any} problem */
  refused(problem) {
    const type = problem instanceof ApiProblem ? problem.problem?.type ?? '' : '';
    if (type === '/problems/hold-paying') {
      const other = /with (\w+)/.exec(problem.problem.detail ?? '')?.[1];
      this.say(pw('other', other ? pw(other) : ''));
    } else if (type === '/problems/provider-unavailable' || !(problem instanceof ApiProblem)) this.say(pw('unavailable'));
    else if (problem.status === 410) this.ended();
    else this.say(pw('refused', problem.problem?.detail ?? problem.message));
  }

  /**
   * Waits for the server to say sold: the QR code to scan, or (back from the provider's page) the way to
   * open it again; the countdown; the test cashier on a test server.
   * @param {KeptPayment} payment @param {boolean} returned
   */
  wait(payment, returned) {
    this.payment = payment;
    $('pay-choice').hidden = true; $('pay-wait').hidden = false; $('pay-back').hidden = true;
    const code = payment.codeUrl ?? payment.qrCode;
    const name = pw(payment.provider);
    $('pay-qr').hidden = !code;
    $('pay-scan').hidden = !code;
    if (code) {
      $('pay-qr').setAttribute('src', `/v1/payments/qr.svg?text=${encodeURIComponent(code)}`);
      $('pay-qr').setAttribute('alt', pw('qrAlt', name));
      $('pay-scan').textContent = pw('scan')[payment.provider] ?? '';
    }
    $('pay-provider').textContent = `${name} · ${payment.orderRef ?? ''}`;
    $('pay-provider').dataset.provider = payment.provider;
    $('pay-status').textContent = returned ? pw('returned') : payment.provider === 'stripe' ? pw('cardEnter') : pw('waiting');
    this.card?.close();
    this.card = null;
    const stripe = this.options.find(o => o.provider === 'stripe');
    if (payment.provider === 'stripe' && stripe?.publishableKey && stripe.script) {
      this.card = new CardForm({
        token: payment.token, total: payment.summary.total, publishableKey: stripe.publishableKey, script: stripe.script, say: text => this.say(text), onSent: () => this.check(),
      });
      this.card.open();
    }
    const again = $('pay-again');
    again.hidden = !payment.redirectUrl;
    if (payment.redirectUrl) { again.setAttribute('href', payment.redirectUrl); again.textContent = pw('openAgain'); }
    const test = $('pay-test-link');
    test.hidden = !payment.testPayUrl || Boolean(payment.redirectUrl);
    if (payment.testPayUrl) { test.setAttribute('href', payment.testPayUrl); test.textContent = pw('testPay'); }
    this.say('');
    this.tick();
    this.timer ??= setInterval(() => this.tick(), 1000);
    if (this.poll) clearInterval(this.poll);
    this.poll = setInterval(() => this.check(), 5000);
    this.check();
  }

  /// The countdown of the payment window (before a payment: the hold's own); at 0 the server is asked.
  tick() {
    const ends = this.payment ? Date.parse(this.payment.expiresAt) : this.session.hold ? Date.parse(this.session.hold.expiresAt) : NaN;
    if (Number.isNaN(ends)) return;
    const left = ends - serverNow();
    $('pay-countdown').textContent = pw('left', clock(left));
    if (left < 60_000 && left > 59_000) announce(pw('oneMinute'));
    if (left <= 0 && this.payment && !this.checking) { $('pay-status').textContent = pw('checking'); this.check(); }
  }

  /// Asks the server what became of the payment (after an event of the show, every 5 s, at the end).
  async check() {
    const payment = this.payment;
    if (!payment || this.checking || !this.open) return;
    this.checking = true;
    try {
      const state = await paymentState(() => api.hold(payment.token));
      if (state === 'paid') this.paid(payment);
      else if (state === 'ended') this.ended();
    } finally { this.checking = false; }
  }

  /** @param {KeptPayment} payment */
  paid(payment) {
    this.stop();
    keep(this.showId, null);
    $('pay-status').textContent = pw('paid');
    $('pay-page').hidden = true;
    this.onPaid({ orderRef: payment.orderRef ?? '', token: payment.token }, payment.summary);
  }

  ended() {
    this.stop();
    keep(this.showId, null);
    $('pay-choice').hidden = true; $('pay-wait').hidden = true; $('pay-back').hidden = false;
    $('pay-back').textContent = pw('back');
    $('pay-countdown').textContent = '';
    this.say(pw('ended'));
  }

  /** @param {string} text */
  say(text) { $('pay-message').textContent = text; $('pay-message').hidden = !text; }

  stop() { this.card?.close(); this.card = null; if (this.timer) clearInterval(this.timer); if (this.poll) clearInterval(this.poll); this.timer = null; this.poll = null; this.payment = null; }

  close() { this.stop(); $('pay-page').hidden = true; $('show-page').hidden = false; }
}
