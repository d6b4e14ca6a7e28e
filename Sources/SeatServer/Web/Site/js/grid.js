// The console's grids in the browser: CollectionLayout's VariableAxis and FrozenGridLayout, merged
// blocks included, operation for operation. No DOM: `node --test Tests/Web` replays the vectors the
// Swift engine writes (Tests/Web/Vectors/grid) against this file, so the two cannot drift.

import { AxisModel } from './engine.js';

/// Items of different sizes along one axis, with a gap after each (CollectionLayout's VariableAxis):
/// offsets from a Fenwick tree over size + gap, summed in the engine's order so every offset is the
/// engine's to the last bit. The schedule board's time-of-day columns (a hall column, then 5-minute slots).
export class VariableAxis extends AxisModel {
  /// `spacing` between every two items, or `gaps[i]` after item i when given (one fewer than sizes).
  constructor(sizes, spacing = 0, gaps = null, leadingInset = 0, trailingInset = 0) {
    super();
    if (sizes.some(s => !(s >= 0))) throw new RangeError('sizes must not be negative');
    if (gaps && gaps.length !== Math.max(sizes.length - 1, 0)) throw new RangeError('one gap between each two items');
    this.count = sizes.length;
    this.sizes = sizes.slice();
    this.gaps = gaps ? gaps.slice() : Array(Math.max(sizes.length - 1, 0)).fill(spacing);
    if (this.count > 0) this.gaps.push(0);
    Object.assign(this, { leadingInset, trailingInset });
    // O(n): each node passes its sum up to its parent once (tree[k] sums (k − lowbit(k), k]).
    this.tree = new Float64Array(this.count + 1);
    for (let i = 0; i < this.count; i++) {
      const k = i + 1;
      this.tree[k] += this.sizes[i] + this.gaps[i];
      const parent = k + (k & -k);
      if (parent <= this.count) this.tree[parent] += this.tree[k];
    }
    this.highestStep = 1;
    while (this.highestStep * 2 <= this.count) this.highestStep *= 2;
    this.total = this.sizes.reduce((sum, s, i) => sum + s + this.gaps[i], 0);
  }

  get contentLength() { return this.leadingInset + this.total + this.trailingInset; }

  prefix(index) {
    let k = index, sum = 0;
    while (k > 0) { sum += this.tree[k]; k -= k & -k; }
    return sum;
  }

  offset(index) { return this.leadingInset + this.prefix(index); }

  size(index) { return this.sizes[index]; }

  gap(index) { return this.gaps[index]; }

  /// Binary lifting down the tree: the item whose slot (item and the gap after it) holds `position`,
  /// clamped; null without items.
  /// - Complexity: O(log n).
  slot(position) {
    if (this.count <= 0) return null;
    const target = position - this.leadingInset;
    if (target < 0) return 0;
    let k = 0, sum = 0;
    for (let step = this.highestStep; step > 0; step >>= 1) {
      const next = k + step;
      if (next <= this.count && sum + this.tree[next] <= target) { k = next; sum += this.tree[next]; }
    }
    return k >= this.count ? this.count - 1 : k;
  }
}

/// A grid with `frozenRows` leading rows and `frozenColumns` leading columns pinned (CollectionLayout's
/// FrozenGridLayout): one offset drives four panes — the corner never moves, the header row follows the
/// body sideways, the header column up and down. `merged` blocks (`{rows: [r0, r1], columns: [c0, c1]}`)
/// are drawn as one cell: a show spanning its running time on the time-of-day board, an hour's label.
export class FrozenGrid {
  /// Merged blocks must not overlap each other or straddle the frozen edges (a RangeError, as the
  /// engine's precondition).
  constructor(rows, columns, frozenRows = 0, frozenColumns = 0, merged = []) {
    if (!(frozenRows >= 0 && frozenRows <= rows.count && frozenColumns >= 0 && frozenColumns <= columns.count)) {
      throw new RangeError('frozen counts must be within the grid');
    }
    Object.assign(this, { rows, columns, frozenRows, frozenColumns, merged });
    this.mergedByCell = new Map();
    merged.forEach((m, k) => {
      const [r0, r1] = m.rows, [c0, c1] = m.columns;
      if (!(r0 >= 0 && c0 >= 0 && r0 < r1 && c0 < c1 && r1 <= rows.count && c1 <= columns.count)) throw new RangeError('merged block outside the grid');
      if ((r0 < frozenRows) !== (r1 <= frozenRows)) throw new RangeError('merged block straddles the frozen rows');
      if ((c0 < frozenColumns) !== (c1 <= frozenColumns)) throw new RangeError('merged block straddles the frozen columns');
      for (let r = r0; r < r1; r++) {
        for (let c = c0; c < c1; c++) {
          const key = r * columns.count + c;
          if (this.mergedByCell.has(key)) throw new RangeError('merged blocks overlap');
          this.mergedByCell.set(key, k);
        }
      }
    });
  }

  get contentWidth() { return this.columns.contentLength; }
  get contentHeight() { return this.rows.contentLength; }
  get frozenHeight() { return this.frozenRows === 0 ? 0 : this.rows.offset(this.frozenRows - 1) + this.rows.size(this.frozenRows - 1); }
  get frozenWidth() { return this.frozenColumns === 0 ? 0 : this.columns.offset(this.frozenColumns - 1) + this.columns.size(this.frozenColumns - 1); }

  /// The nearest offset that keeps the body within the content.
  clamped(ox, oy, vw, vh) {
    return [Math.min(Math.max(ox, 0), Math.max(this.contentWidth - vw, 0)), Math.min(Math.max(oy, 0), Math.max(this.contentHeight - vh, 0))];
  }

  /// Each pane's visible rows and columns (`[start, end)`) and its rectangle in the view.
  /// - Complexity: O(1) for uniform axes, O(log n) for variable ones.
  panes(ox, oy, vw, vh) {
    const fh = Math.min(this.frozenHeight, vh), fw = Math.min(this.frozenWidth, vw);
    const clampTo = ([a, b], n) => [Math.min(Math.max(a, 0), n), Math.min(Math.max(b, 0), n)];
    let bodyRows = this.rows.range(oy + fh, oy + vh);
    bodyRows = [Math.max(bodyRows[0], this.frozenRows), Math.max(bodyRows[1], this.frozenRows)];
    let bodyColumns = this.columns.range(ox + fw, ox + vw);
    bodyColumns = [Math.max(bodyColumns[0], this.frozenColumns), Math.max(bodyColumns[1], this.frozenColumns)];
    const headRows = clampTo(this.rows.range(0, fh), this.frozenRows), headColumns = clampTo(this.columns.range(0, fw), this.frozenColumns);
    return [
      { pane: 'corner', rows: headRows, columns: headColumns, clip: [0, 0, fw, fh] },
      { pane: 'headerRow', rows: headRows, columns: bodyColumns, clip: [fw, 0, vw - fw, fh] },
      { pane: 'headerColumn', rows: bodyRows, columns: headColumns, clip: [0, fh, fw, vh - fh] },
      { pane: 'body', rows: bodyRows, columns: bodyColumns, clip: [fw, fh, vw - fw, vh - fh] },
    ];
  }

  shift(pane, ox, oy) {
    return pane === 'corner' ? [0, 0] : pane === 'headerRow' ? [-ox, 0] : pane === 'headerColumn' ? [0, -oy] : [-ox, -oy];
  }

  /// The content frame of a cell or block (`[x, y, w, h]`).
  contentFrame([r0, r1], [c0, c1]) {
    const x = this.columns.offset(c0), y = this.rows.offset(r0);
    return [x, y, this.columns.offset(c1 - 1) + this.columns.size(c1 - 1) - x, this.rows.offset(r1 - 1) + this.rows.size(r1 - 1) - y];
  }

  /// Every visible cell with its pane and frame in the view (`[row, column, pane, [x, y, w, h]]`), pane
  /// by pane: body, header row, header column, corner last (so it draws on top). A merged block appears
  /// once a pane, at its full size, even when its anchor has scrolled away, as
  /// `[anchorRow, anchorColumn, pane, frame, [r0, r1, c0, c1]]`.
  /// - Complexity: O(visible cells).
  visibleCells(ox, oy, vw, vh) {
    const out = [], [corner, headerRow, headerColumn, body] = this.panes(ox, oy, vw, vh), n = this.columns.count;
    for (const window of [body, headerRow, headerColumn, corner]) {
      const [r0, r1] = window.rows, [c0, c1] = window.columns;
      if (r0 >= r1 || c0 >= c1) continue;
      const [dx, dy] = this.shift(window.pane, ox, oy);
      const x0 = this.columns.offset(c0) + dx, emitted = new Set();
      let y = this.rows.offset(r0) + dy;
      for (let r = r0; r < r1; r++) {
        const h = this.rows.size(r);
        let x = x0;
        for (let c = c0; c < c1; c++) {
          const w = this.columns.size(c), m = this.mergedByCell.size ? this.mergedByCell.get(r * n + c) : undefined;
          if (m === undefined) {
            out.push([r, c, window.pane, [x, y, w, h]]);
          } else if (!emitted.has(m)) {
            emitted.add(m);
            const block = this.merged[m], [fx, fy, fw, fh] = this.contentFrame(block.rows, block.columns);
            out.push([block.rows[0], block.columns[0], window.pane, [fx + dx, fy + dy, fw, fh], [...block.rows, ...block.columns]]);
          }
          x += w + this.columns.gap(c);
        }
        y += h + this.rows.gap(r);
      }
    }
    return out;
  }

  /// Every cell and block at its view frame, on screen or not, in `visibleCells`' form: the baseline the
  /// schedule board's benchmark draws with `?virtual=off` (not in the engine: nothing should draw this).
  everyCell(ox, oy) {
    const out = [], seen = new Set(), n = this.columns.count;
    for (let r = 0; r < this.rows.count; r++) {
      for (let c = 0; c < n; c++) {
        const pane = r < this.frozenRows ? (c < this.frozenColumns ? 'corner' : 'headerRow') : (c < this.frozenColumns ? 'headerColumn' : 'body');
        const [dx, dy] = this.shift(pane, ox, oy), m = this.mergedByCell.get(r * n + c);
        if (m === undefined) {
          out.push([r, c, pane, [this.columns.offset(c) + dx, this.rows.offset(r) + dy, this.columns.size(c), this.rows.size(r)]]);
        } else if (!seen.has(m)) {
          seen.add(m);
          const block = this.merged[m], [x, y, w, h] = this.contentFrame(block.rows, block.columns);
          out.push([block.rows[0], block.columns[0], pane, [x + dx, y + dy, w, h], [...block.rows, ...block.columns]]);
        }
      }
    }
    return out;
  }

  /// The cell under a view point, in whichever pane the point falls (a merged block answers with its
  /// anchor); null in a gap or past the content.
  cellAt(px, py, ox, oy, vw, vh) {
    if (!(px >= 0 && py >= 0 && px < vw && py < vh)) return null;
    const inRows = py < Math.min(this.frozenHeight, vh), inColumns = px < Math.min(this.frozenWidth, vw);
    const pane = inRows ? (inColumns ? 'corner' : 'headerRow') : (inColumns ? 'headerColumn' : 'body');
    const [dx, dy] = this.shift(pane, ox, oy);
    const r = this.rows.index(py - dy), c = this.columns.index(px - dx);
    if (r === null || c === null) return null;
    const m = this.mergedByCell.get(r * this.columns.count + c);
    return m === undefined ? [r, c, pane] : [this.merged[m].rows[0], this.merged[m].columns[0], pane];
  }

  /// The smallest scroll that shows a cell whole in the body (frozen cells are always shown).
  offsetToShow(row, column, ox, oy, vw, vh) {
    let x = ox, y = oy;
    if (column >= this.frozenColumns) {
      const cx = this.columns.offset(column), w = this.columns.size(column), visible = vw - this.frozenWidth;
      if (cx - x < this.frozenWidth) x = cx - this.frozenWidth; else if (cx + w - x > vw) x = cx + Math.min(w, visible) - vw;
    }
    if (row >= this.frozenRows) {
      const cy = this.rows.offset(row), h = this.rows.size(row), visible = vh - this.frozenHeight;
      if (cy - y < this.frozenHeight) y = cy - this.frozenHeight; else if (cy + h - y > vh) y = cy + Math.min(h, visible) - vh;
    }
    return this.clamped(x, y, vw, vh);
  }
}
