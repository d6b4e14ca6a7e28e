// @ts-check
// The waitlist card of a show with one (候补): join the line for a price and a number of tickets, see
// the place while waiting, and, when returned seats are offered, take them up as this page's hold (the
// map shows them as yours, the buy bar counts down, Pay sells them). The entry's token is the buyer's
// capability: kept in this browser (localStorage, per show) so the place survives a reload; the server
// decides everything (the order, the offer, its end), the page only asks every 2 s.

import { api, ApiProblem } from './api.js';
import { t } from './i18n.js';
import { $, el } from './ui.js';

/// How often the page asks where the entry stands: an offer shows within this of the server making it.
const POLL_MS = 2000;

export class WaitlistCard {
  /**
   * @param {{ showId: string, session: any, categories: { id: string, label: string }[], maxSeats: number,
   *   names: (ids: string[]) => string, say: (text: string, kind?: string) => void }} config
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
    $('waitlist-form').addEventListener('submit', e => { e.preventDefault(); this.join(); });
    $('waitlist-leave').addEventListener('click', () => this.leave());
    $('waitlist').hidden = false;
    this.render(null);
    if (this.entry) this.poll();
  }

  async join() {
    const price = /** @type {HTMLSelectElement} */ ($('waitlist-price')).value;
    const count = Number(/** @type {HTMLInputElement} */ ($('waitlist-count')).value);
    try {
      const made = await api.joinWaitlist(this.config.showId, price, count);
      this.entry = made.entry;
      localStorage.setItem(this.key, made.entry);
      this.config.say(t('waitlistJoined', made.position), 'ok');
      this.shown = made.state;
      this.render(made);
      this.schedule();
    } catch (error) { this.config.say(error instanceof ApiProblem ? error.problem.detail ?? error.message : String(error), 'error'); }
  }

  async leave() {
    if (!this.entry) return;
    try { await api.leaveWaitlist(this.entry); } catch { /* gone already: forgotten here too */ }
    this.forget();
    this.config.say(t('waitlistLeft'), 'info');
  }

  forget() {
    clearTimeout(this.timer);
    localStorage.removeItem(this.key);
    this.entry = null;
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
    const changed = now.state !== this.shown;
    this.shown = now.state;
    this.render(now);
    if (now.state === 'offered' && changed && now.offer) this.takeUp(now.offer);
    if (now.state === 'bought' && changed) { this.config.say(t('waitlistBought'), 'ok'); localStorage.removeItem(this.key); return; }
    if ((now.state === 'lapsed' || now.state === 'cancelled') && changed) {
      if (now.state === 'lapsed') this.config.say(t('waitlistLapsed'), 'info');
      this.forget();
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
  }
}
