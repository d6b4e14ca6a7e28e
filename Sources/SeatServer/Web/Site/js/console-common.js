// What the console's parts share: the signed-in operator and the desk's show and map (one state object,
// owned by the page's one thread), the operator's calls, and messages in words.

import { ApiProblem, randomKey, request } from './api.js';
import { inLanguage, localName, t } from './i18n.js';
import { w } from './console-words.js';
import { $, moneyText, symbol } from './ui.js';

// The pages' one element lookup (js/ui.js), for the console's parts that import it from here.
export { $ };
export const KEY = 'seatkit.operatorKey';
/// The session's CSRF token (a signed-in person's forms send it back): this tab's, as the key.
export const CSRF = 'seatkit.csrf';

/// `operator`: {name, role, may} once signed in; `showId` and `map`: the desk's show and its
/// `<seatkit-map>` (a fresh element a show).
export const state = { operator: null, showId: null, map: null };

export const key = () => sessionStorage.getItem(KEY);
/// Who the call is from: the operator's key, else the session's cookie (sent by the browser; HttpOnly)
/// with its CSRF token on every change.
function credentials(method) {
  if (key()) return { Authorization: `Bearer ${key()}` };
  return method === 'GET' ? {} : { 'X-CSRF-Token': sessionStorage.getItem(CSRF) ?? '' };
}
/// A v1 call as the signed-in operator (a fresh idempotency key for each POST); no retry.
export const call = (method, path, body) => request(method, path, {
  body, retry: false,
  headers: { ...credentials(method), ...(method === 'POST' ? { 'Idempotency-Key': randomKey() } : {}) },
});

export function say(box, text, kind = 'error') { $(box).textContent = text; $(box).dataset.kind = kind; }

export { announce } from './ui.js';

/// A refusal in words: the rule's own message, the seats someone else has, or the problem's title.
export function problemWords(error) {
  // Not from the server: fetch failed twice (api.js retries once), or the page itself failed; logged
  // either way, so a fault of the page is never only "cannot reach the server".
  if (!(error instanceof ApiProblem)) { console.error(error); return w('offline'); }
  const p = error.problem;
  if (error.status === 403) return w('forbidden');
  if (p.violations?.length) return p.violations.map(v => inLanguage(v.message) ?? v.rule).join(' ');
  if (p.conflicts?.length) {
    const word = { sold: w('sold'), held: w('held'), blocked: w('blockedStatus'), available: w('available') };
    return w('failed', p.conflicts.map(c => `${c.seat}: ${word[c.status] ?? c.status}`).join(', '));
  }
  return w('failed', p.detail ?? p.title ?? `HTTP ${error.status}`);
}

/// A list item with its text and data attributes.
export function li(text, data = {}) {
  const el = document.createElement('li');
  el.textContent = text;
  for (const [k, v] of Object.entries(data)) el.dataset[k] = v;
  return el;
}

/// A price category in words: its one zone's name (普通区), or its own word when several zones share it
/// (an arena's tiers), never the API's key when a word is known.
export function categoryName(id, zones = []) {
  const list = zones.filter(z => z.category === id);
  return list.length === 1 ? localName(list[0].name ?? id) : t('categoryName', id);
}

/// An amount as the page's reader writes money: `¥38.00`, `-¥5.00` (the server's digits, never re-derived).
export const money = moneyText;

/// A table: a caption, a header row and body rows (the first cell of each a row header); with no rows, one
/// that says there is nothing yet. `key` names it for tests (`data-table`).
export function table(caption, head, rows, key) {
  const t = document.createElement('table');
  t.createCaption().textContent = caption;
  const tr = t.createTHead().insertRow();
  for (const h of head) tr.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: h }));
  const body = t.createTBody();
  for (const row of rows.length ? rows : [[w('nothing'), ...head.slice(1).map(() => '')]]) {
    const r = body.insertRow();
    row.forEach((v, k) => r.append(Object.assign(document.createElement(k === 0 ? 'th' : 'td'), { textContent: String(v), ...(k === 0 ? { scope: 'row' } : {}) })));
  }
  if (key) t.dataset.table = key;
  return t;
}

/// A sale's channel in words: `online`, `counter`, a partner's (`partner:NAME`) or a season's (`season:NAME`).
export function channelName(key) {
  if (key.startsWith('partner:')) return w('partnerChannel', localName(key.slice(8)));
  if (key.startsWith('season:')) return w('seasonChannel', localName(key.slice(7)));
  return w('channels')[key] ?? key;
}
