// The desk's partners and seasons (#53): a manager gives a partner the marked seats and standing places
// (its channel: a colour of its own on the map, in the legend, with what it has left, holds and sold),
// moves seats in and out, ends it; the box office sells the marked seats as a season, offers a
// season holder's night and takes it back; a manager makes a season of this hall's shows and reads its
// report.

import { $, announce, call, categoryName, li, money, problemWords, say, state, table } from './console-common.js';
import { w } from './console-words.js';
import { lang, localName, showTime } from './i18n.js';
import { detailText, el } from './ui.js';
import { randomKey } from './api.js';

// Each channel's colour on the map, in the order they were made: dark enough for white numbers (WCAG AA,
// 4.5:1 or more: teal 5.3, plum 6.6, rust 5.0, indigo 6.6, olive 6.5) and apart from the statuses' greys.
const COLOURS = ['#0B7A75', '#8E3B8E', '#B5482B', '#2E5AAC', '#6B5B00'];
const INK = '#FFFFFF';

const path = suffix => `/v1/shows/${encodeURIComponent(state.showId)}${suffix}`;
const marked = () => (state.map?.ready ? state.map.selection : []);

/// Standing places asked in the desk's fields (area → count), or null.
function askedPlaces(selector) {
  const asked = {};
  for (const input of document.querySelectorAll(selector)) {
    const n = Number(input.value);
    if (Number.isInteger(n) && n > 0) asked[input.dataset.area] = n;
  }
  return Object.keys(asked).length ? asked : null;
}

/// The show's channels, their colours on the map and in the legend, and their list (managers only).
export async function renderChannels() {
  const manager = state.operator.may.includes('shows');
  $('partners').hidden = !manager;
  for (const old of $('desk-legend').querySelectorAll('[data-channel]')) old.remove();
  if (!manager || !state.map?.ready) return;
  const venue = state.map.picker.venue;
  const [channels, report, show] = await Promise.all([
    call('GET', path('/channels')),
    state.operator.may.includes('reports') ? call('GET', path('/report')) : Promise.resolve(null),
    call('GET', path('')),
  ]);
  renderChannelFields(venue, show);
  const tints = new Map();
  channels.forEach((c, k) => {
    for (const id of c.seats) {
      const i = venue.indexOf(id);
      if (i !== undefined) tints.set(i, { fill: COLOURS[k % COLOURS.length], ink: INK });
    }
  });
  state.map.picker.view.setTints(tints);
  $('desk-legend').append(...channels.map((c, k) => {
    const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
    swatch.style.background = COLOURS[k % COLOURS.length];
    return el('li', { 'data-channel': c.id }, swatch, w('channelLegend', localName(c.name)));
  }));
  const sold = report?.revenue?.byChannel ?? {};
  $('channels').replaceChildren(...(channels.length ? channels.map((c, k) => channelItem(c, COLOURS[k % COLOURS.length], sold[`partner:${c.name}`], report?.revenue?.currency)) : [li(w('noChannels'))]));
}

/// A number of places a standing area, and the channel's own price a category (empty: the show's,
/// which the field shows greyed); drawn again for another show.
function renderChannelFields(venue, show) {
  const box = $('channel-areas');
  if (box.dataset.show === state.showId) return;
  box.dataset.show = state.showId;
  const places = venue.areas.filter(a => a.mode === 'places').map(a => {
    const input = el('input', { id: `channel-area-${a.id}`, type: 'number', min: 0, max: a.capacity, value: 0, inputMode: 'numeric', 'data-area': a.id });
    return [el('label', { htmlFor: input.id }, w('channelPlaces', localName(a.name))), input];
  }).flat();
  const prices = Object.entries(show.prices?.categories ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([category, price]) => {
    const input = el('input', { id: `channel-price-${category}`, inputMode: 'decimal', pattern: '[0-9]+([.][0-9]{1,2})?', placeholder: price, 'data-category': category });
    return [el('label', { htmlFor: input.id }, w('channelPrice', categoryName(category, venue.zones))), input];
  }).flat();
  box.replaceChildren(...places, ...prices);
}

function channelItem(c, colour, sold, currency) {
  const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
  swatch.style.background = colour;
  const until = c.releaseAt ? w('channelReturns', new Date(c.releaseAt).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' })) : w('channelKept');
  const rates = Object.entries(c.prices ?? {}).map(([k, v]) => `${categoryName(k, state.map.picker.venue.zones)} ${money(v, currency ?? 'CNY')}`);
  const facts = [w('channelLeft', c.seats.length), w('channelHeld', c.held), sold ? w('channelSold', money(sold, currency)) : null,
    rates.length ? w('channelRates', rates.join('、')) : null, until].filter(Boolean).join(' · ');
  const button = (word, onclick, kind = '') => el('button', { type: 'button', class: kind, onclick }, w(word));
  return el('li', { 'data-channel': c.id, class: 'channel' },
    swatch, el('strong', {}, localName(c.name)), el('span', { class: 'facts' }, ` ${facts} `),
    el('span', { class: 'channel-actions' },
      button('channelAdd', () => moveSeats(c, 'add')),
      button('channelRemove', () => moveSeats(c, 'remove')),
      button('channelEnd', () => endChannel(c), 'danger')));
}

async function moveSeats(c, how) {
  const ids = marked();
  if (!ids.length) { say('channel-message', w('markFirst')); return; }
  try {
    await call('POST', `/v1/channels/${encodeURIComponent(c.id)}/seats`, { [how]: ids });
    state.map.deselect(ids);
    say('channel-message', w(how === 'add' ? 'channelAdded' : 'channelRemoved', localName(c.name), ids.length), 'ok');
    await renderChannels();
  } catch (error) {
    say('channel-message', problemWords(error));
  }
}

async function endChannel(c) {
  if (!window.confirm(w('channelEndConfirm', localName(c.name)))) return;
  try {
    await call('DELETE', `/v1/channels/${encodeURIComponent(c.id)}`);
    say('channel-message', w('channelEnded', localName(c.name)), 'ok');
    await renderChannels();
  } catch (error) {
    say('channel-message', problemWords(error));
  }
}

async function makeChannel(event) {
  event.preventDefault();
  const ids = marked(), places = askedPlaces('#channel-areas input[data-area]');
  if (!ids.length && !places) { say('channel-message', w('markOrPlaces')); return; }
  const body = { name: $('channel-name').value.trim() };
  if (ids.length) body.seats = ids;
  if (places) body.areas = places;
  if ($('channel-release').value) body.releaseAt = new Date($('channel-release').value).toISOString();
  // The partner's net rate, where the manager gave one; the other categories at the show's prices.
  const prices = Object.fromEntries([...document.querySelectorAll('#channel-areas input[data-category]')]
    .filter(i => i.value.trim()).map(i => [i.dataset.category, i.value.trim()]));
  if (Object.keys(prices).length) body.prices = prices;
  try {
    const made = await call('POST', path('/channels'), body);
    state.map.deselect(ids);
    $('channel-name').value = ''; $('channel-release').value = '';
    for (const input of document.querySelectorAll('#channel-areas input[data-area]')) input.value = 0;
    for (const input of document.querySelectorAll('#channel-areas input[data-category]')) input.value = '';
    // The key is shown this once: the partner's system needs it, the server keeps only its digest.
    const key = el('code', { class: 'key' }, made.key);
    const copy = el('button', { type: 'button', onclick: () => navigator.clipboard?.writeText(made.key).then(() => announce(w('copied'))) }, w('copy'));
    $('channel-key').replaceChildren(el('p', {}, w('channelKey', localName(made.name), made.seats.length)), key, copy);
    $('channel-key').hidden = false;
    $('channel-key').focus();
    say('channel-message', '', 'ok');
    await renderChannels();
  } catch (error) {
    say('channel-message', problemWords(error));
  }
}

/// The seasons this show is in: sell the marked seats as one, offer or take back a holder's night,
/// read its report; a manager's form to make one of this hall's shows.
export async function renderSeasons() {
  const seller = state.operator.may.includes('sell'), manager = state.operator.may.includes('shows');
  $('seasons-panel').hidden = !seller;
  if (!seller || !state.map?.ready) return;
  const venue = state.map.picker.show.venueId;
  const [seasons, shows] = await Promise.all([call('GET', '/v1/seasons'), manager ? call('GET', '/v1/shows') : Promise.resolve([])]);
  const here = seasons.filter(s => s.shows.includes(state.showId));
  $('seasons').replaceChildren(...(here.length ? here.map(seasonItem) : [li(w('noSeasons'))]));
  $('season-form').hidden = !manager;
  if (manager) {
    const now = Date.now();
    const choices = shows.filter(s => s.venueId === venue && !s.cancelledAt && Date.parse(s.startsAt) > now).sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    $('season-shows').replaceChildren($('season-shows').querySelector('legend'), ...choices.map(s => {
      const { day, time } = showTime(s.startsAt);
      const box = el('input', { type: 'checkbox', value: s.id, checked: s.id === state.showId, id: `season-show-${s.id}` });
      // The show as the schedule names it: its title where it has one, else its id.
      return el('label', { class: 'check', htmlFor: box.id }, box, ` ${day} ${time} · ${detailText(s, 'title') ?? s.id}`);
    }));
  }
}

function seasonItem(s) {
  const button = (word, onclick) => el('button', { type: 'button', onclick }, w(word));
  const may = state.operator.may;
  return el('li', { 'data-season': s.id, class: 'season' },
    el('strong', {}, localName(s.name)), el('span', { class: 'facts' }, ` ${w('seasonNights', s.shows.length)} `),
    el('span', { class: 'season-actions' },
      button('seasonSell', () => sellSeason(s)),
      button('seasonRelease', () => night(s, 'release')),
      button('seasonReclaim', () => night(s, 'reclaim')),
      may.includes('reports') ? button('seasonReport', () => seasonReport(s)) : null));
}

async function sellSeason(s) {
  const ids = marked(), places = askedPlaces('#desk-areas input[data-area]');
  if (!ids.length && !places) { say('season-message', w('markOrPlaces')); return; }
  const ref = $('order-ref').value;
  const body = { seats: ids, orderRef: ref, payment: $('payment').value };
  if (places) body.areas = places;
  try {
    const order = await call('POST', `/v1/seasons/${encodeURIComponent(s.id)}/sales`, body);
    state.map.deselect(ids);
    $('order-ref').value = `BOX-${randomKey().slice(0, 8).toUpperCase()}`;
    $('refund-ref').value = ref;
    const total = order.parts.reduce((sum, p) => sum + Number(p.total), 0);
    say('season-message', w('seasonSold', localName(s.name), ref, order.parts.length, money(total, order.parts[0]?.currency)), 'ok');
  } catch (error) {
    say('season-message', problemWords(error));
  }
}

/// Offers tonight's seat of a season holder for sale, or takes it back: the marked seats, this show.
async function night(s, how) {
  const ids = marked();
  if (!ids.length) { say('season-message', w('markFirst')); return; }
  try {
    for (const id of ids) await call('POST', `/v1/seasons/${encodeURIComponent(s.id)}/seats/${encodeURIComponent(id)}/${how}`, { show: state.showId });
    state.map.deselect(ids);
    say('season-message', w(how === 'release' ? 'seasonReleased' : 'seasonReclaimed', ids.length), 'ok');
  } catch (error) {
    say('season-message', problemWords(error));
  }
}

async function seasonReport(s) {
  try {
    const r = await call('GET', `/v1/seasons/${encodeURIComponent(s.id)}/report`);
    const rows = r.nights.map(n => { const { day, time } = showTime(n.startsAt); return [`${day} ${time}`, n.seasonSeats, n.released, n.resold, money(n.taken, r.season.currency)]; });
    $('season-report').replaceChildren(table(w('seasonReportCaption', localName(s.name), r.orders, money(r.taken, r.season.currency)),
      [w('seasonNight'), w('seasonSeats'), w('seasonReleasedCol'), w('seasonResold'), w('seasonTaken')], rows, 'season-report'));
  } catch (error) {
    say('season-message', problemWords(error));
  }
}

async function makeSeason(event) {
  event.preventDefault();
  const shows = [...document.querySelectorAll('#season-shows input:checked')].map(b => b.value);
  if (shows.length < 2) { say('season-message', w('seasonTwoShows')); return; }
  try {
    const made = await call('POST', '/v1/seasons', { name: $('season-name').value.trim(), shows });
    $('season-name').value = '';
    say('season-message', w('seasonMade', localName(made.name), made.shows.length), 'ok');
    await renderSeasons();
  } catch (error) {
    say('season-message', problemWords(error));
  }
}

let timer = null;
/// Channels again after the map changed (a partner's hold moves seats out of its channel): once a burst.
export function refreshChannels() {
  clearTimeout(timer);
  timer = setTimeout(() => renderChannels().catch(error => say('channel-message', problemWords(error))), 300);
}

export function wirePartners() {
  $('channel-form').addEventListener('submit', makeChannel);
  $('season-form').addEventListener('submit', makeSeason);
}
