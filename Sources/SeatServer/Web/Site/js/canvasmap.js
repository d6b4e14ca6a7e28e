// The seat map on one canvas: the venue's geometry (js/geometry.js) under the engine's rules, run by
// js/engine.js with the numbers the server sends (zoom limits and insets, level of detail, hit radius,
// drag path, gutter spacing) and drawn with the engine's proportions (`drawing`). Only what is on
// screen is drawn, at the engine's level of detail: zones with live free counts, rows (one bar an
// aisle-separated block), seats; a live change repaints only its seats. No element a seat: hit tests
// go through the engine's spatial index, the keyboard through one focus element (js/keyboard.js).
// This file is the map's state and its frame; what it draws is in canvasmap-draw.js, the pointer and
// gestures in canvasmap-pointer.js, the overview in canvasmap-minimap.js (their methods join the class).

import { SeatField, Viewport, levelForZoom, touchViewHeight, touchViewport, zoomIntoSeats } from './engine.js';
import { MARK, insideOutline } from './geometry.js';
import { STATUS } from './availability.js';
import { Drawing, outlinePath } from './canvasmap-draw.js';
import { Minimap } from './canvasmap-minimap.js';
import { Pointer } from './canvasmap-pointer.js';

const LOD_OFF = new URLSearchParams(location.search).get('lod') === 'off';
/// More changed seats than this in one frame repaint the whole view (a clip of hundreds of rectangles
/// costs more than drawing the few thousand seats on screen).
const DIRTY_LIMIT = 200;

export class CanvasMap {
  constructor({ container, surface, gutter, topGutter, minimap, onTap, onDragSelect, onView }) {
    Object.assign(this, { container, surface, gutter, topGutter, minimap, onTap, onDragSelect, onView });
    /** @type {Map<number, {fill: string, ink: string}> | null} */
    this.tints = null;
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'map-canvas';
    this.canvas.setAttribute('aria-hidden', 'true');
    surface.prepend(this.canvas);
    this.ctx = this.canvas.getContext('2d');
    this.miniCtx = minimap.getContext('2d');
    this.venue = null; this.viewport = null; this.vw = 1; this.vh = 1;
    this.statuses = null; this.selection = new Set(); this.sweeping = new Set();
    this.pointers = new Map();
    this.dirty = new Set(); this.full = false; this.frame = 0; this.waiting = [];
    this.bindPointer();
    new ResizeObserver(() => this.resize()).observe(surface);
  }

  /// Puts a venue in place (its geometry, decoded) with its prices; keeps the view when it is the same
  /// venue (a language switch). Statuses start all available until `setStatuses`.
  load(venue, prices) {
    const sameVenue = this.venue && this.venue.id === venue.id;
    this.venue = venue; this.prices = prices; this.rules = venue.rules;
    if (!this.statuses || this.statuses.length !== venue.count) this.statuses = new Uint8Array(venue.count);
    this.field = new SeatField(venue.x, venue.y, venue.gutterRows, venue.rules);
    this.rowsCache = null;
    this.zoneFill = venue.zones.map(z => z.color);
    this.zoneInk = venue.zones.map(z => z.ink);
    this.zonePaths = venue.zones.map(z => outlinePath(z.outline, z.parts));
    this.areaPaths = venue.areas.map(a => outlinePath(a.outline));
    this.recount();
    this.vw = this.surface.clientWidth || 1; this.vh = this.surface.clientHeight || 1;
    // A new venue opens at the engine's opening viewport: on a touch screen or a phone-sized window with
    // seats big enough for a finger (so the first tap never has to zoom), else the whole venue.
    if (!sameVenue || !this.viewport) {
      const touch = matchMedia('(pointer: coarse)').matches || this.vw < 600;
      const w = venue.contentW, h = venue.contentH;
      if (touch) { this.fitHeight(this.vw); this.vh = this.surface.clientHeight || 1; }
      this.viewport = touch ? touchViewport(w, h, this.vw, this.vh, this.rules) : new Viewport(w, h, this.vw, this.vh, this.rules);
    }
    this.miniPicture = null;
    this.minimap.style.aspectRatio = `${venue.contentW} / ${venue.contentH}`;
    this.sizeCanvas();
    this.apply();
  }

  setPrices(prices) { this.prices = prices; }

  /// Lays a heat map over the seats (the heat-map overlay document, `GET /v1/venues/{id}/heatmap?shape=levels`),
  /// or takes it away (null): seats, row bars and zones take the engine's colour for their level; the
  /// operator's marked seats stay marked.
  setOverlay(doc) {
    this.overlay = doc && {
      levels: Int16Array.from(doc.levels), palette: doc.palette, inks: doc.inks, missing: doc.missing, missingInk: doc.missingInk,
      rows: doc.rows.map(r => r.level), zones: doc.zones.map(z => z.level),
    };
    this.container.dataset.overlay = doc ? 'heat' : '';
    this.miniPicture = null;
    this.invalidate();
  }

  heatColor(level) { return level < 0 ? this.overlay.missing : this.overlay.palette[level]; }

  /// Seats drawn in a colour of their own under their status (a partner's channel at the desk): seat
  /// index → {fill, ink}; null or empty: none. The heat overlay and the marked seats draw over them.
  setTints(tints) {
    this.tints = tints?.size ? tints : null;
    this.miniPicture = null;
    this.invalidate();
  }

  // — Statuses and selection —

  statusOf(i) { return STATUS[this.statuses[i]]; }

  /// Every seat's status at once (a snapshot): free counts recounted, the view redrawn.
  /// - Complexity: O(seats), no allocation.
  setStatuses(statuses) {
    this.statuses = statuses;
    this.recount();
    this.invalidate();
  }

  /// One seat's status changed (a delta): its zone's and block's counts follow, only it is repainted.
  setStatus(i, code) {
    const before = this.statuses[i];
    if (before === code) return;
    this.statuses[i] = code;
    if (before === 0) { this.zoneFree[this.venue.zoneOf[i]] -= 1; this.blockFree[this.venue.blockOf[i]] -= 1; }
    if (code === 0) { this.zoneFree[this.venue.zoneOf[i]] += 1; this.blockFree[this.venue.blockOf[i]] += 1; }
    // A place: its area's count moves, and the area is drawn again (the whole frame: it is one shape).
    if (this.venue.isPlace[i]) { this.areaFree = this.countAreas(); this.full = true; this.schedule(); return; }
    this.invalidate(i);
  }

  /// The seats shown as the buyer's (indices); only the seats that changed are repainted.
  setSelection(indices) {
    for (const i of this.selection) if (!indices.has(i)) this.invalidate(i);
    for (const i of indices) if (!this.selection.has(i)) this.invalidate(i);
    this.selection = new Set(indices);
  }

  isSelected(i) { return this.selection.has(i); }

  recount() {
    const v = this.venue;
    this.zoneFree = new Int32Array(v.zones.length);
    this.blockFree = new Int32Array(v.blocks.length);
    const s = this.statuses, zoneOf = v.zoneOf, blockOf = v.blockOf;
    for (let i = 0; i < v.count; i++) if (s[i] === 0) { this.zoneFree[zoneOf[i]] += 1; this.blockFree[blockOf[i]] += 1; }
    this.areaFree = this.countAreas();
    this.miniPicture = null;
  }

  /// Each area's free places. - Complexity: O(places).
  countAreas() {
    return this.venue.areas.map(a => { let free = 0; for (let i = a.from; i < a.to; i++) if (this.statuses[i] === 0) free += 1; return free; });
  }

  /// What a screen reader says of a seat now: name, status (or "selected"), kind, price.
  label(i) {
    const word = this.venue.words[this.selection.has(i) ? 'selected' : this.statusOf(i)];
    return this.venue.label(i, word, this.prices);
  }

  // — Viewport: the engine's (js/engine.js) —

  get zoom() { return this.viewport ? this.viewport.zoom : 1; }
  get ox() { return this.viewport ? this.viewport.ox : 0; }
  get oy() { return this.viewport ? this.viewport.oy : 0; }
  minZoom() { return this.viewport.minZoom(); }

  /// The engine's level at this zoom. `?lod=off` draws every seat at every zoom without culling: the
  /// benchmark's baseline (scripts/bench-web.py), not for buyers.
  level() { return LOD_OFF ? 'seats' : levelForZoom(this.zoom, this.rules); }

  /// Whether this venue can be zoomed out to the zones level at all (a hall cannot).
  zonesReachable() { return levelForZoom(this.minZoom(), this.rules) === 'zones'; }

  apply() {
    const c = this.container.dataset, level = this.level();
    c.zoom = this.zoom.toFixed(4);
    if (c.level !== level) c.level = level;
    c.offset = `${this.ox.toFixed(1)},${this.oy.toFixed(1)}`;
    this.renderGutter();
    this.full = true;
    this.schedule();
    this.onView?.();
  }

  zoomTo(zoom, fx = this.vw / 2, fy = this.vh / 2) { this.viewport.zoomTo(zoom, fx, fy); this.apply(); }

  /// From the zones or rows level into the seats there (SeatCanvas.zoomIntoSeats): single seats drawn,
  /// and a finger's 24 points at least (an arena's section tapped on a phone).
  /// A section tapped (its outline under the finger) comes to the middle of the view, so the gutter,
  /// which names the rows crossing the view's centre line, names that section's rows.
  zoomIntoSeats(fx, fy) {
    const c = this.viewport.contentPoint(fx, fy);
    const zone = this.venue.zones.find(z => z.outline?.length >= 6 && insideOutline(z.outline, c.x, c.y));
    this.zoomTo(zoomIntoSeats(this.rules), fx, fy);
    if (zone) this.centreOn(zone.box.x + zone.box.w / 2, zone.box.y + zone.box.h / 2);
  }

  panBy(dx, dy) { this.viewport.panBy(dx, dy); this.apply(); }

  centreOn(cx, cy) { this.viewport.centreOn(cx, cy); this.apply(); }

  /// Brings seat `i` on screen (keyboard focus, best seats), zooming in until seats are touch-sized.
  reveal(i) {
    const size = this.rules.openingSeatSize;
    if (this.zoom * this.rules.seatSize < size) this.viewport.zoomTo(size / this.rules.seatSize, this.vw / 2, this.vh / 2);
    const p = this.viewport.viewPoint(this.venue.x[i], this.venue.y[i]), margin = 40;
    if (p.x < margin || p.x > this.vw - margin || p.y < margin || p.y > this.vh - margin) this.centreOn(this.venue.x[i], this.venue.y[i]);
    else this.apply();
  }

  /// Shows every seat of `indices` at once, as close as the engine allows (`zoomToSeats` of the API).
  zoomToSeats(indices) {
    if (!indices.length) return;
    const v = this.venue, half = this.rules.seatSize / 2;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const i of indices) {
      minX = Math.min(minX, v.x[i] - half); maxX = Math.max(maxX, v.x[i] + half);
      minY = Math.min(minY, v.y[i] - half); maxY = Math.max(maxY, v.y[i] + half);
    }
    // Touch-sized seats at least; half again that when there is room (a lone seat among its neighbours,
    // not filling the view), or the buyer's own closer zoom when the seats still fit in it.
    const room = 2 * this.rules.inset, touch = this.rules.openingSeatSize / this.rules.seatSize;
    const fit = Math.min((this.vw - room) / Math.max(maxX - minX, 1), (this.vh - room) / Math.max(maxY - minY, 1));
    this.viewport.zoomTo(Math.max(touch, Math.min(fit, Math.max(this.zoom, 1.5 * touch))), this.vw / 2, this.vh / 2);
    this.centreOn((minX + maxX) / 2, (minY + maxY) / 2);
  }

  /// Seat `i`'s square on the page (client coordinates), or null when it is not on screen.
  clientRect(i) {
    const v = this.venue, half = this.rules.seatSize / 2, b = this.surface.getBoundingClientRect();
    const p = this.viewport.viewPoint(v.x[i] - half, v.y[i] - half), size = this.rules.seatSize * this.zoom;
    if (p.x + size < 0 || p.y + size < 0 || p.x > this.vw || p.y > this.vh) return null;
    return new DOMRect(b.left + p.x, b.top + p.y, size, size);
  }

  /// On a touch screen the map is as tall as its hall opened whole needs (the engine's
  /// touchViewHeight), at most what the page's style gives it: a wide hall leaves no white band.
  /// - Complexity: O(1).
  fitHeight(width) {
    this.container.style.height = '';
    const most = this.surface.clientHeight || 1;
    const height = touchViewHeight(this.venue.contentW, this.venue.contentH, width, most, this.rules);
    this.fittedWidth = width;
    // The element's styled height is the surface's plus whatever its box-sizing counts besides.
    const styled = parseFloat(getComputedStyle(this.container).height);
    if (height < most) this.container.style.height = `${styled - most + height}px`;
  }

  resize() {
    if (!this.venue) return;
    // A turned phone: the hall is fitted to the new width (the zoom and centre kept by the viewport).
    if (this.fittedWidth !== undefined && this.surface.clientWidth !== this.fittedWidth) this.fitHeight(this.surface.clientWidth);
    const w = this.surface.clientWidth || 1, h = this.surface.clientHeight || 1;
    if (w === this.vw && h === this.vh && this.canvas.width === Math.round(w * this.dpr)) return;
    this.vw = w; this.vh = h;
    this.viewport.resize(w, h);
    this.sizeCanvas();
    this.apply();
  }

  sizeCanvas() {
    this.dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(this.vw * this.dpr); this.canvas.height = Math.round(this.vh * this.dpr);
    this.canvas.style.width = `${this.vw}px`; this.canvas.style.height = `${this.vh}px`;
  }

  // — Rows as the keyboard walks them —

  /// Rows top to bottom, each with its seat indices left to right (made once, when first asked).
  /// - Complexity: O(seats · log) once.
  rows() {
    if (this.rowsCache) return this.rowsCache;
    const v = this.venue, byRow = new Map();
    for (let i = 0; i < v.count; i++) {
      const r = v.rowOf[i];
      (byRow.get(r) || byRow.set(r, []).get(r)).push(i);
    }
    const rows = v.gutterRows.map(([label, y, row]) => ({ label, y, row, seats: (byRow.get(row) || []).sort((a, b) => v.x[a] - v.x[b]) }));
    this.rowsCache = { rows, at: new Map(rows.map((r, k) => [r.row, k])) };
    return this.rowsCache;
  }

  // — Drawing —

  /// Seat `i` needs repainting (or, with no argument, everything) at the next frame.
  invalidate(i) {
    if (i === undefined) this.full = true; else this.dirty.add(i);
    this.schedule();
  }

  schedule() {
    if (this.frame || !this.venue) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const full = this.full || this.dirty.size > DIRTY_LIMIT || this.level() !== 'seats';
      const dirty = full ? null : [...this.dirty];
      this.full = false; this.dirty.clear();
      this.draw(dirty);
      this.renderMinimap(full);
      for (const resolve of this.waiting.splice(0)) resolve();
    });
  }

  /// Resolves once the next frame has been drawn (the map is on screen, not only loaded).
  drawn() { return new Promise(resolve => { this.waiting.push(resolve); this.schedule(); }); }

  /// Draws the view, or only the squares of the `dirty` seats (each cleared and drawn again, with
  /// whatever else overlaps them) when just statuses or the selection changed.
  draw(dirty) {
    const ctx = this.ctx, v = this.venue, z = this.zoom, dpr = this.dpr, ox = this.ox, oy = this.oy;
    let area = this.viewport.visibleRect();
    ctx.save();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (dirty) {
      if (!dirty.length) { ctx.restore(); return; }
      const pad = 3, half = this.rules.seatSize / 2 + pad;
      ctx.beginPath();
      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (const i of dirty) {
        // A couple seat's outline spans its partner: repaint both.
        const x0 = v.x[i] - half - (v.marks[i - 1] & MARK.coupleLeft ? this.rules.pitch : 0);
        const x1 = v.x[i] + half + (v.marks[i] & MARK.coupleLeft ? this.rules.pitch : 0);
        const y0 = v.y[i] - half, y1 = v.y[i] + half;
        ctx.rect(x0 * z - ox, y0 * z - oy, (x1 - x0) * z, (y1 - y0) * z);
        minX = Math.min(minX, x0); minY = Math.min(minY, y0); maxX = Math.max(maxX, x1); maxY = Math.max(maxY, y1);
      }
      ctx.clip();
      area = { minX, minY, maxX, maxY };
    }
    ctx.fillStyle = '#FFFFFF';
    ctx.fillRect(0, 0, this.vw, this.vh);
    ctx.setTransform(dpr * z, 0, 0, dpr * z, -ox * dpr, -oy * dpr);
    const level = this.level();
    this.drawStage(ctx, level);
    this.drawAreas(ctx);
    this.drawTables(ctx);
    if (level === 'zones') this.drawZones(ctx);
    else if (level === 'rows') this.drawRows(ctx, area);
    else this.drawSeats(ctx, LOD_OFF ? null : area);
    ctx.restore();
  }

}

// The parts' methods join the class: one object, three files of one concern each.
for (const part of [Drawing, Minimap, Pointer]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name !== 'constructor') Object.defineProperty(CanvasMap.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}
