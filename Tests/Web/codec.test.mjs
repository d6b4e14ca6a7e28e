// js/availability.js against the engine's compact encodings: the Swift engine writes availabilities and
// deltas with every status and change (Tests/Web/Vectors/codec, WebCodecVectorsTests) and the encodings
// it refuses; the page's codec must decode the same seats, refuse the same text, and name the statuses
// in the engine's order (the page's map and reports index statuses by it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { STATUS, decodeAvailability, decodeDelta } from '../../Sources/SeatServer/Web/Site/js/availability.js';

const v = JSON.parse(readFileSync(new URL('./Vectors/codec/availability.json', import.meta.url), 'utf8'));

test('the status names are the engine\'s, in its order', () => {
  assert.deepEqual(STATUS, v.statusNames);
});

v.availabilities.forEach((a, n) => {
  test(`availability ${n}: every seat's status and the delta's changes`, () => {
    const decoded = decodeAvailability(a.encoded);
    assert.equal(decoded.version, a.version);
    assert.deepEqual([...decoded.statuses], a.statuses);
    const delta = decodeDelta(a.delta);
    assert.deepEqual([delta.from, delta.to], [a.from, a.to]);
    assert.deepEqual(delta.changes, a.changes);
  });
});

test('what the engine refuses, the page refuses', () => {
  for (const text of v.refused) {
    assert.throws(() => (text.startsWith('skd') ? decodeDelta(text) : decodeAvailability(text)), undefined, text);
  }
});
