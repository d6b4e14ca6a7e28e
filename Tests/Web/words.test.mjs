// The pages' words that are arithmetic of text: money written alike on every page, clauses joined
// without doubled full stops, seats named as printed (js/ui.js, js/console-words.js, js/door-words.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.location = { search: '' };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.navigator = { language: 'zh-CN' };
const button = { setAttribute: () => {} };
globalThis.document = { documentElement: {}, querySelectorAll: () => [], getElementById: () => button };
const { setLanguage } = await import('../../Sources/SeatServer/Web/Site/js/i18n.js');
const { moneyText } = await import('../../Sources/SeatServer/Web/Site/js/ui.js');
const { WORDS, joinClauses } = await import('../../Sources/SeatServer/Web/Site/js/console-words.js');
const { w: door } = await import('../../Sources/SeatServer/Web/Site/js/door-words.js');

test('money is the sign and the exact decimal, alike on every page and in both languages', () => {
  assert.equal(moneyText('120.00', 'CNY'), '¥120.00');
  assert.equal(moneyText('-30.00', 'CNY'), '-¥30.00');
  assert.equal(moneyText('9.90', 'USD'), '$9.90');
  assert.equal(moneyText('5', 'KRW'), 'KRW 5');
  assert.equal(moneyText(30, 'CNY'), '¥30.00', 'a sum the page made, to the fen');
  assert.equal(moneyText(-12.5, 'CNY'), '-¥12.50');
  assert.equal(moneyText(1200, 'JPY'), '¥1200');
});

test('a list of refusals reads as one sentence with one full stop', () => {
  const clash = WORDS.zh.clash('《深海》', '19:30', 120, 15);
  assert.ok(clash.endsWith('。'));
  const zh = WORDS.zh.copied(2, [`12月24日: ${clash}`, '12月25日: 场次已存在。']);
  assert.ok(!/。。|。；/.test(zh) && zh.endsWith('冲突；12月25日: 场次已存在。'), zh);
  const en = WORDS.en.copied(1, ['Dec 24: it clashes.', 'Dec 25: exists.']);
  assert.equal(en, '1 shows copied; 2 not copied: Dec 24: it clashes; Dec 25: exists.');
  assert.equal(joinClauses(['a。', 'b.'], '/'), 'a/b');
});

test('a seat is named as printed on it: 3排10座, Row 3 Seat 10; an id alone as it is', () => {
  setLanguage('zh');
  assert.equal(door('seat', '3-10', '3', '10'), '3排10座');
  assert.equal(door('seat', 'A-7', undefined, undefined), '座位 A-7');
  assert.equal(WORDS.zh.seatName('3-10', '3', '10'), '3排10座');
  assert.equal(door('reasons').tooEarly('18:30'), '18:30 开始检票');
  setLanguage('en');
  assert.equal(door('seat', '3-10', '3', '10'), 'Row 3 Seat 10');
  assert.equal(WORDS.en.seatName('3-10', '3', '10'), 'Row 3 Seat 10');
  assert.match(door('reasons').wrongShow('Deep Sea 19:30'), /Deep Sea 19:30/);
  for (const language of ['zh', 'en']) {
    setLanguage(language);
    for (const reason of ['cancelled', 'refunded', 'exchanged', 'resold', 'neverIn', 'wentOut', 'signature', 'unknownShow']) {
      assert.equal(typeof door('reasons')[reason], 'string', `${language} ${reason}`);
    }
  }
});

test('every page reads its words through one phrasebook: a phrase called with its arguments, in the page language', async () => {
  const { phrasebook, t } = await import('../../Sources/SeatServer/Web/Site/js/i18n.js');
  const { w } = await import('../../Sources/SeatServer/Web/Site/js/console-words.js');
  const { o } = await import('../../Sources/SeatServer/Web/Site/js/order-words.js');
  const say = phrasebook({ zh: { hi: '你好', seats: n => `${n} 个座位` }, en: { hi: 'Hello', seats: n => `${n} seats` } });
  setLanguage('zh');
  assert.equal(say('hi'), '你好');
  assert.equal(say('seats', 3), '3 个座位', 'a phrase is called with the arguments');
  assert.equal(w('printed', 2), WORDS.zh.printed(2), 'the console');
  assert.equal(typeof w('done'), 'object', 'a group of phrases comes back whole');
  for (const [name, f] of [['picker', t], ['console', w], ['door', door], ['order', o]]) {
    assert.ok(f('skip').length > 0, `${name}: the skip link's words`);
  }
  setLanguage('en');
  assert.equal(say('seats', 3), '3 seats', 'the language switched');
  assert.equal(w('printed', 2), WORDS.en.printed(2));
  setLanguage('zh');
});

test('the console names every operator role the server has, in both languages', () => {
  const roles = { door: ['检票员', 'door'], boxoffice: ['售票员', 'box office'], manager: ['经理', 'manager'], checkout: ['收银系统', 'checkout system'] };
  for (const [role, [zh, en]] of Object.entries(roles)) {
    assert.equal(WORDS.zh.signedIn('李娜', role), `李娜（${zh}）`, role);
    assert.equal(WORDS.en.signedIn('Li Na', role), `Li Na (${en})`, role);
  }
});
