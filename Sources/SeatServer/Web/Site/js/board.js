// The console's schedule board, in two views of one grid with a frozen header row and column
// (js/grid.js's FrozenGrid, held to CollectionLayout's FrozenGridLayout by vectors):
// - the week: halls down the side, seven days across, each day's shows of a hall in its cell;
// - the day: halls down the side, the day's hours across in 5-minute slots, each show a merged block
//   as long as its running time (where a cinema's manager sees the gaps and the overlaps).
// One offset drives the four panes, and only the visible cells are elements, so a week of a 20-hall
// multiplex scrolls as lightly as a day of one hall. Wheel, drag and the arrow keys scroll it.

import { UniformAxis } from './engine.js';
import { FrozenGrid, VariableAxis } from './grid.js';

const CELL_W = 200, CELL_H = 76, GAP = 1;
/// The day view: a 5-minute slot is 10 px (an hour 120 px: a 90-minute film's block holds three short
/// lines); the header row of hours is 36 px; a hall's row 64 px.
const SLOT_MINUTES = 5, SLOT_W = 10, HOUR_H = 36, HALL_H = 64;
/// A show without a running time is drawn as two hours long; an overlapping one at least 30 minutes.
const DEFAULT_MINUTES = 120, OVERLAP_SLOTS = 6;
/// `?virtual=off` makes an element of every cell, visible or not: the benchmark's baseline
/// (scripts/bench-web.py), not for operators.
const VIRTUAL_OFF = typeof location !== 'undefined' && new URLSearchParams(location.search).get('virtual') === 'off';

/// Minutes since the day's midnight of a show's local start (`2026-12-01T19:30:00+08:00` → 1170).
const minuteOf = startsAt => Number(startsAt.slice(11, 13)) * 60 + Number(startsAt.slice(14, 16));

export class ScheduleBoard {
  /// `element`: the board's box (its size is the view); `onOpen(showId)` when a show is chosen;
  /// `onEmpty({hall, day, minute})` when an empty stretch of a hall is clicked (minute null: the week's
  /// cell, any time of that day).
  constructor(element, { onOpen, onEmpty, words }) {
    Object.assign(this, { element, onOpen, onEmpty, words });
    this.ox = 0; this.oy = 0;
    this.live = new Map();  // "row|column" → {element, generation}: the cells on screen
    this.panes = Object.fromEntries(['body', 'headerRow', 'headerColumn', 'corner'].map(name => {
      const pane = document.createElement('div');
      pane.className = `board-pane board-${name}`;
      pane.dataset.pane = name;
      element.append(pane);
      return [name, pane];
    }));
    this.bind();
    new ResizeObserver(() => this.render()).observe(element);
  }

  /// The halls (`[{id, name}]`), the days (`["2026-12-01", …]`: seven for the week, one for the day)
  /// and every show with its counts and revenue; `view` is `week` or `day`.
  setData({ view = 'week', halls, days, shows, revenue }) {
    const key = `${view}|${days[0]}`, fresh = key !== this.key;
    Object.assign(this, { view, halls, days, revenue, key });
    // A cell's element is kept while it stays on screen (see `place`); new data is a new generation,
    // another view or day makes every cell mean something else.
    this.generation = (this.generation ?? 0) + 1;
    if (fresh) this.forget();
    this.byCell = new Map();
    for (const s of shows) {
      const cell = `${s.venueId}|${s.startsAt.slice(0, 10)}`;
      (this.byCell.get(cell) || this.byCell.set(cell, []).get(cell)).push(s);
    }
    for (const list of this.byCell.values()) list.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    if (view === 'day') this.layDay(); else this.layWeek();
    if (fresh) {
      this.ox = 0; this.oy = 0;
      if (this.first) [this.ox, this.oy] = this.grid.offsetToShow(this.first.row, this.first.column, 0, 0, this.viewW, this.viewH);
    }
    this.render();
  }

  /// Uniform axes: the header row and column are a first row and column of the same pitch (200 × 76).
  layWeek() {
    this.blocks = new Map();
    this.first = null;
    this.grid = new FrozenGrid(new UniformAxis(this.halls.length + 1, CELL_H, GAP), new UniformAxis(this.days.length + 1, CELL_W, GAP), 1, 1);
  }

  /// The day's plan (`dayPlan`) as a grid: a hall column, then the slots.
  layDay() {
    const day = this.days[0], plan = dayPlan(this.halls.map(h => this.byCell.get(`${h.id}|${day}`) ?? []));
    Object.assign(this, { blocks: plan.blocks, first: plan.first, dayFrom: plan.from });
    this.grid = new FrozenGrid(
      new VariableAxis([HOUR_H, ...Array(this.halls.length).fill(HALL_H)], GAP),
      new VariableAxis([CELL_W, ...Array(plan.slots).fill(SLOT_W)]), 1, 1, plan.merged);
  }

  get viewW() { return this.element.clientWidth || 1; }
  get viewH() { return this.element.clientHeight || 1; }

  scrollBy(dx, dy) {
    [this.ox, this.oy] = this.grid.clamped(this.ox + dx, this.oy + dy, this.viewW, this.viewH);
    this.render();
  }

  /// Places the visible cells: each pane a clip at the engine's rectangle, each cell at its frame.
  render() {
    if (!this.grid) return;
    const vw = this.viewW, vh = this.viewH;
    [this.ox, this.oy] = this.grid.clamped(this.ox, this.oy, vw, vh);
    const clips = {};
    for (const p of this.grid.panes(this.ox, this.oy, vw, vh)) {
      const pane = this.panes[p.pane], [x, y, w, h] = p.clip;
      Object.assign(pane.style, { left: `${x}px`, top: `${y}px`, width: `${Math.max(w, 0)}px`, height: `${Math.max(h, 0)}px` });
      clips[p.pane] = [x, y];
    }
    const seen = new Set();
    for (const [row, column, paneName, [x, y, w, h], span] of VIRTUAL_OFF ? this.grid.everyCell(this.ox, this.oy) : this.grid.visibleCells(this.ox, this.oy, vw, vh)) {
      const key = `${row}|${column}`, cell = this.place(key, row, column, span, this.panes[paneName]);
      const [cx, cy] = clips[paneName];
      Object.assign(cell.style, { left: `${x - cx}px`, top: `${y - cy}px`, width: `${w}px`, height: `${h}px` });
      cell.dataset.row = String(row); cell.dataset.column = String(column);
      if (span) cell.dataset.span = String(span[3] - span[2]);
      seen.add(key);
    }
    for (const [key, entry] of this.live) if (!seen.has(key)) { entry.element.remove(); this.live.delete(key); }
    this.element.dataset.offset = `${this.ox},${this.oy}`;
    this.element.dataset.view = this.view;
  }

  /// The element of a visible cell. One that stays on screen is kept across scrolls and refreshes (a
  /// refresh every 3 s that made new elements took the focus from a clerk's show and lost a click that
  /// began on the old button): only a cell scrolled into view is made, and new data changes the words
  /// of the elements there unless the cell now holds other shows.
  place(key, row, column, span, pane) {
    let entry = this.live.get(key);
    if (!entry) {
      entry = { element: this.cell(row, column, span), generation: this.generation };
      this.live.set(key, entry);
    } else if (entry.generation !== this.generation) {
      entry.element = patched(entry.element, this.cell(row, column, span));
      entry.generation = this.generation;
    }
    if (entry.element.parentNode !== pane) pane.append(entry.element);
    return entry.element;
  }

  /// Takes every cell's element off the board.
  forget() {
    for (const entry of this.live.values()) entry.element.remove();
    this.live = new Map();
  }

  /// One cell: the corner, a day or an hour, a hall, a hall's shows of a day, or one show of the day.
  cell(row, column, span) {
    const el = document.createElement('div');
    el.className = 'board-cell';
    const head = text => { el.textContent = text; el.classList.add('board-head'); return el; };
    if (row === 0 && column === 0) return head(this.view === 'day' ? this.words.dayCorner(this.days[0]) : this.words.corner);
    if (column === 0) { el.title = this.halls[row - 1].id; return head(this.halls[row - 1].name); }
    if (span) return this.block(el, this.blocks.get(`${row}|${column}`), column);
    if (row === 0) return head(this.words.day(this.days[column - 1]));
    for (const s of this.byCell.get(`${this.halls[row - 1].id}|${this.days[column - 1]}`) ?? []) {
      el.append(this.showButton(s, this.words.show(s.startsAt.slice(11, 16), s.seats, this.revenue.get(s.id), s)));
    }
    this.emptyClick(el, this.halls[row - 1], this.days[column - 1], () => null);
    return el;
  }

  /// A merged block of the day: an hour's label, an empty stretch, or a show over its running time.
  block(el, what, column) {
    if (what.kind === 'hour') {
      el.textContent = `${String(Math.floor(what.minute / 60) % 24).padStart(2, '0')}:00`;
      el.classList.add('board-head', 'board-hour');
      return el;
    }
    if (what.kind === 'gap') {
      // The hour lines behind the empty stretch: one every 12 slots from the hall column's edge.
      el.classList.add('board-gap');
      el.style.backgroundPositionX = `${-(((column - 1) * SLOT_W) % (12 * SLOT_W))}px`;
      // A click at x: the 5-minute slot under it.
      const row = Number(what.row);
      this.emptyClick(el, this.halls[row - 1], this.days[0], e => this.dayFrom + (column - 1 + Math.floor(e.offsetX / SLOT_W)) * SLOT_MINUTES);
      return el;
    }
    const s = what.show, start = minuteOf(s.startsAt), end = start + what.minutes;
    const clock = m => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const b = this.showButton(s, this.words.timedShow(clock(start), clock(end), s, this.revenue.get(s.id), what.overlaps));
    el.classList.add('board-slot');
    el.dataset.minute = String(start);
    if (what.overlaps) { b.classList.add('board-overlap'); el.dataset.overlaps = 'true'; }
    el.append(b);
    return el;
  }

  /// A click on the cell itself (not on a show in it, not the end of a drag) asks for a new show there.
  emptyClick(el, hall, day, minuteAt) {
    if (!this.onEmpty) return;
    el.classList.add('board-empty');
    el.addEventListener('click', e => {
      if (e.target !== el || this.dragged) return;
      this.onEmpty({ hall: hall.id, day, minute: minuteAt(e) });
    });
  }

  showButton(s, text) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'board-show';
    b.dataset.show = s.id;
    // The film's poster beside its words (18 × 27: a third of the picker's), when the show has one.
    const poster = s.details?.poster;
    if (typeof poster === 'string' && poster) {
      const img = Object.assign(document.createElement('img'), { className: 'board-poster', src: poster, alt: '', width: 18, height: 27, decoding: 'async' });
      b.append(img);
      b.classList.add('with-poster');
    }
    b.append(Object.assign(document.createElement('span'), { className: 'board-show-text', textContent: text }));
    b.title = text;
    b.addEventListener('click', () => this.onOpen(s.id));
    return b;
  }

  bind() {
    const el = this.element;
    el.addEventListener('wheel', e => { e.preventDefault(); this.scrollBy(e.shiftKey ? e.deltaY : e.deltaX, e.shiftKey ? 0 : e.deltaY); }, { passive: false });
    let drag = null;
    // A press that moves more than 4 px is a drag: the click that ends it adds no show.
    el.addEventListener('pointerdown', e => {
      if (e.target.closest('button')) return;
      drag = { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY };
      this.dragged = false;
    });
    el.addEventListener('pointermove', e => {
      if (!drag) return;
      if (!this.dragged && Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) > 4) { this.dragged = true; el.setPointerCapture(e.pointerId); }
      if (!this.dragged) return;
      this.scrollBy(drag.x - e.clientX, drag.y - e.clientY);
      Object.assign(drag, { x: e.clientX, y: e.clientY });
    });
    el.addEventListener('pointerup', () => { drag = null; });
    el.addEventListener('keydown', e => {
      // Sideways a day (the week) or an hour (the day); down a hall.
      const across = this.view === 'day' ? 12 * SLOT_W : CELL_W, down = this.view === 'day' ? HALL_H : CELL_H;
      const step = { ArrowLeft: [-across, 0], ArrowRight: [across, 0], ArrowUp: [0, -down], ArrowDown: [0, down], PageDown: [0, this.viewH - down], PageUp: [0, down - this.viewH] }[e.key];
      if (step && e.target === el) { e.preventDefault(); this.scrollBy(...step); }
    });
  }
}

/// `live` with `fresh`'s words when both are the same kind of cell holding the same shows (so the
/// element, its focus and a click under way stay), else `fresh` in its place.
function patched(live, fresh) {
  const liveShows = [...live.children], freshShows = [...fresh.children];
  const same = live.className === fresh.className && liveShows.length === freshShows.length
    && liveShows.every((b, i) => b.dataset.show === freshShows[i].dataset.show && b.className === freshShows[i].className);
  if (!same) { live.replaceWith(fresh); return fresh; }
  if (!liveShows.length && live.textContent !== fresh.textContent) live.textContent = fresh.textContent;
  live.title = fresh.title;
  Object.assign(live.dataset, fresh.dataset);
  liveShows.forEach((b, i) => {
    const words = b.querySelector('.board-show-text'), fresh = freshShows[i].querySelector('.board-show-text');
    if (words.textContent !== fresh.textContent) words.textContent = fresh.textContent;
    b.title = freshShows[i].title;
  });
  return live;
}

/// The day's board as merged blocks, one list of shows a hall (row k + 1): 5-minute slots (column 1 on)
/// from the earlier of 09:00 and the first start's hour to the later of midnight and the last end's hour;
/// each hour of the header row and each show a block, and each gap between shows one too (an empty
/// stretch is one element, not one a slot). A show that starts before the one before it ends is drawn
/// from that end, at least 30 minutes wide unless the next starts sooner, and marked as overlapping.
/// Answers `{slots, merged, blocks: Map("row|column" → {kind, …}), first: {row, column} | null}`.
export function dayPlan(rows) {
  let from = 9 * 60, to = 24 * 60;
  for (const s of rows.flat()) {
    const m = minuteOf(s.startsAt);
    from = Math.min(from, Math.floor(m / 60) * 60);
    to = Math.max(to, Math.ceil((m + (s.details?.duration ?? DEFAULT_MINUTES)) / 60) * 60);
  }
  const slots = (to - from) / SLOT_MINUTES, slotOf = m => 1 + (m - from) / SLOT_MINUTES;
  const merged = [], blocks = new Map();
  let first = null;
  const add = (row, c0, c1, what) => { merged.push({ rows: [row, row + 1], columns: [c0, c1] }); blocks.set(`${row}|${c0}`, what); };
  for (let h = from; h < to; h += 60) add(0, slotOf(h), slotOf(h + 60), { kind: 'hour', minute: h });
  rows.forEach((list, k) => {
    let end = 1;
    list.forEach((s, j) => {
      const m = minuteOf(s.startsAt), minutes = s.details?.duration ?? DEFAULT_MINUTES;
      let c0 = Math.floor(slotOf(m)), c1 = Math.ceil(slotOf(m + minutes)), overlaps = false;
      if (c0 < end) {
        const next = list[j + 1] ? Math.floor(slotOf(minuteOf(list[j + 1].startsAt))) : slots + 1;
        c0 = end; overlaps = true;
        c1 = Math.max(c1, Math.min(c0 + OVERLAP_SLOTS, next));
      }
      c1 = Math.min(Math.max(c1, c0 + 1), slots + 1);
      if (c0 >= c1) return;  // an overlap reaching the day's end: said by the show before it
      if (c0 > end) add(k + 1, end, c0, { kind: 'gap', row: k + 1 });
      add(k + 1, c0, c1, { kind: 'show', show: s, minutes, overlaps });
      if (!first || c0 < first.column) first = { row: k + 1, column: c0 };
      end = c1;
    });
    if (end < slots + 1) add(k + 1, end, slots + 1, { kind: 'gap', row: k + 1 });
  });
  return { slots, merged, blocks, first, from };
}
