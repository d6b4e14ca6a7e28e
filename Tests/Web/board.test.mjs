// js/board.js's day plan: the time-of-day board's merged blocks from a day's shows (no DOM). The grid it
// feeds is js/grid.js's FrozenGrid, which refuses overlapping blocks, so every plan is also built into one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dayPlan } from '../../Sources/SeatServer/Web/Site/js/board.js';
import { FrozenGrid, VariableAxis } from '../../Sources/SeatServer/Web/Site/js/grid.js';

const show = (id, time, duration) => ({ id, startsAt: `2099-11-10T${time}:00+08:00`, ...(duration ? { details: { duration } } : {}) });
const shows = plan => [...plan.blocks].filter(([, b]) => b.kind === 'show').map(([key, b]) => [b.show.id, key, b.overlaps]);
const widths = plan => new Map(plan.merged.map(m => [`${m.rows[0]}|${m.columns[0]}`, m.columns[1] - m.columns[0]]));
const grid = (plan, halls) => new FrozenGrid(new VariableAxis(Array(halls + 1).fill(64)), new VariableAxis([200, ...Array(plan.slots).fill(10)]), 1, 1, plan.merged);

test('09:00 to midnight in 5-minute slots, an hour a header block, a show as long as its running time', () => {
  const plan = dayPlan([[show('a', '10:00', 166), show('b', '15:05', 100)], []]);
  assert.equal(plan.slots, 15 * 12);
  assert.deepEqual([...plan.blocks].filter(([, b]) => b.kind === 'hour').length, 15);
  assert.deepEqual(shows(plan), [['a', '1|13', false], ['b', '1|74', false]]);
  const w = widths(plan);
  assert.equal(w.get('1|13'), 34, '166 minutes: 33.2 slots, rounded out');
  assert.equal(w.get('1|74'), 20, '100 minutes');
  // The gaps fill the row: before, between and after; the empty hall is one block.
  assert.deepEqual([...plan.blocks].filter(([k, b]) => b.kind === 'gap').map(([k]) => k), ['1|1', '1|47', '1|94', '2|1']);
  assert.equal(w.get('2|1'), 180);
  assert.deepEqual(plan.first, { row: 1, column: 13 });
  assert.doesNotThrow(() => grid(plan, 2));
});

test('an early start and a late end widen the day; a show without a running time is two hours', () => {
  const plan = dayPlan([[show('early', '07:40', 90)], [show('late', '23:10')]]);
  assert.equal(plan.slots, (26 - 7) * 12, '07:00 to 02:00 (23:10 and two hours end at 01:10)');
  assert.equal(widths(plan).get(`2|${1 + (23 * 60 + 10 - 7 * 60) / 5}`), 24);
  const hours = [...plan.blocks].filter(([, b]) => b.kind === 'hour').map(([, b]) => b.minute);
  assert.deepEqual([hours[0], hours.at(-1)], [7 * 60, 25 * 60]);
  assert.doesNotThrow(() => grid(plan, 2));
});

test('a show that starts before the one before it ends is drawn after it, marked, never over the next', () => {
  const plan = dayPlan([[show('a', '10:00', 166), show('b', '12:30', 90), show('c', '14:10', 60), show('d', '14:20', 30)]]);
  assert.deepEqual(shows(plan).map(([id, , overlaps]) => [id, overlaps]), [['a', false], ['b', true], ['c', false], ['d', true]]);
  const w = widths(plan), at = id => shows(plan).find(s => s[0] === id)[1];
  assert.equal(at('b'), '1|47', 'b from the end of a (12:50)');
  assert.equal(w.get(at('b')), 14, 'b keeps its own end, 14:00');
  assert.equal(at('c'), '1|63', 'c starts on time');
  assert.equal(at('d'), '1|75', 'd after c (15:10)');
  assert.equal(w.get(at('d')), 6, 'd at least half an hour wide');
  assert.doesNotThrow(() => grid(plan, 1));
});
