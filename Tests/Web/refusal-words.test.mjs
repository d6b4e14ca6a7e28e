// js/ui.js's problemText: every refusal a buyer can meet in the waiting room is said in their language,
// never the generic "failed: <title>" (an admission that bought already once read "操作失败：Admission used").

import { test } from 'node:test';
import assert from 'node:assert/strict';

// What i18n.js reads of the page when it loads: no query, nothing kept, an English browser.
globalThis.location = { search: '' };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.navigator = { language: 'en-GB' };
// …and what switching the language writes: the root's lang and the language button.
const button = { setAttribute: () => {} };
globalThis.document = { documentElement: {}, querySelectorAll: () => [], getElementById: () => button };
const { setLanguage, t } = await import('../../Sources/SeatServer/Web/Site/js/i18n.js');
const { problemText } = await import('../../Sources/SeatServer/Web/Site/js/ui.js');

const refusal = (slug, status = 409, title = 'Some title') => ({ status, problem: { type: `/problems/${slug}`, title } });

test('each admission refusal has its own words in Chinese and English', () => {
  const slugs = ['admission-required', 'admission-expired', 'admission-forged', 'admission-malformed', 'admission-other-show', 'admission-in-use', 'admission-spent'];
  for (const language of ['zh', 'en']) {
    setLanguage(language);
    const generic = t('failed', 'Some title');
    for (const slug of slugs) {
      const text = problemText(refusal(slug, slug === 'admission-in-use' || slug === 'admission-spent' ? 409 : 403));
      assert.ok(text && text !== generic, `${language} ${slug}: ${text}`);
    }
    // A spent admission is told to queue again, not to pay for a hold it no longer has.
    assert.notEqual(problemText(refusal('admission-spent')), problemText(refusal('admission-in-use')));
  }
  setLanguage('zh');
  assert.match(problemText(refusal('admission-spent')), /重新排队/);
  setLanguage('en');
  assert.match(problemText(refusal('admission-spent')), /join the line again/);
});
