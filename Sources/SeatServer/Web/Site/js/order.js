// The buyer's order at /orders/{ref}?code=… (the link on the receipt; the code is the buyer's key to
// the order, docs/DOOR.md "After the sale"): a ticket stub a show, the QR codes the door scans, and,
// within the show's policy, a change of showing (the best free seats, the same number) or a refund,
// and an .ics file for the calendar. Every answer is the server's: the page decides nothing itself.

import { randomKey, request, serverNow, ApiProblem } from './api.js';
import { o } from './order-words.js';
import { lang, localName, setLanguage, showTime } from './i18n.js';
import { $, detailText, moneyText } from './ui.js';
import { exchangeLosses } from './order-terms.js';

const seg = encodeURIComponent;
const ref = decodeURIComponent(location.pathname.replace(/^\/orders\//, '').replace(/\/$/, ''));
const code = new URLSearchParams(location.search).get('code') || '';

/// The page's state, owned by its one thread: the order as last read, its shows, its tickets.
const state = { order: null, shows: {}, tickets: [], all: null };

const money = moneyText;

/// "7-1" → "7排1座" / "Row 7 Seat 1"; any other id as it is.
const seatName = id => { const m = /^([^-]+)-([^-]+)$/.exec(id); return m ? o('seatName', m[1], m[2]) : id; };

/// A time of the server's (UTC) on the clock `show`'s start is written in, as that start is printed
/// ("12月24日 周四 19:00"): its offset (`+08:00`, or none for a start written in UTC) applied, whatever the
/// buyer's time zone, so a deadline reads on the same clock as the start beside it (a start written in
/// UTC read 06:33 beside deadlines at 13:33, taken on another show's clock).
function when(iso, show) {
  const starts = (state.shows[show] ?? Object.values(state.shows)[0])?.startsAt ?? '';
  const m = /([+-])(\d{2}):(\d{2})$/.exec(starts);
  const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const local = new Date(Date.parse(iso) + offset * 60_000).toISOString().slice(0, 19);
  const t = showTime(local);
  return `${t.day} ${t.time}`;
}

/// Seats in the order people read them: row 7 before row 10, seat 1 before seat 3.
const bySeat = (a, b) => a.seat.localeCompare(b.seat, undefined, { numeric: true });

const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children.filter(c => c !== null && c !== undefined));
  return e;
};

async function load() {
  const q = `code=${seg(code)}`;
  const [order, tickets] = await Promise.all([
    request('GET', `/v1/orders/${seg(ref)}?${q}`), request('GET', `/v1/orders/${seg(ref)}/tickets?${q}`),
  ]);
  const ids = [...new Set(order.parts.map(p => p.showId))];
  const [shows, venues] = await Promise.all([
    Promise.all(ids.map(id => request('GET', `/v1/shows/${seg(id)}`).catch(() => null))), request('GET', '/v1/venues').catch(() => []),
  ]);
  state.order = order; state.tickets = tickets.tickets;
  state.halls = new Map(venues.map(v => [v.id, v.name]));
  state.shows = Object.fromEntries(ids.map((id, k) => [id, shows[k]]).filter(([, s]) => s));
}

function render() {
  document.documentElement.lang = lang() === 'zh' ? 'zh-CN' : 'en';
  document.title = `${o('title')} ${ref}`;
  for (const e of document.querySelectorAll('[data-o]')) e.textContent = o(e.dataset.o);
  const other = lang() === 'zh' ? 'en' : 'zh';
  $('language').textContent = other === 'en' ? 'EN' : '中文';
  $('language').lang = other === 'en' ? 'en' : 'zh-CN';
  $('language').setAttribute('aria-label', other === 'en' ? 'Switch to English' : '切换到中文');
  if (!state.order) return;
  renderStubs(); renderTickets(); renderTerms(); renderHistory();
  $('calendar').href = `/v1/orders/${seg(ref)}/calendar.ics?code=${seg(code)}&lang=${lang()}`;
}

/// A stub a show the order still has seats in.
function renderStubs() {
  const live = state.order.parts.filter(p => p.seats.length);
  const byShow = new Map();
  for (const p of live) byShow.set(p.showId, [...(byShow.get(p.showId) ?? []), p]);
  const stubs = [...byShow].map(([showId, parts]) => {
    const s = state.shows[showId];
    const seats = parts.flatMap(p => p.seats).sort(bySeat);
    const total = parts.reduce((sum, p) => sum + Number(p.total) + Number(p.fee ?? 0), 0);
    const t = s ? showTime(s.startsAt) : { day: '', time: '' };
    const poster = s?.details?.poster ? el('img', { src: s.details.poster, alt: '', width: 72, height: 101 }) : el('span');
    const meta = [detailText(s ?? {}, 'format'), detailText(s ?? {}, 'language')].filter(Boolean).join(' · ');
    // A show with no film named is its hall's (as the picker has it); never its id.
    const hallName = s && (detailText(s, 'hall') ?? localName(state.halls?.get(s.venueId) ?? ''));
    const title = detailText(s ?? {}, 'title') ?? detailText(s ?? {}, 'film') ?? hallName ?? '';
    const row = (label, value, cls) => el('div', { className: 'stub-row' }, el('span', { textContent: label }), el('span', { textContent: value, className: cls ?? '' }));
    return el('article', { className: 'stub', ariaLabel: title },
      el('div', { className: 'stub-head' }, poster,
        el('div', {}, el('h2', { className: 'stub-film', textContent: title }), meta ? el('p', { className: 'stub-meta', textContent: meta }) : null,
          el('p', { className: 'stub-meta', textContent: hallName && hallName !== title ? hallName : '' }),
          el('p', { className: 'stub-when', textContent: `${t.day} ${t.time}` }))),
      el('div', { className: 'perforation', ariaHidden: 'true' }),
      el('div', { className: 'stub-body' },
        el('ul', { className: 'stub-seats', ariaLabel: o('seats') }, ...seats.map(x => el('li', { textContent: seatName(x.seat) }))),
        row(o('total'), money(total, parts[0].currency), 'stub-total'), row(o('order'), ref),
        el('div', { className: 'stub-row' }, el('span', { textContent: o('status') }), el('span', { className: 'status', textContent: o('valid') }))));
  });
  if (!stubs.length) stubs.push(el('p', { className: 'card', textContent: o('nothingLeft') }));
  $('stubs').replaceChildren(...stubs);
}

function renderTickets() {
  const valid = state.tickets.filter(k => k.code).sort(bySeat);
  $('tickets-box').hidden = !valid.length;
  $('tickets').replaceChildren(...valid.map(k =>
    el('figure', {}, el('img', { src: `/v1/tickets/${k.code}.svg`, alt: o('ticketAlt', seatName(k.seat)), width: 160, height: 160 }),
      el('figcaption', { textContent: seatName(k.seat) }))));
}

/// What the buyer may still do, by the show's policy as the server states it.
function renderTerms() {
  const terms = state.order.afterSale?.[0];
  const now = serverNow();
  const items = [];
  let canExchange = false, canRefund = false;
  if (terms) {
    const currency = state.order.parts[0]?.currency ?? 'CNY';
    const fee = Number(terms.exchangeFee) ? o('feeEach', money(terms.exchangeFee, currency)) : o('feeFree');
    const open = until => !until || Date.parse(until) > now;
    canExchange = terms.exchangesLeft > 0 && open(terms.exchangeUntil);
    // The server says which seats a refund may take now (none: used, or closed); older servers say nothing.
    canRefund = !!terms.refundUntil && open(terms.refundUntil) && (terms.refundSeats === undefined || terms.refundSeats.length > 0);
    items.push(o('exchangesLeft', terms.exchangesLeft, terms.exchangeUntil ? when(terms.exchangeUntil, terms.showId) : '', fee) + (terms.exchangesLeft > 0 && !canExchange ? ` (${o('closed')})` : ''));
    const tiers = terms.refundTiers ?? [];
    if (!terms.refundUntil) items.push(o('noRefunds'));
    else if (!tiers.length) items.push(o('refundUntil', when(terms.refundUntil, terms.showId)) + (open(terms.refundUntil) ? '' : ` (${o('closed')})`));
    else {
      // A big show's published fees, each up to its time, from the one of now (marked) on; those passed are gone.
      const feeWords = f => (f.endsWith('%') ? (Number(f.slice(0, -1)) === 0 ? o('tierFree') : o('tierShare', f)) : o('tierEach', money(f, currency)));
      const current = tiers.findIndex(t => Date.parse(t.until) > now);
      if (current < 0) items.push(o('refundsClosed'));
      else items.push(...tiers.slice(current).map((t, k) => o('tierLine', when(t.until, terms.showId), feeWords(t.fee)) + (k === 0 ? o('tierNow') : '')));
    }
    if (terms.oneRefundPerBuyer) items.push(terms.refundUntil && open(terms.refundUntil) && !canRefund ? o('oneRefundUsed') : o('oneRefund'));
    if (terms.refundRelease) items.push(o('releaseAt', when(terms.refundRelease, terms.showId)));
  }
  $('terms').replaceChildren(...items.map(text => el('li', { textContent: text })));
  $('exchange-open').disabled = !canExchange;
  $('refund-open').disabled = !canRefund;
}

function renderHistory() {
  const lines = [];
  const byTo = new Map();
  for (const r of state.order.refunds) {
    if (r.exchangedTo) byTo.set(r.exchangedTo, [...(byTo.get(r.exchangedTo) ?? []), r]);
    else lines.push(o('historyRefund', when(r.refundedAt), seatName(r.seat)));
  }
  for (const [to, rs] of byTo) {
    const part = state.order.parts.find(p => p.holdId === to);
    lines.push(o('historyExchange', when(rs[0].refundedAt, part?.showId), rs.map(r => seatName(r.seat)).join(' '), (part?.seats ?? []).map(x => seatName(x.seat)).join(' ')));
  }
  $('history-box').hidden = !lines.length;
  $('history').replaceChildren(...lines.map(text => el('li', { textContent: text })));
}

function say(text, kind = 'ok') {
  const m = $('message');
  m.dataset.kind = kind;
  m.textContent = text;
  m.focus();
}

const seatsLeft = () => state.order.parts.flatMap(p => p.seats).sort(bySeat);

async function openExchange() {
  $('refund-form').hidden = true;
  const current = state.order.parts.find(p => p.seats.length);
  const show = state.shows[current?.showId];
  if (!state.all) state.all = await request('GET', '/v1/shows');
  const film = s => detailText(s, 'title') ?? detailText(s, 'film');
  const terms = state.order.afterSale?.[0];
  const options = state.all.filter(s => s.onSale && s.id !== current?.showId && (!show || !film(show) || film(s) === film(show)))
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  $('exchange-shows').replaceChildren(...(options.length ? options.map((s, k) => {
    const t = showTime(s.startsAt);
    return el('label', {}, el('input', { type: 'radio', name: 'to-show', value: s.id, required: true }),
      el('span', { textContent: `${t.day} ${t.time}` }), el('span', { className: 'price', textContent: detailText(s, 'hall') ?? localName(state.halls?.get(s.venueId) ?? '') }));
  }) : [el('p', { className: 'note', textContent: o('noOtherShows') })]));
  const n = seatsLeft().length;
  $('exchange-fee').textContent = terms ? o('exchangeFee', money(terms.exchangeFee, current?.currency ?? 'CNY'), n) : '';
  // Nothing chosen for the buyer (the earliest was, and one tap moved an order past its refund window):
  // each choice says what it gives up before the change is confirmed.
  const submit = $('exchange-form').querySelector('[type=submit]');
  submit.disabled = true;
  $('exchange-lost').textContent = options.length ? o('pickShow') : '';
  delete $('exchange-lost').dataset.kind;
  $('exchange-shows').onchange = () => {
    const target = options.find(s => s.id === new FormData($('exchange-form')).get('to-show'));
    if (!target) return;
    const lost = exchangeLosses(target, terms?.exchangesLeft ?? 1, serverNow());
    $('exchange-lost').textContent = lost.length ? lost.map(k => o(k)).join(lang() === 'zh' ? '' : ' ') : o('nothingLost');
    $('exchange-lost').dataset.kind = lost.length ? 'warning' : 'ok';
    submit.disabled = false;
  };
  $('exchange-form').hidden = false;
  $('exchange-form').querySelector('input, button').focus();
}

async function exchange(e) {
  e.preventDefault();
  const to = new FormData($('exchange-form')).get('to-show');
  if (!to) return;
  try {
    const done = await request('POST', `/v1/orders/${seg(ref)}/exchange`, {
      body: { to: { show: to, best: seatsLeft().length }, code }, headers: { 'Idempotency-Key': randomKey() }, retry: true,
    });
    const d = Number(done.difference);
    const diff = d > 0 ? o('toPay', money(d, done.currency)) : d < 0 ? o('toReturn', money(-d, done.currency)) : o('even');
    $('exchange-form').hidden = true;
    await reload();
    say(o('exchanged', done.to.seats.map(x => seatName(x.seat)).join(' '), diff));
  } catch (error) { say(error instanceof ApiProblem ? error.problem.detail ?? error.message : o('failed'), 'error'); }
}

/// What a refund of every seat left gives back now, as the server worked it out (each seat's price, fee
/// and what is left), summed in hundredths so that no amount is off by a float's fraction.
function refundQuote() {
  const terms = state.order.afterSale?.[0];
  const cents = v => Math.round(Number(v) * 100);
  const seats = terms?.refundSeats ?? seatsLeft().map(x => ({ seat: x.seat, price: x.price, fee: '0', back: x.price }));
  const sum = key => seats.reduce((s, x) => s + cents(x[key]), 0) / 100;
  return { seats, price: sum('price'), fee: sum('fee'), back: sum('back') };
}

function openRefund() {
  $('exchange-form').hidden = true;
  const q = refundQuote(), terms = state.order.afterSale?.[0];
  const currency = state.order.parts[0]?.currency ?? 'CNY';
  const names = [...q.seats].sort(bySeat).map(x => seatName(x.seat)).join(' ');
  const back = terms?.refundRelease && Date.parse(terms.refundRelease) > serverNow() ? o('backAt', when(terms.refundRelease, terms.showId)) : o('backNow');
  $('refund-what').textContent = q.fee > 0
    ? o('refundWithFee', names, money(q.price, currency), money(q.fee, currency), money(q.back, currency)) + back
    : o('refundWhat', names, money(q.back, currency)) + back;
  $('refund-form').hidden = false;
  $('refund-form').querySelector('button').focus();
}

async function refund(e) {
  e.preventDefault();
  try {
    const { back } = refundQuote(), currency = state.order.parts[0]?.currency ?? 'CNY';
    await request('POST', `/v1/orders/${seg(ref)}/refund`, { body: { code }, headers: { 'Idempotency-Key': randomKey() }, retry: true });
    $('refund-form').hidden = true;
    await reload();
    say(o('refundDone', money(back, currency)));
  } catch (error) { say(error instanceof ApiProblem ? error.problem.detail ?? error.message : o('failed'), 'error'); }
}

async function reload() { await load(); render(); }

async function start() {
  render();
  $('language').onclick = () => { setLanguage(lang() === 'zh' ? 'en' : 'zh'); render(); };
  $('exchange-open').onclick = openExchange;
  $('exchange-cancel').onclick = () => { $('exchange-form').hidden = true; $('exchange-open').focus(); };
  $('refund-open').onclick = openRefund;
  $('refund-cancel').onclick = () => { $('refund-form').hidden = true; $('refund-open').focus(); };
  $('exchange-form').onsubmit = exchange;
  $('refund-form').onsubmit = refund;
  try {
    await load();
    $('loading').hidden = true;
    $('order').hidden = false;
    render();
  } catch (error) {
    $('loading').hidden = true;
    $('failed').hidden = false;
    $('failed').textContent = error instanceof ApiProblem && (error.status === 404 || error.status === 401) ? o('notFound') : o('failed');
  }
}

start();
