// @ts-check
// The engine's rules in the browser: CollectionLayout's Viewport and SpatialIndex and SeatCanvas's
// level of detail, hit test, drag path and gutter, operation for operation, so the page behaves as
// the Swift engine does. Every number comes from the server (`rules`: SeatCanvas.pickerRules); none is
// written here. No DOM: `node --test Tests/Web` replays the vectors the Swift engine writes
// (Tests/Web/Vectors) against this file, so the two cannot drift.

/// A zoomable, pannable window onto a content: `view = content × zoom − offset` (CollectionLayout's
/// Viewport, as SeatCanvas.viewport makes it). Zoom stays within its bounds, the offset within the
/// content plus `inset` on each side, and `gutterWidth` more on the left (a row gutter pinned over the
/// left edge: the first seats rest beside it, not under it).
export class Viewport {
  constructor(contentW, contentH, viewW, viewH, rules, gutterWidth = 0) {
    this.contentW = contentW; this.contentH = contentH; this.viewW = viewW; this.viewH = viewH;
    this.limits = rules.zoom;
    this.insets = { left: rules.inset + gutterWidth, right: rules.inset, top: rules.inset, bottom: rules.inset };
    this.zoom = 1; this.ox = 0; this.oy = 0;
    this.zoom = this.minZoom();
    this.centreOn(contentW / 2, contentH / 2);
  }

  get maxZoom() { return this.limits.touchTarget / this.limits.smallestItem * this.limits.overzoom; }

  /// The whole content fits, or its short side reaches `minimumShortSide` points, whichever is larger
  /// (never more than the view's own short side); never above the maximum.
  minZoom() {
    const cw = this.contentW, ch = this.contentH;
    const fit = Math.min(this.viewW / cw, this.viewH / ch);
    const readable = this.limits.minimumShortSide / Math.min(cw, ch);
    const shortestView = Math.min(this.viewW, this.viewH);
    const cappedReadable = Math.min(readable, shortestView / Math.min(cw, ch));
    return Math.min(Math.max(fit, cappedReadable), this.maxZoom);
  }

  clampAxis(value, content, view, lead, trail) {
    const scaled = content * this.zoom;
    if (scaled + lead + trail <= view) return (scaled - view) / 2 + (trail - lead) / 2;
    return Math.min(Math.max(value, -lead), scaled - view + trail);
  }

  clamp(ox, oy) {
    const i = this.insets;
    this.ox = this.clampAxis(ox, this.contentW, this.viewW, i.left, i.right);
    this.oy = this.clampAxis(oy, this.contentH, this.viewH, i.top, i.bottom);
  }

  contentPoint(x, y) { return { x: (x + this.ox) / this.zoom, y: (y + this.oy) / this.zoom }; }

  viewPoint(x, y) { return { x: x * this.zoom - this.ox, y: y * this.zoom - this.oy }; }

  /// The part of the content on screen, in content coordinates.
  visibleRect() {
    const x = this.ox / this.zoom, y = this.oy / this.zoom, w = this.viewW / this.zoom, h = this.viewH / this.zoom;
    return { minX: x, minY: y, maxX: x + w, maxY: y + h, midX: x + w / 2, midY: y + h / 2 };
  }

  /// Zooms to `scale` (clamped) keeping the content point under the focal point (view coordinates) under it.
  zoomTo(scale, fx, fy) {
    const anchor = this.contentPoint(fx, fy);
    this.zoom = Math.min(Math.max(scale, this.minZoom()), this.maxZoom);
    this.clamp(anchor.x * this.zoom - fx, anchor.y * this.zoom - fy);
  }

  zoomBy(factor, fx, fy) { this.zoomTo(this.zoom * factor, fx, fy); }

  /// A drag: the content follows the finger by (dx, dy) view points.
  panBy(dx, dy) { this.clamp(this.ox - dx, this.oy - dy); }

  /// Puts content point (x, y) at the view's centre, as far as clamping allows.
  centreOn(x, y) { this.clamp(x * this.zoom - this.viewW / 2, y * this.zoom - this.viewH / 2); }

  /// A rotation or resize: the content point at the centre stays there; the zoom is kept within the new bounds.
  resize(viewW, viewH) {
    const centre = this.contentPoint(this.viewW / 2, this.viewH / 2);
    this.viewW = viewW; this.viewH = viewH;
    this.zoom = Math.min(Math.max(this.zoom, this.minZoom()), this.maxZoom);
    this.centreOn(centre.x, centre.y);
  }
}

/// The first look on a touch screen (SeatCanvas.touchViewport): the whole hall when its seats are at
/// least `wholeHallSeatSize` points or it opens at the zones level; else zoomed about the middle of the
/// view's top edge until seats are `openingSeatSize` points.
export function touchViewport(contentW, contentH, viewW, viewH, rules, gutterWidth = 0) {
  const v = new Viewport(contentW, contentH, viewW, viewH, rules, gutterWidth);
  if (levelForZoom(v.zoom, rules) !== 'zones' && rules.seatSize * v.zoom < rules.wholeHallSeatSize) {
    v.zoomTo(rules.openingSeatSize / rules.seatSize, viewW / 2, 0);  // the screen stays in view
  }
  return v;
}

/// The height a touch screen's map takes when `viewW` wide with up to `maxH` (SeatCanvas.touchViewHeight):
/// the opening viewport's hall and its insets, no more, at least `minimumTouchViewHeight`.
export function touchViewHeight(contentW, contentH, viewW, maxH, rules, gutterWidth = 0) {
  const v = touchViewport(contentW, contentH, viewW, maxH, rules, gutterWidth);
  const needed = contentH * v.zoom + 2 * rules.inset;
  return Math.min(maxH, Math.max(rules.minimumTouchViewHeight, Math.ceil(needed)));
}

/// The zoom a tap on a seat goes to about the finger (SeatCanvas.zoomAfterTap): seats of
/// `openingSeatSize` points when they are smaller now, else null.
export function zoomAfterTap(zoom, rules) {
  return rules.seatSize * zoom < rules.openingSeatSize ? rules.openingSeatSize / rules.seatSize : null;
}

/// The zoom a tap on the zones or rows level goes to (SeatCanvas.zoomIntoSeats): single seats drawn,
/// and a finger's `openingSeatSize` points at least.
export const zoomIntoSeats = rules => Math.max(rules.detail.rowsBelow, rules.openingSeatSize) / rules.seatSize;

/// How much is drawn at `zoom`: 'zones', 'rows' or 'seats', by a seat's size on screen (SeatCanvas.level).
export function levelForZoom(zoom, rules) {
  const onScreen = rules.seatSize * zoom, d = rules.detail;
  return onScreen < d.zonesBelow ? 'zones' : onScreen < d.rowsBelow ? 'rows' : 'seats';
}

/// A static index of rectangles in uniform buckets, each in the bucket of its centre, queries widened
/// by the largest half-size (CollectionLayout's SpatialIndex). `rects` is a Float64Array of
/// minX, minY, width, height per item.
export class SpatialIndex {
  constructor(rects) {
    const n = rects.length / 4;
    this.rects = rects; this.count = n;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity, halfW = 0, halfH = 0, area = 0;
    if (n === 0) { minX = minY = maxX = maxY = 0; }
    for (let i = 0; i < n; i++) {
      const x = rects[4 * i], y = rects[4 * i + 1], w = rects[4 * i + 2], h = rects[4 * i + 3];
      minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x + w); maxY = Math.max(maxY, y + h);
      halfW = Math.max(halfW, w / 2); halfH = Math.max(halfH, h / 2); area += w * h;
    }
    // As the Swift index's union does: the far edges are origin + size.
    this.bounds = { minX, minY, width: maxX - minX, height: maxY - minY };
    this.bounds.maxX = minX + this.bounds.width; this.bounds.maxY = minY + this.bounds.height;
    this.maxHalfWidth = halfW; this.maxHalfHeight = halfH;
    const average = n === 0 ? 1 : Math.max(area / n, 1e-6);
    let size = Math.sqrt(average * 2);
    const minimum = Math.sqrt(this.bounds.width * this.bounds.height / Math.max(n, 1) / 4);
    size = Math.max(size, minimum, 1e-6);
    this.cellSize = size;
    this.columns = Math.max(1, Math.ceil(this.bounds.width / size) + 1);
    this.rows = Math.max(1, Math.ceil(this.bounds.height / size) + 1);
    const counts = new Int32Array(this.columns * this.rows + 1), cellOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const c = this.cell(rects[4 * i] + rects[4 * i + 2] / 2, rects[4 * i + 1] + rects[4 * i + 3] / 2);
      cellOf[i] = c; counts[c + 1] += 1;
    }
    for (let k = 1; k < counts.length; k++) counts[k] += counts[k - 1];
    const fill = counts.slice(), items = new Int32Array(n);
    for (let i = 0; i < n; i++) { const c = cellOf[i]; items[fill[c]] = i; fill[c] += 1; }
    this.cellStart = counts; this.items = items;
  }

  cell(x, y) {
    const b = this.bounds, size = this.cellSize;
    const cx = Math.min(Math.max(Math.floor((x - b.minX) / size), 0), this.columns - 1);
    const cy = Math.min(Math.max(Math.floor((y - b.minY) / size), 0), this.rows - 1);
    return cy * this.columns + cx;
  }

  /// Calls `body` with each index whose bucket the widened rectangle touches.
  forEachCandidate(minX, minY, maxX, maxY, body) {
    const b = this.bounds, size = this.cellSize, hw = this.maxHalfWidth, hh = this.maxHalfHeight;
    if (!(maxX + hw >= b.minX && minX - hw <= b.maxX && maxY + hh >= b.minY && minY - hh <= b.maxY)) return;
    const clampC = v => Math.min(Math.max(v, 0), this.columns - 1), clampR = v => Math.min(Math.max(v, 0), this.rows - 1);
    const x0 = clampC(Math.floor((minX - hw - b.minX) / size)), x1 = clampC(Math.floor((maxX + hw - b.minX) / size));
    const y0 = clampR(Math.floor((minY - hh - b.minY) / size)), y1 = clampR(Math.floor((maxY + hh - b.minY) / size));
    for (let y = y0; y <= y1; y++) {
      const base = y * this.columns;
      for (let k = this.cellStart[base + x0]; k < this.cellStart[base + x1 + 1]; k++) body(this.items[k]);
    }
  }

  /// Indices of rectangles intersecting the rectangle, ascending.
  query(minX, minY, maxX, maxY) {
    const out = [], r = this.rects;
    this.forEachCandidate(minX, minY, maxX, maxY, i => {
      const x = r[4 * i], y = r[4 * i + 1];
      if (x < maxX && minX < x + r[4 * i + 2] && y < maxY && minY < y + r[4 * i + 3]) out.push(i);
    });
    return out.sort((a, b) => a - b);
  }

  /// The rectangle nearest (px, py) within `radius` (distance to its edge, 0 inside); ties go to the one
  /// whose centre is nearer, then the lower index. Null when none is that close.
  nearest(px, py, radius) {
    const r = this.rects, r2 = radius * radius;
    let best = -1, bestD = 0, bestC = 0;
    this.forEachCandidate(px - radius, py - radius, px - radius + 2 * radius, py - radius + 2 * radius, i => {
      const minX = r[4 * i], minY = r[4 * i + 1], maxX = minX + r[4 * i + 2], maxY = minY + r[4 * i + 3];
      const dx = Math.max(minX - px, 0, px - maxX), dy = Math.max(minY - py, 0, py - maxY);
      const d = dx * dx + dy * dy;
      if (d > r2) return;
      const cx = minX + r[4 * i + 2] / 2 - px, cy = minY + r[4 * i + 3] / 2 - py;
      const c = cx * cx + cy * cy;
      if (best >= 0 && (d > bestD || (d === bestD && (c > bestC || (c === bestC && i >= best))))) return;
      best = i; bestD = d; bestC = c;
    });
    return best >= 0 ? best : null;
  }
}

/// A venue's seats as the picker needs them: squares of `rules.seatSize` centred on (x[i], y[i]) in
/// availability order, their spatial index, and the rows by height (`[label, y, row, minX, maxX]`).
export class SeatField {
  constructor(x, y, rows, rules) {
    const n = x.length, half = rules.seatSize / 2, rects = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      rects[4 * i] = x[i] - half; rects[4 * i + 1] = y[i] - half; rects[4 * i + 2] = rules.seatSize; rects[4 * i + 3] = rules.seatSize;
    }
    this.x = x; this.y = y; this.rules = rules; this.count = n;
    this.index = new SpatialIndex(rects);
    // A row taller than wide runs up and down the screen (SeatGeometry.runsUpAndDown): the top gutter's.
    this.rows = rows.map(([label, ry, row, minX, maxX, minY, maxY]) => ({ label, y: ry, row, minX, maxX, minY, maxY, upAndDown: maxY - minY > maxX - minX }));
    this.upAndDown = this.rows.filter(r => r.upAndDown).sort((a, b) => (a.minX + a.maxX) / 2 - (b.minX + b.maxX) / 2 || a.row - b.row);
  }

  /// The seat under a finger at view point (px, py): the nearest within half a touch target, or null.
  hitTest(px, py, viewport) {
    const p = viewport.contentPoint(px, py);
    return this.index.nearest(p.x, p.y, Math.max(this.rules.hitRadius / viewport.zoom, 0));
  }

  /// The seats a drag through `points` (view coordinates) crosses, in order, each once: sampled every
  /// `dragStep` content points, a seat counting within `dragSlack` of its square.
  alongDrag(points, viewport) {
    if (points.length === 0) return [];
    const { dragSlack: slack, dragStep: step } = this.rules, seen = new Set(), out = [];
    const visit = (x, y) => {
      const s = this.index.nearest(x, y, slack);
      if (s !== null && !seen.has(s)) { seen.add(s); out.push(s); }
    };
    let previous = viewport.contentPoint(points[0][0], points[0][1]);
    visit(previous.x, previous.y);
    for (const [vx, vy] of points.slice(1)) {
      const next = viewport.contentPoint(vx, vy), dx = next.x - previous.x, dy = next.y - previous.y;
      const samples = Math.max(1, Math.ceil(Math.sqrt(dx * dx + dy * dy) / step));
      for (let k = 1; k <= samples; k++) { const t = k / samples; visit(previous.x + dx * t, previous.y + dy * t); }
      previous = next;
    }
    return out;
  }

  /// Seats whose squares intersect the view, ascending.
  visible(viewport) {
    const v = viewport.visibleRect();
    return this.index.query(v.minX, v.minY, v.maxX, v.maxY);
  }

  /// The row gutter: each visible row's label at its on-screen y. Rows closer than `gutterSpacing`
  /// share one label, the row nearest the view's vertical centre line (the higher one on a tie); none
  /// at the zones level.
  gutter(viewport) {
    if (levelForZoom(viewport.zoom, this.rules) === 'zones') return [];  // no rows on screen to name
    const v = viewport.visibleRect(), rows = this.rows, spacing = this.rules.gutterSpacing, zoom = viewport.zoom, oy = viewport.oy;
    const distance = r => (v.midX < r.minX ? r.minX - v.midX : v.midX > r.maxX ? v.midX - r.maxX : 0);
    let lo = 0, hi = rows.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (rows[mid].y < v.minY) lo = mid + 1; else hi = mid; }
    let end = lo;
    while (end < rows.length && rows[end].y <= v.maxY) end += 1;
    // Rows crossing the centre line only: one section's rows in an arena (none in an aisle between sections).
    const candidates = rows.slice(lo, end).filter(r => distance(r) === 0 && !r.upAndDown);
    const out = [];
    let lastY = -Infinity, k = 0;
    while (k < candidates.length) {
      const bandStart = candidates[k].y * zoom - oy;
      if (!(bandStart - lastY >= spacing)) { k += 1; continue; }
      let best = candidates[k], j = k + 1;
      while (j < candidates.length && candidates[j].y * zoom - oy - bandStart < spacing) {
        if (distance(candidates[j]) < distance(best)) best = candidates[j];
        j += 1;
      }
      const y = best.y * zoom - oy;
      out.push({ row: best.row, label: best.label, y });
      lastY = y; k = j;
    }
    return out;
  }

  /// The top gutter (SeatCanvas.topGutter): rows that run up and down the screen and cross the view's
  /// horizontal centre line, each at its centre's on-screen x, left to right; rows closer than twice
  /// `gutterSpacing` share one label, the leftmost; none at the zones level.
  topGutter(viewport) {
    if (levelForZoom(viewport.zoom, this.rules) === 'zones') return [];
    const v = viewport.visibleRect(), spacing = 2 * this.rules.gutterSpacing, out = [];
    let lastX = -Infinity;
    for (const r of this.upAndDown) {
      const mid = (r.minX + r.maxX) / 2;
      if (!(r.minY <= v.midY && v.midY <= r.maxY && mid >= v.minX && mid <= v.maxX)) continue;
      const x = mid * viewport.zoom - viewport.ox;
      if (!(x - lastX >= spacing)) continue;
      out.push({ row: r.row, label: r.label, x });
      lastX = x;
    }
    return out;
  }
}

/// What every axis answers from its own `slot`, `offset` and `size` (CollectionLayout's AxisModel
/// extension): the item under a position and the items overlapping a span. UniformAxis here and
/// VariableAxis in grid.js extend it.
export class AxisModel {
  // What each axis says of itself (UniformAxis, VariableAxis): overridden, never called here.
  /** @param {number} position @returns {number | null} */
  slot(position) { throw new Error(`an axis gives its slot (${position})`); }
  /** @param {number} index @returns {number} */
  offset(index) { throw new Error(`an axis gives its offsets (${index})`); }
  /** @param {number} index @returns {number} */
  size(index) { throw new Error(`an axis gives its sizes (${index})`); }

  /// The item under `position`, or null in a gap, an inset or outside.
  index(position) {
    const i = this.slot(position);
    if (i === null) return null;
    const o = this.offset(i);
    return position >= o && position < o + this.size(i) ? i : null;
  }

  /// Items overlapping [lower, upper) as [start, end); gaps do not count.
  range(lower, upper) {
    if (!(upper > lower)) return [0, 0];
    const first = this.slot(lower), last = this.slot(upper);
    if (first === null || last === null) return [0, 0];
    let start = first, end = last;
    if (this.offset(start) + this.size(start) <= lower) start += 1;
    if (this.offset(last) < upper) end += 1;
    return start < end ? [start, end] : [start, start];
  }
}

/// Every item the same size along one axis (CollectionLayout's UniformAxis): a strip of cards.
export class UniformAxis extends AxisModel {
  /** @param {number} count @param {number} itemSize @param {number} [spacing] @param {number} [leadingInset] @param {number} [trailingInset] */
  constructor(count, itemSize, spacing = 0, leadingInset = 0, trailingInset = 0) {
    super();
    this.count = count; this.itemSize = itemSize; this.spacing = spacing; this.leadingInset = leadingInset; this.trailingInset = trailingInset;
  }

  offset(index) { return this.leadingInset + index * (this.itemSize + this.spacing); }

  size() { return this.itemSize; }

  gap(index) { return index === this.count - 1 ? 0 : this.spacing; }

  get contentLength() {
    return this.leadingInset + this.trailingInset + (this.count === 0 ? 0 : this.count * this.itemSize + (this.count - 1) * this.spacing);
  }

  /// The item whose slot (item and the gap after it) holds `position`, clamped; null without items.
  slot(position) {
    if (this.count <= 0) return null;
    const i = Math.floor((position - this.leadingInset) / (this.itemSize + this.spacing));
    return Math.min(Math.max(i, 0), this.count - 1);
  }
}

/// Plans preloading from the visible window and the scroll velocity, in screenfuls, more ahead of the
/// scroll than behind (CollectionLayout's PrefetchPlanner, without nested sections): `update` answers
/// `['prefetch', i]` for items entering the preload range and `['cancel', i]` for those that left it
/// before they were shown, nearest first; items that became visible are done.
export class PrefetchPlanner {
  constructor(screenfulsAhead = 2.5, screenfulsBehind = 1.5) {
    this.screenfulsAhead = screenfulsAhead; this.screenfulsBehind = screenfulsBehind;
    this.pending = new Set(); this.shown = new Set();
  }

  update(axis, offset, length, velocity) {
    const [v0, v1] = axis.range(offset, offset + length), visible = i => i >= v0 && i < v1;
    const ahead = this.screenfulsAhead * length, behind = this.screenfulsBehind * length, idle = (ahead + behind) / 2;
    const [before, after] = velocity > 0 ? [behind, ahead] : velocity < 0 ? [ahead, behind] : [idle, idle];
    const [p0, p1] = axis.range(offset - before, offset + length + after), inPreload = i => i >= p0 && i < p1;
    const events = [];
    this.shown = new Set([...this.shown].filter(inPreload));
    for (let i = v0; i < v1; i++) this.shown.add(i);
    this.pending = new Set([...this.pending].filter(i => !visible(i)));
    const wanted = [];
    for (let i = p0; i < p1; i++) if (!visible(i) && !this.shown.has(i)) wanted.push(i);
    const wantedSet = new Set(wanted);
    for (const key of [...this.pending].sort((a, b) => a - b)) {
      if (!wantedSet.has(key)) { events.push(['cancel', key]); this.pending.delete(key); }
    }
    const centre = offset + length / 2;
    const ordered = wanted.filter(i => !this.pending.has(i)).sort((a, b) => {
      const da = Math.abs(axis.offset(a) - centre), db = Math.abs(axis.offset(b) - centre);
      return da !== db ? da - db : a - b;
    });
    for (const key of ordered) { this.pending.add(key); events.push(['prefetch', key]); }
    return events;
  }
}
