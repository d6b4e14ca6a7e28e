// The seat map on screen: the server's SVG (drawn by SeatCanvas) under the engine's rules, run by
// js/engine.js with the numbers the server sends (`data-rules`: the viewport's zoom limits and insets,
// the level of detail, the hit-test radius, the drag path, the gutter spacing). The row gutter and the
// minimap follow every change of the viewport.

import { SeatField, Viewport, levelForZoom, touchViewport } from './engine.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const LOD_OFF = new URLSearchParams(location.search).get('lod') === 'off';
/// Up to this many seats the minimap shows every seat.
const MINIMAP_SEATS = 3000;

export class MapView {
  constructor({ container, surface, gutter, minimap, onTap, onDragSelect }) {
    Object.assign(this, { container, surface, gutter, minimap, onTap, onDragSelect });
    this.viewport = null; this.vw = 1; this.vh = 1;
    this.seats = []; this.byId = new Map(); this.rows = []; this.zoneOutlines = new Map();
    this.pointers = new Map();
    this.bindPointer();
    new ResizeObserver(() => this.resize()).observe(container);
  }

  /// Puts a freshly fetched seat map in place, keeping the current view when it is the same venue.
  load(svgText) {
    const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
    const svg = document.adoptNode(doc.documentElement);
    const d = svg.dataset;
    const sameVenue = this.svg && this.contentW === Number(d.contentWidth) && this.contentH === Number(d.contentHeight);
    this.rules = JSON.parse(d.rules);
    this.meta = {
      seatSize: this.rules.seatSize,
      rows: JSON.parse(d.rows), zones: JSON.parse(d.zones), words: JSON.parse(d.statusWords), palette: JSON.parse(d.palette),
      separator: d.separator, version: Number(d.version), title: svg.getAttribute('aria-label'),
    };
    this.contentW = Number(d.contentWidth); this.contentH = Number(d.contentHeight);
    // The seats are drawn as one picture; the container is the application, each seat a button.
    svg.removeAttribute('viewBox'); svg.removeAttribute('role'); svg.removeAttribute('aria-label');
    svg.setAttribute('width', '100%'); svg.setAttribute('height', '100%');
    svg.querySelector('title')?.remove();
    this.mapGroup = svg.querySelector('#map');
    // The page's map container is #map: the picture's group takes another id (ids are unique in a document).
    this.mapGroup.id = 'map-picture';
    const content = document.createElementNS(SVG_NS, 'g');
    content.id = 'map-content';
    // One node at a time: spreading a 100k arena's 200,000 children into one call overflowed the stack.
    while (this.mapGroup.firstChild) content.appendChild(this.mapGroup.firstChild);
    this.mapGroup.append(content);
    this.surface.replaceChildren(svg);
    this.svg = svg;

    this.zoneColor = Object.fromEntries(this.meta.zones.map(z => [z.id, z.color]));
    this.zoneInk = Object.fromEntries(this.meta.zones.map(z => [z.id, z.ink]));
    // Zoomed out below the engine's threshold the zones are drawn filled (CSS) instead of the seats.
    this.zoneOutlines = new Map();
    for (const outline of content.querySelectorAll(':scope > path[id^="zone-outline-"]')) {
      outline.style.setProperty('--zone-color', outline.getAttribute('stroke'));
      this.zoneOutlines.set(outline.id.slice('zone-outline-'.length), outline);
    }
    this.zoneLabels = null;
    this.seats = []; this.byId = new Map();
    // Seats by their index in the availability encoding (the SVG draws them in layers, not in that order).
    for (const el of svg.querySelectorAll('g.seat')) {
      const r = el.querySelector('rect');
      const x = Number(r.getAttribute('x')), y = Number(r.getAttribute('y'));
      const w = Number(r.getAttribute('width')), h = Number(r.getAttribute('height'));
      const seat = { index: Number(el.dataset.index), el, rect: r, text: el.querySelector('text'), id: el.dataset.seatId, row: Number(el.dataset.row),
                     zone: el.dataset.zone, name: el.dataset.name, details: el.dataset.details, cx: x + w / 2, cy: y + h / 2 };
      el.removeAttribute('aria-label');
      el.querySelector('title')?.remove();
      el.setAttribute('role', 'button');
      el.tabIndex = -1;
      this.seats[seat.index] = seat;
      this.byId.set(seat.id, seat);
    }
    // Rows as the gutter orders them (by height), each with its seats left to right as drawn.
    const seatsOfRow = new Map();
    for (const s of this.seats) (seatsOfRow.get(s.row) || seatsOfRow.set(s.row, []).get(s.row)).push(s);
    this.rows = this.meta.rows.map(([label, y, row, minX, maxX]) => ({ label, y, row, minX, maxX, seats: (seatsOfRow.get(row) || []).sort((a, b) => a.cx - b.cx) }));
    this.rowOf = new Map(this.rows.map((r, k) => [r.row, k]));
    // The engine's view of the seats: squares at their centres (availability order), the rows by height.
    const xs = new Float64Array(this.seats.length), ys = new Float64Array(this.seats.length);
    for (const s of this.seats) { xs[s.index] = s.cx; ys[s.index] = s.cy; }
    this.field = new SeatField(xs, ys, this.meta.rows, this.rules);

    this.minimap.setAttribute('viewBox', `0 0 ${this.contentW} ${this.contentH}`);
    this.minimap.innerHTML = '';
    this.miniRect = document.createElementNS(SVG_NS, 'rect');
    this.miniRect.setAttribute('class', 'minimap-viewport');
    this.minimap.append(this.miniPicture(content), this.miniRect);
    this.minimap.style.aspectRatio = `${this.contentW} / ${this.contentH}`;

    // The seats are drawn beside the gutter, never under it: the view is the surface, which starts
    // where the gutter's column ends (a table's frozen header column).
    this.vw = this.surface.clientWidth || 1; this.vh = this.surface.clientHeight || 1;
    // A new venue opens at the engine's opening viewport: on a touch screen or a phone-sized window with
    // seats big enough for a finger (so the first tap never has to zoom), else the whole venue. A
    // reload keeps the view.
    if (!sameVenue || !this.viewport) {
      const w = this.contentW, h = this.contentH;
      const touch = matchMedia('(pointer: coarse)').matches || this.vw < 600;
      this.viewport = touch ? touchViewport(w, h, this.vw, this.vh, this.rules) : new Viewport(w, h, this.vw, this.vh, this.rules);
    }
    this.apply();
  }

  get zoom() { return this.viewport ? this.viewport.zoom : 1; }
  get ox() { return this.viewport ? this.viewport.ox : 0; }
  get oy() { return this.viewport ? this.viewport.oy : 0; }

  /// The minimap's picture: the whole map again for a hall (a `<use>` of it), but for a big venue only
  /// the stage and the zones filled in their colours: a second copy of 20,000 seats doubled the page's
  /// style and layout work (over a second for the 20k arena).
  miniPicture(content) {
    if (this.seats.length <= MINIMAP_SEATS) {
      const use = document.createElementNS(SVG_NS, 'use');
      use.setAttribute('href', '#map-content');
      return use;
    }
    const g = document.createElementNS(SVG_NS, 'g');
    for (const shape of content.querySelectorAll(':scope > #stage, :scope > path[id^="zone-outline-"]')) {
      const copy = shape.cloneNode(false);
      copy.removeAttribute('id');
      if (copy.tagName === 'path') { copy.setAttribute('fill', copy.getAttribute('stroke')); copy.setAttribute('fill-opacity', '0.5'); }
      g.append(copy);
    }
    return g;
  }

  /// The label a screen reader says: "Row 7, seat 12, available, VIP, ¥58.00" (the engine's order).
  label(seat, word) { return [seat.name, word, seat.details].filter(Boolean).join(this.meta.separator); }

  /// Recolours and renames one seat: `status` is available/held/sold/blocked, `selected` overrides it.
  paint(seat, status, selected) {
    const shown = selected ? 'selected' : status;
    if (seat.el.dataset.status === shown && seat.painted) return;
    seat.painted = true;
    seat.el.dataset.status = shown;
    const p = this.meta.palette;
    seat.rect.style.fill = shown === 'available' ? this.zoneColor[seat.zone] : p[shown];
    // The number's ink is the engine's (white or dark, whichever contrasts more with the fill).
    if (seat.text) seat.text.style.fill = shown === 'available' ? this.zoneInk[seat.zone] : p.ink[shown];
    seat.el.setAttribute('aria-label', this.label(seat, this.meta.words[shown]));
    seat.el.setAttribute('aria-pressed', String(selected));
    seat.el.setAttribute('aria-disabled', String(!selected && status !== 'available'));
  }

  // — Viewport: the engine's (js/engine.js) —

  minZoom() { return this.viewport.minZoom(); }

  apply() {
    this.mapGroup.setAttribute('transform', `translate(${-this.ox} ${-this.oy}) scale(${this.zoom})`);
    this.container.dataset.zoom = this.zoom.toFixed(4);
    // The engine's level of detail: seats smaller than `zonesBelow` points are not drawn one by one (a
    // 20k arena zoomed out draws its zones, and pans without laying out 20,000 seats).
    const level = this.level();
    if (this.container.dataset.level !== level) this.container.dataset.level = level;
    // Zone labels keep their size on screen whatever the zoom.
    this.mapGroup.style.setProperty('--zoom', String(this.zoom));
    this.container.dataset.offset = `${this.ox.toFixed(1)},${this.oy.toFixed(1)}`;
    this.renderGutter();
    this.renderMinimap();
  }

  /// Zoom about a point of the view (the pointer, the pinch centre): what is under it stays under it.
  zoomTo(zoom, fx = this.vw / 2, fy = this.vh / 2) {
    this.viewport.zoomTo(zoom, fx, fy);
    this.apply();
  }

  /// At the zones level, each zone says what is left in it (`texts`: zone id → words); a zone with
  /// nothing free is drawn as sold. Labels are made on first use, at their zone's middle.
  labelZones(texts, soldOut) {
    if (!this.zoneLabels) {
      this.zoneLabels = new Map();
      const layer = document.createElementNS(SVG_NS, 'g');
      layer.setAttribute('class', 'zone-labels');
      layer.setAttribute('aria-hidden', 'true');
      for (const [zone, outline] of this.zoneOutlines) {
        const box = outline.getBBox();
        const text = document.createElementNS(SVG_NS, 'text');
        text.setAttribute('x', box.x + box.width / 2); text.setAttribute('y', box.y + box.height / 2);
        text.setAttribute('text-anchor', 'middle'); text.setAttribute('dominant-baseline', 'central');
        text.dataset.zone = zone;
        layer.append(text);
        this.zoneLabels.set(zone, text);
      }
      this.mapGroup.querySelector('#map-content').append(layer);
    }
    for (const [zone, text] of this.zoneLabels) {
      if (text.textContent !== (texts.get(zone) ?? '')) text.textContent = texts.get(zone) ?? '';
      this.zoneOutlines.get(zone).classList.toggle('sold-out', soldOut.has(zone));
    }
  }

  /// Whether this venue can be zoomed out to the zones level at all (a hall cannot).
  zonesReachable() { return this.zoneOutlines.size > 0 && levelForZoom(this.minZoom(), this.rules) === 'zones'; }

  /// The engine's level at this zoom; the SVG page draws its rows level as seats. `?lod=off` draws every
  /// seat at every zoom: the benchmark's baseline (scripts/bench-web.py), not for buyers.
  level() {
    if (LOD_OFF) return 'seats';
    return levelForZoom(this.zoom, this.rules) === 'zones' ? 'zones' : 'seats';
  }

  /// From the zones level, the zoom at which the engine draws single seats (`rowsBelow` points a seat).
  zoomIntoSeats(fx, fy) { this.zoomTo(this.rules.detail.rowsBelow / this.meta.seatSize, fx, fy); }

  panBy(dx, dy) { this.viewport.panBy(dx, dy); this.apply(); }

  centreOn(cx, cy) { this.viewport.centreOn(cx, cy); this.apply(); }

  /// Brings a seat on screen (keyboard focus, best seats), zooming in until seats are touch-sized.
  reveal(seat) {
    if (this.zoom * this.meta.seatSize < 24) this.viewport.zoomTo(24 / this.meta.seatSize, this.vw / 2, this.vh / 2);
    const x = seat.cx * this.zoom - this.ox, y = seat.cy * this.zoom - this.oy, margin = 40;
    if (x < margin + 32 || x > this.vw - margin || y < margin || y > this.vh - margin) this.centreOn(seat.cx, seat.cy);
    else this.apply();
  }

  resize() {
    if (!this.svg) return;
    this.vw = this.surface.clientWidth || 1; this.vh = this.surface.clientHeight || 1;
    this.viewport.resize(this.vw, this.vh);
    this.apply();
  }

  /// Row labels pinned to the left edge at their rows' heights, as the engine's gutter gives them
  /// (rows crowding one height share a label: the row nearest the view's vertical centre line).
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

  renderMinimap() {
    const r = this.miniRect;
    r.setAttribute('x', this.ox / this.zoom); r.setAttribute('y', this.oy / this.zoom);
    r.setAttribute('width', this.vw / this.zoom); r.setAttribute('height', this.vh / this.zoom);
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
    let index;
    if (nearest) index = this.field.hitTest(p.x, p.y, this.viewport);
    else { const c = this.viewport.contentPoint(p.x, p.y); index = this.field.index.nearest(c.x, c.y, 0); }
    return index === null ? null : this.seats[index];
  }

  bindPointer() {
    const c = this.container;
    c.addEventListener('wheel', e => {
      if (!this.svg) return;
      e.preventDefault();
      const p = this.viewPoint(e);
      this.zoomTo(this.zoom * Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.0015)), p.x, p.y);
    }, { passive: false });

    this.minimap.addEventListener('pointerdown', e => {
      e.stopPropagation();
      const b = this.minimap.getBoundingClientRect();
      this.centreOn((e.clientX - b.left) / b.width * this.contentW, (e.clientY - b.top) / b.height * this.contentH);
    });

    c.addEventListener('pointerdown', e => {
      if (!this.svg || (e.pointerType === 'mouse' && e.button !== 0)) return;
      c.setPointerCapture(e.pointerId);
      const p = this.viewPoint(e);
      this.pointers.set(e.pointerId, p);
      if (this.pointers.size === 2) { this.gesture = { mode: 'pinch', distance: this.pinchDistance(), zoom: this.zoom }; return; }
      const seat = this.seatAt(p, false);
      this.gesture = { mode: 'undecided', start: p, last: p, seat, picked: [], path: [[p.x, p.y]], type: e.pointerType };
      if (e.pointerType !== 'mouse' && seat) {
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
      if (g.mode === 'undecided' && Math.hypot(p.x - g.start.x, p.y - g.start.y) > 4) {
        clearTimeout(g.timer);
        if (g.type === 'mouse' && g.seat) this.beginSelect(); else g.mode = 'pan';
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
      if (e.type === 'pointercancel') { this.clearSweep(g); return; }
      if (g.mode === 'undecided' && this.level() === 'zones') {
        this.zoomIntoSeats(g.start.x, g.start.y);     // a tap on the zoomed-out map goes in there
      } else if (g.mode === 'undecided') {
        const seat = g.seat || this.seatAt(g.start);
        if (seat) this.onTap(seat);
      } else if (g.mode === 'select') {
        this.clearSweep(g);
        if (g.picked.length) this.onDragSelect(g.picked);
      }
    };
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
  }

  pinchDistance() {
    const [a, b] = [...this.pointers.values()];
    return Math.max(Math.hypot(a.x - b.x, a.y - b.y), 1);
  }

  beginSelect() {
    const g = this.gesture;
    g.mode = 'select';
    this.pick(g.seat);
  }

  pick(seat) {
    const g = this.gesture;
    if (!seat || g.picked.includes(seat)) return;
    g.picked.push(seat);
    seat.el.classList.add('sweeping');
  }

  /// The seats the pointer has crossed so far, in order: the engine's drag path over every position
  /// since the press (sampled a quarter seat apart, so a fast drag skips none).
  sweep(p) {
    const g = this.gesture;
    g.path.push([p.x, p.y]);
    for (const index of this.field.alongDrag(g.path, this.viewport)) this.pick(this.seats[index]);
  }

  clearSweep(g) { for (const s of g.picked) s.el.classList.remove('sweeping'); }
}
