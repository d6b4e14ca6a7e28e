// One show: the strip of its venue's times, the map (one canvas, js/canvasmap.js) and what the buyer
// has (the side panel on a desktop, a bar under the thumb on a phone). The map is the `<seatkit-map>`
// element (js/element.js): what the page does here, an embedding page can ask of it too.

import { api, ApiProblem } from './api.js';
import { decodeAvailability } from './availability.js';
import { CanvasMap, STATUS } from './canvasmap.js';
import { SeatPrices, Venue } from './geometry.js';
import { lang, setLanguage, showTime, t } from './i18n.js';
import { bindKeyboard } from './keyboard.js';
import { LiveAvailability } from './live.js';
import { HoldSession } from './session.js';
import { $, announce, detailText, el, filmMeta, problemText, showMessage, stripOf, symbol } from './ui.js';
import './element.js';

export async function showPage(showId) {
  $('show-page').hidden = false;
  // Everything that needs only the show's id is asked for at once; the venue's geometry follows the
  // show (it names the venue), the strip of other times whenever the list arrives.
  // The server names the show's venue in the page (`data-venue`), so its geometry is asked for now too.
  const hint = document.body.dataset.venue;
  const early = { prices: api.seatPrices(showId, lang()), availability: api.availability(showId), geometry: hint ? api.geometry(hint, lang()) : null };
  const showsLoaded = api.shows();
  for (const p of [early.prices, early.availability, early.geometry, showsLoaded]) p?.catch(() => {});  // awaited below
  let show = await api.show(showId);  // replaced when a manager changes it (`event: show`)
  if (show.venueId !== hint) early.geometry = api.geometry(show.venueId, lang());
  let sameVenue = [show];
  let venue = null, prices = null;  // the geometry in the page's language, the show's seat prices
  let listShown = false;
  const map = $('map');

  const view = new CanvasMap({
    container: map, surface: $('map-surface'), gutter: $('gutter'), minimap: $('minimap'),
    onTap: i => tap(i),
    onDragSelect: seats => {
      const ids = seats.filter(i => !session.desired.has(venue.ids[i]) && view.statusOf(i) === 'available').map(i => venue.ids[i]);
      if (ids.length) session.addAll(ids);
    },
    onView: () => keys.refresh(),
  });
  const keys = bindKeyboard(view, { onActivate: i => tap(i), elements: [$('seat-focus-a'), $('seat-focus-b')] });
  const indexOf = id => venue.indexOf(id);
  const nameOf = id => { const i = indexOf(id); return i === undefined ? id : venue.name(i); };
  const list = ids => ids.map(nameOf).join(lang() === 'zh' ? '、' : ', ');
  const emit = (type, detail) => map.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }));

  const session = new HoldSession(showId, {
    onChange: reason => (reason === 'tick' ? renderCountdown() : renderSelection()),
    onHeld: hold => {
      if (hold.state === 'active') announce(t('held', hold.seats.map(nameOf).join(', ')));
      else announce(t('released'));
      emit('hold', { hold });
    },
    onExpired: () => { showMessage(t('expired')); announce(t('expired')); emit('refusal', { message: t('expired'), problem: null }); },
    onProblem: (error, attempted) => explain(error, attempted),
  });

  function tap(i) {
    showMessage('', 'none');
    const id = venue.ids[i];
    if (session.desired.has(id) || view.statusOf(i) === 'available') {
      session.wheelchair = $('wheelchair').checked;
      session.toggle(id);
    } else {
      announce(view.label(i));
    }
  }

  /// Why the server said no, in the buyer's language: which seats were taken, which rule, or what else.
  function explain(error, attempted) {
    let text;
    if (!(error instanceof ApiProblem)) {
      text = t('offline');
    } else if (error.problem.conflicts?.length) {
      const conflicts = error.problem.conflicts;
      for (const c of conflicts) { const i = indexOf(c.seat); if (i !== undefined) view.setStatus(i, STATUS.indexOf(c.status)); }
      text = t('taken', list(conflicts.map(c => c.seat)));
    } else if (error.problem.violations?.length) {
      text = error.problem.violations.map(v => v.message?.[lang()] ?? v.rule).join(' ');
    } else {
      text = problemText(error);
    }
    showMessage(text);
    paint();
    emit('refusal', { message: text, problem: error instanceof ApiProblem ? error.problem : null, seats: attempted });
  }

  /// The selection on the map (only the seats that changed are repainted) and the focused seat's label.
  function paint() {
    const chosen = new Set();
    for (const id of session.desired) { const i = indexOf(id); if (i !== undefined) chosen.add(i); }
    view.setSelection(chosen);
    keys.refresh();
  }

  let lastSelection = '';
  function renderSelection() {
    paint();
    const ids = [...session.desired];
    if (ids.join() !== lastSelection) { lastSelection = ids.join(); emit('selection', { seats: ids }); }
    // Each chosen seat a chip with its own remove button (one seat out of a hold, without starting over).
    $('selection').replaceChildren(...ids.map(id => {
      const i = indexOf(id), name = nameOf(id);
      const remove = el('button', { type: 'button', class: 'chip-remove', 'aria-label': t('remove', name) }, '×');
      remove.addEventListener('click', () => { showMessage('', 'none'); session.toggle(id); });
      return el('li', { class: 'chip', 'data-seat': id, title: i === undefined ? id : [name, venue.details(i, prices)].join(venue.separator) },
        el('span', {}, name), remove);
    }));
    const settled = !session.busy && session.token && session.desired.size === session.held.size;
    const hold = session.hold;
    $('total').textContent = session.desired.size === 0 ? '–' : settled ? `${symbol(hold.currency)}${hold.total}` : '…';
    $('total').dataset.settled = String(Boolean(settled));
    $('confirm').disabled = !settled;
    $('extend').disabled = !settled || hold.extended;
    $('release').disabled = session.desired.size === 0 && !session.token;
    renderCountdown();
    if (listShown) renderList();
  }

  function renderCountdown() {
    const left = session.remaining();
    if (left === null) { $('countdown').textContent = '–'; return; }
    const s = Math.max(0, Math.floor(left / 1000));
    $('countdown').textContent = t('left', `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`);
  }

  function renderLegend() {
    const swatch = color => el('span', { class: 'swatch', 'aria-hidden': 'true', 'data-color': color });
    $('legend').setAttribute('aria-label', t('legend'));
    $('legend').replaceChildren(...['available', 'selected', 'held', 'sold'].map(k =>
      el('li', {}, swatch(k === 'available' ? venue.zones[0]?.color : venue.palette[k]), venue.words[k])));
    // One line a zone in a cinema; an arena's many sections are summed up by price category.
    const zones = prices.zones;
    const lines = zones.length <= 8 ? zones.map(z => ({ key: z.id, name: z.name, color: z.color, price: z.price }))
      : [...Map.groupBy(zones, z => z.category)].map(([category, group]) => ({
          key: category, color: group[0].color, price: [...new Set(group.map(z => z.price))].join(' / '),
          name: `${category[0].toUpperCase()}${category.slice(1)} (${group.length})` }));
    $('zone-prices').replaceChildren(...lines.map(z => el('li', { 'data-zone': z.key }, swatch(z.color), `${z.name} `, el('strong', {}, z.price ?? ''))));
    for (const s of document.querySelectorAll('.swatch')) s.style.background = s.dataset.color;
    // The film or event when the show names one, with its format; else the hall.
    const title = detailText(show, 'title') ?? venue.title;
    $('show-title').textContent = `${title} · ${showTime(show.startsAt).day} ${showTime(show.startsAt).time}`;
    const poster = show.details?.poster;
    $('show-poster').hidden = !poster;
    if (poster && $('show-poster').getAttribute('src') !== poster) $('show-poster').src = poster;
    $('show-meta').textContent = [filmMeta(show), detailText(show, 'hall') ?? venue.title].filter(Boolean).join(' · ');
    map.setAttribute('aria-label', t('mapLabel', venue.title));
    document.title = `${title} · ${t('appTitle')}`;
  }

  // The list mode: zone → row → runs of free seats, each seat a button (the engine's free-seat list).
  let listTimer;
  function renderList() {
    clearTimeout(listTimer);
    listTimer = setTimeout(async () => {
      const data = await api.freeSeats(showId, lang());
      const seatButton = id => {
        const i = indexOf(id);
        const b = el('button', { type: 'button', 'aria-pressed': String(session.desired.has(id)), 'data-seat': id,
                                 'aria-label': i === undefined ? id : view.label(i) }, i === undefined ? id : venue.numbers[i]);
        b.addEventListener('click', () => tap(i));
        return b;
      };
      const selectedNotFree = [...session.desired].filter(id => view.statusOf(indexOf(id)) !== 'available');
      $('list-mode').replaceChildren(
        selectedNotFree.length ? el('p', {}, t('yourSeats'), ' ', ...selectedNotFree.map(seatButton)) : null,
        ...data.zones.map(z => el('section', { class: 'list-zone' }, el('h3', {}, z.name),
          ...z.rows.map(r => el('div', { class: 'list-row', role: 'group', 'aria-label': r.summary }, el('h4', {}, r.summary),
            ...r.runs.map(run => el('p', { class: 'run' }, el('span', {}, run.text), ' ', ...run.seats.map(seatButton))))))));
    }, 150);
  }

  /// The venue's geometry (cached by the browser for the layout's life), the show's prices and, on the
  /// first load, its availability: fetched together; then the map is drawn once, right.
  async function loadMap() {
    const focused = keys.focused && venue ? venue.ids[keys.current] : null;
    const [geometry, seatPrices, availability] = await Promise.all([
      early.geometry ?? api.geometry(show.venueId, lang()), early.prices ?? api.seatPrices(showId, lang()), venue ? null : early.availability,
    ]);
    early.geometry = early.prices = null;
    venue = new Venue(geometry);
    prices = new SeatPrices(seatPrices, venue.count);
    view.load(venue, prices);
    if (availability) {
      const state = decodeAvailability(availability);
      view.setStatuses(state.statuses);
      map.dataset.version = state.version;
    }
    renderLegend();
    paint();
    const best = venue.indexOf(focused);
    if (best !== undefined) keys.focus(best);
    else keys.setTabStop(keys.current ?? middleSeat());
    await view.drawn();
    map.dataset.ready = 'true';
    // The moment the map is drawn and can be used (scripts/bench-web.py reads it as time to an interactive map).
    if (!performance.getEntriesByName('map-ready').length) performance.mark('map-ready');
  }

  /// The first tab stop: the seat in the middle of the row two thirds of the way back.
  function middleSeat() {
    const rows = venue.gutterRows;
    const row = rows[Math.floor(rows.length * 2 / 3)]?.[2];
    let best = 0, bestD = Infinity;
    const midX = venue.contentW / 2;
    for (let i = 0; i < venue.count; i++) {
      if (venue.rowOf[i] !== row) continue;
      const d = Math.abs(venue.x[i] - midX);
      if (d < bestD) { best = i; bestD = d; }
    }
    return best;
  }

  await loadMap();
  // The strip of other times after the map (its dates are formatted by Intl, slow the first time).
  $('show-strip').replaceChildren(...stripOf(sameVenue, showId).children);
  showsLoaded.then(shows => {
    sameVenue = shows.filter(s => s.venueId === show.venueId).sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    $('show-strip').replaceChildren(...stripOf(sameVenue, showId).children);
  }, () => {});
  renderSelection();
  // Sales close when the show starts, while the manager pauses them and for good when it is
  // cancelled (the server refuses new holds): say so up front, and again when it changes live.
  function renderSalesState() {
    const closed = show.onSale === false;
    // A show that takes no holds looks closed on the map too, not on sale.
    map.dataset.closed = String(closed);
    map.dataset.closedText = t('closedOnMap');
    if (closed) showMessage(t(show.cancelledAt ? 'cancelled' : show.salesSwitch === false ? 'salesPaused' : 'salesClosed'), 'info');
    for (const b of $('best-form').querySelectorAll('button, input')) b.disabled = closed;
  }
  renderSalesState();

  const live = new LiveAvailability(showId, {
    onSnapshot: state => {
      view.setStatuses(state.statuses);
      paint();
      map.dataset.version = state.version;
      map.dataset.snapshots = String(Number(map.dataset.snapshots || 0) + 1);
      if (listShown) renderList();
    },
    onDelta: delta => {
      const near = [];
      for (const [i, code] of delta.changes) {
        if (i >= venue.count) continue;
        const before = view.statuses[i];
        view.setStatus(i, code);
        if (before !== code && !session.held.has(venue.ids[i]) && isNearSelection(i)) near.push([i, code]);
      }
      keys.refresh();
      map.dataset.version = delta.to;
      for (const [i, code] of near) announce(code === 0 ? t('availableAgain', venue.name(i)) : t('justTaken', venue.name(i)));
      if (listShown) renderList();
    },
    onShow: async fresh => {
      const repriced = fresh.priceRevision !== show.priceRevision;
      const wasOpen = show.onSale !== false;
      show = fresh;
      if (repriced) {
        prices = new SeatPrices(await api.seatPrices(showId, lang()), venue.count);
        view.setPrices(prices);
        keys.refresh();
        announce(t('pricesChanged'));
      }
      renderLegend();
      if (show.onSale === false || !wasOpen) renderSalesState();
      if (show.onSale !== false && !wasOpen) showMessage('', 'none');
    },
    onState: state => {
      const c = $('connection');
      c.hidden = false;
      c.dataset.state = state;
      c.textContent = state === 'live' ? t('live') : t('reconnecting');
    },
  });

  /// Same row, within three seats of a selected or focused seat along it (the engine's announcement rule).
  function isNearSelection(i) {
    const anchors = [...session.desired].map(indexOf).concat(keys.current ?? []);
    return anchors.some(a => a !== undefined && venue.rowOf[a] === venue.rowOf[i] && Math.abs(a - i) <= 3);
  }

  $('zoom-in').addEventListener('click', () => view.zoomTo(view.zoom * 1.5));
  $('zoom-out').addEventListener('click', () => view.zoomTo(view.zoom / 1.5));
  // The minimap: shown on a desktop, folded away on a phone until asked for.
  const showOverview = shown => {
    $('minimap').toggleAttribute('hidden', !shown);
    $('minimap-toggle').setAttribute('aria-pressed', String(shown));
    if (shown) view.renderMinimap(true);
  };
  showOverview(!matchMedia('(max-width: 52rem)').matches);
  $('minimap-toggle').addEventListener('click', () => showOverview($('minimap').hasAttribute('hidden')));
  $('list-toggle').addEventListener('click', () => {
    listShown = !listShown;
    $('list-toggle').setAttribute('aria-pressed', String(listShown));
    $('list-toggle').textContent = t(listShown ? 'mapMode' : 'listMode');
    map.hidden = listShown; $('map-help').hidden = listShown; $('list-mode').hidden = !listShown;
    if (listShown) renderList(); else view.resize();
  });
  $('best-count').max = show.policy.maxSeats;
  $('best-form').addEventListener('submit', async e => {
    e.preventDefault();
    const count = Number($('best-count').value);
    try {
      const best = await api.best(showId, count, $('wheelchair').checked);
      showMessage('', 'none');
      session.wheelchair = $('wheelchair').checked;
      session.replaceWith(best.seats);
      view.zoomToSeats(best.seats.map(indexOf).filter(i => i !== undefined));
    } catch (error) {
      if (error instanceof ApiProblem && error.status === 409) showMessage(t('nothingTogether', count)); else explain(error, []);
    }
  });
  $('release').addEventListener('click', () => { showMessage('', 'none'); session.release(); });
  $('extend').addEventListener('click', async () => { await session.extend(); announce(t('extended')); });
  $('confirm').addEventListener('click', async () => {
    const names = list([...session.held]);
    const total = $('total').textContent;
    const done = await session.confirm();
    if (done) {
      // What was bought: the show, its time and hall, the seats and the total.
      const when = `${showTime(show.startsAt).day} ${showTime(show.startsAt).time}`;
      const what = [detailText(show, 'title'), detailText(show, 'hall') ?? venue.title].filter(Boolean).join(' · ');
      const text = t('receipt', done.orderRef, what, when, names, total);
      $('receipt').textContent = text;
      showMessage('', 'none');
      announce(text);
    }
  });
  $('language').onclick = async () => {
    setLanguage(lang() === 'zh' ? 'en' : 'zh');
    $('show-strip').replaceChildren(...stripOf(sameVenue, showId).children);
    await loadMap();
    renderSelection();
    if (listShown) $('list-toggle').textContent = t('mapMode');
  };
  window.addEventListener('pagehide', () => { live.close(); session.stop(); });

  // What an embedding page (or a test) may ask of the map, by seat id (js/element.js).
  map.attach({
    select: ids => session.addAll(ids.filter(id => indexOf(id) !== undefined && !session.desired.has(id))),
    deselect: ids => session.removeAll(ids.filter(id => session.desired.has(id))),
    zoomToSeats: ids => view.zoomToSeats(ids.map(indexOf).filter(i => i !== undefined)),
    seat: id => {
      const i = indexOf(id);
      if (i === undefined) return null;
      return { id, index: i, name: venue.name(i), number: venue.numbers[i], row: venue.rowLabel[venue.rowOf[i]],
               zone: venue.zones[venue.zoneOf[i]].id, status: view.statusOf(i), selected: view.isSelected(i),
               label: view.label(i), rect: view.clientRect(i) };
    },
    seats: () => venue.ids,
    /// The seat whose square is under a point of the page (client coordinates), or null.
    seatAt: (x, y) => {
      const b = $('map-surface').getBoundingClientRect(), i = view.seatAt({ x: x - b.left, y: y - b.top }, false);
      return i === null ? null : venue.ids[i];
    },
    zones: () => venue.zones.map((z, k) => ({ id: z.id, name: z.name, free: view.zoneFree[k] })),
    selection: () => [...session.desired],
    view: () => ({ zoom: view.zoom, level: view.level(), offset: [view.ox, view.oy] }),
  });
}
