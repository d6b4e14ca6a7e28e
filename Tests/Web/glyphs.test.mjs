// The seat glyphs of js/canvasmap-draw.js against the engine: for one seat and each status the Swift
// display list's strokes and dots (Tests/Web/Vectors/geometry, WebGeometryVectorsTests); the page must
// pick the same glyph from the palette's table and draw it at the same points.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { Venue } from '../../Sources/SeatServer/Web/Site/js/geometry.js';
import { addGlyph, glyphName } from '../../Sources/SeatServer/Web/Site/js/canvasmap-draw.js';

const dir = new URL('./Vectors/geometry/', import.meta.url);

/// A stand-in for Path2D that keeps what is drawn: strokes as point lists, dots as [x, y, r].
function recorder() {
  const lines = [], dots = [];
  return {
    lines: { moveTo: (x, y) => lines.push([x, y]), lineTo: (x, y) => lines.at(-1).push(x, y) },
    dots: { moveTo: () => {}, arc: (x, y, r) => dots.push([x, y, r]) },
    lines_: lines, dots_: dots,
  };
}

const near = (a, b, what) => a.forEach((v, k) => assert.ok(Math.abs(v - b[k]) <= 0.011, `${what}: ${a} ≠ ${b}`));

for (const file of readdirSync(dir).filter(f => f.endsWith('.json'))) {
  const vectors = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
  test(`${file}: each status's glyph is the engine's, at the engine's points`, () => {
    const v = vectors.en;
    assert.equal(v.glyphs.length, 4);
    const venue = new Venue(v.geometry), size = v.geometry.rules.seatSize, glyphs = v.geometry.palette.glyphs;
    assert.equal(glyphName(glyphs, false, 0), null, 'a free seat shows its number');
    for (const g of v.glyphs) {
      assert.equal(glyphName(glyphs, g.selected, g.status), g.glyph);
      const r = recorder();
      addGlyph(r, glyphs.shapes[g.glyph], venue.x[g.seat], venue.y[g.seat], size);
      assert.equal(r.lines_.length, g.lines.length, `${g.glyph} strokes`);
      r.lines_.forEach((line, k) => near(line, g.lines[k], `${g.glyph} stroke ${k}`));
      assert.equal(r.dots_.length, g.dots.length, `${g.glyph} dots`);
      r.dots_.forEach((dot, k) => near(dot, g.dots[k], `${g.glyph} dot ${k}`));
    }
  });
}
