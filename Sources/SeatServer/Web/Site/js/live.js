// @ts-check
// Live availability from `GET /v1/shows/{id}/events`: a snapshot on connect, then one delta per
// committed version. The browser's EventSource reconnects by itself and sends Last-Event-ID, so the
// server replays what was missed (or sends `reset`). A tab hidden for long, a machine that slept or a
// closed stream is resynced from a fresh snapshot. An `event: show` carries the show after a
// manager changed it.

import { decodeAvailability, decodeDelta } from './availability.js';

/**
 * @typedef {{ onSnapshot: (state: any) => void, onDelta: (delta: any) => void,
 *   onState: (state: 'live' | 'connecting' | 'offline' | string) => void, onShow: (show: any) => void }} LiveEvents
 */

export class LiveAvailability {
  /** @param {string} showId @param {LiveEvents} events */
  constructor(showId, { onSnapshot, onDelta, onState, onShow }) {
    this.showId = showId;
    this.onSnapshot = onSnapshot; this.onDelta = onDelta; this.onState = onState; this.onShow = onShow;
    this.version = -1;
    this.onVisible = () => {
      if (document.visibilityState === 'hidden') { this.hiddenAt = Date.now(); return; }
      if (this.hiddenAt && Date.now() - this.hiddenAt > 30_000) this.resync();
      this.hiddenAt = null;
      this.checkHealth();
    };
    // The network gone: said at once (an open stream may not fail for a long while); back: start again.
    this.onOffline = () => this.onState('offline');
    this.onOnline = () => this.resync();
    document.addEventListener('visibilitychange', this.onVisible);
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
    // A machine that slept shows as a jump in this timer: the stream may be long dead without an error.
    this.lastTick = Date.now();
    this.watchdog = setInterval(() => {
      if (Date.now() - this.lastTick > 30_000) this.resync(); else this.checkHealth();
      this.lastTick = Date.now();
    }, 5000);
    this.open();
  }

  open() {
    this.source?.close();
    const source = new EventSource(`/v1/shows/${encodeURIComponent(this.showId)}/events`);
    this.source = source;
    const whole = e => {
      const state = decodeAvailability(e.data);
      this.version = state.version;
      this.onSnapshot(state);
    };
    source.addEventListener('snapshot', whole);
    source.addEventListener('reset', whole);
    source.addEventListener('seats', e => {
      const delta = decodeDelta(e.data);
      if (delta.to <= this.version) return;           // already applied (a replay after a reconnect)
      if (delta.from !== this.version) { this.open(); return; } // a gap: start again from a snapshot
      this.version = delta.to;
      this.onDelta(delta);
    });
    // The show itself changed (new prices, times, details, sales paused or cancelled): after its
    // version's (empty) seats event, the show as `GET /v1/shows/{id}` has it.
    source.addEventListener('show', e => this.onShow?.(JSON.parse(e.data)));
    source.addEventListener('open', () => this.onState(navigator.onLine === false ? 'offline' : 'live'));
    source.addEventListener('error', () =>
      this.onState(navigator.onLine === false ? 'offline' : source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting'));
  }

  checkHealth() { if (this.source.readyState === EventSource.CLOSED) this.resync(); }

  /// Starts again from a snapshot (after a sleep, a closed stream or the network's return).
  resync() {
    this.onState(navigator.onLine === false ? 'offline' : 'reconnecting');
    this.version = -1;
    this.open();
  }

  close() {
    this.source?.close();
    clearInterval(this.watchdog);
    document.removeEventListener('visibilitychange', this.onVisible);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
  }
}
