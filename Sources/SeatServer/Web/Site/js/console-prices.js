// The manager's price editor: each category's price now and new, what a change does before it is
// applied (open holds keep their prices), then the new table for every open picker at once.

import { request } from './api.js';
import { $, announce, call, categoryName, problemWords, say, state } from './console-common.js';
import { refreshSide } from './console-side.js';
import { w } from './console-words.js';

let shownShow = null;

/// The show's price per category, with a field for the new one; nothing for a role that may not change them.
export async function renderPrices() {
  shownShow = await request('GET', `/v1/shows/${encodeURIComponent(state.showId)}`);
  $('prices-form').hidden = false;
  const rows = Object.entries(shownShow.prices.categories).sort(([a], [b]) => a.localeCompare(b)).map(([category, price]) => {
    const tr = document.createElement('tr');
    const input = Object.assign(document.createElement('input'), { value: price, inputMode: 'decimal', id: `price-${category}` });
    input.dataset.category = category;
    const name = categoryName(category, state.map?.picker?.venue?.zones);
    input.setAttribute('aria-label', `${name}: ${w('new')}`);
    const cells = [name, price].map(text => Object.assign(document.createElement('td'), { textContent: text }));
    const last = document.createElement('td');
    last.append(input);
    tr.append(...cells, last);
    return tr;
  });
  $('price-table').tBodies[0].replaceChildren(...rows);
  $('price-preview').textContent = '';
}

/// The new table (the current one with the categories' new prices), the changes in words, or a refusal.
function proposedPrices() {
  const categories = { ...shownShow.prices.categories }, changes = [], changed = new Set();
  for (const input of $('price-table').querySelectorAll('input')) {
    const value = input.value.trim(), category = input.dataset.category;
    const name = categoryName(category, state.map?.picker?.venue?.zones);
    if (!/^[0-9]+(\.[0-9]+)?$/.test(value)) throw new Error(w('badPrice', name));
    if (value !== categories[category]) { changes.push(`${name} ${categories[category]} → ${value}`); changed.add(category); }
    categories[category] = value;
  }
  return { table: { ...shownShow.prices, categories }, changes, changed };
}

/// What the change does before it is applied: which categories, how many seats on sale take the new
/// prices, and that open holds keep theirs (a hold keeps the price revision it was made at).
async function previewPrices() {
  let proposal;
  try { proposal = proposedPrices(); } catch (error) { say('desk-message', error.message); return null; }
  if (!proposal.changes.length) { $('price-preview').textContent = w('noChange'); return null; }
  const report = await call('GET', `/v1/shows/${encodeURIComponent(state.showId)}/report`);
  const free = report.zones.filter(z => proposal.changed.has(z.category)).reduce((n, z) => n + z.byStatus.available, 0);
  $('price-preview').textContent = w('previewText', proposal.changes.join(', '), free, report.byStatus.held);
  return proposal;
}

export function bindPrices() {
  $('price-preview-button').addEventListener('click', () => previewPrices().catch(error => say('desk-message', problemWords(error))));
  $('prices-form').addEventListener('submit', async e => {
    e.preventDefault();
    try {
      const proposal = await previewPrices();
      if (!proposal) return;
      const show = await call('PUT', `/v1/shows/${encodeURIComponent(state.showId)}/prices`, proposal.table);
      say('desk-message', w('applied', show.priceRevision), 'ok');
      announce(w('applied', show.priceRevision));
      await renderPrices();
      refreshSide();
    } catch (error) {
      say('desk-message', problemWords(error));
    }
  });
}
