// js/queue-place.js: the waiting page's countdown, progress bar and spoken milestones (no DOM).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countdownText, progressPercent, speaksAt } from '../../Sources/SeatServer/Web/Site/js/queue-place.js';

test('the countdown reads mm:ss, then h:mm:ss from an hour, and never goes below zero', () => {
  assert.equal(countdownText(179.2), '03:00');
  assert.equal(countdownText(59), '00:59');
  assert.equal(countdownText(3599), '59:59');
  assert.equal(countdownText(3600), '1:00:00');
  assert.equal(countdownText(2 * 3600 + 5 * 60 + 9), '2:05:09');
  assert.equal(countdownText(-4), '00:00');
});

test('the bar runs from the place first seen to being let in, and is never empty for the next buyer', () => {
  const waiting = ahead => ({ state: 'waiting', ahead });
  assert.equal(progressPercent(waiting(10), 10), 8);
  assert.equal(progressPercent(waiting(5), 10), 50);
  assert.equal(progressPercent(waiting(0), 10), 92);
  assert.equal(progressPercent(waiting(0), 0), 50, 'next on arrival: half full');
  assert.equal(progressPercent(waiting(12), 10), 0, 'a place further back than first seen stays at zero');
  assert.equal(progressPercent({ state: 'admitted' }, 3), 100);
  assert.equal(progressPercent({ state: 'waiting', ahead: 4, queueOff: true }, 9), 100);
  for (const state of ['early', 'soldOut', 'left']) assert.equal(progressPercent({ state }, 4), 0, state);
});

test('the page speaks on the first place it sees and once at each milestone crossed', () => {
  assert.equal(speaksAt(4200, null), true);
  assert.equal(speaksAt(1500, 4200), false);
  assert.equal(speaksAt(1000, 1500), true);
  assert.equal(speaksAt(999, 1000), false, 'a milestone is said once');
  assert.equal(speaksAt(40, 120), true, 'two crossed at once: said once');
  assert.equal(speaksAt(10, 11), true);
  assert.equal(speaksAt(3, 10), false);
});

test('an answer older than the one shown is not shown: a place never goes back between instances', async () => {
  const { isNewer } = await import('../../Sources/SeatServer/Web/Site/js/queue-place.js');
  assert.equal(isNewer({ revision: 7 }, null), true);
  assert.equal(isNewer({ revision: 7 }, 7), true);
  assert.equal(isNewer({ revision: 9 }, 7), true);
  assert.equal(isNewer({ revision: 6 }, 7), false, 'an instance a tick behind: its answer waits for the next');
  assert.equal(isNewer({}, 3), false);
});

test('an admitted buyer is told the whole minutes left to pick seats', async () => {
  const { admissionMinutesLeft } = await import('../../Sources/SeatServer/Web/Site/js/queue-place.js');
  const now = Date.parse('2026-12-20T12:00:00Z');
  assert.equal(admissionMinutesLeft('2026-12-20T12:10:00Z', now), 10);
  assert.equal(admissionMinutesLeft('2026-12-20T12:09:59.500Z', now), 9);
  assert.equal(admissionMinutesLeft('2026-12-20T12:00:20Z', now), 1, 'seconds left still read as a minute');
  assert.equal(admissionMinutesLeft('2026-12-20T11:59:00Z', now), 0);
});

test("the room's instants are printed on the show's own clock", async () => {
  const { onClockOf } = await import('../../Sources/SeatServer/Web/Site/js/queue-place.js');
  const at = Date.parse('2026-12-24T10:40:00Z');
  assert.equal(onClockOf(at, '2026-12-24T19:30:00+08:00'), '2026-12-24T18:40');
  assert.equal(onClockOf(at, '2026-12-24T11:30:00Z'), '2026-12-24T10:40', 'a start written in UTC: its clock is UTC');
  assert.equal(onClockOf(at, '2026-12-24T06:30:00.000-05:00'), '2026-12-24T05:40');
});
