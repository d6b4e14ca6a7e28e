// Replays the vectors the Swift engine writes (Tests/Web/Vectors, by SeatCanvasTests' WebVectorsTests)
// against the page's engine (js/engine.js): the same gestures must give the same viewport, level of
// detail, gutter, hit tests and drag path. Run: node --test Tests/Web
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PrefetchPlanner, SeatField, UniformAxis, Viewport, levelForZoom, touchViewHeight, touchViewport, zoomAfterTap, zoomIntoSeats } from '../../Sources/SeatServer/Web/Site/js/engine.js';

const here = dirname(fileURLToPath(import.meta.url));
const vectorDir = join(here, 'Vectors');
const files = readdirSync(vectorDir).filter(f => f.endsWith('.json')).sort();

/// Equal to the last bits a double carries (both sides do the same operations in the same order).
function close(actual, expected, what) {
  const tolerance = 1e-9 * Math.max(1, Math.abs(expected));
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} ≠ ${expected}`);
}

test('the engine wrote vectors for every sample venue', () => {
  assert.deepEqual(files, ['arena-3000.json', 'cinema-hall.json', 'imax-hall.json']);
});

for (const file of files) {
  const vectors = JSON.parse(readFileSync(join(vectorDir, file), 'utf8'));
  const { rules, geometry } = vectors;
  const field = new SeatField(geometry.x, geometry.y, geometry.rows, rules);

  vectors.cases.forEach((c, n) => {
    test(`${vectors.venue}: case ${n + 1} (${c.view[0]}×${c.view[1]}) follows the engine step by step`, () => {
      let v;
      c.steps.forEach((step, k) => {
        const at = `${vectors.venue} case ${n + 1} step ${k + 1} (${step.op})`;
        switch (step.op) {
          case 'open': v = new Viewport(geometry.contentWidth, geometry.contentHeight, c.view[0], c.view[1], rules); break;
          case 'openTouch': v = touchViewport(geometry.contentWidth, geometry.contentHeight, c.view[0], c.view[1], rules, step.gutter); break;
          case 'openTouchFitted': {
            const height = touchViewHeight(geometry.contentWidth, geometry.contentHeight, c.view[0], c.view[1], rules);
            assert.equal(height, step.height, `${at} the map's height`);
            v = touchViewport(geometry.contentWidth, geometry.contentHeight, c.view[0], height, rules);
            break;
          }
          case 'zoom': v.zoomBy(step.factor, step.focal[0], step.focal[1]); break;
          case 'pan': v.panBy(step.by[0], step.by[1]); break;
          case 'resize': v.resize(step.to[0], step.to[1]); break;
          case 'centre': v.centreOn(step.on[0], step.on[1]); break;
          default: assert.fail(`${at}: unknown step`);
        }
        const e = step.expect;
        close(v.zoom, e.zoom, `${at} zoom`);
        close(v.ox, e.offset[0], `${at} offset x`);
        close(v.oy, e.offset[1], `${at} offset y`);
        close(v.minZoom(), e.minZoom, `${at} minimum zoom`);
        close(v.maxZoom, e.maxZoom, `${at} maximum zoom`);
        assert.equal(levelForZoom(v.zoom, rules), e.level, `${at} level of detail`);
        const afterTap = zoomAfterTap(v.zoom, rules);
        if (e.zoomAfterTap === null) assert.equal(afterTap, null, `${at} a tap keeps the zoom`); else close(afterTap, e.zoomAfterTap, `${at} zoom after a tap`);
        close(zoomIntoSeats(rules), e.zoomIntoSeats, `${at} zoom into seats`);
        const gutter = field.gutter(v);
        assert.deepEqual(gutter.map(g => [g.row, g.label]), e.gutter.map(([row, label]) => [row, label]), `${at} gutter rows`);
        gutter.forEach((g, i) => close(g.y, e.gutter[i][2], `${at} gutter y of row ${g.label}`));
        const top = field.topGutter(v);
        assert.deepEqual(top.map(g => [g.row, g.label]), e.topGutter.map(([row, label]) => [row, label]), `${at} top gutter rows`);
        top.forEach((g, i) => close(g.x, e.topGutter[i][2], `${at} top gutter x of row ${g.label}`));
        for (const [[x, y], seat] of e.hits) assert.equal(field.hitTest(x, y, v), seat, `${at} tap at ${x},${y}`);
        assert.deepEqual(field.alongDrag(e.drag.path, v), e.drag.seats, `${at} drag`);
      });
    });
  });
}

test('a mismatch fails: a viewport one inset off does not pass for the engine', () => {
  const vectors = JSON.parse(readFileSync(join(vectorDir, 'cinema-hall.json'), 'utf8'));
  const { rules, geometry } = vectors, c = vectors.cases[0];
  const v = new Viewport(geometry.contentWidth, geometry.contentHeight, c.view[0], c.view[1], { ...rules, inset: rules.inset + 1 });
  // Through step 5, a pan far past the top-left corner: the offset rests against the inset.
  v.zoomBy(c.steps[1].factor, ...c.steps[1].focal);
  v.panBy(...c.steps[2].by);
  v.zoomBy(c.steps[3].factor, ...c.steps[3].focal);
  v.panBy(...c.steps[4].by);
  assert.throws(() => close(v.ox, c.steps[4].expect.offset[0], 'offset'));
});

test("the prefetch planner answers the engine's events frame by frame", () => {
  const vectors = JSON.parse(readFileSync(join(vectorDir, 'prefetch', 'planner.json'), 'utf8'));
  const a = vectors.axis, axis = new UniformAxis(a.count, a.itemSize, a.spacing, a.leadingInset);
  const planner = new PrefetchPlanner();
  let prefetches = 0, cancels = 0;
  vectors.frames.forEach((f, k) => {
    const events = planner.update(axis, f.offset, f.length, f.velocity);
    assert.deepEqual(events, f.events, `frame ${k + 1} (offset ${f.offset}, velocity ${f.velocity})`);
    prefetches += events.filter(e => e[0] === 'prefetch').length; cancels += events.filter(e => e[0] === 'cancel').length;
  });
  assert.ok(prefetches > 10 && cancels > 3, `the script exercises both: ${prefetches} prefetches, ${cancels} cancels`);
});
