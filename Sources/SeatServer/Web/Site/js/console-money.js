// Money online (#52), in the console: an order's payments with the providers' own ids and its refunds
// through them (pending, succeeded, failed with the provider's words); the period's reconciliation (every
// payment and refund by provider, every mismatch — an empty list on a healthy day); and, for a manager, the
// webhook endpoints with their recent deliveries, a new endpoint and a replay.

import { $, call, money, problemWords, say, state, table } from './console-common.js';
import { w } from './console-words.js';
import { lang } from './i18n.js';

const PROVIDERS = { wechatpay: 'wechat', alipay: 'alipay', stripe: 'card', external: 'online' };
const providerName = p => w('payments')[PROVIDERS[p] ?? p] ?? p;
const stateWord = s => w('moneyStates')[s] ?? s;
/// "2026-12-06T13:05:09Z" as the console's reader reads a time: the local date and minute, in the
/// console's language (not the browser's: a Chinese console on an English machine reads Chinese).
export const when = iso =>
  (iso ? new Date(iso).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' }) : '');

/// The chosen order's money: its payments (provider, the provider's id, amount, state) and its refunds
/// through providers, under the refund form. Nothing shown for an order paid at the counter.
export async function renderOrderMoney(ref) {
  const box = $('order-money');
  if (!ref) { box.replaceChildren(); box.hidden = true; return; }
  try {
    const order = await call('GET', `/v1/orders/${encodeURIComponent(ref)}`);
    const payments = order.payments ?? [], back = order.moneyBack ?? [];
    box.hidden = false;
    box.replaceChildren(
      table(w('orderPayments', ref), [w('provider'), w('providerId'), w('amount'), w('moneyState')],
        payments.length ? payments.map(p => [providerName(p.provider), p.providerId ?? '–', money(p.amount, p.currency), [stateWord(p.state), p.outcome].filter(Boolean).join(' · ')])
          : [[w('paidAtCounter'), '', '', '']], 'order-payments'),
      table(w('moneyBack'), [w('provider'), w('providerRefundId'), w('amount'), w('moneyState')],
        back.map(b => [providerName(b.provider), b.providerRefundId ?? '–', money(b.amount, b.currency), [stateWord(b.state), b.outcome].filter(Boolean).join(' · ')]), 'order-money-back'));
    for (const row of box.querySelectorAll('[data-table="order-money-back"] tbody tr')) {
      const state = back[row.sectionRowIndex]?.state;
      if (state) row.dataset.state = state;
    }
  } catch (error) {
    box.hidden = true;
    say('desk-message', problemWords(error));
  }
}

/// The period's payments, refunds and mismatches (`GET /v1/reports/payments`), the mismatches first.
export async function renderPaymentsReport() {
  try {
    const from = $('money-from').value, to = $('money-to').value;
    const report = await call('GET', `/v1/reports/payments?from=${from}&to=${to}`);
    const ok = report.mismatches.length === 0;
    const verdict = Object.assign(document.createElement('p'), { className: 'money-verdict', textContent: ok ? w('allMatched', report.payments.length) : w('mismatched', report.mismatches.length) });
    verdict.dataset.ok = String(ok);
    const byProvider = Map.groupBy(report.payments.filter(p => p.state === 'succeeded' || p.state === 'refunded'), p => `${p.provider} ${p.currency}`);
    $('money-report').replaceChildren(
      verdict,
      ok ? '' : table(w('mismatchesTitle'), [w('mismatchKind'), w('paymentId'), w('detail')],
        report.mismatches.map(m => [w('mismatchKinds')[m.kind] ?? m.kind, m.payment, m.detail]), 'mismatches'),
      table(w('byProvider'), [w('provider'), w('count'), w('amount')],
        [...byProvider].map(([k, list]) => [providerName(k.split(' ')[0]), list.length, money(list.reduce((s, p) => s + Number(p.amount), 0), list[0].currency)]), 'by-provider'),
      table(w('paymentsTitle'), [w('at'), w('provider'), w('providerId'), w('orderRef'), w('amount'), w('moneyState')],
        report.payments.map(p => [when(p.createdAt), providerName(p.provider), p.providerId ?? '–', p.orderRef ?? '–', money(p.amount, p.currency), [stateWord(p.state), p.outcome].filter(Boolean).join(' · ')]), 'payments'),
      table(w('refundsTitle'), [w('at'), w('provider'), w('providerRefundId'), w('amount'), w('moneyState')],
        (report.refunds ?? []).map(r => [when(r.createdAt), providerName(r.provider), r.providerRefundId ?? '–', money(r.amount, r.currency), [stateWord(r.state), r.outcome].filter(Boolean).join(' · ')]), 'refunds'));
  } catch (error) {
    say('money-message', problemWords(error));
  }
}

/// A manager's webhook endpoints: each with its events and state (failing since, switched off and why),
/// its recent deliveries a click away.
export async function renderWebhooks() {
  if (state.operator?.role !== 'manager') { $('webhooks').hidden = true; return; }
  $('webhooks').hidden = false;
  try {
    const { endpoints } = await call('GET', '/v1/webhooks');
    const list = table(w('endpoints'), [w('url'), w('events'), w('moneyState'), w('deliveries')], endpoints.map(e => [e.url, e.events.join(', '),
      e.enabled ? (e.failingSince ? w('failingSince', when(e.failingSince)) : w('working')) : w('switchedOff', e.disabledReason ?? ''), '']), 'endpoints');
    [...list.tBodies[0].rows].forEach((row, k) => {
      const e = endpoints[k];
      if (!e) return;
      row.dataset.endpoint = e.id;
      const show = Object.assign(document.createElement('button'), { type: 'button', textContent: w('deliveries') });
      show.addEventListener('click', () => renderDeliveries(e));
      row.cells[3].append(show);
    });
    $('webhook-list').replaceChildren(list);
  } catch (error) {
    say('money-message', problemWords(error));
  }
}

/// An endpoint's latest deliveries (state, attempts, its answer), and a replay from a time.
async function renderDeliveries(endpoint) {
  try {
    const { deliveries } = await call('GET', `/v1/webhooks/${encodeURIComponent(endpoint.id)}/deliveries?limit=20`);
    $('webhook-deliveries').replaceChildren(
      table(w('deliveriesOf', endpoint.url), [w('at'), w('event'), w('moneyState'), w('attempts'), w('answer')],
        deliveries.map(d => [when(d.at), d.type, w('deliveryStates')[d.state] ?? d.state, d.attempts, d.lastStatus ?? '–']), 'deliveries'));
    $('replay-form').hidden = false;
    $('replay-form').dataset.endpoint = endpoint.id;
  } catch (error) {
    say('money-message', problemWords(error));
  }
}

export function bindMoney() {
  const today = new Date(), tomorrow = new Date(today.getTime() + 86_400_000);
  $('money-from').value = today.toISOString().slice(0, 10);
  $('money-to').value = tomorrow.toISOString().slice(0, 10);
  $('money-form').addEventListener('submit', e => { e.preventDefault(); say('money-message', ''); renderPaymentsReport(); });
  $('webhook-form').addEventListener('submit', async e => {
    e.preventDefault();
    const events = [...document.querySelectorAll('#webhook-events input:checked')].map(i => i.value);
    try {
      const made = await call('POST', '/v1/webhooks', { url: $('webhook-url').value.trim(), events });
      // The secret is shown once, as the API gives it: the endpoint's own code checks signatures with it.
      say('money-message', w('endpointMade', made.secret), 'ok');
      $('webhook-url').value = '';
      renderWebhooks();
    } catch (error) {
      say('money-message', problemWords(error));
    }
  });
  $('replay-form').addEventListener('submit', async e => {
    e.preventDefault();
    const id = $('replay-form').dataset.endpoint, since = new Date($('replay-since').value);
    if (!id || Number.isNaN(since.getTime())) return;
    try {
      const answer = await call('POST', `/v1/webhooks/${encodeURIComponent(id)}/replay`, { since: since.toISOString() });
      say('money-message', w('replayed', answer.replayed ?? 0), 'ok');
    } catch (error) {
      say('money-message', problemWords(error));
    }
  });
}
