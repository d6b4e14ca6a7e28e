// js/attendee-pick.js: a real-name show's attendees on the buyer's page. The ID card check replays the
// numbers SeatMap's IdentityDocument checked (Tests/Web/Vectors/identity/idcards.json, written by
// IdentityDocumentTests), so the page and the server never disagree on a number.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignment, idCardProblem, needed, normalized, realNameMode } from '../../Sources/SeatServer/Web/Site/js/attendee-pick.js';

const vectors = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'Vectors/identity/idcards.json'), 'utf8'));

test('Swift wrote valid numbers, single-digit slips, wrong lengths, letters and impossible dates', () => {
  const kinds = new Set(vectors.cases.map(c => c.verdict?.problem ?? 'valid'));
  assert.deepEqual([...kinds].sort(), ['birthDate', 'characters', 'checkDigit', 'length', 'valid']);
  assert.ok(vectors.cases.filter(c => c.verdict?.problem === 'checkDigit').length >= 4);
});

test('every number is normalised and judged as Swift judged it', () => {
  for (const c of vectors.cases) {
    assert.equal(normalized(c.typed), c.normalized, JSON.stringify(c.typed));
    assert.deepEqual(idCardProblem(c.typed), c.verdict, JSON.stringify(c.typed));
  }
});

test('saved attendees sit in the seats in order: one a seat, or one an order', () => {
  assert.deepEqual(assignment(['7-1', '7-2'], ['at_a', 'at_b'], 'perTicket'), [{ seat: '7-1', saved: 'at_a' }, { seat: '7-2', saved: 'at_b' }]);
  assert.equal(assignment(['7-1', '7-2'], ['at_a'], 'perTicket'), null, 'one short');
  assert.deepEqual(assignment(['7-1', '7-2'], ['at_a'], 'perOrder'), [{ seat: '7-1', saved: 'at_a' }]);
  assert.equal(assignment(['7-1'], ['at_a', 'at_b'], 'perOrder'), null);
  assert.equal(needed(3, 'perTicket'), 3);
  assert.equal(needed(3, 'perOrder'), 1);
});

test("a show's mode is read from its details either way it is written", () => {
  assert.equal(realNameMode({ realName: 'perTicket' }), 'perTicket');
  assert.equal(realNameMode({ realName: { mode: 'perOrder', idTypes: ['idCard'] } }), 'perOrder');
  assert.equal(realNameMode({ realName: { mode: 'none' } }), null);
  assert.equal(realNameMode({}), null);
  assert.equal(realNameMode(undefined), null);
});
