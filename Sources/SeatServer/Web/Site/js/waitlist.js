// @ts-check
// The waitlist card of a show with one (候补): join the line for a price and a number of tickets, see
// the place while waiting, and, when returned seats are offered, take them up as this page's hold (the
// map shows them as yours, the buy bar counts down, Pay sells them). The entry's token is the buyer's
// capability: kept in this browser (localStorage, per show) so the place survives a reload; the server
// decides everything (the order, the offer, its end), the page only asks every 2 s.
// A prepaid waitlist (Damai's 候补 with prepayment): the join pays, with WeChat Pay or Alipay, the most the
// seats asked for can cost; the card shows the provider's QR code (a desktop) or its page's link (a phone)
// until the server says it was paid. An offer is then bought at once: the card says so and links the
// e-tickets; money that came back is said too.

import { api, ApiProblem } from './api.js';
import { t } from './i18n.js';
import { methodFor } from './pay.js';
import { pw } from './pay-words.js';
import { $, el } from './ui.js';

/// How often the page asks where the entry stands: an offer shows within this of the server making it.
const POLL_MS = 2000;

export class WaitlistCard {
  /**
   * @param {{ showId: string, session: any, categories: { id: string, label: string }[], maxSeats: number,
   *   names: (ids: string[]) => string, say: (text: string, kind?: string) => void,
   *   prepay?: boolean, providers?: { provider: string, methods: string[], testMoney: boolean }[], phone?: () => boolean }} config
   */
  constructor(config) {
    this.config = config;
    this.key = `seatkit.waitlist.${config.showId}`;
    /** @type {string | null} */
    this.entry = localStorage.getItem(this.key);
    this.timer = 0;
    /** @type {string | null} the state last shown, so each change is said once */
    this.shown = null;
    const select = /** @type {HTMLSelectElement} */ ($('waitlist-price'));
    select.replaceChildren(...config.categories.map(c => el('option', { value: c.id, textContent: c.label })));
    /** @type {HTMLInputElement} */ ($('waitlist-count')).max = String(config.maxSeats);
    /** @type {any} the prepayment as the join answered it (what the page pays with), kept while it is pending */
    this.payment = JSON.parse(localStorage.getItem(`${this.key}.payment`) ?? 'null');
    if (config.prepay) {
      const providers = /** @type {HTMLSelectElement} */ ($('waitlist-provider'));
      providers.replaceChildren(...(config.providers ?? []).map(p => el('option', { value: p.provider, textContent: pw(p.provider) })));
      for (const id of ['waitlist-provider', 'waitlist-prepay-note']) $(id).hidden = false;
      /** @type {HTMLElement} */ (document.querySelector('label[for="waitlist-provider"]')).hidden = false;
      $('waitlist-prepay-note').textContent = t('waitlistPrepayNote');
      $('waitlist-help').dataset.i18n = 'waitlistHelpPrepaid';
      $('waitlist-help').textContent = t('waitlistHelpPrepaid');
    }
    $('waitlist-form').addEventListener('submit', e => { e.preventDefault(); this.join(); });
    $('waitlist-leave').addEventListener('click', () => this.leave());
    $('waitlist').hidden = false;
    this.render(null);
    if (this.entry) this.poll();
  }

  async join() {
    const price = /** @type {HTMLSelectElement} */ ($('waitlist-price')).value;
    const count = Number(/** @type {HTMLInputElement} */ ($('waitlist-count')).value);
    let prepay;
    if (this.config.prepay) {
      const chosen = /** @type {HTMLSelectElement} */ ($('waitlist-provider')).value;
      const option = this.config.providers?.find(p => p.provider === chosen);
      if (!option) { this.config.say(t('waitlistPrepayNote'), 'error'); return; }
      prepay = { provider: option.provider, method: methodFor(option, this.config.phone?.() ?? false) };
    }
    try {
      const made = await api.joinWaitlist(this.config.showId, price, count, prepay);
      this.entry = made.entry;
      localStorage.setItem(this.key, made.entry);
      if (made.prepayment) {
        this.payment = made.prepayment;
        localStorage.setItem(`${this.key}.payment`, JSON.stringify(made.prepayment));
        this.config.say(t('waitlistPayWhat', made.prepayment.amount), 'info');
      } else {
        this.config.say(t('waitlistJoined', made.position), 'ok');
      }
      this.shown = made.prepayment?.state === 'pending' ? 'paying' : made.state;
      this.render(made);
      this.schedule();
    } catch (error) { this.config.say(error instanceof ApiProblem ? error.problem.detail ?? error.message : String(error), 'error'); }
  }

  async leave() {
    if (!this.entry) return;
    /** @type {any} */
    let left = null;
    try { left = await api.leaveWaitlist(this.entry); } catch { /* gone already: forgotten here too */ }
    this.forget();
    // A prepayment comes back on leaving: the card says how much.
    if (left?.prepayment) this.renderMoney({ refunded: left.refunded });
    this.config.say(t('waitlistLeft'), 'info');
  }

  forget() {
    clearTimeout(this.timer);
    localStorage.removeItem(this.key);
    localStorage.removeItem(`${this.key}.payment`);
    this.entry = null;
    this.payment = null;
    this.render(null);
  }

  schedule() { clearTimeout(this.timer); this.timer = window.setTimeout(() => this.poll(), POLL_MS); }

  async poll() {
    if (!this.entry) return;
    let now;
    try { now = await api.waitlistEntry(this.entry); } catch (error) {
      if (error instanceof ApiProblem && error.status === 404) { this.forget(); return; }
      this.schedule();  // offline a moment: ask again
      return;
    }
    // A prepaid entry's state reads with its payment's: paid is a change the buyer is told of.
    const state = now.prepayment?.state === 'pending' ? 'paying' : now.state;
    const changed = state !== this.shown;
    const wasPaying = this.shown === 'paying';
    this.shown = state;
    if (now.prepayment && now.prepayment.state !== 'pending') { this.payment = null; localStorage.removeItem(`${this.key}.payment`); }
    this.render(now);
    if (wasPaying && state === 'waiting') this.config.say(t('waitlistPrepaid', now.position), 'ok');
    if (now.state === 'offered' && changed && now.offer && !now.prepayment) this.takeUp(now.offer);
    if (now.state === 'bought' && changed) {
      this.config.say(now.prepayment ? t('waitlistBoughtSeats', this.config.names(this.boughtSeats(now))) : t('waitlistBought'), 'ok');
      localStorage.removeItem(this.key);
      return;
    }
    if ((now.state === 'lapsed' || now.state === 'cancelled') && changed) {
      if (now.state === 'lapsed') this.config.say(t('waitlistLapsed'), 'info');
      else if (now.outcome && now.outcome !== 'left the waitlist') this.config.say(t('waitlistClosed', now.outcome), 'info');
      // Money that came back stays said on the card; the entry itself is forgotten.
      clearTimeout(this.timer);
      localStorage.removeItem(this.key);
      localStorage.removeItem(`${this.key}.payment`);
      this.entry = null;
      this.payment = null;
      this.render(now.prepayment ? { refunded: now.refunded } : null);
      return;
    }
    this.schedule();
  }

  /// The offer becomes this page's hold: the session takes it up as it takes up another tab's.
  /** @param {{ token: string, expiresAt: string, seats: string[] }} offer */
  takeUp(offer) {
    const session = this.config.session;
    localStorage.setItem(`seatkit.hold.${this.config.showId}`, JSON.stringify({ token: offer.token, seats: offer.seats, version: 0 }));
    session.enqueue(() => session.adopt());
    const until = new Date(offer.expiresAt).toLocaleTimeString(document.documentElement.lang || undefined, { hour: '2-digit', minute: '2-digit' });
    this.config.say(t('waitlistOffered', this.config.names(offer.seats), until), 'ok');
  }

  /** The seats a bought entry got, as its offer named them (an order's seats are read on its page). @param {any} entry */
  boughtSeats(entry) { return entry.order?.seats ?? entry.offer?.seats ?? []; }

  /** @param {any} entry */
  render(entry) {
    const waiting = entry?.state === 'waiting' || (!entry && this.entry);
    $('waitlist-form').hidden = !!this.entry;
    $('waitlist-leave').hidden = !this.entry || entry?.state === 'bought';
    const place = $('waitlist-place');
    place.hidden = !entry || !waiting || entry.position == null;
    if (entry && !place.hidden) {
      const what = entry.price ? ` · ${this.config.categories.find(c => c.id === entry.price)?.label ?? entry.price}` : t('waitlistAny');
      place.textContent = t('waitlistPlace', entry.position, entry.count, what);
    }
    this.renderMoney(entry);
  }

  /** The prepayment: how to pay it while pending; what was paid and what came back after. @param {any} entry */
  renderMoney(entry) {
    const pending = this.entry && (entry?.prepayment?.state ?? this.payment?.state) === 'pending' ? this.payment : null;
    $('waitlist-pay').hidden = !pending;
    if (pending) {
      $('waitlist-pay-what').textContent = t('waitlistPayWhat', pending.amount);
      const phone = this.config.phone?.() ?? false;
      const code = pending.codeUrl ?? pending.qrCode;
      const qr = /** @type {HTMLImageElement} */ ($('waitlist-qr'));
      qr.hidden = phone || !code;
      if (code) { qr.src = `/v1/payments/qr.svg?text=${encodeURIComponent(code)}`; qr.alt = `${pw(pending.provider)} · ${t('waitlistScan')}`; }
      const link = $('waitlist-pay-link');
      link.hidden = !pending.redirectUrl;
      if (pending.redirectUrl) { link.setAttribute('href', pending.redirectUrl); link.textContent = `${t('waitlistPayGo')} · ${pw(pending.provider)}`; }
      const test = $('waitlist-test-link');
      test.hidden = !pending.testPayUrl;
      if (pending.testPayUrl) { test.setAttribute('href', pending.testPayUrl); test.textContent = t('waitlistTestPay'); }
    }
    const money = $('waitlist-money');
    const refunded = entry?.refunded && entry.refunded !== '0.00' ? entry.refunded : null;
    const paid = entry?.prepayment?.state === 'succeeded' && (entry.state === 'waiting' || entry.state === 'offered') ? entry.prepayment.amount : null;
    money.hidden = !refunded && !paid;
    money.textContent = [paid ? t('waitlistPaidPlace', paid) : '', refunded ? t('waitlistRefunded', refunded) : ''].filter(Boolean).join(' · ');
    const order = $('waitlist-order');
    order.hidden = !entry?.order;
    if (entry?.order) {
      order.setAttribute('href', `/orders/${encodeURIComponent(entry.order.ref)}?code=${encodeURIComponent(entry.order.code)}`);
      order.textContent = t('waitlistOrder');
    }
  }
}
