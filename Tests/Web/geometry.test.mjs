// js/geometry.js against the engine: the Swift engine writes, per sample venue and language, the
// geometry and seat-prices documents and what each seat must read as (Tests/Web/Vectors/geometry,
// WebGeometryVectorsTests); the page's decoder must give the same ids, centres, names and labels.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { SeatPrices, Venue, tapChoice, tableMode } from '../../Sources/SeatServer/Web/Site/js/geometry.js';

const dir = new URL('./Vectors/geometry/', import.meta.url);
const files = readdirSync(dir).filter(f => f.endsWith('.json'));

test('there are geometry vectors', () => assert.ok(files.length >= 2, files.join()));

for (const file of files) {
  const vectors = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
  for (const [language, v] of Object.entries(vectors)) {
    test(`${file} ${language}: every seat reads as the engine says`, () => {
      const venue = new Venue(v.geometry);
      const prices = new SeatPrices(v.prices, venue.count);
      assert.equal(venue.count, v.seats.length);
      v.seats.forEach(([id, x, y, name, available, sold], i) => {
        assert.equal(venue.ids[i], id, `seat ${i} id`);
        assert.equal(venue.x[i], x, `${id} x`);
        assert.equal(venue.y[i], y, `${id} y`);
        assert.equal(venue.name(i), name, `${id} name`);
        assert.equal(venue.label(i, venue.words.available, prices), available, `${id} label`);
        assert.equal(venue.label(i, venue.words.sold, prices), sold, `${id} sold label`);
        assert.equal(venue.indexOf(id), i);
      });
      // A tap at a table picks what the engine's SelectionPolicy.tapChoice picks.
      for (const c of v.taps ?? []) {
        const sold = new Set(v.sold.map(id => venue.indexOf(id))), mine = new Set(c.mine.map(id => venue.indexOf(id)));
        const picks = tapChoice(venue, venue.indexOf(c.seat), v.policy, s => !sold.has(s) && !mine.has(s), mine);
        assert.deepEqual(picks.map(s => venue.ids[s]), c.picks, `a tap on ${c.seat} with ${c.mine}`);
      }
      // Each seat's block holds it; the zones' boxes hold their outlines.
      for (let i = 0; i < venue.count; i++) {
        const b = venue.blocks[venue.blockOf[i]];
        assert.ok(b.from <= i && i < b.to, `seat ${i} in its block`);
      }
    });
  }
}

test('a document that is not the format, or whose columns disagree, is refused by name', () => {
  const v = JSON.parse(readFileSync(new URL(files[0], dir), 'utf8')).en;
  assert.throws(() => new Venue({ ...v.geometry, format: 'seatkit-picker-geometry/1' }), /not a geometry document/);
  const short = structuredClone(v.geometry);
  short.seats.number.pop();
  assert.throws(() => new Venue(short), /geometry column number has/);
  assert.throws(() => new SeatPrices({ ...v.prices, runs: [1, 0] }, v.seats.length), /prices cover 1 of/);
  assert.throws(() => new SeatPrices({ ...v.prices, runs: [v.seats.length, 99] }, v.seats.length), /bad price run/);
});

test('a show says how each table is sold, or every table, or the layout does', () => {
  const table = { id: 'T1', mode: 'minimum', min: 2 };
  assert.deepEqual(tableMode(table, null), { mode: 'minimum', min: 2 });
  assert.deepEqual(tableMode(table, { tables: { '*': 'byTable' } }), { mode: 'byTable' });
  assert.deepEqual(tableMode(table, { tables: { '*': 'byTable', T1: { mode: 'minimum', min: 3 } } }), { mode: 'minimum', min: 3 });
});
