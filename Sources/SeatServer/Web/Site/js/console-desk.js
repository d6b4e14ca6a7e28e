// The show desk: the show's live map (the picker's `<seatkit-map>` in operator mode: taps, drags and
// the lasso mark seats of any status) and what the box office does with the marked seats — block and
// return to sale, keep for guests, sell at the counter, refund, move an order — with keys for the frequent ones.

import { randomKey, request } from './api.js';
import { $, announce, call, money, problemWords, say, state } from './console-common.js';
import { renderHeat } from './console-heat.js';
import { renderPrices } from './console-prices.js';
import { renderQueue } from './console-queue.js';
import { renderDayReport, renderShowReport, reportCSV } from './console-reports.js';
import { renderShowActions } from './console-shows.js';
import { refreshSide } from './console-side.js';
import { refreshChannels, renderChannels, renderSeasons } from './console-partners.js';
import { renderOrderMoney } from './console-money.js';
import { w } from './console-words.js';
import { lang, localName, showTime } from './i18n.js';
import { detailText, statusLegend } from './ui.js';

export async function openDesk() {
  $('desk').hidden = false;
  const select = $('show');
  select.onchange = () => openShow(select.value);
  let shows;
  try {
    shows = await request('GET', '/v1/shows');
  } catch (error) {
    // The board fills the list when the server answers again (every 3 s); a show chosen then opens.
    say('desk-message', problemWords(error));
    return;
  }
  listShows(shows);
  const asked = new URLSearchParams(location.search).get('show');
  if (asked && shows.some(s => s.id === asked)) select.value = asked;
  await openShow(select.value);
}

/// The desk's list of shows, in time order; kept as current as the board (which asks for the shows every
/// 3 s), so a show created since signing in can be chosen and opened from the board. The chosen one stays.
export function listShows(shows) {
  const select = $('show'), chosen = select.value;
  const sorted = [...shows].sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  // A show as the staff say it: its film, day and time, hall (its id only when it has no title).
  const label = s => {
    const t = showTime(s.startsAt), hall = detailText(s, 'hall') ?? localName(state.halls?.get(s.venueId) ?? s.venueId);
    return `${detailText(s, 'title') ?? s.id} · ${t.day} ${t.time} · ${hall}${s.cancelledAt ? ` · ${w('stateCancelled')}` : ''}`;
  };
  const same = select.options.length === sorted.length && sorted.every((s, k) => select.options[k].value === s.id && select.options[k].textContent === label(s));
  if (same) return;
  select.replaceChildren(...sorted.map(s => Object.assign(document.createElement('option'), { value: s.id, textContent: label(s) })));
  if (sorted.some(s => s.id === chosen)) select.value = chosen;
}

/// The show at the desk. It never throws: a step that fails (the server gone, the show deleted) is said
/// in the desk's message; the callers are a select's change and the board's click, where a rejection
/// would go nowhere but the page's error log.
export async function openShow(id) {
  try {
    await showAtDesk(id);
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

async function showAtDesk(id) {
  state.showId = id;
  // A show of its own map: a fresh element (its canvas, focus and stream), the last one stopped.
  const old = $('desk-map');
  state.map = old;
  if (old.picker) {
    old.picker.stop();
    state.map = document.createElement('seatkit-map');
    for (const name of ['id', 'mode', 'aria-describedby']) state.map.setAttribute(name, old.getAttribute(name));
    old.replaceWith(state.map);
  }
  state.map.addEventListener('selection', renderMarked);
  state.map.addEventListener('statuses', () => { refreshSide(); refreshDeskAreaCounts(); refreshChannels(); });
  // A tap on a standing area: one more place in its field (a box or a party's room: 1), the field focused.
  state.map.addEventListener('areatap', e => {
    const input = document.getElementById(`desk-area-${e.detail.area}`);
    if (!input) return;
    input.value = Math.min(Number(input.value || 0) + 1, Number(input.max));
    input.focus();
  });
  // The map's 'failure' (it could not load the show) ends the wait too: the desk says why.
  await new Promise((resolve, reject) => {
    state.map.addEventListener('ready', resolve, { once: true });
    state.map.addEventListener('failure', e => reject(e.detail.error), { once: true });
    state.map.setAttribute('show', id);
  });
  $('order-ref').value = `BOX-${randomKey().slice(0, 8).toUpperCase()}`;
  // The statuses as the map draws them, above it (a marked seat is drawn as a chosen one).
  $('desk-legend').setAttribute('aria-label', w('legend'));
  $('desk-legend').replaceChildren(...statusLegend(state.map.picker.venue));
  renderMarked();
  renderDeskAreas();
  renderShowActions(await call('GET', `/v1/shows/${encodeURIComponent(id)}`));
  await refreshSide();
  await Promise.all([renderChannels(), renderSeasons()]);
  if (state.operator.may.includes('prices')) await renderPrices();
  await renderQueue();
  await renderHeat();
  if (state.operator.may.includes('reports')) {
    $('reports').hidden = false;
    await Promise.all([renderShowReport(), renderDayReport()]);
  }
  // The desk is this show's in every part now (its prices, lists and reports): what tests and tools wait for.
  if (state.showId === id) $('desk').dataset.show = id;
}

/// A number field a standing area (none: the fieldset hidden), each with what is free; a tap on an area
/// on the map focuses its field.
function renderDeskAreas() {
  const picker = state.map.picker, areas = picker.venue.areas;
  const box = $('desk-areas');
  box.hidden = !areas.length;
  box.replaceChildren(box.querySelector('legend'), ...areas.map(a => {
    const label = Object.assign(document.createElement('label'), { htmlFor: `desk-area-${a.id}` });
    const input = Object.assign(document.createElement('input'), { id: `desk-area-${a.id}`, type: 'number', min: 0, max: 1, value: 0, inputMode: 'numeric' });
    input.dataset.area = a.id;
    return [label, input];
  }).flat());
  refreshDeskAreaCounts();  // the labels' free counts and the fields' limits
}

/// Each area's free count in its label, as the map's statuses change (the numbers typed are kept).
function refreshDeskAreaCounts() {
  const picker = state.map?.picker;
  if (!picker?.venue) return;
  picker.venue.areas.forEach((a, k) => {
    const free = picker.view.areaFree?.[k] ?? a.capacity;
    const label = document.querySelector(`label[for="desk-area-${a.id}"]`);
    if (label) label.textContent = w('placesOf', a.name, free);
    const input = document.getElementById(`desk-area-${a.id}`);
    if (input && a.mode === 'places') input.max = Math.max(free, 0);
  });
}

/// The places asked for at the desk: `{floor: 3}` (none: null).
function askedPlaces() {
  const asked = {};
  for (const input of document.querySelectorAll('#desk-areas input[data-area]')) {
    const n = Number(input.value);
    if (Number.isInteger(n) && n > 0) asked[input.dataset.area] = n;
  }
  return Object.keys(asked).length ? asked : null;
}

function marked() { return state.map?.ready ? state.map.selection : []; }

export function renderMarked() {
  const ids = marked();
  $('marked').textContent = ids.length ? ids.map(id => state.map.seat(id)?.name ?? id).join(lang() === 'zh' ? '、' : ', ') : w('none');
}

/// Runs one action on the marked seats: its answer said in words, the marks cleared when it worked.
async function act(needsSeats, action) {
  const ids = marked();
  if (needsSeats && !ids.length) { say('desk-message', w('markFirst')); return; }
  try {
    const text = await action(ids);
    if (text === null) return;
    say('desk-message', text, 'ok');
    announce(text);
    await state.map.deselect(ids);
    renderMarked();
    refreshSide();
    renderShowReport();
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

export function bindDesk() {
  const path = suffix => `/v1/shows/${encodeURIComponent(state.showId)}${suffix}`;
  $('block-form').addEventListener('submit', e => {
    e.preventDefault();
    act(true, async ids => {
      await call('POST', path('/reservations'), { kind: 'blocked', seats: ids, reason: $('block-reason').value });
      return w('done').block(ids.length);
    });
  });
  $('unblock').addEventListener('click', () => act(true, async ids => {
    // Each reservation holding a marked seat lets go of those seats (the whole of it when all are marked).
    const marks = new Set(ids);
    const touched = (await call('GET', path('/reservations'))).filter(r => r.seats.some(s => marks.has(s)));
    if (!touched.length) { say('desk-message', w('noReservation')); return null; }
    let freed = 0;
    for (const r of touched) {
      const mine = r.seats.filter(s => marks.has(s));
      freed += mine.length;
      if (mine.length === r.seats.length) await call('DELETE', `/v1/reservations/${encodeURIComponent(r.id)}`);
      else await call('POST', `/v1/reservations/${encodeURIComponent(r.id)}/seats`, { add: [], remove: mine });
    }
    return w('done').unblock(freed);
  }));
  $('keep-form').addEventListener('submit', e => {
    e.preventDefault();
    act(true, async ids => {
      const body = { kind: 'house', seats: ids, reason: $('keep-name').value };
      if ($('keep-until').value.trim()) body.releaseAt = `${Number($('keep-until').value)} minutes before start`;
      await call('POST', path('/reservations'), body);
      return w('done').keep(ids.length);
    });
  });
  $('sell-form').addEventListener('submit', e => {
    e.preventDefault();
    const places = askedPlaces();
    if (!places && !marked().length) { say('desk-message', w('markOrPlaces')); return; }
    act(false, async ids => {
      const ref = $('order-ref').value;
      const placeNames = Object.entries(places ?? {}).map(([id, n]) => `${state.map.picker.venue.areas.find(a => a.id === id)?.name ?? id} × ${n}`);
      const names = ids.map(id => state.map.seat(id)?.name ?? id).concat(placeNames).join(lang() === 'zh' ? '、' : ', ');
      const body = { seats: ids, orderRef: ref, payment: $('payment').value };
      if (places) body.areas = places;
      const name = $('buyer-name').value.trim(), phone = $('buyer-phone').value.trim();
      if (name || phone) body.buyer = { ...(name ? { name } : {}), ...(phone ? { phone } : {}) };
      const order = await call('POST', path('/sales'), body);
      $('order-ref').value = `BOX-${randomKey().slice(0, 8).toUpperCase()}`;
      $('buyer-name').value = ''; $('buyer-phone').value = '';
      for (const input of document.querySelectorAll('#desk-areas input[data-area]')) input.value = 0;
      $('refund-ref').value = ref;
      const total = order.parts?.map(p => money(p.total, p.currency)).join(' + ');
      await showSaleReceipt(ref, names, total);
      return w('done').sell(ref, total);
    });
  });
  $('find-order').addEventListener('click', async () => {
    // The show's report, one line a seat, names each sold seat's order.
    const ids = marked();
    if (!ids.length) { say('desk-message', w('markFirst')); return; }
    try {
      const [header, ...rows] = (await reportCSV()).trim().split('\n').map(line => line.split(','));
      const seatAt = header.indexOf('seat'), refAt = header.indexOf('orderRef');
      const ref = rows.find(r => r[seatAt] === ids[0])?.[refAt];
      if (!ref) { say('desk-message', w('noOrder')); return; }
      $('refund-ref').value = ref;
      say('desk-message', `${w('orderRef')}: ${ref}`, 'ok');
      renderOrderMoney(ref);
    } catch (error) {
      say('desk-message', problemWords(error));
    }
  });
  $('print-tickets').addEventListener('click', () => printTickets($('refund-ref').value));
  $('search-form').addEventListener('submit', e => { e.preventDefault(); searchOrders(); });
  // A move: the order's seats (found with "Order of the marked seat") to the seats marked now, in one step
  // on the server (both or neither); the old tickets are revoked and the difference is said.
  $('move-order').addEventListener('click', () => act(true, async ids => {
    const ref = $('refund-ref').value;
    if (!ref) { say('desk-message', w('noOrder')); $('refund-ref').focus(); return null; }
    const x = await call('POST', `/v1/orders/${encodeURIComponent(ref)}/exchange`, { to: { show: state.showId, seats: ids }, reason: 'moved at the box office' });
    const names = x.to.seats.map(s => state.map.seat(s.seat)?.name ?? s.seat).join(lang() === 'zh' ? '、' : ', ');
    return w('done').move(ref, names, x.difference, x.currency);
  }));
  $('refund-form').addEventListener('submit', e => {
    e.preventDefault();
    act(false, async ids => {
      const ref = $('refund-ref').value;
      const body = ids.length ? { seats: ids, reason: 'box office' } : { reason: 'box office' };
      await call('POST', `/v1/orders/${encodeURIComponent(ref)}/refund`, body);
      renderOrderMoney(ref);
      return w('done').refund(ref, ids.length || 'all');
    });
  });
}

/// The desk's frequent actions from the keyboard, when the focus is not in a field: each key takes the
/// action's first field (Enter then does it), U returns the marked seats to sale, Esc clears the marks.
export function bindShortcuts() {
  const fields = { b: 'block-reason', k: 'keep-name', s: 'order-ref', r: 'refund-ref' };
  document.addEventListener('keydown', e => {
    if (!state.map?.ready || e.ctrlKey || e.metaKey || e.altKey || e.target.closest?.('input, select, textarea')) return;
    const key = e.key.toLowerCase();
    if (fields[key]) { e.preventDefault(); $(fields[key]).focus(); $(fields[key]).select?.(); }
    else if (key === 'u') { e.preventDefault(); $('unblock').click(); }
    else if (e.key === 'Escape') { state.map.deselect(state.map.selection); renderMarked(); }
  });
}

/// The counter's receipt of the sale just made, as the buyer's is after Confirm: a stub (sold, the film,
/// hall and time, the seats, the total, the order) with its tickets' printing one click away.
async function showSaleReceipt(ref, names, total) {
  const show = await call('GET', `/v1/shows/${encodeURIComponent(state.showId)}`).catch(() => null);
  const when = show ? showTime(show.startsAt) : { day: '', time: '' };
  const line = (cls, text) => Object.assign(document.createElement('p'), { className: cls, textContent: text });
  const print = Object.assign(document.createElement('button'), { type: 'button', textContent: w('printTickets') });
  print.addEventListener('click', () => printTickets(ref));
  $('sale-receipt').replaceChildren(
    line('receipt-done', w('saleDone')),
    line('receipt-film', [show && (detailText(show, 'title') ?? detailText(show, 'film')), show && `${when.day} ${when.time}`].filter(Boolean).join(' · ')),
    line('receipt-seats', names), line('receipt-total', `${w('saleTotal')} ${total}`), line('receipt-order', `${w('orderRef')} ${ref}`), print);
  $('sale-receipt').hidden = false;
}

/// The order's valid tickets as 80 mm stubs (film, hall, time, seat, price, order, QR), printed through
/// the browser's dialog; the stubs are shown only in print (console.css).
export async function printTickets(ref) {
  if (!ref) { say('desk-message', w('noTickets')); return; }
  try {
    const { tickets } = await call('GET', `/v1/orders/${encodeURIComponent(ref)}/tickets`);
    const valid = tickets.filter(t => t.code);
    if (!valid.length) { say('desk-message', w('noTickets')); return; }
    const shows = Object.fromEntries(await Promise.all([...new Set(valid.map(t => t.showId))].map(async id => [id, await call('GET', `/v1/shows/${encodeURIComponent(id)}`)])));
    const halls = Object.fromEntries((await call('GET', '/v1/venues')).map(v => [v.id, v.name]));
    const line = (cls, text) => Object.assign(document.createElement('p'), { className: cls, textContent: text });
    $('print-area').replaceChildren(...valid.map(t => {
      const show = shows[t.showId], when = showTime(show.startsAt);
      const stub = document.createElement('section');
      stub.className = 'stub';
      const qr = Object.assign(document.createElement('img'), { src: `/v1/tickets/${t.code}.svg`, alt: '', width: 180, height: 180 });
      stub.append(
        line('stub-title', localName(detailText(show, 'title') ?? show.id)),
        line('stub-hall', `${detailText(show, 'hall') ?? localName(halls[show.venueId] ?? show.venueId)} · ${when.day} ${when.time}`),
        line('stub-seat', w('seatName', t.seat, t.row, t.number)),
        line('stub-line', `${w('ticketPrice')} ${money(t.price, t.currency)} · ${w('ticketOrder')} ${ref}`),
        qr,
        line('stub-id', `${w('ticketId')} ${t.ticketId}`));
      return stub;
    }));
    await Promise.all([...$('print-area').querySelectorAll('img')].map(img => img.decode().catch(() => {})));
    say('desk-message', w('printed', valid.length), 'ok');
    window.print();
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

/// Orders found by reference, by a seat of the desk's show, or by the buyer's phone or name: each a
/// button that takes the order to the refund form (and its show to the desk).
async function searchOrders() {
  const q = $('search-q').value.trim();
  try {
    const { orders } = await call('GET', `/v1/orders?q=${encodeURIComponent(q)}&show=${encodeURIComponent(state.showId)}`);
    const shows = new Map([...$('show').options].map(o => [o.value, o.textContent]));
    $('search-results').replaceChildren(...(orders.length ? orders.map(o => {
      const item = document.createElement('li');
      const b = Object.assign(document.createElement('button'), { type: 'button', className: 'search-result' });
      b.dataset.order = o.orderRef;
      const who = [o.name, o.phone && `${o.phone.slice(0, -8)}****${o.phone.slice(-4)}`].filter(Boolean).join(' · ');
      b.textContent = `${o.orderRef} · ${w('matchedBy')[o.matched]}${who ? ` · ${who}` : ''} · ${shows.get(o.showId)?.split(' · ').slice(0, 2).join(' · ') ?? o.showId}`;
      b.addEventListener('click', async () => {
        if (o.showId !== state.showId && shows.has(o.showId)) { $('show').value = o.showId; await openShow(o.showId); }
        $('refund-ref').value = o.orderRef;
        say('desk-message', w('orderChosen', o.orderRef), 'ok');
        renderOrderMoney(o.orderRef);
        $('refund-ref').focus();
      });
      item.append(b);
      return item;
    }) : [Object.assign(document.createElement('li'), { textContent: w('searchNone') })]));
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}
