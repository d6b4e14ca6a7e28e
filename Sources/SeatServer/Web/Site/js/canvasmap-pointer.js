// The map's pointer (part of CanvasMap, js/canvasmap.js): tap, drag to pan, drag across seats to
// select, lasso, wheel and pinch to zoom; hit tests are the engine's.

import { zoomAfterTap } from './engine.js';
import { insideOutline } from './geometry.js';

export class Pointer {
  // — Pointer: tap, drag to pan, drag across seats to select, wheel and pinch to zoom —

  /// A pointer's position in view coordinates: on the surface, right of the gutter.
  viewPoint(e) {
    const b = this.surface.getBoundingClientRect();
    return { x: e.clientX - b.left, y: e.clientY - b.top };
  }

  /// The seat under a view point: the engine's hit test (the nearest within half a touch target), or
  /// with `nearest` false only a seat whose square the point is on (a mouse press there selects, elsewhere pans).
  seatAt(p, nearest = true) {
    const c = this.viewport.contentPoint(p.x, p.y);
    const seat = nearest ? this.field.hitTest(p.x, p.y, this.viewport) : this.field.index.nearest(c.x, c.y, 0);
    // An area's places are not tapped one by one: the area is (`areaAt`).
    return seat !== null && this.venue.isPlace[seat] ? null : seat;
  }

  /// The general-admission area under a view point, or null.
  areaAt(p) {
    const c = this.viewport.contentPoint(p.x, p.y);
    return this.venue.areas.find(a => insideOutline(a.outline, c.x, c.y)) ?? null;
  }

  /// The table whose top is under a view point, or null: a tap there is a tap on the table's first
  /// seat (what it takes is the show's: `tapChoice`).
  tableAt(p) {
    const c = this.viewport.contentPoint(p.x, p.y);
    return this.venue.tables.find(t => c.x >= t.box.x && c.x <= t.box.x + t.box.w && c.y >= t.box.y && c.y <= t.box.y + t.box.h) ?? null;
  }

  bindPointer() {
    const c = this.surface;
    c.addEventListener('wheel', e => {
      if (!this.venue) return;
      e.preventDefault();
      const p = this.viewPoint(e);
      this.zoomTo(this.zoom * Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.0015)), p.x, p.y);
    }, { passive: false });

    this.minimap.addEventListener('pointerdown', e => {
      e.stopPropagation();
      const b = this.minimap.getBoundingClientRect(), v = this.venue;
      const scale = Math.min(b.width / v.contentW, b.height / v.contentH);
      this.centreOn((e.clientX - b.left) / scale, (e.clientY - b.top) / scale);
    });

    c.addEventListener('pointerdown', e => {
      if (!this.venue || (e.pointerType === 'mouse' && e.button !== 0) || e.target === this.minimap) return;
      c.setPointerCapture(e.pointerId);
      const p = this.viewPoint(e);
      this.pointers.set(e.pointerId, p);
      if (this.pointers.size === 2) { this.gesture = { mode: 'pinch', distance: this.pinchDistance(), zoom: this.zoom }; return; }
      const seat = this.level() === 'seats' ? this.seatAt(p, false) : null;
      if (this.lassoEnabled && e.shiftKey) { this.beginLasso(p); return; }
      this.gesture = { mode: 'undecided', start: p, last: p, seat, picked: [], path: [[p.x, p.y]], type: e.pointerType };
      if (e.pointerType !== 'mouse' && seat !== null) {
        // On touch a drag pans; a press held still for a moment is a peek (`seatpress`: the page shows that
        // seat's card, as a mouse's hover does) and picks nothing, unless the finger then moves on: a drag
        // selection from that seat. (A long press to peek at a seat once selected it too.)
        this.gesture.timer = setTimeout(() => {
          if (this.gesture?.mode !== 'undecided') return;
          this.gesture.mode = 'pressed';
          this.container.dispatchEvent(new CustomEvent('seatpress', { bubbles: true, detail: { id: this.venue.ids[seat], x: e.clientX, y: e.clientY } }));
        }, 350);
      }
    });

    c.addEventListener('pointermove', e => {
      if (!this.pointers.has(e.pointerId) || !this.gesture) return;
      const p = this.viewPoint(e);
      this.pointers.set(e.pointerId, p);
      const g = this.gesture;
      if (g.mode === 'pinch') {
        const ps = [...this.pointers.values()];
        this.zoomTo(g.zoom * this.pinchDistance() / g.distance, (ps[0].x + ps[1].x) / 2, (ps[0].y + ps[1].y) / 2);
        return;
      }
      if (g.mode === 'lasso') { this.drawLasso(g.start, p); g.last = p; return; }
      if (g.mode === 'undecided' && Math.hypot(p.x - g.start.x, p.y - g.start.y) > 4) {
        clearTimeout(g.timer);
        if (g.type === 'mouse' && g.seat !== null) this.beginSelect(); else g.mode = 'pan';
      }
      if (g.mode === 'pressed' && Math.hypot(p.x - g.start.x, p.y - g.start.y) > 4) this.beginSelect();
      if (g.mode === 'pan') this.panBy(p.x - g.last.x, p.y - g.last.y);
      if (g.mode === 'select') this.sweep(p);
      g.last = p;
    });

    const end = e => {
      if (!this.pointers.delete(e.pointerId) || !this.gesture) return;
      const g = this.gesture;
      clearTimeout(g.timer);
      if (g.mode === 'pinch') { if (this.pointers.size === 0) this.gesture = null; return; }
      this.gesture = null;
      if (g.mode === 'lasso') { this.endLasso(g, e.type !== 'pointercancel'); return; }
      if (e.type === 'pointercancel') { this.clearSweep(); return; }
      const area = g.mode === 'undecided' ? this.areaAt(g.start) : null;
      if (area) {
        // A standing floor or a box tapped: the page asks how many places (its stepper).
        this.container.dispatchEvent(new CustomEvent('areatap', { bubbles: true, detail: { area: area.id } }));
      } else if (g.mode === 'undecided' && this.level() !== 'seats') {
        this.zoomIntoSeats(g.start.x, g.start.y);     // a tap on the zoomed-out map goes in there
      } else if (g.mode === 'undecided') {
        const table = g.seat === undefined || g.seat === null ? this.tableAt(g.start) : null;
        const seat = table ? table.from : g.seat ?? this.seatAt(g.start);
        if (seat !== null) {
          // The whole hall opened small on a phone: the tapped seat grows to a finger's size where it is.
          const zoom = g.type === 'touch' ? zoomAfterTap(this.zoom, this.rules) : null;
          if (zoom !== null) this.zoomTo(zoom, g.start.x, g.start.y);
          this.onTap(seat);
        }
      } else if (g.mode === 'select') {
        this.clearSweep();
        if (g.picked.length) this.onDragSelect(g.picked);
      }
    };
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
  }

  // — Lasso (the console's desk: Shift and drag): every seat whose centre is inside the rectangle —

  beginLasso(p) {
    this.gesture = { mode: 'lasso', start: p, last: p };
    if (!this.lassoBox) {
      this.lassoBox = document.createElement('div');
      this.lassoBox.className = 'lasso';
      this.lassoBox.setAttribute('aria-hidden', 'true');
      this.surface.append(this.lassoBox);
    }
    this.drawLasso(p, p);
    this.lassoBox.hidden = false;
  }

  drawLasso(a, b) {
    Object.assign(this.lassoBox.style, {
      left: `${Math.min(a.x, b.x)}px`, top: `${Math.min(a.y, b.y)}px`, width: `${Math.abs(b.x - a.x)}px`, height: `${Math.abs(b.y - a.y)}px`,
    });
  }

  /// The seats whose centres the rectangle holds, in seat order, through the engine's spatial index.
  /// - Complexity: O(seats near the rectangle).
  seatsInside(a, b) {
    const p = this.viewport.contentPoint(Math.min(a.x, b.x), Math.min(a.y, b.y)), q = this.viewport.contentPoint(Math.max(a.x, b.x), Math.max(a.y, b.y));
    const v = this.venue, out = [];
    this.field.index.forEachCandidate(p.x, p.y, q.x, q.y, i => { if (v.x[i] >= p.x && v.x[i] <= q.x && v.y[i] >= p.y && v.y[i] <= q.y) out.push(i); });
    return out.sort((x, y) => x - y);
  }

  endLasso(g, done) {
    this.lassoBox.hidden = true;
    if (!done) return;
    const seats = this.seatsInside(g.start, g.last);
    if (seats.length) this.onDragSelect(seats);
  }

  pinchDistance() {
    const [a, b] = [...this.pointers.values()];
    return Math.max(Math.hypot(a.x - b.x, a.y - b.y), 1);
  }

  beginSelect() {
    this.gesture.mode = 'select';
    this.pick(this.gesture.seat);
  }

  pick(i) {
    const g = this.gesture;
    if (i === null || g.picked.includes(i)) return;
    g.picked.push(i);
    this.sweeping.add(i);
    this.invalidate(i);
  }

  /// The seats the pointer has crossed so far, in order: the engine's drag path over every position
  /// since the press (sampled a quarter seat apart, so a fast drag skips none).
  sweep(p) {
    const g = this.gesture;
    g.path.push([p.x, p.y]);
    for (const i of this.field.alongDrag(g.path, this.viewport)) this.pick(i);
  }

  clearSweep() {
    for (const i of this.sweeping) this.invalidate(i);
    this.sweeping.clear();
  }
}
