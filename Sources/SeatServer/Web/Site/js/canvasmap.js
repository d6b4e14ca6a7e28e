// The seat map on one canvas: the venue's geometry (js/geometry.js) under the engine's rules, run by
// js/engine.js with the numbers the server sends (zoom limits and insets, level of detail, hit radius,
// drag path, gutter spacing) and drawn with the engine's proportions (`drawing`). Only what is on
// screen is drawn, at the engine's level of detail: zones with live free counts, rows (one bar an
// aisle-separated block), seats; a live change repaints only its seats. No element a seat: hit tests
// go through the engine's spatial index, the keyboard through one focus element (js/keyboard.js).

import { SeatField, Viewport, levelForZoom, touchViewport } from './engine.js';
import { MARK } from './geometry.js';

const LOD_OFF = new URLSearchParams(location.search).get('lod') === 'off';
export const STATUS = ['available', 'held', 'sold', 'blocked'];
/// Up to this many seats the minimap shows every seat; past it, the zones.
const MINIMAP_SEATS = 3000;
/// More changed seats than this in one frame repaint the whole view (a clip of hundreds of rectangles
/// costs more than drawing the few thousand seats on screen).
const DIRTY_LIMIT = 200;

export class CanvasMap {
  constructor({ container, surface, gutter, minimap, onTap, onDragSelect, onView }) {
    Object.assign(this, { container, surface, gutter, minimap, onTap, onDragSelect, onView });
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
    this.recount();
    this.vw = this.surface.clientWidth || 1; this.vh = this.surface.clientHeight || 1;
    // A new venue opens at the engine's opening viewport: on a touch screen or a phone-sized window with
    // seats big enough for a finger (so the first tap never has to zoom), else the whole venue.
    if (!sameVenue || !this.viewport) {
      const touch = matchMedia('(pointer: coarse)').matches || this.vw < 600;
      const w = venue.contentW, h = venue.contentH;
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
    this.miniPicture = null;
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

  /// From the zones or rows level, the zoom at which the engine draws single seats.
  zoomIntoSeats(fx, fy) { this.zoomTo(this.rules.detail.rowsBelow / this.rules.seatSize, fx, fy); }

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

  resize() {
    if (!this.venue) return;
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
    if (level === 'zones') this.drawZones(ctx);
    else if (level === 'rows') this.drawRows(ctx, area);
    else this.drawSeats(ctx, LOD_OFF ? null : area);
    ctx.restore();
  }

  /// Stage or screen, its label, and (but at the zones level) the centre line and thin zone outlines.
  drawStage(ctx, level) {
    const v = this.venue, z = this.zoom, p = v.palette, d = v.drawing, s = v.stage;
    if (s) {
      const size = Math.min(Math.max(d.stageLabelPoints, d.stageLabelPoints / z), s.width / Math.max([...s.label].length, 2),
        s.surrounded ? s.depth * 0.8 : Infinity);
      ctx.font = `${size}px sans-serif`; ctx.textAlign = 'center'; ctx.textBaseline = 'alphabetic';
      if (s.surrounded) {
        ctx.beginPath(); ctx.roundRect(s.x - s.width / 2, s.y - s.depth / 2, s.width, s.depth, d.stageCorner);
        ctx.fillStyle = p.stageFill; ctx.fill(); ctx.strokeStyle = p.stage; ctx.lineWidth = 1; ctx.stroke();
        ctx.fillStyle = p.stage; ctx.fillText(s.label, s.x, s.y + size * 0.35);
      } else {
        const bow = s.facesDown ? d.stageBow : -d.stageBow;
        ctx.beginPath(); ctx.moveTo(s.x - s.width / 2, s.y); ctx.quadraticCurveTo(s.x, s.y + bow, s.x + s.width / 2, s.y);
        ctx.strokeStyle = p.stage; ctx.lineWidth = d.stageLine; ctx.stroke();
        ctx.fillStyle = p.stage; ctx.fillText(s.label, s.x, s.y + (s.facesDown ? -8 : size + 4));
      }
    }
    if (level === 'zones') return;
    if (v.centreLine) {
      const [ax, ay, bx, by] = v.centreLine;
      ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by);
      ctx.setLineDash(d.dash); ctx.strokeStyle = p.centreLine; ctx.lineWidth = 1; ctx.stroke(); ctx.setLineDash([]);
    }
    if (level === 'seats') {
      ctx.globalAlpha = d.zoneOutlineOpacity; ctx.lineWidth = 1;
      v.zones.forEach((zone, k) => { if (zone.outline.length > 4) { ctx.strokeStyle = zone.color; ctx.stroke(this.zonePaths[k]); } });
      ctx.globalAlpha = 1;
    }
  }

  /// The zones level: each zone filled (grey when nothing in it is free) with its caption and free count.
  drawZones(ctx) {
    const v = this.venue, d = v.drawing, z = this.zoom;
    ctx.globalAlpha = d.zoneOpacity;
    v.zones.forEach((zone, k) => {
      ctx.fillStyle = ctx.strokeStyle = this.overlay ? this.heatColor(this.overlay.zones[k]) : this.zoneFree[k] > 0 ? zone.color : v.palette.sold;
      ctx.fill(this.zonePaths[k]); ctx.lineWidth = 1; ctx.stroke(this.zonePaths[k]);
    });
    ctx.globalAlpha = 1;
    ctx.fillStyle = v.palette.text; ctx.textAlign = 'center'; ctx.textBaseline = 'alphabetic';
    v.zones.forEach((zone, k) => {
      const caption = d.zoneCaption.replace('{name}', zone.name).replace('{free}', String(this.zoneFree[k]));
      let width = 0;
      for (const ch of caption) width += ch.codePointAt(0) >= 0x2E80 ? 2 : 1;
      const size = Math.min(d.zoneCaptionPoints / z, zone.box.w * d.zoneCaptionFill / (width * d.characterWidth));
      ctx.font = `600 ${size}px sans-serif`;
      ctx.fillText(caption, zone.box.x + zone.box.w / 2, zone.box.y + zone.box.h / 2 + size * 0.35);
    });
  }

  /// The rows level: each block on screen a bar through its seats, as opaque as it is free, with its
  /// free count once the bar is big enough.
  drawRows(ctx, area) {
    const v = this.venue, d = v.drawing, z = this.zoom, size = this.rules.seatSize;
    const counts = [];
    ctx.lineWidth = size;
    v.blocks.forEach((b, k) => {
      if (b.x > area.maxX || b.x + b.w < area.minX || b.y > area.maxY || b.y + b.h < area.minY) return;
      const free = this.blockFree[k], n = b.to - b.from, last = b.to - 1;
      if (this.overlay) {
        ctx.strokeStyle = this.heatColor(this.overlay.rows[v.rowOf[b.from]]); ctx.globalAlpha = 1;
      } else {
        ctx.strokeStyle = free > 0 ? this.zoneFill[v.zoneOf[b.from]] : v.palette.sold;
        ctx.globalAlpha = free > 0 ? d.rowOpacityFloor + (1 - d.rowOpacityFloor) * free / n : 1;
      }
      ctx.beginPath();
      let px = NaN, py = NaN, points = 0;
      for (const t of [0, 0.25, 0.5, 0.75, 1]) {
        const i = b.from + Math.round((last - b.from) * t);
        if (v.x[i] === px && v.y[i] === py) continue;
        px = v.x[i]; py = v.y[i];
        if (points++ === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
      }
      if (points === 1) ctx.lineTo(px + 0.01, py);
      ctx.stroke();
      if (size * z >= d.rowCountThickness && b.w * z >= d.rowCountLength) counts.push([k, free]);
    });
    ctx.globalAlpha = 1;
    ctx.fillStyle = v.palette.text; ctx.textAlign = 'center'; ctx.textBaseline = 'alphabetic';
    ctx.font = `${size * d.rowCountSize}px sans-serif`;
    for (const [k, free] of counts) {
      const b = v.blocks[k], mid = b.from + Math.floor((b.to - 1 - b.from) / 2);
      ctx.fillText(String(free), v.x[mid], v.y[mid] + size * d.rowCountBaseline);
    }
  }

  /// The seats level: the seats in `area` (all of them when null), one path a fill colour, then the
  /// numbers once seats are big enough to read them, then the marks.
  drawSeats(ctx, area) {
    const v = this.venue, d = v.drawing, p = v.palette, size = this.rules.seatSize, half = size / 2, r = d.cornerRadius;
    const seats = [];
    if (area) this.field.index.forEachCandidate(area.minX, area.minY, area.maxX, area.maxY, i => {
      const x = v.x[i], y = v.y[i];
      if (x - half < area.maxX && area.minX < x + half && y - half < area.maxY && area.minY < y + half) seats.push(i);
    });
    else for (let i = 0; i < v.count; i++) seats.push(i);
    const fills = new Map(), marks = [];
    const blocked = new Path2D();
    for (const i of seats) {
      const fill = this.fillOf(i);
      let path = fills.get(fill);
      if (!path) { path = new Path2D(); fills.set(fill, path); }
      path.roundRect(v.x[i] - half, v.y[i] - half, size, size, r);
      if (this.statuses[i] === 3 && !this.selection.has(i)) blocked.roundRect(v.x[i] - half, v.y[i] - half, size, size, r);
      if (v.marks[i]) marks.push(i);
    }
    for (const [fill, path] of fills) { ctx.fillStyle = fill; ctx.fill(path); }
    ctx.strokeStyle = p.stroke; ctx.lineWidth = 0.5; ctx.stroke(blocked);
    if (size * this.zoom >= this.rules.detail.labelsFrom) {
      ctx.font = `${size * d.numberSize}px sans-serif`; ctx.textAlign = 'center'; ctx.textBaseline = 'alphabetic';
      const dy = size * d.numberBaseline;
      let ink = null;
      for (const i of seats) {
        const want = this.inkOf(i);
        if (want !== ink) { ctx.fillStyle = want; ink = want; }
        ctx.fillText(v.marks[i] & MARK.wheelchair ? '♿' : v.numbers[i], v.x[i], v.y[i] + dy);
      }
    }
    if (marks.length) {
      const couples = new Path2D(), dots = new Path2D();
      for (const i of marks) {
        if (v.marks[i] & MARK.coupleLeft) couples.roundRect(v.x[i] - half - 1.5, v.y[i] - half - 1.5, v.x[i + 1] - v.x[i] + size + 3, size + 3, r + 1.5);
        if (v.marks[i] & MARK.restrictedView) { dots.moveTo(v.x[i] + half - 1, v.y[i] - half + 3); dots.arc(v.x[i] + half - 3, v.y[i] - half + 3, 2, 0, 2 * Math.PI); }
      }
      ctx.strokeStyle = p.stroke; ctx.lineWidth = 1.5; ctx.stroke(couples);
      ctx.fillStyle = p.text; ctx.fill(dots);
    }
    if (this.sweeping.size) {
      const ring = new Path2D();
      for (const i of this.sweeping) ring.roundRect(v.x[i] - half, v.y[i] - half, size, size, r);
      ctx.strokeStyle = '#1A73E8'; ctx.lineWidth = 3 / this.zoom; ctx.stroke(ring);
    }
  }

  fillOf(i) {
    if (this.selection.has(i)) return this.venue.palette.selected;
    if (this.overlay) return this.heatColor(this.overlay.levels[i]);
    const s = this.statuses[i];
    return s === 0 ? this.zoneFill[this.venue.zoneOf[i]] : this.venue.palette[STATUS[s]];
  }

  inkOf(i) {
    if (this.selection.has(i)) return this.venue.palette.ink.selected;
    if (this.overlay) { const level = this.overlay.levels[i]; return level < 0 ? this.overlay.missingInk : this.overlay.inks[level]; }
    const s = this.statuses[i];
    return s === 0 ? this.zoneInk[this.venue.zoneOf[i]] : this.venue.palette.ink[STATUS[s]];
  }

  /// Row labels pinned to the left edge at their rows' heights, as the engine's gutter gives them.
  renderGutter() {
    const labels = this.field.gutter(this.viewport).map(g => {
      const el = document.createElement('div');
      el.className = 'gutter-label';
      el.dataset.row = g.label;
      el.textContent = g.label;
      el.style.transform = `translateY(${g.y.toFixed(2)}px) translateY(-50%)`;
      return el;
    });
    this.gutter.replaceChildren(...labels);
  }

  /// The overview: the venue small (every seat for a hall, the zones for a big venue: redrawn when
  /// statuses changed) and the part on screen as a rectangle.
  renderMinimap(statusesChanged) {
    const m = this.minimap;
    if (m.hidden || !this.venue) return;
    const v = this.venue, w = m.clientWidth || 160, h = m.clientHeight || 120, dpr = this.dpr;
    if (m.width !== Math.round(w * dpr) || m.height !== Math.round(h * dpr)) { m.width = Math.round(w * dpr); m.height = Math.round(h * dpr); this.miniPicture = null; }
    const scale = Math.min(w / v.contentW, h / v.contentH), ctx = this.miniCtx;
    if (!this.miniPicture || statusesChanged) {
      const picture = this.miniPicture ?? new OffscreenCanvas(m.width, m.height);
      const pc = picture.getContext('2d');
      pc.setTransform(1, 0, 0, 1, 0, 0);
      pc.clearRect(0, 0, picture.width, picture.height);
      pc.setTransform(scale * dpr, 0, 0, scale * dpr, 0, 0);
      if (v.count <= MINIMAP_SEATS) {
        const size = this.rules.seatSize;
        for (let i = 0; i < v.count; i++) { pc.fillStyle = this.fillOf(i); pc.fillRect(v.x[i] - size / 2, v.y[i] - size / 2, size, size); }
      } else {
        pc.globalAlpha = 0.5;
        v.zones.forEach((zone, k) => { pc.fillStyle = this.zoneFree[k] > 0 ? zone.color : v.palette.sold; pc.fill(this.zonePaths[k]); });
        pc.globalAlpha = 1;
      }
      this.miniPicture = picture;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, m.width, m.height);
    ctx.drawImage(this.miniPicture, 0, 0);
    const r = this.viewport.visibleRect();
    ctx.setTransform(scale * dpr, 0, 0, scale * dpr, 0, 0);
    ctx.fillStyle = 'rgb(26 115 232 / .12)'; ctx.fillRect(r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY);
    ctx.strokeStyle = '#1A73E8'; ctx.lineWidth = 2 / scale; ctx.strokeRect(r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY);
    // The rectangle in content units, for tests and tools.
    m.dataset.viewport = [r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY].map(n => n.toFixed(1)).join(',');
  }

  // — Pointer: tap, drag to pan, drag across seats to select, wheel and pinch to zoom —

  /// A pointer's position in view coordinates: on the surface, right of the gutter.
  viewPoint(e) {
    const b = this.surface.getBoundingClientRect();
    return { x: e.clientX - b.left, y: e.clientY - b.top };
  }

  /// The seat under a view point: the engine's hit test (the nearest within half a touch target), or
  /// with `nearest` false only a seat whose square the point is on (a mouse press there selects, elsewhere pans).
  seatAt(p, nearest = true) {
    if (nearest) return this.field.hitTest(p.x, p.y, this.viewport);
    const c = this.viewport.contentPoint(p.x, p.y);
    return this.field.index.nearest(c.x, c.y, 0);
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
        // On touch a drag pans; a press held still for a moment starts a drag selection.
        this.gesture.timer = setTimeout(() => { if (this.gesture?.mode === 'undecided') this.beginSelect(); }, 350);
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
      if (g.mode === 'undecided' && this.level() !== 'seats') {
        this.zoomIntoSeats(g.start.x, g.start.y);     // a tap on the zoomed-out map goes in there
      } else if (g.mode === 'undecided') {
        const seat = g.seat ?? this.seatAt(g.start);
        if (seat !== null) this.onTap(seat);
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

/// A zone's outline: one closed subpath a part (`parts`: where each ends, in points; the geometry
/// document's, so a zone whose rows another zone interrupts is two outlines here as in the engine).
function outlinePath(flat, parts = [flat.length / 2]) {
  const path = new Path2D();
  let start = 0;
  for (const end of parts) {
    for (let k = start; k < end; k++) (k === start ? path.moveTo : path.lineTo).call(path, flat[2 * k], flat[2 * k + 1]);
    path.closePath();
    start = end;
  }
  return path;
}
