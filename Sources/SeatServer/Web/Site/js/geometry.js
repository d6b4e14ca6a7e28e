// The venue as the canvas draws it, decoded from the server's two documents (docs/formats/geometry.md):
// `GET /v1/venues/{id}/geometry` (static, cached a year: centres, ids, numbers, rows, blocks, zones,
// stage, palette, the engine's rules) and `GET /v1/shows/{id}/seat-prices` (per show: the distinct
// prices and runs of them in seat order). Columns stay typed arrays, one entry a seat; per-seat objects
// are made only for the seats a buyer touches (`Venue.seat`), so 100,000 seats cost a few megabytes.

/// Seat marks (SeatCanvas.GeometryMarks).
export const MARK = { wheelchair: 1, coupleLeft: 2, restrictedView: 4 };

export class Venue {
  /// `doc`: the geometry document, parsed. - Complexity: O(seats).
  constructor(doc) {
    if (doc.format !== 'seatkit-picker-geometry/2') throw new Error(`not a geometry document: ${doc.format}`);
    const s = doc.seats, n = s.count, scale = doc.scale;
    for (const column of ['x', 'y', 'id', 'number', 'row', 'zone', 'marks', 'details']) {
      if (s[column]?.length !== n) throw new Error(`geometry column ${column} has ${s[column]?.length} of ${n} seats`);
    }
    this.id = doc.venue; this.title = doc.name; this.language = doc.language; this.rules = doc.rules;
    this.count = n; this.contentW = doc.contentWidth; this.contentH = doc.contentHeight;
    this.x = new Float64Array(n); this.y = new Float64Array(n);
    // Whole hundredths summed exactly (integers far below 2^53), divided once: the engine's rounding.
    let x = 0, y = 0;
    for (let i = 0; i < n; i++) { x += s.x[i]; y += s.y[i]; this.x[i] = x / scale; this.y[i] = y / scale; }
    this.ids = new Array(n);
    let previous = '';
    for (let i = 0; i < n; i++) {
      const entry = s.id[i], colon = entry.indexOf(':');
      previous = previous.slice(0, Number(entry.slice(0, colon))) + entry.slice(colon + 1);
      this.ids[i] = previous;
    }
    this.numbers = s.number;
    this.rowOf = Uint32Array.from(s.row); this.zoneOf = Uint16Array.from(s.zone);
    this.marks = Uint8Array.from(s.marks); this.detailsOf = Uint16Array.from(s.details);
    this.detailSets = doc.detailSets;
    this.nameFormat = doc.nameFormat;
    this.rowLabel = [];
    for (const [label, , row] of doc.rows) this.rowLabel[row] = label;
    this.gutterRows = doc.rows;
    this.blocks = doc.blocks.map(([bx, by, w, h, from, to]) => ({ x: bx, y: by, w, h, from, to }));
    // The block of each seat (blocks are runs of seat indices), for the rows level's free counts.
    this.blockOf = new Uint32Array(n);
    this.blocks.forEach((b, k) => this.blockOf.fill(k, b.from, b.to));
    this.zones = doc.zones.map(z => ({ ...z, outline: z.outline, box: bounds(z.outline) }));
    // General-admission areas: their places are indices from..to, all at the area's centre; the map
    // draws the area with its count and a tap on it asks for places by count, never one place.
    this.areas = (doc.areas ?? []).map(a => ({ ...a, box: bounds(a.outline) }));
    this.areaWords = doc.areaWords ?? { free: '{free}', open: '', full: '' };
    this.isPlace = new Uint8Array(n);
    for (const a of this.areas) this.isPlace.fill(1, a.from, a.to);
    // Tables: their seats are indices from..to, drawn round the top; how a tap takes them is the
    // show's (`tableMode`, `tapChoice`).
    this.tables = (doc.tables ?? []).map(t => ({ ...t, box: { x: t.top[0], y: t.top[1], w: t.top[2], h: t.top[3] } }));
    this.tableNameFormat = doc.tableNameFormat ?? '{table} {number}';
    this.tableOf = new Int16Array(n).fill(-1);
    this.tables.forEach((t, k) => this.tableOf.fill(k, t.from, t.to));
    this.stage = doc.stage; this.centreLine = doc.centreLine; this.bestView = doc.bestView ?? null;
    this.palette = doc.palette; this.drawing = doc.drawing; this.words = doc.statusWords; this.separator = doc.separator;
    this.byId = null;
    this.cache = new Map();
  }

  /// The seat index of an id, or undefined. The map is built on first use.
  /// - Complexity: O(1) expected, O(seats) once.
  indexOf(id) {
    if (!this.byId) { this.byId = new Map(); this.ids.forEach((v, i) => this.byId.set(v, i)); }
    return this.byId.get(id);
  }

  /// "Row 7, seat 12" / "7排12座": the engine's template filled in.
  name(i) {
    // A place of an area is its area's name: places are counted, never numbered for people.
    if (this.isPlace[i]) return this.areaOfIndex(i)?.name ?? this.rowLabel[this.rowOf[i]];
    if (this.tableOf[i] >= 0) return this.tableNameFormat.replace('{table}', this.tables[this.tableOf[i]].name).replace('{number}', this.numbers[i]);
    return this.nameFormat.replace('{row}', this.rowLabel[this.rowOf[i]]).replace('{number}', this.numbers[i]);
  }

  /// The area place `i` belongs to, or null for a seat.
  areaOfIndex(i) { return this.isPlace[i] ? this.areas.find(a => i >= a.from && i < a.to) ?? null : null; }

  /// The label parts that do not change with status ("VIP", "wheelchair space", …) and the price.
  details(i, prices) {
    const parts = this.detailSets[this.detailsOf[i]];
    const price = prices?.of(i);
    return (price ? parts.concat(price) : parts).join(this.separator);
  }

  /// What a screen reader says: "Row 7, seat 12, available, VIP, ¥58.00" (the engine's order).
  label(i, word, prices) { return [this.name(i), word, this.details(i, prices)].filter(Boolean).join(this.separator); }

  /// One seat as an object (made once, for the seats in use).
  seat(i) {
    if (i === null || i === undefined || i < 0 || i >= this.count) return null;
    let seat = this.cache.get(i);
    if (!seat) {
      seat = { index: i, id: this.ids[i], row: this.rowOf[i], zone: this.zones[this.zoneOf[i]].id, number: this.numbers[i],
               name: this.name(i), cx: this.x[i], cy: this.y[i] };
      this.cache.set(i, seat);
    }
    return seat;
  }
}

/// A show's seat prices: `{prices: [...formatted], runs: [length, index, …], zones}` → price by seat.
export class SeatPrices {
  constructor(doc, count) {
    this.revision = doc.priceRevision; this.zones = doc.zones; this.list = doc.prices;
    this.indexOf = new Uint16Array(count);
    let at = 0;
    for (let k = 0; k < doc.runs.length; k += 2) {
      const length = doc.runs[k], index = doc.runs[k + 1];
      if (at + length > count || index >= doc.prices.length) throw new Error(`bad price run ${length}×${index} at seat ${at}`);
      this.indexOf.fill(index, at, at + length);
      at += length;
    }
    if (at !== count) throw new Error(`prices cover ${at} of ${count} seats`);
  }

  of(i) { return this.list[this.indexOf[i]]; }
}

function bounds(flat) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let k = 0; k < flat.length; k += 2) {
    minX = Math.min(minX, flat[k]); maxX = Math.max(maxX, flat[k]);
    minY = Math.min(minY, flat[k + 1]); maxY = Math.max(maxY, flat[k + 1]);
  }
  return { x: minX, y: minY, w: maxX - minX, h: maxY - minY };
}

/// Whether (x, y) is inside the polygon `flat` ([x0, y0, x1, y1, …]): the even-odd rule.
export function insideOutline(flat, x, y) {
  let inside = false;
  for (let i = 0, j = flat.length - 2; i < flat.length; j = i, i += 2) {
    const xi = flat[i], yi = flat[i + 1], xj = flat[j], yj = flat[j + 1];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/// How a show sells a table: its policy's word for the table, or for every table (`*`), or the
/// layout's (SelectionPolicy.mode(of:)). `{mode, min}`.
export function tableMode(table, policy) {
  const given = policy?.tables?.[table.id] ?? policy?.tables?.['*'];
  if (given === undefined) return { mode: table.mode, min: table.min };
  return typeof given === 'string' ? { mode: given } : { mode: given.mode, min: given.min };
}

/// The seats a tap on seat `i` picks (SelectionPolicy.tapChoice): a table sold whole, all its seats; a
/// table with a minimum where the buyer has none yet, `i` and the next free ones round it up to the
/// minimum; else `i`. `isFree(i)`, `mine`: a Set of the buyer's seat indices.
export function tapChoice(venue, i, policy, isFree, mine) {
  const k = venue.tableOf[i];
  if (k === undefined || k < 0) return [i];
  const table = venue.tables[k], { mode, min } = tableMode(table, policy);
  if (mode === 'byTable') { const all = []; for (let s = table.from; s < table.to; s++) all.push(s); return all; }
  if (mode !== 'minimum' || !isFree(i)) return [i];
  for (let s = table.from; s < table.to; s++) if (mine.has(s)) return [i];
  const out = [], n = table.to - table.from;
  for (let step = 0; step < n && out.length < min; step++) {
    const s = table.from + (i - table.from + step) % n;
    if (isFree(s)) out.push(s);
  }
  return out;
}
