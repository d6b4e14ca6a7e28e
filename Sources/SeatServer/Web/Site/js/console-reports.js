// Reports under the desk: the show's seats by status and zone and its revenue (the API's report), the
// days of a period, CSV; tables and small SVG charts drawn here, no library.

import { request } from './api.js';
import { $, call, channelName, key, money as formatMoney, problemWords, say, state, table } from './console-common.js';
import { w } from './console-words.js';

const STATUS_WORD = { available: 'available', held: 'held', sold: 'sold', blocked: 'blockedStatus' };

/// A small horizontal bar chart as SVG, drawn here (no library): a bar a pair `[label, value]`, its
/// summary as the picture's accessible name.
/// Bars of `pairs` ([label, value, text?]): an amount's text is the server's, with its currency's
/// decimals (a yen has none), never re-derived here.
function chart(title, pairs, format = v => String(v)) {
  const NS = 'http://www.w3.org/2000/svg', bar = 18, gap = 6, labelWidth = 110, width = 360;
  const svg = document.createElementNS(NS, 'svg');
  const max = Math.max(...pairs.map(([, v]) => v), 0);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('viewBox', `0 0 ${width} ${Math.max(pairs.length, 1) * (bar + gap)}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${title}: ${pairs.map(([l, v, t]) => `${l} ${t ?? format(v)}`).join(', ') || w('nothing')}`);
  pairs.forEach(([label, value, shown], k) => {
    const y = k * (bar + gap);
    const text = document.createElementNS(NS, 'text');
    Object.entries({ x: 0, y: y + bar * 0.72, 'font-size': 12, fill: '#202124' }).forEach(([a, v]) => text.setAttribute(a, v));
    text.textContent = label;
    const rect = document.createElementNS(NS, 'rect');
    const length = max > 0 ? (width - labelWidth - 70) * value / max : 0;
    Object.entries({ x: labelWidth, y, width: Math.max(length, 1), height: bar, rx: 3, fill: '#1a73e8' }).forEach(([a, v]) => rect.setAttribute(a, v));
    const amount = document.createElementNS(NS, 'text');
    Object.entries({ x: labelWidth + length + 6, y: y + bar * 0.72, 'font-size': 12, fill: '#202124' }).forEach(([a, v]) => amount.setAttribute(a, v));
    amount.textContent = shown ?? format(value);
    svg.append(text, rect, amount);
  });
  return svg;
}

/// The desk's show: seats by status and by zone, revenue and its splits, as the API's report says them.
export async function renderShowReport() {
  if (!state.showId) return;
  try {
    const report = await call('GET', `/v1/shows/${encodeURIComponent(state.showId)}/report`);
    const statuses = ['available', 'held', 'sold', 'blocked'];
    const pct = n => `${(100 * n / report.seats).toFixed(1)}%`;
    const money = amount => formatMoney(amount, report.revenue.currency);
    // Words, not the API's keys: a category by its zone's name, a channel and a payment in the page's language.
    const zones = state.map?.picker?.venue?.zones ?? [];
    const named = {
      byCategory: k => zones.find(z => z.category === k)?.name ?? k,
      byChannel: channelName,
      byPayment: k => w('payments')[k] ?? k,
    };
    const splits = ['byCategory', 'byChannel', 'byPayment'].map(key => {
      const entries = Object.entries(report.revenue[key]);
      return table(w(key), [w(key === 'byCategory' ? 'zone' : 'status'), w('amount')],
        entries.length ? entries.map(([k, v]) => [named[key](k), money(v)]) : [[w('nothing'), '']]);
    });
    $('show-report').replaceChildren(
      chart(w('seatsChart'), statuses.map(s => [w(STATUS_WORD[s]), report.byStatus[s]])),
      table(w('seats'), [w('status'), w('seats'), w('share')], statuses.map(s => [w(STATUS_WORD[s]), report.byStatus[s], pct(report.byStatus[s])])),
      table(w('zone'), [w('zone'), w('category'), ...statuses.map(s => w(STATUS_WORD[s]))], report.zones.map(z => [zones.find(x => x.id === z.zone)?.name ?? z.zone, named.byCategory(z.category), ...statuses.map(s => z.byStatus[s])])),
      table(w('door'), [w('door'), w('seats')], [[w('came'), report.came], [w('insideNow'), report.inside], [w('sold'), report.byStatus.sold]]),
      table(w('revenue'), [w('revenue'), w('amount')], [[w('gross'), money(report.revenue.gross)], [w('refunded'), money(report.revenue.refunded)],
        [w('exchangeFees'), money(report.revenue.fees)], [w('net'), money(report.revenue.net)]]),
      table(w('afterSale'), [w('afterSale'), w('seats')], [[w('refundedSeats'), report.refundedSeats], [w('exchangedSeats'), report.exchangedSeats]]),
      chart(w('byCategory'), Object.entries(report.revenue.byCategory).map(([k, v]) => [named.byCategory(k), Number(v), v])),
      ...splits);
    $('show-report').dataset.version = String(report.version);
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

/// The days of a period: each day's shows, seats, sold and revenue, and its net as a chart.
export async function renderDayReport() {
  try {
    const data = await call('GET', `/v1/reports/sales?from=${$('period-from').value}&to=${$('period-to').value}`);
    $('day-report').replaceChildren(
      chart(w('netChart'), data.days.map(d => [d.date, Number(d.net), d.net])),
      table(w('dayReport'), [w('date'), w('shows'), w('seats'), w('sold'), w('came'), w('gross'), w('refunded'), w('net')],
        data.days.length ? data.days.map(d => [d.date, d.shows, d.seats, d.sold, d.came, formatMoney(d.gross, d.currency), formatMoney(d.refunded, d.currency), formatMoney(d.net, d.currency)]) : [[w('nothing'), '', '', '', '', '', '', '']]));
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

/// The desk's show's report as CSV, one line a seat (`seat,row,zone,category,status,price,orderRef,…`).
export const reportCSV = () => request('GET', `/v1/shows/${encodeURIComponent(state.showId)}/report`, {
  as: 'text', retry: false, headers: { Authorization: `Bearer ${key()}`, Accept: 'text/csv' },
});

/// The show's report as CSV (one line a seat), downloaded as a file.
async function downloadCSV() {
  try {
    const text = await reportCSV();
    const link = Object.assign(document.createElement('a'), { href: URL.createObjectURL(new Blob([text], { type: 'text/csv' })), download: `${state.showId}-report.csv` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    $('report-csv').dataset.lines = String(text.trim().split('\n').length);
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

export function bindReports() {
  $('report-refresh').addEventListener('click', renderShowReport);
  $('report-csv').addEventListener('click', downloadCSV);
  const today = new Date(), week = new Date(today.getTime() + 7 * 86_400_000);
  $('period-from').value = today.toISOString().slice(0, 10);
  $('period-to').value = week.toISOString().slice(0, 10);
  $('period-form').addEventListener('submit', e => { e.preventDefault(); renderDayReport(); });
}
