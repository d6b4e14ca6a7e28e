// The page: `/` lists the shows (a strip of times per venue), `/shows/{id}` is the picker for one show.
// Everything it shows comes from the public v1 API; the engine's work (drawing, labels, best seats,
// the list mode, the rules) is done by the server, so this file only wires it together.

import { api, ApiProblem } from './api.js';
import { STATUS } from './availability.js';
import { applyStatic, lang, localName, setLanguage, showTime, t } from './i18n.js';
import { PrefetchPlanner, UniformAxis } from './engine.js';
import { bindKeyboard } from './keyboard.js';
import { LiveAvailability } from './live.js';
import { MapView } from './mapview.js';
import { HoldSession } from './session.js';

const $ = id => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') node.className = v; else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'role') node.setAttribute(k, v); else node[k] = v;
  }
  node.append(...children.filter(c => c !== null && c !== undefined));
  return node;
};
const symbol = currency => ({ CNY: '¥', JPY: '¥', USD: '$', EUR: '€', GBP: '£' })[currency] ?? `${currency} `;

let announceTimer;
function announce(text) {
  clearTimeout(announceTimer);
  $('announcer').textContent = '';
  announceTimer = setTimeout(() => { $('announcer').textContent = text; }, 50);
}

function showMessage(text, kind = 'error') {
  const box = $('message');
  box.textContent = text;
  box.dataset.kind = kind;
}

// — The show list —

async function showList() {
  $('show-list').hidden = false;
  const [shows, venues] = await Promise.all([api.shows(), api.venues()]);
  const names = Object.fromEntries(venues.map(v => [v.id, v.name]));
  const container = $('venues');
  container.replaceChildren();
  document.title = t('appTitle');
  if (shows.length === 0) { container.append(el('p', {}, t('noShows'))); return; }
  // One entry a film or event (its shows in every hall, in time order); a show that names none is its venue's.
  const venueName = s => localName(names[s.venueId] || s.venueId);
  const films = Map.groupBy(shows.sort((a, b) => a.startsAt.localeCompare(b.startsAt)),
    s => detailText(s, 'film') ?? detailText(s, 'title') ?? venueName(s));
  const posters = el('ul', { class: 'films strip', 'aria-label': t('films') });
  let k = 0;
  for (const [title, list] of films) {
    const id = `film-${k++}`, first = list[0];
    posters.append(el('li', {}, filmCard(title, first, id)));
    const section = el('section', { class: 'venue film', id, 'aria-labelledby': `${id}-title` },
      el('h3', { id: `${id}-title` }, title), el('p', { class: 'film-meta' }, filmMeta(first)));
    for (const times of Map.groupBy(list, s => s.venueId).values()) {
      section.append(el('h4', {}, detailText(times[0], 'hall') ?? venueName(times[0])), stripOf(times, null));
    }
    container.append(section);
  }
  container.prepend(posters);
  loadPostersNear(posters);
}

/// Format, language and running time, as the show's details give them.
function filmMeta(show) {
  const minutes = show.details?.duration;
  return [detailText(show, 'format'), detailText(show, 'language'), minutes ? t('minutes', minutes) : null].filter(Boolean).join(' · ');
}

/// A film's card in the poster strip: its poster (loaded when near, see loadPostersNear), title and
/// format; it leads to the film's show times.
function filmCard(title, show, sectionId) {
  const poster = show.details?.poster;
  const image = poster ? el('img', { class: 'poster', alt: '', width: 120, height: 180, decoding: 'async', 'data-src': poster, 'data-poster': 'waiting' })
    : el('span', { class: 'poster poster-none', 'aria-hidden': 'true' }, title.slice(0, 2));
  return el('a', { class: 'film-card', href: `#${sectionId}`, 'aria-label': t('timesOf', title) },
    image, el('span', { class: 'film-title' }, title), el('span', { class: 'film-format' }, detailText(show, 'format') ?? ''));
}

/// Posters load as the engine's PrefetchPlanner plans (js/engine.js, held to the Swift planner by
/// vectors): those on screen, then the ones 2.5 screens ahead in the direction of the scroll and 1.5
/// behind, nearest first; one that leaves that range before it has loaded is cancelled (its request
/// dropped). The strip is a uniform axis: the cards' width, the gap, the leading padding.
function loadPostersNear(strip) {
  const cards = [...strip.children];
  if (!cards.length) return;
  const style = getComputedStyle(strip);
  const axis = new UniformAxis(cards.length, cards[0].getBoundingClientRect().width,
    parseFloat(style.columnGap) || 0, parseFloat(style.paddingLeft) || 0);
  const images = cards.map(li => li.querySelector('img[data-src]'));
  const load = i => {
    const img = images[i];
    if (!img || img.getAttribute('src')) return;
    img.dataset.poster = 'loading';
    img.onload = () => { img.dataset.poster = 'loaded'; };
    img.src = img.dataset.src;
  };
  const cancel = i => {
    const img = images[i];
    if (img && img.dataset.poster === 'loading' && !img.complete) { img.removeAttribute('src'); img.dataset.poster = 'cancelled'; }
  };
  const planner = new PrefetchPlanner();
  let last = strip.scrollLeft, queued = false;
  const frame = () => {
    queued = false;
    const offset = strip.scrollLeft, length = strip.clientWidth;
    const [first, end] = axis.range(offset, offset + length);
    for (let i = first; i < end; i++) load(i);
    for (const [kind, i] of planner.update(axis, offset, length, offset - last)) (kind === 'prefetch' ? load : cancel)(i);
    last = offset;
  };
  strip.addEventListener('scroll', () => { if (!queued) { queued = true; requestAnimationFrame(frame); } }, { passive: true });
  frame();
}

/// What a show's details say, in the page's language (a text, or `{"zh","en"}`); undefined when not given.
function detailText(s, key) {
  const v = s.details?.[key];
  return typeof v === 'string' ? v : v?.[lang()] ?? v?.en ?? v?.zh;
}

/// Why a show takes no holds, in a word for its card.
const closedWord = s => t(s.cancelledAt ? 'cancelledShort' : s.salesSwitch === false ? 'pausedShort' : 'started');

/// A strip of show cards that scrolls sideways and snaps card by card.
function stripOf(shows, currentId) {
  const strip = el('ul', { class: 'strip' });
  for (const s of shows) {
    const when = showTime(s.startsAt);
    const free = s.seats.available;
    const prices = Object.values(s.prices.categories).map(Number);
    const from = prices.length ? `${symbol(s.prices.currency)}${Math.min(...prices).toFixed(s.prices.minorUnits)}` : '';
    const link = el('a', { class: s.onSale === false ? 'card started' : 'card', href: `/shows/${encodeURIComponent(s.id)}`, 'data-show': s.id },
      el('span', { class: 'day' }, when.day), el('span', { class: 'time' }, when.time),
      el('span', { class: 'free' }, s.onSale === false ? closedWord(s) : free > 0 ? t('free', free) : t('seatsTaken')),
      from ? el('span', { class: 'from' }, t('from', from)) : null);
    if (s.id === currentId) link.setAttribute('aria-current', 'page');
    strip.append(el('li', {}, link));
  }
  return strip;
}

/// What a refusal means to a buyer, in the page's language, by its problem type (the server's detail
/// is for developers: "show hall3-2 started at …" is not said to a buyer).
function problemText(error) {
  const slug = (error.problem?.type ?? '').split('/').pop();
  switch (slug) {
    case 'show-started': return t('salesClosed');
    case 'off-sale': return t('salesPaused');
    case 'show-cancelled': return t('cancelled');
    case 'hold-expired': return t('expired');
    case 'hold-released': case 'hold-confirmed': case 'not-in-hold': return t('holdGone');
    case 'already-extended': return t('alreadyExtended');
    case 'not-found': case 'unknown-seats': return t('notFound');
    case 'rate-limited': return t('tooFast');
    case 'store-unavailable': case 'internal-error': return t('busy');
    default: return error.status >= 500 ? t('busy') : t('failed', error.problem?.title ?? `HTTP ${error.status}`);
  }
}

// — One show —

async function showPage(showId) {
  $('show-page').hidden = false;
  const [first, shows] = await Promise.all([api.show(showId), api.shows()]);
  let show = first;  // replaced when a manager changes it (`event: show`)
  const sameVenue = shows.filter(s => s.venueId === show.venueId).sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  let statuses = null;      // one status code per seat, from the live stream
  let listShown = false;

  const view = new MapView({
    container: $('map'), surface: $('map-surface'), gutter: $('gutter'), minimap: $('minimap'),
    onTap: seat => tap(seat),
    onDragSelect: seats => {
      const ids = seats.filter(s => !session.desired.has(s.id) && statusOf(s) === 'available').map(s => s.id);
      if (ids.length) session.addAll(ids);
    },
  });
  const keys = bindKeyboard(view, { onActivate: seat => tap(seat) });
  const statusOf = seat => (statuses ? STATUS[statuses[seat.index]] : seat.el.dataset.status);

  const session = new HoldSession(showId, {
    onChange: reason => (reason === 'tick' ? renderCountdown() : renderSelection()),
    onHeld: hold => {
      if (hold.state === 'active') announce(t('held', hold.seats.map(id => view.byId.get(id)?.name ?? id).join(', ')));
      else announce(t('released'));
    },
    onExpired: () => { showMessage(t('expired')); announce(t('expired')); },
    onProblem: (error, attempted) => explain(error, attempted),
  });

  function tap(seat) {
    showMessage('', 'none');
    if (session.desired.has(seat.id) || statusOf(seat) === 'available') {
      session.wheelchair = $('wheelchair').checked;
      session.toggle(seat.id);
    } else {
      announce(view.label(seat, view.meta.words[statusOf(seat)]));
    }
  }

  /// Why the server said no, in the buyer's language: which seats were taken, which rule, or what else.
  function explain(error, attempted) {
    if (!(error instanceof ApiProblem)) { showMessage(t('offline')); return; }
    const p = error.problem;
    let text;
    if (p.conflicts?.length) {
      for (const c of p.conflicts) {
        const seat = view.byId.get(c.seat);
        if (seat && statuses) statuses[seat.index] = STATUS.indexOf(c.status);
      }
      text = t('taken', p.conflicts.map(c => view.byId.get(c.seat)?.name ?? c.seat).join(lang() === 'zh' ? '、' : ', '));
    } else if (p.violations?.length) {
      text = p.violations.map(v => v.message?.[lang()] ?? v.rule).join(' ');
    } else {
      text = problemText(error);
    }
    showMessage(text);
    paintAll();
    void attempted;
  }

  function paintAll() {
    for (const seat of view.seats) view.paint(seat, statusOf(seat), session.desired.has(seat.id));
    labelZones();
  }

  /// Zoomed out, each zone says how many seats are left in it (once a frame at most: deltas come fast).
  let zonesPending = false;
  function labelZones() {
    if (zonesPending || !view.zonesReachable()) return;
    zonesPending = true;
    requestAnimationFrame(() => {
      zonesPending = false;
      const free = new Map([...view.zoneOutlines.keys()].map(z => [z, 0]));
      for (const seat of view.seats) if (statusOf(seat) === 'available') free.set(seat.zone, (free.get(seat.zone) ?? 0) + 1);
      // Just the count (zones can be narrow); a sold-out zone is also drawn grey.
      const texts = new Map([...free].map(([z, n]) => [z, n > 0 ? String(n) : t('seatsTaken')]));
      view.labelZones(texts, new Set([...free].filter(([, n]) => n === 0).map(([z]) => z)));
    });
  }

  function renderSelection() {
    paintAll();
    const list = $('selection');
    // Each chosen seat a chip with its own remove button (one seat out of a hold, without starting over).
    list.replaceChildren(...[...session.desired].map(id => {
      const seat = view.byId.get(id);
      const name = seat?.name ?? id;
      const remove = el('button', { type: 'button', class: 'chip-remove', 'aria-label': t('remove', name) }, '×');
      remove.addEventListener('click', () => { showMessage('', 'none'); session.toggle(id); });
      return el('li', { class: 'chip', 'data-seat': id, title: seat ? [seat.name, seat.details].join(view.meta.separator) : id },
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
    const m = view.meta;
    const swatch = color => el('span', { class: 'swatch', 'aria-hidden': 'true', 'data-color': color });
    $('legend').setAttribute('aria-label', t('legend'));
    $('legend').replaceChildren(...['available', 'selected', 'held', 'sold'].map(k =>
      el('li', {}, swatch(k === 'available' ? m.zones[0]?.color : m.palette[k]), m.words[k])));
    // One line a zone in a cinema; an arena's many sections are summed up by price category.
    const lines = m.zones.length <= 8 ? m.zones.map(z => ({ key: z.id, name: z.name, color: z.color, price: z.price }))
      : [...Map.groupBy(m.zones, z => z.category)].map(([category, zones]) => ({
          key: category, color: zones[0].color, price: [...new Set(zones.map(z => z.price))].join(' / '),
          name: `${category[0].toUpperCase()}${category.slice(1)} (${zones.length})` }));
    $('zone-prices').replaceChildren(...lines.map(z => el('li', { 'data-zone': z.key }, swatch(z.color), `${z.name} `, el('strong', {}, z.price ?? ''))));
    for (const s of document.querySelectorAll('.swatch')) s.style.background = s.dataset.color;
    // The film or event when the show names one, with its format; else the hall.
    const title = detailText(show, 'title') ?? m.title;
    $('show-title').textContent = `${title} · ${showTime(show.startsAt).day} ${showTime(show.startsAt).time}`;
    const poster = show.details?.poster;
    $('show-poster').hidden = !poster;
    if (poster && $('show-poster').getAttribute('src') !== poster) $('show-poster').src = poster;
    $('show-meta').textContent = [filmMeta(show), detailText(show, 'hall') ?? m.title].filter(Boolean).join(' · ');
    $('map').setAttribute('aria-label', t('mapLabel', m.title));
    document.title = `${title} · ${t('appTitle')}`;
  }

  // The list mode: zone → row → runs of free seats, each seat a button (the engine's free-seat list).
  let listTimer;
  function renderList() {
    clearTimeout(listTimer);
    listTimer = setTimeout(async () => {
      const data = await api.freeSeats(showId, lang());
      const seatButton = id => {
        const seat = view.byId.get(id);
        const selected = session.desired.has(id);
        const b = el('button', { type: 'button', 'aria-pressed': String(selected), 'data-seat': id,
                                 'aria-label': seat ? view.label(seat, view.meta.words[selected ? 'selected' : 'available']) : id },
                     seat?.el.dataset.label ?? id.split('-').pop());
        b.addEventListener('click', () => tap(seat));
        return b;
      };
      const selectedNotFree = [...session.desired].filter(id => statusOf(view.byId.get(id)) !== 'available');
      $('list-mode').replaceChildren(
        selectedNotFree.length ? el('p', {}, t('yourSeats'), ' ', ...selectedNotFree.map(seatButton)) : null,
        ...data.zones.map(z => el('section', { class: 'list-zone' }, el('h3', {}, z.name),
          ...z.rows.map(r => el('div', { class: 'list-row', role: 'group', 'aria-label': r.summary }, el('h4', {}, r.summary),
            ...r.runs.map(run => el('p', { class: 'run' }, el('span', {}, run.text), ' ', ...run.seats.map(seatButton))))))));
    }, 150);
  }

  async function loadMap(recent = true) {
    const focused = document.activeElement?.closest?.('g.seat')?.dataset.seatId;
    view.load(await api.seatMap(showId, lang(), recent));
    for (const seat of view.seats) seat.el.dataset.label = seat.el.querySelector('text')?.textContent ?? '';
    renderLegend();
    paintAll();
    const rows = view.rows.filter(r => r.seats.length);
    const middle = rows[Math.floor(rows.length * 2 / 3)];
    keys.setTabStop(view.byId.get(focused) ?? middle?.seats[Math.floor(middle.seats.length / 2)]);
    if (focused) keys.focus(view.byId.get(focused));
    $('map').dataset.ready = 'true';
    // The moment the map can be used (scripts/bench-web.py reads it as time to an interactive map).
    if (!performance.getEntriesByName('map-ready').length) performance.mark('map-ready');
  }

  $('show-strip').replaceChildren(...stripOf(sameVenue, showId).children);
  await loadMap();
  renderSelection();
  // Sales close when the show starts, while the manager pauses them and for good when it is
  // cancelled (the server refuses new holds): say so up front, and again when it changes live.
  function renderSalesState() {
    const closed = show.onSale === false;
    // A show that takes no holds looks closed on the map too, not on sale.
    $('map').dataset.closed = String(closed);
    $('map').dataset.closedText = t('closedOnMap');
    if (closed) showMessage(t(show.cancelledAt ? 'cancelled' : show.salesSwitch === false ? 'salesPaused' : 'salesClosed'), 'info');
    for (const b of $('best-form').querySelectorAll('button, input')) b.disabled = closed;
  }
  renderSalesState();

  const live = new LiveAvailability(showId, {
    onSnapshot: state => {
      statuses = state.statuses;
      paintAll();
      $('map').dataset.version = state.version;
      $('map').dataset.snapshots = String(Number($('map').dataset.snapshots || 0) + 1);
      if (listShown) renderList();
    },
    onDelta: delta => {
      const near = [];
      for (const [index, code] of delta.changes) {
        const before = statuses[index];
        statuses[index] = code;
        const seat = view.seats[index];
        if (!seat) continue;
        view.paint(seat, STATUS[code], session.desired.has(seat.id));
        if (before !== code && !session.held.has(seat.id) && isNearSelection(seat)) near.push([seat, code]);
      }
      $('map').dataset.version = delta.to;
      for (const [seat, code] of near) announce(code === 0 ? t('availableAgain', seat.name) : t('justTaken', seat.name));
      labelZones();
      if (listShown) renderList();
    },
    onShow: async fresh => {
      const repriced = fresh.priceRevision !== show.priceRevision;
      const wasOpen = show.onSale !== false;
      show = fresh;
      if (repriced) {
        await loadMap(false);
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

  /// Same row, within three seats of a selected or focused seat (the engine's announcement rule).
  function isNearSelection(seat) {
    const row = view.rows[view.rowOf.get(seat.row)].seats;
    const at = row.indexOf(seat);
    const anchors = [...session.desired].map(id => view.byId.get(id)).concat(keys.current ? [keys.current] : []);
    return anchors.some(a => a && a.row === seat.row && Math.abs(row.indexOf(a) - at) <= 3);
  }

  $('zoom-in').addEventListener('click', () => view.zoomTo(view.zoom * 1.5));
  $('zoom-out').addEventListener('click', () => view.zoomTo(view.zoom / 1.5));
  // The minimap: shown on a desktop, folded away on a phone until asked for.
  const showOverview = shown => {
    $('minimap').toggleAttribute('hidden', !shown);
    $('minimap-toggle').setAttribute('aria-pressed', String(shown));
  };
  showOverview(!matchMedia('(max-width: 52rem)').matches);
  $('minimap-toggle').addEventListener('click', () => showOverview($('minimap').hasAttribute('hidden')));
  $('list-toggle').addEventListener('click', () => {
    listShown = !listShown;
    $('list-toggle').setAttribute('aria-pressed', String(listShown));
    $('list-toggle').textContent = t(listShown ? 'mapMode' : 'listMode');
    $('map').hidden = listShown; $('map-help').hidden = listShown; $('list-mode').hidden = !listShown;
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
      view.reveal(view.byId.get(best.seats[0]));
    } catch (error) {
      if (error instanceof ApiProblem && error.status === 409) showMessage(t('nothingTogether', count)); else explain(error, []);
    }
  });
  $('release').addEventListener('click', () => { showMessage('', 'none'); session.release(); });
  $('extend').addEventListener('click', async () => { await session.extend(); announce(t('extended')); });
  $('confirm').addEventListener('click', async () => {
    const names = [...session.held].map(id => view.byId.get(id)?.name ?? id).join(lang() === 'zh' ? '、' : ', ');
    const total = $('total').textContent;
    const done = await session.confirm();
    if (done) {
      // What was bought: the show, its time and hall, the seats and the total.
      const when = `${showTime(show.startsAt).day} ${showTime(show.startsAt).time}`;
      const what = [detailText(show, 'title'), detailText(show, 'hall') ?? view.meta.title].filter(Boolean).join(' · ');
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
}

async function main() {
  applyStatic();
  const match = /^\/shows\/([^/]+)\/?$/.exec(location.pathname);
  $('language').onclick = () => { setLanguage(lang() === 'zh' ? 'en' : 'zh'); main(); };
  try {
    if (match) await showPage(decodeURIComponent(match[1])); else await showList();
  } catch (error) {
    const box = $('page-error');
    box.hidden = false;
    box.textContent = error instanceof ApiProblem ? `${error.problem.title}: ${error.problem.detail ?? ''}` : String(error);
  }
}

main();
