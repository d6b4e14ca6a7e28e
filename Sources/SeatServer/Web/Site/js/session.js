// @ts-check
// The buyer's hold, optimistic: a tapped seat shows as selected at once and the request follows.
// Requests run one at a time (a chain); taps made meanwhile are sent together as one change. When the
// server says no, the selection returns to what the server holds and the reason is reported.
// This is SeatSync's SeatSession in the browser.

import { api, ApiProblem, serverNow } from './api.js';

/**
 * Whether a hold still keeps its seats for its holder: active, or being paid for (`paying`, after a
 * checkout: kept until the payment's window ends, sold when the provider says paid).
 * @param {{ state?: string } | null | undefined} hold
 */
export const isLive = hold => hold?.state === 'active' || hold?.state === 'paying';

/**
 * @typedef {{ token: string, state: string, seats: string[], expiresAt: string, total?: string }} Hold
 *   the hold resource (`GET /v1/holds/{token}`), as much of it as the session reads
 * @typedef {{ onChange: (why?: 'tick') => void, onProblem: (problem: ApiProblem | Error, attempted: string[]) => void,
 *   onHeld: (hold: Hold) => void, onExpired: () => void }} HoldSessionEvents
 */

export class HoldSession {
  /** @param {string} showId @param {HoldSessionEvents} events */
  constructor(showId, { onChange, onProblem, onHeld, onExpired }) {
    this.showId = showId;
    this.onChange = onChange; this.onProblem = onProblem; this.onHeld = onHeld; this.onExpired = onExpired;
    this.desired = new Set();   // seat ids the buyer wants (what the map shows as selected); places: as held
    this.held = new Set();      // seat ids the server holds for us (an area's places among them: `floor:17`)
    /** @type {Map<string, string>} the venue's general-admission areas and how each is sold (`places`,
     *  `whole`, `party`): the picker says once it knows the venue */
    this.areas = new Map();
    /** @type {Map<string, number>} places wanted of each area, by count (the server chooses which) */
    this.placeWants = new Map();
    this.hold = null;           // the last hold resource
    this.chain = Promise.resolve();
    this.wheelchair = false;
    /** @type {string | undefined} the order's reference, made at the first checkout and kept */
    this.orderRef = undefined;
    this.timer = setInterval(() => this.tick(), 1000);
    // One buyer, one hold, however many tabs: the hold of this show is kept where every tab of the site
    // reads it (two tabs once acted as two buyers, each with the show's seat limit). A tab opening the
    // show takes up the hold another tab holds; a change in one tab is taken up by the others.
    this.key = `seatkit.hold.${showId}`;
    this.onStorage = e => { if (e.key === this.key) this.enqueue(() => this.adopt()); };
    try {
      addEventListener('storage', this.onStorage);
      if (localStorage.getItem(this.key)) this.enqueue(() => this.adopt());
    } catch { /* no storage (a sandboxed embed): each tab its own hold */ }
  }

  /// Takes up the hold the tabs share (another tab's latest), or lets ours go if another tab ended it.
  async adopt() {
    let shared = null;
    try { shared = JSON.parse(localStorage.getItem(this.key) ?? 'null'); } catch { /* unreadable: none */ }
    const token = shared?.token ?? this.token;
    if (!token) return;
    let hold;
    try { hold = await api.hold(token); } catch (error) {
      // Gone (404), or ended (410): nothing to take up; a stale entry is removed.
      if (error instanceof ApiProblem && (error.status === 404 || error.status === 410)) {
        if (shared?.token === token) localStorage.removeItem(this.key);
        if (this.token === token) this.clear();
        return;
      }
      throw error;
    }
    if (!isLive(hold)) { if (this.token === token) this.clear(); return; }
    this.hold = hold;
    this.held = new Set(hold.seats);
    this.desired = new Set(hold.seats);
    this.placeWants = this.placeCounts(this.held);
    this.onHeld(hold);
    this.onChange();
  }

  /// The area a place id belongs to (`floor:17` → `floor`), or null for a seat.
  /** @param {string} id */
  areaOf(id) {
    const colon = id.lastIndexOf(':');
    return colon > 0 && this.areas.has(id.slice(0, colon)) ? id.slice(0, colon) : null;
  }

  /// What the buyer has of each area among `ids`: places, or 1 for an area sold whole (its places are one unit).
  /// @param {Iterable<string>} ids
  placeCounts(ids) {
    const counts = new Map();
    for (const id of ids) {
      const area = this.areaOf(id);
      if (area) counts.set(area, this.areas.get(area) === 'whole' ? 1 : (counts.get(area) ?? 0) + 1);
    }
    return counts;
  }

  /// How many places of `area` the buyer wants (what the stepper shows). @param {string} area
  places(area) { return this.placeWants.get(area) ?? 0; }

  /// Wants `count` places of `area`: sent with the next change (the server picks which, or says how many are free).
  /** @param {string} area @param {number} count */
  setPlaces(area, count) {
    this.placeWants.set(area, Math.max(0, count));
    this.onChange();
    return this.enqueue(() => this.push());
  }

  /// Areas whose places held differ from those wanted: each with the count to have.
  placeTargets() {
    const held = this.placeCounts(this.held), out = {};
    for (const [area, want] of this.placeWants) if ((held.get(area) ?? 0) !== want) out[area] = want;
    return out;
  }

  /// Nothing left to send: the seats and places held are the ones wanted.
  get settled() {
    return !this.busy && Boolean(this.token) && this.desired.size === this.held.size && [...this.desired].every(id => this.held.has(id))
      && Object.keys(this.placeTargets()).length === 0;
  }

  /// Seats (not places) wanted or held. @param {Set<string>} set
  seatsOf(set) { return [...set].filter(id => !this.areaOf(id)); }

  /// Tells the other tabs what this one holds now (nothing: the entry goes).
  share(hold) {
    try {
      if (isLive(hold)) localStorage.setItem(this.key, JSON.stringify({ token: hold.token, seats: hold.seats, version: hold.version ?? 0 }));
      else if (JSON.parse(localStorage.getItem(this.key) ?? 'null')?.token === (hold?.token ?? this.hold?.token)) localStorage.removeItem(this.key);
    } catch { /* no storage */ }
  }

  get token() { return isLive(this.hold) ? this.hold.token : null; }
  get busy() { return this.pending > 0; }

  /// Runs `job` after every earlier one; its failure never breaks the chain.
  enqueue(job) {
    this.pending = (this.pending || 0) + 1;
    const run = this.chain.then(job).finally(() => { this.pending--; this.onChange(); });
    this.chain = run.catch(() => {});
    return run;
  }

  toggle(id) {
    if (this.desired.has(id)) this.desired.delete(id); else this.desired.add(id);
    this.onChange();
    return this.enqueue(() => this.push());
  }

  /// Adds several seats in one atomic change (a drag, the best-seats answer).
  addAll(ids) {
    for (const id of ids) this.desired.add(id);
    this.onChange();
    return this.enqueue(() => this.push());
  }

  /// Lets several seats go in one change (the embedding page's `deselect`).
  removeAll(ids) {
    for (const id of ids) this.desired.delete(id);
    this.onChange();
    return this.enqueue(() => this.push());
  }

  /// Exactly these seats instead of the current selection (the best-seats answer), in one change.
  replaceWith(ids) {
    this.desired = new Set(ids);
    this.onChange();
    return this.enqueue(() => this.push());
  }

  /// Sends the difference between what the buyer wants and what the server holds, until none is left.
  async push() {
    for (let round = 0; round < 5; round++) {
      // Seats by id; an area's places by count (its places held follow what the server chose).
      const add = this.seatsOf(this.desired).filter(id => !this.held.has(id));
      const remove = this.seatsOf(this.held).filter(id => !this.desired.has(id));
      const areas = this.placeTargets();
      if (add.length === 0 && remove.length === 0 && Object.keys(areas).length === 0) return;
      try {
        if (!this.token) {
          const asked = Object.fromEntries(Object.entries(areas).filter(([, n]) => n > 0));
          if (add.length === 0 && Object.keys(asked).length === 0) { this.placeWants = this.placeCounts(this.held); return; }
          this.accept(await api.createHold(this.showId, add, this.wheelchair, asked));
        } else {
          this.accept(await api.changeHold(this.token, add, remove, areas));
        }
      } catch (error) {
        this.rollback(error, add);
        return;
      }
    }
  }

  accept(hold) {
    this.hold = hold;
    this.held = new Set(isLive(hold) ? hold.seats : []);
    // The places held are the ones the server chose: wanted as held (their count is what is asked).
    for (const id of [...this.desired]) if (this.areaOf(id) && !this.held.has(id)) this.desired.delete(id);
    for (const id of this.held) if (this.areaOf(id)) this.desired.add(id);
    this.share(hold);
    // `desired` is left alone: taps made while this request was out are sent by the next round.
    this.onHeld(hold);
    this.onChange();
  }

  /// Back to the server's truth, and say why.
  rollback(error, attempted) {
    if (error instanceof ApiProblem && error.status === 410) { this.clear(); this.onExpired(); return; }
    this.desired = new Set(this.held);
    this.placeWants = this.placeCounts(this.held);
    this.onChange();
    this.onProblem(error, attempted);
  }

  clear() {
    if (this.hold) this.share({ ...this.hold, state: 'ended' });
    this.hold = null;
    this.held = new Set();
    this.desired = new Set();
    this.placeWants = new Map();
    this.onChange();
  }

  release() {
    return this.enqueue(async () => {
      const token = this.token;
      this.desired = new Set();
      if (!token) { this.clear(); return; }
      try { await api.release(token); } catch (error) { if (!(error instanceof ApiProblem && error.status === 410)) { this.onProblem(error, []); return; } }
      this.clear();
    });
  }

  extend() {
    return this.enqueue(async () => {
      if (!this.token) return;
      try { this.accept(await api.extend(this.token)); } catch (error) { this.onProblem(error, []); }
    });
  }

  /// Pushes what is still pending, then buys exactly the held seats. Resolves to the confirmed hold.
  confirm() {
    return this.enqueue(async () => {
      await this.push();
      if (!this.token || this.desired.size !== this.held.size || Object.keys(this.placeTargets()).length) return null;
      const orderRef = 'WEB-' + crypto.getRandomValues(new Uint32Array(2)).reduce((s, n) => s + n.toString(36).toUpperCase(), '');
      try {
        const token = this.token;
        const done = await api.confirm(this.token, orderRef);
        this.clear();
        // The token stays the buyer's key to the tickets (GET /v1/holds/{token}/tickets).
        return { ...done, token };
      } catch (error) {
        if (error instanceof ApiProblem && error.status === 410) { this.clear(); this.onExpired(); } else this.onProblem(error, []);
        return null;
      }
    });
  }

  /// Pushes what is still pending, then asks for a payment of exactly the held seats with `provider`
  /// (`method`: how, on this device). The hold comes back `paying`: its seats kept for the payment's
  /// window, the hold closed to changes. Resolves to `{payment}`, or `{problem}` when the server refused
  /// (the caller says why: a payment's refusals are the Pay step's to word).
  checkout(provider, method) {
    return this.enqueue(async () => {
      await this.push();
      if (!this.token || this.desired.size !== this.held.size || Object.keys(this.placeTargets()).length) {
        return { problem: new Error('the seats are still being held') };
      }
      // One reference for this hold's order, however often the buyer tries (the server keeps the first).
      this.orderRef ??= 'WEB-' + crypto.getRandomValues(new Uint32Array(2)).reduce((s, n) => s + n.toString(36).toUpperCase(), '');
      try {
        const { payment, hold } = await api.checkout(this.token, { provider, method, orderRef: this.orderRef });
        this.accept(hold);
        return { payment };
      } catch (error) {
        if (error instanceof ApiProblem && error.status === 410) { this.clear(); this.onExpired(); }
        return { problem: error };
      }
    });
  }

  /// Milliseconds until the hold expires (by the server's clock), or null without a hold.
  remaining() {
    if (!this.token) return null;
    return Date.parse(this.hold.expiresAt) - serverNow();
  }

  tick() {
    const left = this.remaining();
    if (left !== null && left <= 0 && !this.busy) { this.clear(); this.onExpired(); }
    this.onChange('tick');
  }

  stop() {
    clearInterval(this.timer);
    try { removeEventListener('storage', this.onStorage); } catch { /* no window */ }
  }
}
