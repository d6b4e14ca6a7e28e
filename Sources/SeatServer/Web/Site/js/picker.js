// One show's page: the strip of its venue's times, the map (the `<seatkit-map>` element, which loads the
// show and holds seats as they are tapped: js/element.js, js/seatpicker.js) and what the buyer has — the
// side panel on a desktop, a bar under the thumb on a phone — drawn from the map's events.

import { api, ApiProblem, request } from './api.js';
import { lang, setLanguage, showTime, t } from './i18n.js';
import { WaitlistCard } from './waitlist.js';
import { $, announce, detailText, el, filmMeta, roveWithArrows, showMessage, statusLegend, stripOf, symbol } from './ui.js';
import { PayPage, keptPayment } from './pay.js';
import { AttendeesStep } from './attendees.js';
import { realNameMode } from './attendee-pick.js';
import './element.js';

export async function showPage(showId) {
  $('show-page').hidden = false;
  const map = $('map');
  const showsLoaded = api.shows();
  showsLoaded.catch(() => {});
  // How this server takes money: with a provider online, Confirm becomes Pay (js/pay.js).
  const optionsLoaded = api.paymentOptions().catch(() => ({ providers: [] }));
  // The server names the show's venue in the page (`data-venue`): the map asks for its geometry at once.
  const venueHint = document.body.dataset.venue;
  if (venueHint) map.setAttribute('venue', venueHint);
  map.setAttribute('show', showId);
  const picker = await new Promise((resolve, reject) => {
    map.addEventListener('ready', () => resolve(map.picker), { once: true });
    map.addEventListener('failure', e => reject(e.detail.error), { once: true });
  });
  const session = picker.session, view = picker.view;
  let show = picker.show, sameFilm = [show], listShown = false;
  // The Pay step, made once the payment options are known (below); events may come before that.
  let payPage = null;

  map.addEventListener('tap', () => showMessage('', 'none'));
  map.addEventListener('refusal', e => {
    e.preventDefault();
    // The waiting room's admission ended (or the room was set up meanwhile): back into the line.
    if ((e.detail.problem?.type ?? '').startsWith('/problems/admission-')) {
      sessionStorage.removeItem(`seatkit.queue.${showId}`);
      showMessage(t('queueAgain'));
      setTimeout(() => location.reload(), 1500);
      return;
    }
    showMessage(e.detail.message);
  });
  map.addEventListener('change', e => (e.detail.tick ? renderCountdown() : renderSelection()));
  map.addEventListener('statuses', () => { renderAreas(); if (listShown) renderList(); if (payPage?.open) payPage.check(); });
  map.addEventListener('show', e => {
    const wasOpen = show.onSale !== false;
    show = e.detail.show;
    renderLegend();
    if (show.onSale === false || !wasOpen) renderSalesState();
    if (show.onSale !== false && !wasOpen) showMessage('', 'none');
  });
  let wasOffline = false;
  map.addEventListener('connection', e => {
    const c = $('connection'), state = e.detail.state;
    c.hidden = false;
    c.dataset.state = state;
    c.textContent = state === 'live' ? t('live') : state === 'offline' ? t('offlineState') : t('reconnecting');
    // Offline, the buyer is told at once (a tap would not be held); back, the words go.
    if (state === 'offline') { wasOffline = true; showMessage(t('offlineNow')); }
    if (state === 'live' && wasOffline) { wasOffline = false; showMessage('', 'none'); announce(t('backOnline')); }
  });
  $('wheelchair').addEventListener('change', () => { picker.wheelchair = $('wheelchair').checked; });

  // General-admission areas (a standing floor, a box, a party's room): a stepper each, beside the seats.
  // The buyer says how many; the server picks which places and keeps them with the seats, all or none.
  function renderAreas() {
    const areas = picker.areas();
    $('areas').hidden = areas.length === 0;
    if (areas.length === 0) return;
    const focused = document.activeElement?.closest?.('#areas li')?.dataset.area, which = document.activeElement?.dataset?.step;
    $('areas').replaceChildren(...areas.map(a => {
      // A whole area goes 0 ↔ 1 (the box), a party's room 0 ↔ min…max, a floor 0 … free + what it has.
      const step = n => {
        if (a.mode === 'whole') return n > 0 ? 1 : 0;
        if (a.mode === 'party') return n <= 0 ? 0 : Math.min(Math.max(n, a.min), a.max);
        return Math.max(0, n);
      };
      const most = a.mode === 'places' ? a.wanted + a.free : a.mode === 'whole' ? 1 : a.free === a.capacity || a.wanted > 0 ? a.max : 0;
      const set = n => { showMessage('', 'none'); picker.setPlaces(a.id, step(n)); };
      const down = el('button', { type: 'button', class: 'step', 'data-step': 'down', 'aria-label': t('fewerPlaces', a.name), disabled: a.wanted <= 0 }, '−');
      const up = el('button', { type: 'button', class: 'step', 'data-step': 'up', 'aria-label': t('morePlaces', a.name), disabled: a.wanted >= most }, '+');
      down.addEventListener('click', () => set(a.mode === 'party' && a.wanted <= a.min ? 0 : a.wanted - 1));
      up.addEventListener('click', () => set(a.mode === 'party' && a.wanted === 0 ? a.min : a.wanted + 1));
      const left = a.mode === 'places' ? t('placesLeft', a.free) : a.free === a.capacity || a.wanted > 0 ? t(a.mode === 'whole' ? 'wholeArea' : 'partyArea', a.min, a.max) : t('areaTaken');
      return el('li', { class: 'area', 'data-area': a.id },
        el('span', { class: 'area-name' }, a.name, el('small', {}, [a.price, left].filter(Boolean).join(' · '))),
        el('span', { class: 'stepper', role: 'group', 'aria-label': a.name }, down,
          el('output', { class: 'step-count', 'aria-live': 'polite', 'aria-label': t('placesWanted', a.name, a.wanted) }, String(a.wanted)), up));
    }));
    if (focused) $('areas').querySelector(`li[data-area="${CSS.escape(focused)}"] [data-step="${which}"]`)?.focus();
  }
  // The area tapped on the map: one place asked for (a box or a party's room: itself), its stepper focused.
  map.addEventListener('areatap', e => {
    const a = picker.areas().find(x => x.id === e.detail.area);
    if (!a) return;
    if (a.wanted === 0 && (a.mode === 'places' ? a.free > 0 : a.free === a.capacity)) picker.setPlaces(a.id, a.mode === 'party' ? a.min : 1);
    $('areas').querySelector(`li[data-area="${CSS.escape(a.id)}"] [data-step="up"]`)?.focus();
  });

  function renderSelection() {
    const venue = picker.venue, prices = picker.prices;
    renderAreas();
    // Each chosen seat a chip with its own remove button (one seat out of a hold, without starting over);
    // an area's places are its stepper's.
    $('selection').replaceChildren(...[...session.desired].filter(id => !session.areaOf(id)).map(id => {
      const i = picker.indexOf(id), name = picker.nameOf(id);
      const remove = el('button', { type: 'button', class: 'chip-remove', 'aria-label': t('remove', name) }, '×');
      remove.addEventListener('click', () => { showMessage('', 'none'); session.toggle(id); });
      return el('li', { class: 'chip', 'data-seat': id, title: i === undefined ? id : [name, venue.details(i, prices)].join(venue.separator) },
        el('span', {}, name), remove);
    }));
    const settled = session.settled;
    const hold = session.hold;
    const wanted = session.desired.size + [...session.placeWants.values()].reduce((n, k) => n + k, 0);
    $('total').textContent = wanted === 0 ? '–' : settled ? `${symbol(hold.currency)}${hold.total}` : '…';
    $('total').dataset.settled = String(Boolean(settled));
    $('confirm').disabled = !settled;
    $('extend').disabled = !settled || hold.extended;
    $('release').disabled = session.desired.size === 0 && !session.token;
    renderCountdown();
    renderSeatView();
    if (listShown) renderList();
  }

  // A mouse resting on a seat for a moment, or a finger pressed on one (`seatpress`, the long press that
  // also starts a drag selection): a card by it with its name, status, zone and price (its spoken label,
  // less the name) and the view from it. A pressed seat's card stays 2.5 s after the finger lifts.
  const views = new Map();
  const viewOf = id => {
    const path = `/v1/venues/${encodeURIComponent(show.venueId)}/views/${encodeURIComponent(id)}`;
    if (!views.has(`${id}|${lang()}`)) views.set(`${id}|${lang()}`, request('GET', `${path}?lang=${lang()}`, { cache: 'default', retry: false }).catch(() => null));
    return { path, view: views.get(`${id}|${lang()}`) };
  };
  let hovered = null, hoverTimer = null;
  const hideCard = () => { clearTimeout(hoverTimer); hovered = null; $('seat-card').hidden = true; };
  let pressedAt = null, liftTimer = null;
  map.addEventListener('seatpress', e => {
    hideCard();
    hovered = e.detail.id;
    pressedAt = { x: e.detail.x, y: e.detail.y };
    showCard(e.detail.id);
  });
  map.addEventListener('pointerup', e => {
    if (e.pointerType === 'mouse' || !pressedAt) return;
    pressedAt = null;
    clearTimeout(liftTimer);
    liftTimer = setTimeout(hideCard, 2500);
  });
  map.addEventListener('pointermove', e => {
    // A finger drifting a few points from where it pressed keeps the card; a drag across seats hides it.
    if (e.pointerType !== 'mouse' && pressedAt && Math.hypot(e.clientX - pressedAt.x, e.clientY - pressedAt.y) < 12) return;
    if (e.pointerType !== 'mouse' || e.buttons || !map.ready || map.view.level !== 'seats') { hideCard(); return; }
    const id = map.seatAt(e.clientX, e.clientY);
    if (id === hovered) return;
    hideCard();
    hovered = id;
    if (id) hoverTimer = setTimeout(() => showCard(id), 250);
  });
  // A finger lifting also leaves the map (pointerleave): a pressed seat's card stays its moment then.
  map.addEventListener('pointerleave', e => { if (e.pointerType === 'mouse') hideCard(); });
  map.addEventListener('pointerdown', () => { clearTimeout(liftTimer); pressedAt = null; hideCard(); });
  map.addEventListener('wheel', hideCard, { passive: true });
  async function showCard(id) {
    const seat = map.seat(id);
    if (!seat || hovered !== id) return;
    const card = $('seat-card'), frame = card.parentElement.getBoundingClientRect();
    $('seat-card-name').textContent = seat.name;
    $('seat-card-details').textContent = seat.label.startsWith(seat.name) ? seat.label.slice(seat.name.length).replace(/^[，,、\s]+/, '') : seat.label;
    const { path, view } = viewOf(id);
    $('seat-card-view').hidden = true;
    $('seat-card-verdict').textContent = '';
    // Beside the seat, inside the map's frame.
    card.hidden = false;
    const x = Math.min(seat.rect.right - frame.left + 8, frame.width - card.offsetWidth - 8);
    const y = Math.min(Math.max(seat.rect.top - frame.top - 8, 8), frame.height - card.offsetHeight - 8);
    card.style.left = `${Math.max(8, x)}px`; card.style.top = `${y}px`;
    const v = await view;
    if (hovered !== id || !v) return;
    $('seat-card-view').src = `${path}.svg?lang=${lang()}`;
    $('seat-card-view').hidden = false;
    $('seat-card-verdict').textContent = v.words;
    card.dataset.verdict = v.verdict;
  }

  /// The view from the seat chosen last: the engine's picture and its verdict, in the page's language.
  let viewShown = '';
  async function renderSeatView() {
    const last = [...session.desired].at(-1);
    const figure = $('seat-view');
    if (!last) { figure.hidden = true; viewShown = ''; return; }
    const key = `${last}|${lang()}`;
    if (key === viewShown) return;
    viewShown = key;
    const path = `/v1/venues/${encodeURIComponent(show.venueId)}/views/${encodeURIComponent(last)}`;
    try {
      const view = await request('GET', `${path}?lang=${lang()}`, { cache: 'default', retry: false });
      if (viewShown !== key) return;
      $('seat-view-picture').src = `${path}.svg?lang=${lang()}`;
      $('seat-view-words').textContent = t('seatView', picker.nameOf(last), view.words, Math.round(view.viewingAngle));
      figure.dataset.verdict = view.verdict;
      figure.hidden = false;
    } catch { figure.hidden = true; /* a venue without a screen on its plan: no view to show */ }
  }

  function renderCountdown() {
    const left = session.remaining();
    if (left === null) { $('countdown').textContent = '–'; return; }
    const s = Math.max(0, Math.floor(left / 1000));
    $('countdown').textContent = `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  }

  function renderLegend() {
    const venue = picker.venue;
    const swatch = color => el('span', { class: 'swatch', 'aria-hidden': 'true', 'data-color': color });
    $('legend').setAttribute('aria-label', t('legend'));
    // Each status as the map draws it: its colour and its glyph (the engine's shapes); on a phone a
    // one-line copy sits right above the map, in view while seats are picked.
    $('legend').replaceChildren(...statusLegend(venue));
    $('map-legend').setAttribute('aria-label', t('legend'));
    $('map-legend').replaceChildren(...statusLegend(venue));
    // One line a zone in a cinema; an arena's many sections are summed up by price category.
    const zones = picker.prices.zones;
    const lines = zones.length <= 8 ? zones.map(z => ({ key: z.id, name: z.name, color: z.color, price: z.price }))
      : [...Map.groupBy(zones, z => z.category)].map(([category, group]) => ({
          key: category, color: group[0].color, price: [...new Set(group.map(z => z.price))].join(' / '),
          name: `${t('categoryName', category)} (${group.length})` }));
    $('zone-prices').replaceChildren(...lines.map(z => el('li', { 'data-zone': z.key }, swatch(z.color), `${z.name} `, el('strong', {}, z.price ?? ''))));
    // On a phone the prices are in the line above the map too (the panel's list is below the fold).
    if (lines.length <= 6) $('map-legend').append(...lines.map(z => el('li', { class: 'legend-price', 'data-zone': z.key }, swatch(z.color), el('strong', {}, z.price ?? ''))));
    for (const s of document.querySelectorAll('.swatch[data-color]')) s.style.background = s.dataset.color;
    // The film or event when the show names one, with its format; else the hall.
    const title = detailText(show, 'title') ?? venue.title;
    $('show-title').textContent = `${title} · ${showTime(show.startsAt).day} ${showTime(show.startsAt).time}`;
    const poster = show.details?.poster;
    $('show-poster').hidden = !poster;
    if (poster && $('show-poster').getAttribute('src') !== poster) $('show-poster').src = poster;
    // A partner's page says whose seats these are: its allocation only (the rest of the hall is not for sale here).
    $('show-meta').textContent = [filmMeta(show), detailText(show, 'hall') ?? venue.title, picker.channel ? t('channelPage') : null].filter(Boolean).join(' · ');
    $('summary-title').textContent = title;
    // On a phone the show's head folds into this line: the partner's page says so here too.
    if (picker.channel) $('summary-title').append(el('span', { class: 'channel-badge' }, t('channelBadge')));
    const hall = detailText(show, 'hall') ?? venue.title;
    $('summary-when').textContent = [`${showTime(show.startsAt).day} ${showTime(show.startsAt).time}`, hall !== title ? hall : null].filter(Boolean).join(' · ');
    document.title = `${title} · ${t('appTitle')}`;
  }

  // The list mode: zone → row → runs of free seats, each seat a button (the engine's free-seat list).
  let listTimer;
  function renderList() {
    clearTimeout(listTimer);
    listTimer = setTimeout(async () => {
      const data = await api.freeSeats(showId, lang());
      const seatButton = id => {
        const i = picker.indexOf(id);
        const b = el('button', { type: 'button', 'aria-pressed': String(session.desired.has(id)), 'data-seat': id,
                                 'aria-label': i === undefined ? id : view.label(i) }, i === undefined ? id : picker.venue.numbers[i]);
        b.addEventListener('click', () => picker.toggle(id));
        return b;
      };
      const selectedNotFree = [...session.desired].filter(id => view.statusOf(picker.indexOf(id)) !== 'available');
      $('list-mode').replaceChildren(
        selectedNotFree.length ? el('p', {}, t('yourSeats'), ' ', ...selectedNotFree.map(seatButton)) : null,
        ...data.zones.map(z => el('section', { class: 'list-zone' }, el('h3', {}, z.name),
          ...z.rows.map(r => el('div', { class: 'list-row', role: 'group', 'aria-label': r.summary }, el('h4', {}, r.summary),
            ...r.runs.map(run => el('p', { class: 'run' }, el('span', {}, run.text), ' ', ...run.seats.map(seatButton))))))));
    }, 150);
  }

  // Sales close when the show starts, while the manager pauses them and for good when it is
  // cancelled (the server refuses new holds): say so up front, and again when it changes live.
  function renderSalesState() {
    if (show.onSale === false) showMessage(t(show.cancelledAt ? 'cancelled' : show.salesSwitch === false ? 'salesPaused' : 'salesClosed'), 'info');
    // Sold out when it opens: said at once, with the way on (no seat on the map will answer a tap).
    else if (show.seats?.available === 0 && !session.desired.size) showMessage(t('soldOutShow'), 'info');
    for (const b of $('best-form').querySelectorAll('button, input')) b.disabled = show.onSale === false;
  }

  renderLegend();
  renderSelection();
  renderSalesState();
  // The strip of the film's other times after the map: the same film in any hall (a hall's other films
  // are other films), one keyboard stop. A show without a title keeps its hall's times.
  const renderStrip = () => {
    $('show-strip').replaceChildren(...stripOf(sameFilm, showId).children);
    roveWithArrows($('show-strip'));
  };
  renderStrip();
  showsLoaded.then(shows => {
    const film = s => detailText(s, 'title') ?? detailText(s, 'film');
    sameFilm = shows.filter(s => (film(show) ? film(s) === film(show) : s.venueId === show.venueId)).sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    renderStrip();
  }, () => {});

  $('zoom-in').addEventListener('click', () => view.zoomTo(view.zoom * 1.5));
  $('zoom-out').addEventListener('click', () => view.zoomTo(view.zoom / 1.5));
  // The minimap: shown on a desktop, folded away on a phone until asked for.
  const minimap = picker.parts.minimap;
  const showOverview = shown => {
    minimap.toggleAttribute('hidden', !shown);
    $('minimap-toggle').setAttribute('aria-pressed', String(shown));
    if (shown) view.renderMinimap(true);
  };
  showOverview(!matchMedia('(max-width: 52rem)').matches);
  // A phone's folded header: the show's times, film and tools open under it, and fold again.
  $('show-summary').addEventListener('click', () => {
    const open = $('show-summary').getAttribute('aria-expanded') !== 'true';
    $('show-summary').setAttribute('aria-expanded', String(open));
    $('show-page').classList.toggle('expanded', open);
  });
  $('minimap-toggle').addEventListener('click', () => showOverview(minimap.hasAttribute('hidden')));
  // The list mode lists the public's free seats: not a partner's allocation.
  $('list-toggle').hidden = picker.channel;
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
      view.zoomToSeats(best.seats.map(id => picker.indexOf(id)).filter(i => i !== undefined));
    } catch (error) {
      if (error instanceof ApiProblem && error.status === 409) showMessage(t('nothingTogether', count)); else picker.explain(error, []);
    }
  });
  $('release').addEventListener('click', () => { showMessage('', 'none'); session.release(); });
  $('extend').addEventListener('click', async () => { await session.extend(); announce(t('extended')); });
  // What is being bought, as the Pay step and the receipt write it.
  const whenText = () => `${showTime(show.startsAt).day} ${showTime(show.startsAt).time}`;
  const holdTotal = () => (session.hold?.total ? `${symbol(session.hold.currency)}${session.hold.total}` : $('total').textContent);
  // A partner's page: its buyers pay the partner, so the hold is confirmed here, never paid.
  const { providers } = picker.channel ? { providers: [] } : await optionsLoaded;
  payPage = providers.length === 0 ? null : new PayPage({
    showId, session, options: providers, phone: () => matchMedia('(max-width: 52rem), (pointer: coarse)').matches,
    summary: () => ({ title: detailText(show, 'title') ?? picker.venue.title, when: [whenText(), detailText(show, 'hall')].filter(Boolean).join(' · '),
                      seats: picker.names([...session.held]), total: holdTotal() }),
    onPaid: (done, summary) => {
      session.clear();
      showReceipt(done, summary.seats, summary.total);
    },
    onBack: () => renderSelection(),
  });
  if (payPage) {
    $('confirm').dataset.i18n = 'payButton';
    $('confirm').textContent = t('payButton');
    // A hold being paid for (back from the provider's page, a reload, another tab): the Pay step again.
    map.addEventListener('hold', e => { if (e.detail.hold?.state === 'paying' && !payPage.open) setTimeout(() => payPage.show()); });
    // Back from the provider's page (the hold may be sold already), or a reload while paying.
    if (session.hold?.state === 'paying' || keptPayment(showId)) payPage.show();
  }
  // A show with a waitlist (候补): the line for returned seats, its place, and an offer taken up as this page's hold.
  if (show.details?.waitlist && !picker.channel) {
    const categories = [...new Map(picker.prices.zones.map(z => [z.category, z.price])).entries()]
      .map(([id, price]) => ({ id, label: `${t('categoryName', id)} ${price ?? ''}`.trim() }));
    new WaitlistCard({
      showId, session, categories, maxSeats: show.policy.maxSeats, names: ids => picker.names(ids), say: showMessage,
      prepay: Boolean(show.details.waitlist.prepay), providers: providers.filter(p => p.provider !== 'stripe'),
      phone: () => matchMedia('(max-width: 52rem), (pointer: coarse)').matches,
    });
  }
  /// Paying (or, with no provider, buying at once) once the seats are chosen and named.
  async function buy() {
    if (payPage) { showMessage('', 'none'); payPage.show(); return; }
    const names = picker.names([...session.held]);
    const total = $('total').textContent;
    const done = await session.confirm();
    if (done) showReceipt(done, names, total);
  }
  // A real-name show: who goes comes first (the attendees step), then paying.
  const mode = realNameMode(show.details);
  const who = mode ? new AttendeesStep({
    session, mode, seats: () => [...session.held].sort(), names: ids => picker.names(ids), onDone: buy, onBack: () => renderSelection(),
    summary: () => ({ title: detailText(show, 'title') ?? picker.venue.title, when: [whenText(), detailText(show, 'hall')].filter(Boolean).join(' · ') }),
  }) : null;
  $('confirm').addEventListener('click', () => (who ? who.show() : buy()));
  /// The receipt is the page: a ticket stub (done, the film, the hall and time, the seats, the total, the
  /// order), the way to the order's own page (tickets, a change of showing or a refund) and the calendar.
  function showReceipt(done, names, total) {
    const when = whenText();
    const what = [detailText(show, 'title'), detailText(show, 'hall') ?? picker.venue.title].filter(Boolean).join(' · ');
    const text = t('receipt', done.orderRef, what, when, names, total);
    const order = `/orders/${encodeURIComponent(done.orderRef)}?code=${encodeURIComponent(done.token)}`;
    const calendar = `/v1/orders/${encodeURIComponent(done.orderRef)}/calendar.ics?code=${encodeURIComponent(done.token)}&lang=${lang()}`;
    const line = (cls, content) => el('p', { class: cls }, content);
    $('receipt').replaceChildren(
      line('stub-done', t('purchased')), detailText(show, 'title') ? line('stub-film', detailText(show, 'title')) : '',
      line('stub-when', [detailText(show, 'hall') ?? picker.venue.title, when].filter(Boolean).join(' · ')),
      line('stub-seats', names), line('stub-total', `${t('total')} ${total}`), line('stub-order', t('orderLine', done.orderRef)),
      el('div', { class: 'stub-actions' }, el('a', { class: 'order-link', href: order }, t('viewOrder')),
        el('a', { class: 'order-link', href: calendar, download: `${done.orderRef}.ics` }, t('addToCalendar'))));
    showMessage('', 'none');
    // The receipt is the page now: the map, its legend and the dead buy bar go (on a phone the success
    // card sat under the map below a greyed "确认购买" bar, its QR codes half off screen).
    $('receipt-slot').replaceChildren($('receipt'), $('tickets'));
    $('show-page').hidden = true;
    $('receipt-page').hidden = false;
    window.scrollTo(0, 0);
    announce(text);
    // The focus on the result, not the page's top: a keyboard or screen-reader user reads it next.
    $('receipt').focus();
    showTickets(done.token);
  }
  /// The tickets of the purchase: a QR code a seat, what the door scans.
  async function showTickets(token) {
    try {
      const { tickets } = await api.tickets(token);
      $('tickets').replaceChildren(...tickets.filter(k => k.code).map(k => {
        const figure = document.createElement('figure');
        const img = Object.assign(document.createElement('img'), { src: `/v1/tickets/${k.code}.svg`, alt: t('ticketAlt', k.seat), width: 148, height: 148 });
        const caption = document.createElement('figcaption');
        caption.textContent = picker.names([k.seat]);
        figure.append(img, caption);
        return figure;
      }));
      $('tickets').hidden = false;
    } catch { /* the receipt stands without them; the order's tickets stay at the box office */ }
  }
  $('language').onclick = async () => {
    setLanguage(lang() === 'zh' ? 'en' : 'zh');
    if (payPage?.open) payPage.show();
    renderStrip();
    await picker.load();
    picker.salesState();
    renderLegend();
    renderSelection();
    if (listShown) $('list-toggle').textContent = t('mapMode');
  };
}
