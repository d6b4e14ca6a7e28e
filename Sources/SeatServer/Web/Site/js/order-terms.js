// What a buyer gives up by moving an order into another showing, from that showing's after-sale terms
// (`details.afterSale`, members left out at the engine's defaults: AfterSalePolicy.standard, held to it
// by Tests/Web/Vectors/after-sale/terms.json). No DOM, so node --test runs it.

/// The engine's defaults: one change up to 30 minutes before, free; refunds up to 60 minutes before.
export const STANDARD_AFTER_SALE = { exchanges: 1, exchangeMinutes: 30, exchangeFee: '0', refunds: true, refundMinutes: 60 };

/// A show's after-sale terms, its own members over the defaults.
export function afterSaleOf(show) {
  const own = show?.details?.afterSale;
  const terms = { ...STANDARD_AFTER_SALE, ...(own && typeof own === 'object' ? own : {}) };
  // An amount as the engine reads it ("5.00" is 5).
  return { ...terms, exchangeFee: String(Number(terms.exchangeFee)) };
}

/// What moving into `target` at `now` (ms) gives up, as word keys: no refunds there at all, refunds
/// there closed already (a change went to a show 59 minutes away, past its 60-minute refund window,
/// without a word), and the order's last change.
export function exchangeLosses(target, exchangesLeft, now) {
  const terms = afterSaleOf(target), starts = Date.parse(target.startsAt);
  const out = [];
  if (!terms.refunds) out.push('lossNoRefunds');
  else if (now >= starts - terms.refundMinutes * 60_000) out.push('lossRefundsClosed');
  if (exchangesLeft <= 1) out.push('lossLastExchange');
  return out;
}
