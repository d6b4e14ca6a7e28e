// One show's map and the buyer's hold on it, owned by a `<seatkit-map>` element (js/element.js): the
// canvas (js/canvasmap.js), the keyboard's focus (js/keyboard.js), the optimistic hold (js/session.js)
// and the live stream (js/live.js), wired together. It says what happens as events on the element
// (`ready`, `tap`, `selection`, `hold`, `refusal`, `change`, `show`, `statuses`, `connection`); the page
// around it (or an
// embedding page) draws the rest: the panel, the buy bar, the legend.

import { api, ApiProblem, channelOf } from './api.js';
import { STATUS, decodeAvailability } from './availability.js';
import { CanvasMap } from './canvasmap.js';
import { SeatPrices, Venue, tapChoice } from './geometry.js';
import { inLanguage, lang, t } from './i18n.js';
import { bindKeyboard } from './keyboard.js';
import { LiveAvailability } from './live.js';
import { HoldSession, isLive } from './session.js';
import { announceIn, problemText } from './ui.js';

const BLOCKED = STATUS.indexOf('blocked');

export class SeatPicker {
  /// `host`: the element, with its parts (`surface`, `gutter`, `minimap`, `focus`: two elements,
  /// `announcer`, `toast`); `venueHint`: the show's venue when the page knows it (its geometry is asked
  /// for at once).
  /// `mode`: 'buyer' (a tap holds the seat on the server) or 'operator' (the console's desk: a tap only
  /// marks the seat, of any status, for the action the operator picks next).
  constructor(host, showId, { parts, venueHint, mode = 'buyer' }) {
    Object.assign(this, { host, showId, parts, mode });
    /** A partner's page: the channel's key is with the API; here only whether there is one. */
    this.channel = mode === 'buyer' && channelOf(showId) !== null;
    /** @type {Set<number> | null} */ this.channelSet = null;
    /** @type {Uint8Array | null} */ this.raw = null;
    this.picked = new Set();  // the operator's marked seats (ids)
    this.venue = null; this.prices = null; this.show = null; this.wheelchair = false;
    this.view = new CanvasMap({
      container: host, surface: parts.surface, gutter: parts.gutter, topGutter: parts.topGutter, minimap: parts.minimap,
      onTap: i => this.tap(i),
      onDragSelect: seats => {
        if (this.mode === 'operator') { for (const i of seats) this.picked.add(this.venue.ids[i]); this.paint(); return; }
        const ids = seats.filter(i => !this.session.desired.has(this.venue.ids[i]) && this.view.statusOf(i) === 'available').map(i => this.venue.ids[i]);
        if (ids.length) { this.session.wheelchair = this.wheelchair; this.session.addAll(ids); }
      },
      onView: () => this.keys.refresh(),
    });
    this.keys = bindKeyboard(this.view, { onActivate: i => this.tap(i), elements: parts.focus });
    // The operator's desk marks many seats at once: Shift and drag draws a rectangle (a lasso).
    this.view.lassoEnabled = mode === 'operator';
    this.session = mode === 'operator' ? null : new HoldSession(showId, {
      onChange: reason => { if (reason !== 'tick') this.paint(); this.emit('change', { tick: reason === 'tick' }); },
      onHeld: hold => {
        this.announce(isLive(hold) ? t('held', hold.seats.map(id => this.nameOf(id)).join(', ')) : t('released'));
        this.emit('hold', { hold });
      },
      onExpired: () => this.refuse(t('expired'), null, []),
      onProblem: (error, attempted) => this.explain(error, attempted),
    });
    this.lastSelection = '';
    // Everything that needs only the show's id is asked for at once; the geometry too when the venue is known.
    this.early = {
      prices: api.seatPrices(showId, lang()), availability: api.availability(showId),
      geometry: venueHint ? api.geometry(venueHint, lang()) : null, hint: venueHint,
    };
    for (const p of [this.early.prices, this.early.availability, this.early.geometry]) p?.catch(() => {});  // awaited in start
  }

  emit(type, detail, cancelable = false) {
    return this.host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, cancelable }));
  }

  announce(text) { announceIn(this.parts.announcer, text); }

  indexOf(id) { return this.venue?.indexOf(id); }
  nameOf(id) { const i = this.indexOf(id); return i === undefined ? id : this.venue.name(i); }
  /// The general-admission areas: how each is sold, its price, what is free and how many the buyer wants.
  areas() {
    return this.venue.areas.map((a, k) => ({
      id: a.id, name: a.name, mode: a.mode, capacity: a.capacity, min: a.min, max: a.max, free: this.view.areaFree[k],
      price: this.prices.of(a.from), wanted: this.session?.places(a.id) ?? 0,
    }));
  }

  /// Wants `count` places of area `id` (the server chooses which), in the hold with the seats.
  setPlaces(id, count) {
    if (!this.session) return Promise.resolve();
    this.session.wheelchair = this.wheelchair;
    return this.session.setPlaces(id, count);
  }

  /// Seats by their names, an area's places as one entry with their count ("Standing floor × 2").
  names(ids) {
    const out = [], places = new Map();
    for (const id of ids) {
      const i = this.indexOf(id), area = i === undefined ? null : this.venue.areaOfIndex(i);
      if (area) places.set(area.name, (places.get(area.name) ?? 0) + 1); else out.push(this.nameOf(id));
    }
    for (const [name, n] of places) out.push(`${name} × ${n}`);
    return out.join(lang() === 'zh' ? '、' : ', ');
  }

  /// The show, the venue's geometry, the prices and the statuses; then the map drawn and live.
  async start() {
    this.show = await api.show(this.showId);
    if (this.show.venueId !== this.early.hint) this.early.geometry = api.geometry(this.show.venueId, lang());
    await this.load();
    this.salesState();
    this.live = new LiveAvailability(this.showId, {
      onSnapshot: state => {
        this.view.setStatuses(this.channelView(state.statuses));
        if (this.channel) this.refreshChannel();
        this.paint();
        this.host.dataset.version = state.version;
        this.host.dataset.snapshots = String(Number(this.host.dataset.snapshots || 0) + 1);
        this.emit('statuses', { version: state.version });
      },
      onDelta: delta => this.applyDelta(delta),
      onShow: fresh => this.showChanged(fresh),
      onState: state => this.emit('connection', { state }),
    });
    window.addEventListener('pagehide', () => this.stop());
    this.host.controller = this.api();
    this.emit('ready', { show: this.show });
  }

  stop() { this.live?.close(); this.session?.stop(); }

  /// The seats shown as chosen: the buyer's (held or on their way) or the operator's marked ones.
  chosen() { return this.mode === 'operator' ? this.picked : this.session.desired; }

  /// (Again, after a language switch.) The map drawn once, right: geometry, prices and, the first
  /// time, availability fetched together.
  async load() {
    const focused = this.keys.focused && this.venue ? this.venue.ids[this.keys.current] : null;
    const first = !this.venue;
    const [geometry, seatPrices, availability] = await Promise.all([
      this.early.geometry ?? api.geometry(this.show.venueId, lang()), this.early.prices ?? api.seatPrices(this.showId, lang()),
      first ? this.early.availability : null,
    ]);
    this.early.geometry = this.early.prices = null;
    this.venue = new Venue(geometry);
    if (this.session) this.session.areas = new Map(this.venue.areas.map(a => [a.id, a.mode]));
    this.prices = new SeatPrices(seatPrices, this.venue.count);
    this.view.load(this.venue, this.prices);
    if (availability) {
      const state = decodeAvailability(availability);
      if (this.channel) this.readChannel(availability);
      this.view.setStatuses(state.statuses);
      this.host.dataset.version = state.version;
    }
    this.host.setAttribute('aria-label', t('mapLabel', this.venue.title));
    this.paint();
    const best = this.venue.indexOf(focused);
    if (best !== undefined) this.keys.focus(best); else this.keys.setTabStop(this.keys.current ?? this.middleSeat());
    await this.view.drawn();
    this.host.dataset.ready = 'true';
    // The moment the map is drawn and can be used (scripts/bench-web.py reads it as time to an interactive map).
    if (!performance.getEntriesByName('map-ready').length) performance.mark('map-ready');
  }

  /// The first tab stop: the seat nearest the middle of the row two thirds of the way back.
  middleSeat() {
    const v = this.venue, row = v.gutterRows[Math.floor(v.gutterRows.length * 2 / 3)]?.[2], midX = v.contentW / 2;
    let best = 0, bestD = Infinity;
    for (let i = 0; i < v.count; i++) {
      if (v.rowOf[i] !== row) continue;
      const d = Math.abs(v.x[i] - midX);
      if (d < bestD) { best = i; bestD = d; }
    }
    return best;
  }

  /// A tap, a click, Enter: a free seat or one of ours toggles; a taken one is said.
  tap(i) {
    const id = this.venue.ids[i];
    this.clearToast();
    this.emit('tap', { seat: id });
    // At a table the show sells whole, or with a minimum, one tap picks what the engine says (`tapChoice`).
    const mine = new Set();
    const chosen = this.mode === 'operator' ? this.picked : this.session.desired;
    const k = this.venue.tableOf[i];
    if (k >= 0) for (let s = this.venue.tables[k].from; s < this.venue.tables[k].to; s++) if (chosen.has(this.venue.ids[s])) mine.add(s);
    const picks = tapChoice(this.venue, i, this.show?.policy, s => this.mode === 'operator' || this.view.statusOf(s) === 'available', mine);
    if (picks.length > 1) { this.tapTable(picks, chosen); return; }
    if (this.mode === 'operator') {
      if (this.picked.has(id)) this.picked.delete(id); else this.picked.add(id);
      this.paint();
      this.announce(this.view.label(i));
      return;
    }
    if (this.session.desired.has(id) || this.view.statusOf(i) === 'available') {
      this.session.wheelchair = this.wheelchair;
      this.session.toggle(id);
    } else {
      this.announce(this.view.label(i));
    }
  }

  /// Several seats at one tap (a table): all let go when all are chosen, else the rest added; a table
  /// sold whole with a seat someone else has is said, not half taken.
  tapTable(picks, chosen) {
    const ids = picks.map(s => this.venue.ids[s]);
    const table = this.venue.tables[this.venue.tableOf[picks[0]]];
    if (ids.every(id => chosen.has(id))) {
      if (this.mode === 'operator') { for (const id of ids) this.picked.delete(id); this.paint(); } else this.session.removeAll(ids);
      return;
    }
    const taken = picks.filter(s => !chosen.has(this.venue.ids[s]) && this.view.statusOf(s) !== 'available');
    if (this.mode !== 'operator' && taken.length) { this.refuse(t('tableTaken', table.name), null, ids); return; }
    const add = ids.filter(id => !chosen.has(id));
    if (this.mode === 'operator') { for (const id of add) this.picked.add(id); this.paint(); this.announce(add.map(id => this.nameOf(id)).join(', ')); return; }
    this.session.wheelchair = this.wheelchair;
    this.session.addAll(add);
  }

  toggle(id) { const i = this.indexOf(id); if (i !== undefined) this.tap(i); }

  /// The selection on the map (only the seats that changed are repainted) and the focused seat's label.
  paint() {
    const chosen = new Set();
    for (const id of this.chosen()) { const i = this.indexOf(id); if (i !== undefined) chosen.add(i); }
    this.view.setSelection(chosen);
    this.keys.refresh();
    const ids = [...this.chosen()];
    if (ids.join() !== this.lastSelection) { this.lastSelection = ids.join(); this.emit('selection', { seats: ids }); }
  }

  /// Why the server said no, in the buyer's language: which seats were taken, which rule, or what else.
  explain(error, attempted) {
    let text;
    if (!(error instanceof ApiProblem)) {
      text = navigator.onLine === false ? t('offlineNow') : t('offline');
    } else if (error.problem.conflicts?.length) {
      const conflicts = error.problem.conflicts;
      for (const c of conflicts) { const i = this.indexOf(c.seat); if (i !== undefined) this.view.setStatus(i, STATUS.indexOf(c.status)); }
      text = t('taken', this.names(conflicts.map(c => c.seat)));
    } else if (error.problem.violations?.length) {
      text = error.problem.violations.map(v => inLanguage(v.message) ?? v.rule).join(' ');
    } else {
      text = problemText(error);
    }
    this.paint();
    this.refuse(text, error instanceof ApiProblem ? error.problem : null, attempted);
  }

  /// A refusal: announced, and shown in the map's own toast unless a listener shows it itself
  /// (`preventDefault()` on the `refusal` event, as the page's buy bar does).
  refuse(message, problem, seats) {
    this.announce(message);
    if (this.emit('refusal', { message, problem, seats }, true)) {
      const toast = this.parts.toast;
      toast.textContent = message;
      clearTimeout(this.toastTimer);
      this.toastTimer = setTimeout(() => this.clearToast(), 6000);
    }
  }

  clearToast() { this.parts.toast.textContent = ''; }

  // — A partner's page: its channel's map —
  // Opened with a channel's key (`?channel=KEY`), the map is the channel's: its seats and places free
  // (the public sees them blocked), every other seat not for sale. Which seats those are is the
  // server's word (`GET …/availability` with Seat-Channel), read at first and again after a burst of
  // changes; meanwhile a change is shown as the channel sees it (blocked in the channel: free to it).

  /// The public statuses as the channel's map shows them (kept: the channel's set is read again).
  channelView(statuses) {
    if (!this.channel) return statuses;
    this.raw = Uint8Array.from(statuses);
    return this.raw.map((code, i) => this.channelCode(i, code));
  }

  channelCode(i, code) {
    if (!this.channel || !this.channelSet) return code;
    return this.channelSet.has(i) ? (code === BLOCKED ? 0 : code) : (code === 0 ? BLOCKED : code);
  }

  refreshChannel() {
    clearTimeout(this.channelTimer);
    this.channelTimer = setTimeout(async () => {
      try {
        this.readChannel(await api.availability(this.showId));
        if (this.raw) this.view.setStatuses(this.raw.map((code, i) => this.channelCode(i, code)));
        this.paint();
      } catch (error) { console.warn('the channel could not be read again', error); }
    }, 250);
  }

  /// The channel's seats and places from its availability (free there: the channel's).
  readChannel(encoded) {
    const mine = decodeAvailability(encoded).statuses;
    this.channelSet = new Set();
    for (let i = 0; i < mine.length; i++) if (mine[i] === 0) this.channelSet.add(i);
  }

  applyDelta(delta) {
    const v = this.venue, near = [];
    for (const [i, public_] of delta.changes) {
      if (i >= v.count) continue;
      const before = this.view.statuses[i], code = this.channelCode(i, public_);
      if (this.raw) this.raw[i] = public_;
      this.view.setStatus(i, code);
      if (before !== code && !v.isPlace[i] && !this.session?.held.has(v.ids[i]) && this.isNearSelection(i)) near.push([i, code]);
    }
    this.keys.refresh();
    this.host.dataset.version = delta.to;
    for (const [i, code] of near) this.announce(code === 0 ? t('availableAgain', v.name(i)) : t('justTaken', v.name(i)));
    this.emit('statuses', { version: delta.to });
    if (this.channel) this.refreshChannel();
  }

  /// Same row, within three seats of a selected or focused seat along it (the engine's announcement rule).
  isNearSelection(i) {
    const v = this.venue, anchors = [...this.chosen()].map(id => this.indexOf(id)).concat(this.keys.current ?? []);
    return anchors.some(a => a !== undefined && v.rowOf[a] === v.rowOf[i] && Math.abs(a - i) <= 3);
  }

  /// A manager changed the show: new prices (labels follow), times, details, the sales switch.
  async showChanged(fresh) {
    const repriced = fresh.priceRevision !== this.show.priceRevision;
    this.show = fresh;
    if (repriced) {
      this.prices = new SeatPrices(await api.seatPrices(this.showId, lang()), this.venue.count);
      this.view.setPrices(this.prices);
      this.keys.refresh();
      this.announce(t('pricesChanged'));
    }
    this.salesState();
    this.emit('show', { show: fresh, repriced });
  }

  /// A show that takes no holds (started, paused, cancelled) looks closed on the map, not on sale.
  salesState() {
    this.host.dataset.closed = String(this.show.onSale === false);
    this.host.dataset.closedText = t('closedOnMap');
  }

  // — What the element's API answers (js/element.js) —

  api() {
    return {
      select: ids => {
        const fresh = ids.filter(id => this.indexOf(id) !== undefined && !this.chosen().has(id));
        if (this.mode === 'operator') { for (const id of fresh) this.picked.add(id); this.paint(); return Promise.resolve(); }
        this.session.wheelchair = this.wheelchair;
        return this.session.addAll(fresh);
      },
      deselect: ids => {
        if (this.mode === 'operator') { for (const id of ids) this.picked.delete(id); this.paint(); return Promise.resolve(); }
        return this.session.removeAll(ids.filter(id => this.session.desired.has(id)));
      },
      zoomToSeats: ids => this.view.zoomToSeats(ids.map(id => this.indexOf(id)).filter(i => i !== undefined)),
      seat: id => {
        const i = this.indexOf(id), v = this.venue;
        if (i === undefined) return null;
        return { id, index: i, name: v.name(i), number: v.numbers[i], row: v.rowLabel[v.rowOf[i]], zone: v.zones[v.zoneOf[i]].id,
                 status: this.view.statusOf(i), selected: this.view.isSelected(i), label: this.view.label(i), rect: this.view.clientRect(i),
                 // As drawn: its fill, and the glyph (the engine's shape for its status) in its ink.
                 fill: this.view.fillOf(i), glyph: this.view.glyphOf(i), ink: this.view.inkOf(i) };
      },
      seatAt: (x, y) => {
        const b = this.parts.surface.getBoundingClientRect(), i = this.view.seatAt({ x: x - b.left, y: y - b.top }, false);
        return i === null ? null : this.venue.ids[i];
      },
      seats: () => this.venue.ids,
      zones: () => this.venue.zones.map((z, k) => ({ id: z.id, name: z.name, free: this.view.zoneFree[k] })),
      areas: () => this.areas(),
      setPlaces: (id, count) => this.setPlaces(id, count),
      selection: () => [...this.chosen()],
      hold: () => this.session?.hold ?? null,
      confirm: () => (this.session ? this.session.confirm() : Promise.reject(new Error('seatkit-map: an operator map holds nothing to confirm'))),
      release: () => (this.session ? this.session.release() : Promise.resolve()),
      view: () => ({ zoom: this.view.zoom, level: this.view.level(), offset: [this.view.ox, this.view.oy] }),
    };
  }
}
