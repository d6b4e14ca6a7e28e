// The waiting room's page (docs/API.md, Waiting room). When a show's sale has a room, a buyer who opens
// the show lands in it: the place, the people ahead, an honest wait, a progress bar, all live from the
// place's event stream; screen readers hear the milestones; the map opens by itself when the buyer is
// let in. The entry and the admission are kept for the tab (sessionStorage), so a reload keeps the place.

import { api, ApiProblem, serverNow, setAdmission } from './api.js';
import { showTime, t } from './i18n.js';
import { $, announce, detailText, el } from './ui.js';
import { admissionMinutesLeft, countdownText, isNewer, onClockOf, progressPercent, speaksAt } from './queue-place.js';
import { DOCUMENT_TYPES, idCardProblem } from './attendee-pick.js';
import { aw } from './attendee-words.js';
import { solve } from './proof-of-work.js';

const storageKey = showId => `seatkit.queue.${showId}`;
// The tab keeps its entry; a draw's registration is kept for the browser too (registrants close the page
// and come back for the result, maybe in another tab).
const parse = text => { try { return JSON.parse(text || 'null') ?? {}; } catch { return {}; } };
const saved = showId => {
  const tab = parse(sessionStorage.getItem(storageKey(showId)));
  return tab.entry ? tab : parse(localStorage.getItem(storageKey(showId)));
};
const save = (showId, value, keep = false) => {
  sessionStorage.setItem(storageKey(showId), JSON.stringify(value));
  if (keep) localStorage.setItem(storageKey(showId), JSON.stringify(value)); else localStorage.removeItem(storageKey(showId));
};
const slugOf = error => (error.problem?.type ?? '').split('/').pop();

/// Resolves when the buyer may pick seats: the show has no room (or it was switched off), or the
/// buyer was let in (the admission then goes with every hold). Meanwhile the room's page is shown.
export async function waitingRoom(showId) {
  const kept = saved(showId);
  if (kept.admission && Date.parse(kept.until) > Date.now() + 5000) { setAdmission(showId, kept.admission); return; }
  let place = null;
  if (kept.entry) {
    try { place = await api.queuePlace(kept.entry); } catch (error) { if (!(error instanceof ApiProblem && error.status === 404)) throw error; }
  }
  if (place && (place.state === 'left' || (place.state === 'admitted' && !place.admission && !place.queueOff))) place = null;
  /** @type {Record<string, string>} */
  const join = {};
  let passRefused = false;
  // A priority lane's pass comes in the link the fan club sent (…/shows/{id}?pass=lp1.…).
  const pass = new URLSearchParams(location.search).get('pass');
  if (pass) join.lanePass = pass;
  while (!place) {
    try {
      place = await api.joinQueue(showId, join);
    } catch (error) {
      const slug = error instanceof ApiProblem ? slugOf(error) : '';
      // No room (or it is off, or the show cannot sell: the map says why): buy as before.
      if (['no-queue', 'queue-off', 'show-started', 'show-cancelled', 'not-found'].includes(slug)) { setAdmission(showId, null); return; }
      if (['queue-not-yet', 'sold-out', 'too-many-entries', 'too-many-from-network', 'id-in-line', 'registration-closed', 'lane-pass-used'].includes(slug)) {
        closedRoom(showId, slug, error.problem);
        return new Promise(() => {});
      }
      // A pass that is not this room's: the public line, said once the place is shown.
      if (slug === 'lane-pass-invalid' || slug === 'no-lane') { delete join.lanePass; passRefused = true; continue; }
      // The room asks a proof of work (or the one given lapsed): solve a fresh challenge, then join with it.
      if (slug.startsWith('proof-of-work')) { Object.assign(join, await proveWork(showId)); continue; }
      // A real-name show: the buyer's document (again, with the server's word on it, when it was refused).
      const onDocument = slug === 'identity-required' || (join.idNumber && /id(Type|Number)/.test(error.problem?.detail ?? ''));
      if (onDocument) { Object.assign(join, await askDocument(showId, slug === 'identity-required' ? '' : error.problem.detail)); continue; }
      // The line takes so many arrivals a second: join again when it says, a little apart from the others.
      if (slug === 'queue-busy') { await new Promise(r => setTimeout(r, (error.problem.retryAfter ?? 1) * 1000 + Math.random() * 500)); continue; }
      throw error;
    }
    save(showId, { entry: place.entry }, Boolean(place.drawAt));
  }
  if (passRefused) announce(t('queuePassRefused'));
  return new Promise(resolve => room(showId, saved(showId).entry, place, resolve, passRefused));
}

/// The room's page for one entry, live until the buyer is let in (then `done`).
function room(showId, entry, first, done, passRefused = false) {
  $('queue-page').hidden = false;
  $('show-page').hidden = true;
  fillShow(showId);
  let start = null, stream = null, lastAhead = null, finished = false, opensAt = null, shown = null;
  // Before the opening the big figure counts down to it, second by second (the server's clock).
  const countdown = () => countdownText((opensAt - serverNow()) / 1000);
  const clock = iso => showTime(localIso(Date.parse(iso))).time;
  const ticker = setInterval(() => {
    if (finished) { clearInterval(ticker); return; }
    if (opensAt !== null) $('queue-position').textContent = countdown();
  }, 1000);
  const update = place => {
    if (finished || !isNewer(place, shown)) return;
    shown = place.revision ?? shown;
    render(place);
    if (place.state === 'admitted' || place.queueOff) {
      finished = true;
      stream?.close();
      if (place.admission) save(showId, { entry, admission: place.admission, until: place.admittedUntil });
      setAdmission(showId, place.admission ?? null);
      announce($('queue-note').textContent);
      // A moment to read "it's your turn" and how long the admission lasts, then the map.
      setTimeout(() => { $('queue-page').hidden = true; done(); }, place.queueOff ? 1200 : 3000);
    } else if (place.state === 'soldOut' || place.state === 'left' || place.state === 'notDrawn') {
      finished = true;
      stream?.close();
      announce($('queue-note').textContent);
    }
  };
  const render = place => {
    // A draw: registered (counting down to the draw), drawn (counting down to the slot), or not drawn.
    const registered = place.state === 'early' && Boolean(place.drawAt), drawn = place.state === 'waiting' && Boolean(place.slotAt);
    const waiting = place.state === 'waiting' && !drawn, early = place.state === 'early' || drawn;
    $('queue-page').dataset.state = place.queueOff ? 'off' : place.state;
    $('queue-title').textContent = t(registered ? 'queueRegisteredTitle' : drawn ? 'queueWonTitle' : place.state === 'early' ? 'queueEarlyTitle'
      : place.state === 'admitted' || place.queueOff ? 'queueAdmittedTitle' : place.state === 'soldOut' ? 'queueSoldOutTitle'
      : place.state === 'left' ? 'queueLeftTitle' : place.state === 'notDrawn' ? 'queueNotDrawnTitle' : 'queueTitle');
    const target = registered ? place.drawAt : drawn ? place.slotAt : place.opensAt;
    opensAt = early && target ? Date.parse(target) : null;
    $('queue-position').textContent = waiting ? String(place.position) : early ? countdown() : '–';
    $('queue-position-line').hidden = !waiting && !early;
    $('queue-position-label').textContent = t(registered ? 'queueDrawIn' : drawn ? 'queueSlotIn' : early ? 'queueOpensIn' : 'queuePosition');
    if (waiting && start === null) start = place.ahead;
    $('queue-progress').value = progressPercent(place, start);
    $('queue-progress').hidden = early || place.state === 'notDrawn';
    $('queue-progress-label').hidden = early || place.state === 'notDrawn';
    $('queue-progress').setAttribute('aria-valuetext', waiting ? t('queueAhead', place.ahead) : '');
    $('queue-ahead').textContent = waiting ? t('queueAhead', place.ahead) : early && !registered && !drawn ? t('queueShuffled') : '';
    // The lane the buyer waits in (a fan club's), or why the pass did not count.
    $('queue-lane').textContent = place.lane ? t('queueLane', place.lane) : passRefused ? t('queuePassRefused') : '';
    $('queue-eta').textContent = waiting || (early && !registered && !drawn) ? t('queueEta', place.etaSeconds ?? 0) : '';
    $('queue-note').textContent = place.state === 'admitted' && !place.queueOff && place.admittedUntil
      ? t('queueAdmittedFor', admissionMinutesLeft(place.admittedUntil, serverNow()), clock(place.admittedUntil))
      : registered ? t('queueRegistered', clock(place.drawAt)) : drawn ? t('queueSlot', clock(place.slotAt))
      : place.state === 'notDrawn' ? t('queueNotDrawn', clock(place.opensAt))
      : t(place.state === 'soldOut' ? 'queueSoldOut' : place.state === 'left' ? 'queueLeft'
        : place.state === 'admitted' || place.queueOff ? (place.queueOff ? 'queueOff' : 'queueAdmitted') : 'queueKeepOpen');
    $('queue-rejoin').hidden = place.state !== 'left';
    $('queue-others').hidden = place.state !== 'soldOut' && place.state !== 'notDrawn';
    // Milestones, said once each: the first place after opening, then 1,000, 500, 100, 50 and 10 ahead.
    if (waiting) {
      if (speaksAt(place.ahead, lastAhead)) announce(t('queueNow', place.position, place.ahead));
      lastAhead = place.ahead;
    }
  };
  $('queue-rejoin').onclick = () => { sessionStorage.removeItem(storageKey(showId)); location.reload(); };
  update(first);
  if (finished) return;
  // Live: the place's event stream (it also keeps the place); a poll every 5 s while it reconnects.
  stream = new EventSource(`/v1/queue/${encodeURIComponent(entry)}/events${shown ? `?after=${shown}` : ''}`);
  stream.addEventListener('place', e => update(JSON.parse(e.data)));
  const poll = setInterval(async () => {
    if (finished) { clearInterval(poll); return; }
    if (stream.readyState === EventSource.OPEN) return;
    try { update(await api.queuePlace(entry, shown)); } catch { /* the stream or the next poll will tell */ }
  }, 5000);
}

/// A room the buyer cannot join now: before its early window, sold out, or too many places from here.
function closedRoom(showId, slug, problem) {
  $('queue-page').hidden = false;
  $('show-page').hidden = true;
  $('queue-page').dataset.state = slug;
  fillShow(showId);
  $('queue-position-line').hidden = true;
  $('queue-progress').hidden = true;
  $('queue-identity').hidden = true;
  $('queue-title').textContent = t(slug === 'sold-out' ? 'queueSoldOutTitle' : slug === 'queue-not-yet' ? 'queueEarlyTitle'
    : slug === 'registration-closed' ? 'queueRegistrationClosedTitle' : slug === 'id-in-line' ? 'queueIdentityTitle' : 'queueTitle');
  const at = instant => instant ? `${showTime(localIso(instant)).day} ${showTime(localIso(instant)).time}` : '';
  $('queue-note').textContent = slug === 'sold-out' ? t('queueSoldOut') : slug === 'queue-not-yet' ? t('queueNotYet', at(problem.joinsFrom))
    : slug === 'registration-closed' ? t('queueRegistrationClosed', at(problem.opensAt)) : slug === 'id-in-line' ? t('queueIdInLine')
    : slug === 'lane-pass-used' ? t('queuePassUsed') : t('queueTooMany');
  $('queue-others').hidden = slug !== 'sold-out' && slug !== 'registration-closed';
  announce($('queue-note').textContent);
}

/// The room's page while a proof of work is found: a challenge from the server, solved in slices.
async function proveWork(showId) {
  showRoom(showId);
  $('queue-title').textContent = t('queueTitle');
  $('queue-note').textContent = t('queueProving');
  $('queue-page').dataset.state = 'proving';
  announce(t('queueProving'));
  const { challenge, bits } = await api.queueChallenge(showId);
  const solution = await solve(challenge, bits);
  return { challenge, solution };
}

/// A real-name show's room: the buyer's document, checked as typed (an ID card's check digit) and then by
/// the server (`problem`: its word on the last one given). Resolves with `{idType, idNumber}`.
function askDocument(showId, problem) {
  showRoom(showId);
  $('queue-page').dataset.state = 'identity';
  $('queue-title').textContent = t('queueIdentityTitle');
  $('queue-note').textContent = '';
  const form = /** @type {HTMLFormElement} */ ($('queue-identity'));
  const type = /** @type {HTMLSelectElement} */ ($('queue-id-type')), number = /** @type {HTMLInputElement} */ ($('queue-id-number'));
  if (!type.options.length) type.replaceChildren(...DOCUMENT_TYPES.map(k => el('option', { value: k }, aw('types')[k])));
  form.hidden = false;
  const say = text => {
    $('queue-id-problem').textContent = text;
    number.setAttribute('aria-invalid', text ? 'true' : 'false');
  };
  say(problem ? problem.replace(/^idNumber: |^idType: /, '') : '');
  number.focus();
  return new Promise(resolve => {
    form.onsubmit = event => {
      event.preventDefault();
      const text = number.value.trim();
      if (!text) { say(t('queueIdNeeded')); number.focus(); return; }
      const wrong = type.value === 'idCard' ? idCardProblem(text) : null;
      if (wrong) {
        const words = aw('problems')[wrong.problem];
        say(typeof words === 'function' ? words(wrong.expected) : words);
        number.focus();
        return;
      }
      say('');
      form.hidden = true;
      resolve({ idType: type.value, idNumber: text });
    };
  });
}

/// The room's card shown, the map hidden, the show named.
function showRoom(showId) {
  $('queue-page').hidden = false;
  $('show-page').hidden = true;
  $('queue-position-line').hidden = true;
  $('queue-progress').hidden = true;
  $('queue-progress-label').hidden = true;
  fillShow(showId);
}

/// The show's start as written (its clock: the room's instants are shown on it, beside it).
let showStart = null;

/// An instant on the clock the show's start is written in (the venue's), or this browser's before the
/// show is known: a deadline reads on the same clock as the start printed above it.
const localIso = instant => onClockOf(instant, showStart);

/// The show the room is for: title, time, hall.
async function fillShow(showId) {
  try {
    const show = await api.show(showId);
    showStart = show.startsAt;
    const when = showTime(show.startsAt);
    $('queue-show').replaceChildren(el('strong', {}, detailText(show, 'title') ?? showId), ` · ${when.day} ${when.time}`,
      detailText(show, 'hall') ? ` · ${detailText(show, 'hall')}` : '');
  } catch { /* the room works without it */ }
}
