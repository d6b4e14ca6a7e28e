// The console's pure parts (js/console-shows.js, js/console-common.js): a show's id and its start moved
// by days, the start a new show is offered after the hall's last one, a refusal in the manager's words.

import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.location = { search: '' };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.sessionStorage = { getItem: () => null, setItem: () => {} };
globalThis.navigator = { language: 'zh-CN' };
globalThis.document = { documentElement: {}, querySelectorAll: () => [], getElementById: () => ({ setAttribute: () => {} }) };
const { setLanguage } = await import('../../Sources/SeatServer/Web/Site/js/i18n.js');
const { ApiProblem } = await import('../../Sources/SeatServer/Web/Site/js/api.js');
const { shiftedStart, showIdFor, firstFreeMinute } = await import('../../Sources/SeatServer/Web/Site/js/console-shows.js');
const { problemWords, categoryName } = await import('../../Sources/SeatServer/Web/Site/js/console-common.js');
const { when } = await import('../../Sources/SeatServer/Web/Site/js/console-money.js');

test('a start moved by whole days keeps its time and offset across months, years and leap days', () => {
  assert.equal(shiftedStart('2099-12-01T19:30:00+08:00', 7), '2099-12-08T19:30:00+08:00');
  assert.equal(shiftedStart('2099-12-29T23:55:00+08:00', 3), '2100-01-01T23:55:00+08:00');
  assert.equal(shiftedStart('2096-02-28T10:00:00-05:00', 1), '2096-02-29T10:00:00-05:00', '2096 is a leap year');
  assert.equal(shiftedStart('2100-02-28T10:00:00Z', 1), '2100-03-01T10:00:00Z', '2100 is not');
  assert.equal(shiftedStart('2099-03-01T08:00:00+08:00', -1), '2099-02-28T08:00:00+08:00');
});

test("a show's id names its hall and start, within 64 characters", () => {
  assert.equal(showIdFor('cinema-hall-3', '2099-12-01T19:30:00+08:00'), 'cinema-hall-3-20991201-1930');
  const long = showIdFor('h'.repeat(80), '2099-12-01T09:05:00+08:00');
  assert.equal(long.length, 64);
  assert.ok(long.endsWith('-20991201-0905'));
});

test("a new show is offered after the hall's last show of the day and its cleaning", () => {
  const show = (venueId, startsAt, extra = {}) => ({ venueId, startsAt, ...extra });
  const shows = [
    show('h1', '2099-12-01T10:00:00+08:00', { details: { duration: 100 } }),
    show('h1', '2099-12-01T13:00:00+08:00', { details: { duration: 97 } }),
    show('h1', '2099-12-01T20:00:00+08:00', { cancelledAt: 1 }),
    show('h2', '2099-12-01T22:00:00+08:00'),
  ];
  assert.equal(firstFreeMinute(shows, 'h1', '2099-12-01'), 14 * 60 + 55, '13:00 + 97 + 15 rounded up to 5: 14:55');
  assert.equal(firstFreeMinute(shows, 'h1', '2099-12-02'), 10 * 60, 'an empty day: 10:00');
  assert.equal(firstFreeMinute(shows, 'h2', '2099-12-01'), 23 * 60 + 55, 'never past 23:55 (22:00 + 120 + 15 is past midnight)');
});

test('a refusal in the manager\'s words: the rule, the seats taken, or the detail', () => {
  setLanguage('en');
  const rule = new ApiProblem(422, { type: '/problems/policy', violations: [{ rule: 'maxSeats', message: { zh: '最多 6 个座位', en: 'At most 6 seats' } }] });
  assert.equal(problemWords(rule), 'At most 6 seats');
  const taken = new ApiProblem(409, { type: '/problems/seats-taken', conflicts: [{ seat: '7-1', status: 'sold' }] });
  assert.match(problemWords(taken), /7-1: sold/);
  assert.match(problemWords(new ApiProblem(403, { title: 'Forbidden' })), /./);
  setLanguage('zh');
  assert.equal(problemWords(rule), '最多 6 个座位');
  assert.equal(categoryName('vip', [{ category: 'vip', name: 'VIP区 VIP' }]), 'VIP区', "a zone's name in the page's language");
});

test("a payment's time reads in the console's language, whatever the browser's", () => {
  setLanguage('zh');
  assert.match(when('2026-12-06T13:05:09Z'), /^2026\/12\/[67] \d\d:\d\d$/);
  setLanguage('en');
  assert.match(when('2026-12-06T13:05:09Z'), /^0[67]\/12\/2026, \d\d:\d\d$/);
  assert.equal(when(undefined), '');
});
