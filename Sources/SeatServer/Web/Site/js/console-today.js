// Today's takings (docs/CONSOLE.md, "Today and the cash-up"): the money taken and given back on a day,
// each sale when it was made and each refund when it was given (`GET /v1/reports/takings`), by show,
// payment and clerk; and a clerk's cash-up for a shift, printed on the counter's 80 mm printer with the
// cash expected, the cash counted and the difference, for two signatures.

import { $, call, channelName, money, problemWords, say, state, table } from './console-common.js';
import { w } from './console-words.js';
import { lang, localName, showTime } from './i18n.js';
import { detailText } from './ui.js';

const pad = n => String(n).padStart(2, '0');
/// A local date and time of this browser as an instant (the cinema's clock is the counter's).
const instant = (date, time = '00:00') => new Date(`${date}T${time}:00`).toISOString();
const nextDay = date => { const d = new Date(`${date}T00:00:00`); d.setDate(d.getDate() + 1); return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`; };
const clerkName = c => (c === 'online' ? w('online') : c);
const paymentName = p => w('payments')[p] ?? p;

let shows = new Map(), halls = new Map();

/// A show as a clerk says it: its film, its time and hall.
function showName(id) {
  const s = shows.get(id);
  if (!s) return id;
  const t = showTime(s.startsAt);
  return `${localName(detailText(s, 'title') ?? s.id)} · ${t.day} ${t.time} · ${detailText(s, 'hall') ?? localName(halls.get(s.venueId) ?? s.venueId)}`;
}

const sumRow = (name, s) => [name, money(s.taken, s.currency), money(s.refunded, s.currency), money(s.net, s.currency), s.seatsSold];

/// The chosen day's takings: the totals in a sentence, then by show, payment and clerk.
export async function renderToday() {
  if (!state.operator?.may.includes('reports')) return;
  $('today').hidden = false;
  const date = $('today-date').value;
  try {
    const [t, list, venues] = await Promise.all([
      call('GET', `/v1/reports/takings?from=${encodeURIComponent(instant(date))}&to=${encodeURIComponent(instant(nextDay(date)))}`),
      call('GET', '/v1/shows'), call('GET', '/v1/venues'),
    ]);
    shows = new Map(list.map(s => [s.id, s]));
    halls = new Map(venues.map(v => [v.id, v.name]));
    const head = [w('showLabel'), w('taken'), w('given'), w('takingsNet'), w('seatsSold')];
    $('today-totals').replaceChildren(...(t.totals.length ? t.totals : [{ currency: 'CNY', taken: '0.00', refunded: '0.00', net: '0.00', seatsSold: 0 }]).map(s => {
      const p = document.createElement('p');
      p.className = 'today-total';
      p.dataset.net = s.net;
      p.dataset.currency = s.currency;
      p.textContent = w('todayTotal', money(s.net, s.currency), money(s.taken, s.currency), money(s.refunded, s.currency), s.seatsSold);
      return p;
    }));
    $('today-tables').replaceChildren(
      table(w('byShow'), head, t.byShow.map(s => sumRow(showName(s.showId), s)), 'show'),
      table(w('byPayment'), [w('payment'), ...head.slice(1)], t.byPayment.map(s => sumRow(paymentName(s.payment), s)), 'payment'),
      table(w('byClerk'), [w('clerk'), ...head.slice(1)], t.byClerk.map(s => sumRow(clerkName(s.clerk), s)), 'clerk'),
      table(w('byChannel'), [w('channel'), ...head.slice(1)], (t.byChannel ?? []).map(s => sumRow(channelName(s.channel), s)), 'channel'));
    // The clerks who took money today, and the one signed in, for the cash-up.
    const clerks = new Set([state.operator.name, ...t.byClerk.map(s => s.clerk).filter(c => c !== 'online')]);
    const chosen = $('cashup-clerk').value || state.operator.name;
    $('cashup-clerk').replaceChildren(...[...clerks].map(c => Object.assign(document.createElement('option'), { value: c, textContent: c })));
    $('cashup-clerk').value = clerks.has(chosen) ? chosen : state.operator.name;
    $('today').dataset.loaded = date;
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

/// One clerk's shift: what they took and gave back by payment, each entry, the cash expected against
/// the cash counted; shown here and sent to the printer.
async function cashUp() {
  const date = $('today-date').value, clerk = $('cashup-clerk').value;
  const from = $('cashup-from').value, to = $('cashup-to').value;
  try {
    const t = await call('GET', `/v1/reports/takings?from=${encodeURIComponent(instant(date, from))}&to=${encodeURIComponent(new Date(Date.parse(instant(date, to)) + 60_000).toISOString())}&clerk=${encodeURIComponent(clerk)}`);
    const line = (cls, text) => Object.assign(document.createElement('p'), { className: cls, textContent: text });
    const sheet = document.createElement('section');
    sheet.className = 'stub cashup-sheet';
    const cash = t.byPayment.find(s => s.payment === 'cash');
    const currency = cash?.currency ?? t.totals[0]?.currency ?? 'CNY';
    const expected = cash?.net ?? '0.00';
    const counted = $('cashup-counted').value.trim();
    const digits = (expected.split('.')[1] ?? '').length;
    const difference = counted ? (Number(counted) - Number(expected)).toFixed(digits) : null;
    sheet.append(
      line('stub-title', w('cashupHeading')),
      line('stub-line', `${w('cashupClerk')} ${clerk}`),
      line('stub-line', `${w('cashupShift')} ${showTime(`${date}T${from}`).day} ${from}–${to}`),
      table(w('byPayment'), [w('payment'), w('taken'), w('given'), w('takingsNet')],
        t.byPayment.map(s => [paymentName(s.payment), money(s.taken, s.currency), money(s.refunded, s.currency), money(s.net, s.currency)]), 'cashup-payments'),
      table(w('entries'), [w('at'), w('orderRef'), w('payment'), w('amount')],
        t.entries.map(e => [new Date(e.at).toTimeString().slice(0, 5), e.orderRef ?? '', paymentName(e.payment), money(e.kind === 'refund' ? `-${e.amount}` : e.amount, e.currency)]), 'cashup-entries'),
      line('stub-seat cashup-expected', `${w('cashupExpected')} ${money(expected, currency)}`),
      ...(counted ? [line('stub-line', `${w('cashupCounted')} ${money(Number(counted).toFixed(digits), currency)}`),
        line('stub-line cashup-difference', `${w('cashupDifference')} ${money(difference, currency)}`)] : []),
      ...(t.entries.length ? [] : [line('stub-line', w('noTakings'))]),
      line('stub-line cashup-sign', `${w('cashupSign')} ______________`),
      line('stub-line cashup-sign', `${w('cashupCheck')} ______________`),
      line('stub-id', `${w('cashupPrinted')} ${new Date().toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-GB')}`));
    sheet.dataset.expected = expected;
    $('cashup').replaceChildren(sheet);
    $('cashup').hidden = false;
    $('print-area').replaceChildren(sheet.cloneNode(true));
    window.print();
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

export function bindToday() {
  const now = new Date();
  $('today-date').value = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  $('today-date').addEventListener('change', renderToday);
  $('today-refresh').addEventListener('click', renderToday);
  $('cashup-form').addEventListener('submit', e => { e.preventDefault(); cashUp(); });
}
