// The console's schedule board: halls down the side, the days across the top, each day's shows of a hall
// in its cell with their free, held and sold seats and revenue. A grid with a frozen header row and
// column (js/engine.js's FrozenGrid, held to CollectionLayout's FrozenGridLayout by vectors): one offset
// drives the four panes, and only the visible cells are elements, so a week of a 20-hall multiplex
// scrolls as lightly as a day of one hall. Wheel, drag and the arrow keys scroll it.

import { FrozenGrid, UniformAxis } from './engine.js';

const CELL_W = 200, CELL_H = 76, GAP = 1;
/// `?virtual=off` makes an element of every cell, visible or not: the benchmark's baseline
/// (scripts/bench-web.py), not for operators.
const VIRTUAL_OFF = new URLSearchParams(location.search).get('virtual') === 'off';

export class ScheduleBoard {
  /// `element`: the board's box (its size is the view); `onOpen(showId)` when a show is chosen.
  constructor(element, { onOpen, words }) {
    Object.assign(this, { element, onOpen, words });
    this.ox = 0; this.oy = 0;
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

  /// The halls (`[{id, name}]`), the days (`["2026-12-01", …]`) and every show with its counts and
  /// revenue; cells are `shows` grouped by hall and the show's own date.
  setData({ halls, days, shows, revenue }) {
    this.halls = halls; this.days = days; this.revenue = revenue;
    this.byCell = new Map();
    for (const s of shows) {
      const key = `${s.venueId}|${s.startsAt.slice(0, 10)}`;
      (this.byCell.get(key) || this.byCell.set(key, []).get(key)).push(s);
    }
    for (const list of this.byCell.values()) list.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    // Uniform axes: the header row and column are a first row and column of the same pitch (200 × 76).
    this.grid = new FrozenGrid(new UniformAxis(halls.length + 1, CELL_H, GAP), new UniformAxis(days.length + 1, CELL_W, GAP), 1, 1);
    this.render();
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
    for (const p of this.grid.panes(this.ox, this.oy, vw, vh)) {
      const pane = this.panes[p.pane], [x, y, w, h] = p.clip;
      Object.assign(pane.style, { left: `${x}px`, top: `${y}px`, width: `${Math.max(w, 0)}px`, height: `${Math.max(h, 0)}px` });
      pane.replaceChildren();
      pane.dataset.clipX = String(x); pane.dataset.clipY = String(y);
    }
    for (const [row, column, paneName, [x, y, w, h]] of VIRTUAL_OFF ? this.allCells() : this.grid.visibleCells(this.ox, this.oy, vw, vh)) {
      const pane = this.panes[paneName];
      const cell = this.cell(row, column);
      Object.assign(cell.style, { left: `${x - Number(pane.dataset.clipX)}px`, top: `${y - Number(pane.dataset.clipY)}px`, width: `${w}px`, height: `${h}px` });
      cell.dataset.row = String(row); cell.dataset.column = String(column);
      pane.append(cell);
    }
    this.element.dataset.offset = `${this.ox},${this.oy}`;
  }

  /// Every cell at its frame, on screen or not (the `?virtual=off` baseline).
  allCells() {
    const g = this.grid, out = [];
    for (let r = 0; r < g.rows.count; r++) {
      for (let c = 0; c < g.columns.count; c++) {
        const pane = r < g.frozenRows ? (c < g.frozenColumns ? 'corner' : 'headerRow') : (c < g.frozenColumns ? 'headerColumn' : 'body');
        const [dx, dy] = g.shift(pane, this.ox, this.oy);
        out.push([r, c, pane, [g.columns.offset(c) + dx, g.rows.offset(r) + dy, g.columns.size(c), g.rows.size(r)]]);
      }
    }
    return out;
  }

  /// One cell: the corner, a day, a hall, or a hall's shows of a day (each a button that opens it).
  cell(row, column) {
    const el = document.createElement('div');
    el.className = 'board-cell';
    if (row === 0 && column === 0) { el.textContent = this.words.corner; el.classList.add('board-head'); return el; }
    if (row === 0) { el.textContent = this.words.day(this.days[column - 1]); el.classList.add('board-head'); return el; }
    const hall = this.halls[row - 1];
    if (column === 0) { el.textContent = hall.name; el.title = hall.id; el.classList.add('board-head'); return el; }
    const shows = this.byCell.get(`${hall.id}|${this.days[column - 1]}`) ?? [];
    for (const s of shows) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'board-show';
      b.dataset.show = s.id;
      const net = this.revenue.get(s.id);
      b.textContent = this.words.show(s.startsAt.slice(11, 16), s.seats, net);
      b.addEventListener('click', () => this.onOpen(s.id));
      el.append(b);
    }
    return el;
  }

  bind() {
    const el = this.element;
    el.addEventListener('wheel', e => { e.preventDefault(); this.scrollBy(e.shiftKey ? e.deltaY : e.deltaX, e.shiftKey ? 0 : e.deltaY); }, { passive: false });
    let drag = null;
    el.addEventListener('pointerdown', e => { if (e.target.closest('button')) return; drag = { x: e.clientX, y: e.clientY }; el.setPointerCapture(e.pointerId); });
    el.addEventListener('pointermove', e => {
      if (!drag) return;
      this.scrollBy(drag.x - e.clientX, drag.y - e.clientY);
      drag = { x: e.clientX, y: e.clientY };
    });
    el.addEventListener('pointerup', () => { drag = null; });
    el.addEventListener('keydown', e => {
      const step = { ArrowLeft: [-CELL_W, 0], ArrowRight: [CELL_W, 0], ArrowUp: [0, -CELL_H], ArrowDown: [0, CELL_H], PageDown: [0, this.viewH - CELL_H], PageUp: [0, CELL_H - this.viewH] }[e.key];
      if (step && e.target === el) { e.preventDefault(); this.scrollBy(...step); }
    });
  }
}
