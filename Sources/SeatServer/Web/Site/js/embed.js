// /web/embed.html: `<seatkit-map>` on a page of its own, as another site would use it — the show from
// the query, the element's events logged, its API behind a Buy button. No other module of the picker.

import './element.js';

const map = document.getElementById('embedded');
const query = new URLSearchParams(location.search);
const log = text => document.getElementById('events').append(Object.assign(document.createElement('li'), { textContent: text }));

map.addEventListener('ready', e => log(`ready: ${e.detail.show.id}`));
map.addEventListener('selection', e => {
  log(`selection: ${e.detail.seats.join(' ') || '(none)'}`);
  document.getElementById('summary').textContent = e.detail.seats.length ? e.detail.seats.join(', ') : 'No seats';
});
map.addEventListener('hold', e => {
  const hold = e.detail.hold;
  log(`hold: ${hold.state} ${hold.seats.join(' ')} ${hold.total ?? ''}`);
  document.getElementById('buy').disabled = hold.state !== 'active' || hold.seats.length === 0;
});
map.addEventListener('refusal', e => log(`refusal: ${e.detail.message}`));
map.addEventListener('failure', e => log(`failure: ${e.detail.error}`));
document.getElementById('buy').addEventListener('click', async () => {
  const done = await map.confirm();
  if (done) log(`confirmed: ${done.orderRef}`);
});
if (query.get('lang')) map.setAttribute('lang', query.get('lang'));
map.setAttribute('show', query.get('show') ?? 'hall3-1930');
