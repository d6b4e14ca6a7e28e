// What the pages share: element helpers, the announcer and message box, and the words for shows
// and refusals (the show list's cards, the picker's strip of times, the buyer's messages).

import { inLanguage, showTime, t } from './i18n.js';

export const $ = id => document.getElementById(id);
export const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') node.className = v; else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'role') node.setAttribute(k, v); else node[k] = v;
  }
  node.append(...children.filter(c => c !== null && c !== undefined));
  return node;
};
export const symbol = currency => ({ CNY: '¥', JPY: '¥', USD: '$', EUR: '€', GBP: '£' })[currency] ?? `${currency} `;

/// An amount as every page writes it: the currency's sign and the server's exact decimal text
/// ("¥120.00", "-¥30.00"), in both languages (the order page once wrote "CN¥" beside the console's "¥").
/// A number (a sum the page made) is written to the currency's minor units.
export const moneyText = (amount, currency) => {
  const text = typeof amount === 'number' ? amount.toFixed(['JPY', 'KRW'].includes(currency) ? 0 : 2) : String(amount);
  return `${text.startsWith('-') ? '-' : ''}${symbol(currency)}${text.replace(/^-/, '')}`;
};

/// Says `text` through a live region: emptied first and filled 50 ms later, so a screen reader speaks
/// the same words twice in a row too; a newer announcement replaces one still waiting. The one way every
/// page (the picker, the console, `<seatkit-map>`) announces.
const announceTimers = new WeakMap();
export function announceIn(region, text) {
  clearTimeout(announceTimers.get(region));
  region.textContent = '';
  announceTimers.set(region, setTimeout(() => { region.textContent = text; }, 50));
}

/// `announceIn` the page's own `#announcer`.
export function announce(text) { announceIn($('announcer'), text); }

export function showMessage(text, kind = 'error') {
  const box = $('message');
  box.textContent = text;
  box.dataset.kind = kind;
}

/// Format, language and running time, as the show's details give them.
export function filmMeta(show) {
  const minutes = show.details?.duration;
  return [detailText(show, 'format'), detailText(show, 'language'), minutes ? t('minutes', minutes) : null].filter(Boolean).join(' · ');
}

/// What a show's details say, in the page's language (a text, or `{"zh","en"}`); undefined when not given.
export function detailText(s, key) {
  const v = s.details?.[key];
  return inLanguage(v);
}

/// Why a show takes no holds, in a word for its card.
export const closedWord = s => t(s.cancelledAt ? 'cancelledShort' : s.salesSwitch === false ? 'pausedShort' : 'started');

/// The links of `list` as one keyboard stop: the arrow keys, Home and End move between them (the one
/// with tabindex 0 is the stop). Attached once; it reads the list's links as they are at each key.
export function roveWithArrows(list) {
  if (list.dataset.roving) return;
  list.dataset.roving = 'yes';
  list.addEventListener('keydown', e => {
    const links = [...list.querySelectorAll('a')], k = links.indexOf(document.activeElement);
    const to = { ArrowRight: k + 1, ArrowDown: k + 1, ArrowLeft: k - 1, ArrowUp: k - 1, Home: 0, End: links.length - 1 }[e.key];
    if (k < 0 || to === undefined) return;
    e.preventDefault();
    const next = links[Math.max(0, Math.min(links.length - 1, to))];
    for (const a of links) a.tabIndex = a === next ? 0 : -1;
    next.focus();
  });
}

/// A strip of show cards that scrolls sideways and snaps card by card. With `currentId` (a show's
/// page) the strip is one keyboard stop: Tab reaches the current show's card, the arrow keys, Home and
/// End move between the times (every card a Tab stop took a keyboard purchase from 35 keys to 59).
export function stripOf(shows, currentId) {
  const strip = el('ul', { class: 'strip' });
  if (currentId !== null && currentId !== undefined) roveWithArrows(strip);
  for (const s of shows) {
    const when = showTime(s.startsAt);
    const free = s.seats.available;
    const prices = Object.values(s.prices.categories).map(Number);
    const from = prices.length ? `${symbol(s.prices.currency)}${Math.min(...prices).toFixed(s.prices.minorUnits)}` : '';
    const link = el('a', { class: s.onSale === false ? 'card started' : 'card', href: `/shows/${encodeURIComponent(s.id)}`, 'data-show': s.id },
      el('span', { class: 'day' }, when.day), el('span', { class: 'time' }, when.time),
      el('span', { class: 'free' }, s.onSale === false ? closedWord(s) : free > 0 ? t('free', free) : t('seatsTaken')),
      from ? el('span', { class: 'from' }, t('from', from)) : null);
    if (s.id === currentId) link.setAttribute('aria-current', 'page');
    if (currentId !== null && currentId !== undefined) link.tabIndex = s.id === currentId ? 0 : -1;
    strip.append(el('li', {}, link));
  }
  // No card is the current one (it is not in the list): the first takes the stop.
  const first = strip.querySelector('a');
  if (first && currentId !== null && currentId !== undefined && !strip.querySelector('a[tabindex="0"]')) first.tabIndex = 0;
  return strip;
}

/// What a refusal means to a buyer, in the page's language, by its problem type (the server's detail
/// is for developers: "show hall3-2 started at …" is not said to a buyer).
export function problemText(error) {
  const slug = (error.problem?.type ?? '').split('/').pop();
  switch (slug) {
    case 'show-started': return t('salesClosed');
    case 'off-sale': return t('salesPaused');
    case 'show-cancelled': return t('cancelled');
    case 'hold-expired': return t('expired');
    case 'hold-released': case 'hold-confirmed': case 'not-in-hold': return t('holdGone');
    case 'already-extended': return t('alreadyExtended');
    case 'not-found': case 'unknown-seats': return t('notFound');
    case 'rate-limited': return t('tooFast');
    case 'admission-required': case 'admission-expired': case 'admission-forged': case 'admission-malformed': case 'admission-other-show':
      return t('queueAgain');
    case 'admission-in-use': return t('admissionInUse');
    case 'admission-spent': return t('admissionSpent');
    case 'store-unavailable': case 'internal-error': return t('busy');
    default: return error.status >= 500 ? t('busy') : t('failed', error.problem?.title ?? `HTTP ${error.status}`);
  }
}

/// A legend swatch of a status: its fill with its glyph (`palette.glyphs`, the engine's shapes) in its ink,
/// drawn as the map draws the seat.
export function glyphSwatch(fill, ink, glyphs, name) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  const make = (tag, attributes) => { const e = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v); return e; };
  svg.setAttribute('viewBox', '-0.5 -0.5 1 1'); svg.setAttribute('class', 'swatch'); svg.setAttribute('aria-hidden', 'true');
  svg.append(make('rect', { x: -0.5, y: -0.5, width: 1, height: 1, rx: 0.2, fill }));
  const shape = glyphs.shapes[name];
  for (const line of shape?.lines ?? []) {
    const d = line.reduce((path, v, k) => path + (k % 2 === 0 ? `${k === 0 ? 'M' : ' L'}${v}` : ` ${v}`), '');
    svg.append(make('path', { d, fill: 'none', stroke: ink, 'stroke-width': glyphs.width * 1.4 }));
  }
  for (const [x, y, r] of shape?.dots ?? []) svg.append(make('circle', { cx: x, cy: y, r: r * 1.2, fill: ink }));
  return svg;
}

/// The statuses' legend as the map draws them: a line each, its swatch (the first zone's colour for a
/// free seat; the status's fill and glyph otherwise) and its word, from the venue's geometry document.
export function statusLegend(venue, statuses = ['available', 'selected', 'held', 'sold', 'blocked']) {
  const p = venue.palette;
  return statuses.map(k => {
    const swatch = k === 'available'
      ? Object.assign(el('span', { class: 'swatch', 'aria-hidden': 'true' }), {})
      : glyphSwatch(p[k], p.ink[k], p.glyphs, p.glyphs.of[k]);
    if (k === 'available') swatch.style.background = venue.zones[0]?.color ?? '';
    return el('li', { 'data-status': k }, swatch, venue.words[k]);
  }).concat(venue.bestView ? [el('li', { 'data-status': 'best-view' }, el('span', { class: 'swatch best-view', 'aria-hidden': 'true' }), t('bestView'))] : [])
    // The dot the map draws at a seat's corner (MARK.restrictedView: 4), explained where the hall has one.
    .concat(venue.marks?.some(m => m & 4) ? [el('li', { 'data-status': 'restricted-view' }, el('span', { class: 'swatch restricted-view', 'aria-hidden': 'true' }), t('restrictedView'))] : []);
}
