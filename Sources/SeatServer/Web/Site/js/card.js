// @ts-check
// The card form of the Pay step (#52), for a server that takes cards with Stripe: Stripe.js draws the
// card fields (in Stripe's own frames: the card never touches this page's code or the server), the
// card is set up into a SetupIntent, and the server charges the hold's payment with it for the amount
// the checkout fixed. A card that asks for 3-D Secure is finished here with Stripe.js; the receipt, as
// for every payment, waits for the server to say sold.

import { api, ApiProblem } from './api.js';
import { lang } from './i18n.js';
import { pw } from './pay-words.js';
import { $ } from './ui.js';

/** @type {Map<string, Promise<any>>} Stripe.js, loaded once per address. */
const loaded = new Map();

/**
 * Stripe.js from `src` (Stripe's own, or a test server's copy), once; its `Stripe` function.
 * @param {string} src @returns {Promise<any>}
 */
export function loadStripe(src) {
  const w = /** @type {any} */ (window);
  if (!loaded.has(src)) {
    loaded.set(src, new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.onload = () => (typeof w.Stripe === 'function' ? resolve(w.Stripe) : reject(new Error('Stripe.js did not load')));
      script.onerror = () => { loaded.delete(src); reject(new Error('Stripe.js could not be reached')); };
      document.head.append(script);
    }));
  }
  return /** @type {Promise<any>} */ (loaded.get(src));
}

/**
 * What a card payment's answer and Stripe.js's results mean for the page: `paid` (wait for sold),
 * `retry` with the words to show, or `action` (3-D Secure to finish with the intent's secret).
 * @param {{ state?: string, clientSecret?: string } | null} answer
 * @param {any} problem
 */
export function cardOutcome(answer, problem) {
  if (problem) {
    const type = problem instanceof ApiProblem ? problem.problem?.type ?? '' : '';
    if (type === '/problems/card-declined') return { next: 'retry', words: pw('cardDeclined', problem.problem?.detail ?? '') };
    if (type === '/problems/provider-unavailable' || !(problem instanceof ApiProblem)) return { next: 'retry', words: pw('unavailable') };
    if (problem.status === 410 || type === '/problems/hold-confirmed') return { next: 'check', words: '' };
    return { next: 'retry', words: pw('refused', problem.problem?.detail ?? problem.message) };
  }
  if (answer?.state === 'requires_action' && answer.clientSecret) return { next: 'action', words: pw('cardVerify'), secret: answer.clientSecret };
  return { next: 'check', words: pw('waitingCard') };
}

export class CardForm {
  /**
   * @param {{ token: string, total: string, publishableKey: string, script: string, onSent: () => void, say: (text: string) => void }} config
   */
  constructor(config) {
    this.config = config;
    /** @type {any} */ this.stripe = null;
    /** @type {any} */ this.card = null;
    this.busy = false;
    this.go = /** @type {HTMLButtonElement} */ ($('pay-card-go'));
    this.go.onclick = () => this.pay();
  }

  /** Shows the form, Stripe's card fields mounted in it. */
  async open() {
    $('pay-card').hidden = false;
    $('pay-card-label').textContent = pw('cardLabel');
    this.go.textContent = pw('cardPay', this.config.total);
    this.go.disabled = true;
    try {
      const Stripe = await loadStripe(this.config.script);
      this.stripe ??= Stripe(this.config.publishableKey, { locale: lang() === 'zh' ? 'zh' : 'en' });
      if (!this.card) {
        this.card = this.stripe.elements().create('card', { hidePostalCode: true });
        this.card.mount('#pay-card-field');
      }
      this.go.disabled = false;
    } catch {
      this.config.say(pw('cardUnavailable'));
    }
  }

  close() { $('pay-card').hidden = true; this.go.onclick = null; }

  /// Sets the card up, has the server charge it, finishes 3-D Secure when the bank asks.
  async pay() {
    if (this.busy || !this.stripe) return;
    this.busy = true; this.go.disabled = true;
    this.config.say('');
    try {
      const { clientSecret } = await api.cardSetup(this.config.token);
      const setup = await this.stripe.confirmCardSetup(clientSecret, { payment_method: { card: this.card } });
      if (setup.error || !setup.setupIntent) { this.config.say(pw('cardDeclined', setup.error?.message ?? '')); return; }
      let outcome;
      try { outcome = cardOutcome(await api.cardPayment(this.config.token, setup.setupIntent.id), null); } catch (error) { outcome = cardOutcome(null, error); }
      if (outcome.next === 'action') {
        $('pay-status').textContent = outcome.words;
        const done = await this.stripe.confirmCardPayment(outcome.secret);
        if (done.error) { this.config.say(pw('cardDeclined', done.error.message ?? '')); return; }
        outcome = { next: 'check', words: pw('waitingCard') };
      }
      if (outcome.next === 'retry') { this.config.say(outcome.words); return; }
      $('pay-status').textContent = outcome.words;
      $('pay-card').hidden = true;
      this.config.onSent();
    } catch (error) {
      this.config.say(cardOutcome(null, error).words || pw('unavailable'));
    } finally {
      this.busy = false; this.go.disabled = false;
    }
  }
}
