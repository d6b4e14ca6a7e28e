// js/engine.js's FrozenGrid against the engine's FrozenGridLayout: the Swift engine writes a schedule
// board's grid at scrolled offsets and view sizes (Tests/Web/Vectors/grid, WebGridVectorsTests); the page's
// grid must give the same clamped offset, panes, visible cells and frames, hits and scroll-to-show.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FrozenGrid, UniformAxis } from '../../Sources/SeatServer/Web/Site/js/engine.js';

const v = JSON.parse(readFileSync(new URL('./Vectors/grid/schedule.json', import.meta.url), 'utf8'));
const axis = a => new UniformAxis(a.count, a.itemSize, a.spacing);
const grid = new FrozenGrid(axis(v.rows), axis(v.columns), v.frozenRows, v.frozenColumns);

test('the content size is the engine\'s', () => assert.deepEqual([grid.contentWidth, grid.contentHeight], v.contentSize));

v.cases.forEach((c, k) => {
  test(`case ${k}: offset ${c.offset}, view ${c.view}`, () => {
    const [vw, vh] = c.view;
    const [ox, oy] = grid.clamped(c.offset[0], c.offset[1], vw, vh);
    assert.deepEqual([ox, oy], c.clamped, 'clamped offset');
    assert.deepEqual(grid.panes(ox, oy, vw, vh), c.panes, 'panes');
    assert.deepEqual(grid.visibleCells(ox, oy, vw, vh), c.cells, 'visible cells');
    for (const [px, py, hit] of c.hits) assert.deepEqual(grid.cellAt(px, py, ox, oy, vw, vh), hit, `hit at ${px},${py}`);
    for (const [row, column, x, y] of c.show) assert.deepEqual(grid.offsetToShow(row, column, ox, oy, vw, vh), [x, y], `show r${row}c${column}`);
  });
});
