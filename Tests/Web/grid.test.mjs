// js/grid.js's FrozenGrid and VariableAxis against the engine's FrozenGridLayout and VariableAxis: the
// Swift engine writes two boards' grids at scrolled offsets and view sizes (Tests/Web/Vectors/grid,
// WebGridVectorsTests) — the week (halls × days, uniform axes) and the time of day (a hall column and
// 5-minute slots, shows and hours as merged blocks); the page's grid must give the same clamped offset,
// panes, visible cells, frames and blocks, hits and scroll-to-show.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { UniformAxis } from '../../Sources/SeatServer/Web/Site/js/engine.js';
import { FrozenGrid, VariableAxis } from '../../Sources/SeatServer/Web/Site/js/grid.js';

const axis = a => (a.sizes ? new VariableAxis(a.sizes, a.spacing) : new UniformAxis(a.count, a.itemSize, a.spacing));

for (const name of ['schedule', 'timeline']) {
  const v = JSON.parse(readFileSync(new URL(`./Vectors/grid/${name}.json`, import.meta.url), 'utf8'));
  const grid = new FrozenGrid(axis(v.rows), axis(v.columns), v.frozenRows, v.frozenColumns, v.merged);

  test(`${name}: the content size and the column axis are the engine's`, () => {
    assert.deepEqual([grid.contentWidth, grid.contentHeight], v.contentSize);
    for (const [i, offset] of v.columnAxis.offsets) assert.equal(grid.columns.offset(i), offset, `offset of ${i}`);
    for (const [p, slot, index] of v.columnAxis.positions) {
      assert.equal(grid.columns.slot(p), slot, `slot at ${p}`);
      assert.equal(grid.columns.index(p), index, `item at ${p}`);
    }
  });

  v.cases.forEach((c, k) => {
    test(`${name} case ${k}: offset ${c.offset}, view ${c.view}`, () => {
      const [vw, vh] = c.view;
      const [ox, oy] = grid.clamped(c.offset[0], c.offset[1], vw, vh);
      assert.deepEqual([ox, oy], c.clamped, 'clamped offset');
      assert.deepEqual(grid.panes(ox, oy, vw, vh), c.panes, 'panes');
      assert.deepEqual(grid.visibleCells(ox, oy, vw, vh), c.cells, 'visible cells');
      for (const [px, py, hit] of c.hits) assert.deepEqual(grid.cellAt(px, py, ox, oy, vw, vh), hit, `hit at ${px},${py}`);
      for (const [row, column, x, y] of c.show) assert.deepEqual(grid.offsetToShow(row, column, ox, oy, vw, vh), [x, y], `show r${row}c${column}`);
    });
  });
}

test('merged blocks that overlap or straddle a frozen edge are refused, as the engine refuses them', () => {
  const rows = new UniformAxis(4, 10), columns = new VariableAxis([30, 10, 10, 10]);
  assert.throws(() => new FrozenGrid(rows, columns, 1, 1, [{ rows: [1, 2], columns: [1, 3] }, { rows: [1, 2], columns: [2, 4] }]), /overlap/);
  assert.throws(() => new FrozenGrid(rows, columns, 1, 1, [{ rows: [0, 2], columns: [1, 3] }]), /frozen rows/);
  assert.throws(() => new FrozenGrid(rows, columns, 1, 1, [{ rows: [1, 2], columns: [0, 2] }]), /frozen columns/);
  assert.throws(() => new FrozenGrid(rows, columns, 1, 1, [{ rows: [1, 2], columns: [3, 5] }]), /outside/);
});

test("everyCell (the board's ?virtual=off baseline) is what a view as large as the content shows", () => {
  const v = JSON.parse(readFileSync(new URL('./Vectors/grid/timeline.json', import.meta.url), 'utf8'));
  const grid = new FrozenGrid(axis(v.rows), axis(v.columns), v.frozenRows, v.frozenColumns, v.merged);
  const key = cells => cells.map(c => JSON.stringify(c)).sort();
  assert.deepEqual(key(grid.everyCell(0, 0)), key(grid.visibleCells(0, 0, grid.contentWidth, grid.contentHeight)));
});
