// js/order-terms.js: what a change of showing gives up, from the target's after-sale terms, with the
// engine's defaults (Tests/Web/Vectors/after-sale/terms.json, written by the Swift engine).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { STANDARD_AFTER_SALE, afterSaleOf, exchangeLosses } from '../../Sources/SeatServer/Web/Site/js/order-terms.js';

const vectors = JSON.parse(readFileSync(new URL('./Vectors/after-sale/terms.json', import.meta.url)));

test("the page's defaults are the engine's", () => {
  assert.deepEqual(STANDARD_AFTER_SALE, vectors.standard);
  for (const c of vectors.cases) assert.deepEqual(afterSaleOf({ details: { afterSale: c.given } }), c.read, JSON.stringify(c.given));
});

test('a change past the target showing’s refund window, or to one without refunds, says the order becomes non-refundable', () => {
  const now = Date.parse('2026-12-24T10:00:00Z');
  const at = minutes => new Date(now + minutes * 60_000).toISOString();
  // 59 minutes away with the standard 60-minute window: refunds there are closed already.
  assert.deepEqual(exchangeLosses({ startsAt: at(59), details: {} }, 2, now), ['lossRefundsClosed']);
  assert.deepEqual(exchangeLosses({ startsAt: at(61), details: {} }, 2, now), []);
  assert.deepEqual(exchangeLosses({ startsAt: at(600), details: { afterSale: { refunds: false } } }, 2, now), ['lossNoRefunds']);
  assert.deepEqual(exchangeLosses({ startsAt: at(600), details: { afterSale: { refundMinutes: 720 } } }, 1, now), ['lossRefundsClosed', 'lossLastExchange']);
});
