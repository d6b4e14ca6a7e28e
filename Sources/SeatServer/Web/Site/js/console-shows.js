// A manager's shows (docs/CONSOLE.md, "Running the week"): a new show from the board (a click on an
// empty stretch of a hall, or "New show"), the desk's show edited, paused, resumed or cancelled, and
// the board's days copied to another week or day. Everything goes through the v1 API; the server
// refuses a show that runs into another of its hall (`schedule-clash`), and the refusal is said here
// in words with the show it clashes with.

import { ApiProblem } from './api.js';
import { $, announce, call, categoryName, problemWords, say, state } from './console-common.js';
import { w } from './console-words.js';
import { lang, showTime } from './i18n.js';
import { detailText } from './ui.js';

/// Minutes a hall needs between shows: the server's `Inventory.turnaroundMinutes`, said in the form.
const TURNAROUND = 15;

/// The shows and halls the board last drew (`remember`), and the show the editor is changing (null: new).
const known = { shows: [], halls: [] };
let editing = null;

export function remember(shows, halls) { Object.assign(known, { shows, halls }); }

const mayEditShows = () => state.operator?.may.includes('shows');
const titleOf = s => detailText(s, 'title') ?? detailText(s, 'film') ?? s.id;
const when = s => { const t = showTime(s.startsAt); return `${t.day} ${t.time}`; };

/// `2099-12-01T19:30:00+08:00` moved by `days` whole days, its time and offset as written.
export function shiftedStart(startsAt, days) {
  const d = new Date(`${startsAt.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10) + startsAt.slice(10);
}

/// A show's id from its hall and start (`cinema-hall-3-20991201-1930`), at most 64 characters.
export function showIdFor(hall, startsAt) {
  const stamp = `${startsAt.slice(0, 10).replaceAll('-', '')}-${startsAt.slice(11, 13)}${startsAt.slice(14, 16)}`;
  return `${hall.slice(0, 64 - stamp.length - 1)}-${stamp}`;
}

/// A refusal in words; a clash names the hall's other show by its film and time.
function refusal(error) {
  if (error instanceof ApiProblem && error.problem?.type === '/problems/show-on-sale') return w('moveHint');
  if (error instanceof ApiProblem && error.problem?.type === '/problems/schedule-clash') {
    const m = /has show (\S+) from (\S+) for (\d+) minutes/.exec(error.problem.detail ?? '');
    const other = m && known.shows.find(s => s.id === m[1]);
    if (m) return w('clash', other ? titleOf(other) : m[1], other ? when(other) : m[2].slice(11, 16), m[3], TURNAROUND);
  }
  return problemWords(error);
}

/// The venue's time offset as its shows write it (`+08:00`), from any of its shows; else the browser's.
function offsetOf(hall) {
  const s = known.shows.find(x => x.venueId === hall) ?? known.shows[0];
  if (s) return s.startsAt.slice(19).replace(/^\.\d+/, '') || 'Z';
  const m = -new Date().getTimezoneOffset(), a = Math.abs(m);
  return `${m < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/// A hall's latest show that is not cancelled: its film, prices, rules and hold time start a new one.
const latestShow = hall => known.shows.filter(s => s.venueId === hall && !s.cancelledAt).sort((a, b) => b.startsAt.localeCompare(a.startsAt))[0];

/// Each hall's zones, read once (a venue's layout never changes; the 100,000-seat arena's is 5 MB).
const zonesOf = new Map();

/// The price categories of a hall, each with the price of its latest show (empty for a hall not yet used).
async function categoriesOf(hall) {
  const latest = latestShow(hall);
  if (!zonesOf.has(hall)) zonesOf.set(hall, call('GET', `/v1/venues/${encodeURIComponent(hall)}`).then(layout => layout.zones ?? []));
  const zones = await zonesOf.get(hall);
  const ids = [...new Set(zones.map(z => z.category))];
  return { latest, categories: ids.map(id => ({ id, name: categoryName(id, zones), price: latest?.prices?.categories?.[id] ?? '' })) };
}

/// The start a new show of `hall` on `day` is offered (minutes after midnight): after the hall's last
/// show of that day (not cancelled), its running time (120 minutes when not given) and its cleaning,
/// rounded up to 5 minutes and no later than 23:55; 10:00 when the day is empty.
export function firstFreeMinute(shows, hall, day) {
  const last = shows.filter(s => s.venueId === hall && s.startsAt.startsWith(day) && !s.cancelledAt)
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt)).pop();
  const end = last ? Number(last.startsAt.slice(11, 13)) * 60 + Number(last.startsAt.slice(14, 16)) + (last.details?.duration ?? 120) + TURNAROUND : 10 * 60;
  return Math.min(Math.ceil(end / 5) * 5, 23 * 60 + 55);
}

/// A new show in an empty stretch of the board: at the clicked time (the day), or at the hall's first
/// free start that day (the week's cell: `firstFreeMinute`).
export function newShowAt({ hall, day, minute }) {
  if (!mayEditShows()) return;
  openEditor({ hall, day, minute: minute ?? firstFreeMinute(known.shows, hall, day) });
}

/// Opens the editor for a new show in `hall` on `day` at `minute` (minutes after midnight), or for `show`.
async function openEditor({ hall, day, minute, show } = {}) {
  if (!mayEditShows()) return;
  editing = show ?? null;
  const form = $('editor-form');
  form.reset();
  say('editor-message', '');
  $('editor-title').textContent = w(show ? 'editShow' : 'newShow');
  $('editor-hall').replaceChildren(...known.halls.map(h => Object.assign(document.createElement('option'), { value: h.id, textContent: h.name })));
  $('editor-hall').disabled = !!show;
  if (show) {
    $('editor-hall').value = show.venueId;
    $('editor-date').value = show.startsAt.slice(0, 10);
    $('editor-time').value = show.startsAt.slice(11, 16);
    const title = show.details?.title;
    $('editor-title-zh').value = typeof title === 'string' ? title : title?.zh ?? '';
    $('editor-title-en').value = typeof title === 'string' ? '' : title?.en ?? '';
    $('editor-duration').value = show.details?.duration ?? '';
    $('editor-prices').hidden = true;
    $('editor-repeat').hidden = $('editor-repeat-label').hidden = true;
    $('editor-note').textContent = `${w('newNote', TURNAROUND)} ${w('editNote')}`;
  } else {
    $('editor-hall').value = hall ?? known.halls[0]?.id ?? '';
    $('editor-date').value = day ?? $('board-from').value;
    const m = minute ?? 10 * 60;
    $('editor-time').value = `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    $('editor-prices').hidden = false;
    $('editor-repeat').hidden = $('editor-repeat-label').hidden = false;
    $('editor-note').textContent = w('newNote', TURNAROUND);
    await fillPrices();
  }
  $('show-editor').showModal();
  (show ? $('editor-time') : $('editor-title-zh')).focus();
}

/// The hall's categories as price fields, each at the price of the hall's latest show. The film is the
/// manager's to choose (it was pre-filled with the hall's last film): the films already shown are offered.
async function fillPrices() {
  const { latest, categories } = await categoriesOf($('editor-hall').value);
  const box = $('editor-prices');
  box.replaceChildren(box.querySelector('legend'), ...categories.flatMap(c => {
    const id = `editor-price-${c.id}`;
    const label = Object.assign(document.createElement('label'), { htmlFor: id, textContent: c.name });
    const input = Object.assign(document.createElement('input'), { id, required: true, inputMode: 'decimal', pattern: '[0-9]+([.][0-9]{1,2})?', value: c.price });
    input.dataset.category = c.id;
    return [label, input];
  }));
  const films = [...new Set(known.shows.map(s => filmTitle(s)?.zh).filter(Boolean))].sort((a, b) => a.localeCompare(b, 'zh'));
  $('editor-films').replaceChildren(...films.map(f => Object.assign(document.createElement('option'), { value: f })));
  $('editor-title-zh').oninput = () => {
    const film = filmShow($('editor-title-zh').value.trim());
    if (!film) return;
    $('editor-title-en').value = filmTitle(film)?.en ?? '';
    $('editor-duration').value = film.details?.duration ?? '';
  };
}

/// A show's title as {zh, en} (a plain string is both).
const filmTitle = s => { const t = s.details?.title; return typeof t === 'string' ? { zh: t, en: '' } : t; };

/// The latest show of the film titled `zh` (its Chinese title), whose details a new show carries.
const filmShow = zh => known.shows.filter(s => filmTitle(s)?.zh === zh).sort((a, b) => b.startsAt.localeCompare(a.startsAt))[0];

/// A hall's name as a show's `details.hall`: "3号厅 Hall 3" as {zh, en}, a one-language name as it is.
function hallDetail(hall) {
  const name = known.halls.find(h => h.id === hall)?.name ?? hall, i = name.indexOf(' ');
  return i > 0 && /[\u2E80-\uFFFF]/.test(name.slice(0, i)) ? { zh: name.slice(0, i), en: name.slice(i + 1) } : name;
}

/// What the editor's fields say, as a start and details (the show's other details kept).
function editorFields(base) {
  const hall = $('editor-hall').value;
  const startsAt = `${$('editor-date').value}T${$('editor-time').value}:00${offsetOf(hall)}`;
  const zh = $('editor-title-zh').value.trim(), en = $('editor-title-en').value.trim();
  // A new show carries its film's details (poster, format, language, what buyers are told) and its hall's
  // name: one made here had none, so the buyer's film card went blank and the door listed identical rows.
  const film = base ? null : filmShow(zh);
  const carried = film ? Object.fromEntries(Object.entries(film.details ?? {}).filter(([k]) => !['hall', 'title', 'duration'].includes(k))) : {};
  const details = { ...carried, ...(base?.details ?? {}), title: en ? { zh, en } : zh, duration: Number($('editor-duration').value) };
  if (!details.hall) details.hall = hallDetail(hall);
  return { hall, startsAt, details };
}

async function saveEditor() {
  const { hall, startsAt, details } = editorFields(editing);
  try {
    if (editing) {
      await call('PATCH', `/v1/shows/${encodeURIComponent(editing.id)}`, { startsAt, details });
      done('editor-message', w('saved'));
    } else {
      const latest = latestShow(hall);
      const categories = Object.fromEntries([...$('editor-prices').querySelectorAll('input')].map(i => [i.dataset.category, i.value.trim()]));
      const body = { id: showIdFor(hall, startsAt), venueId: hall, startsAt, details, prices: { categories, ...(latest ? { currency: latest.prices.currency } : {}) } };
      if (latest) Object.assign(body, { policy: latest.policy, holdSeconds: latest.holdSeconds });
      // The first day must go in (its refusal is the form's); the days after are copies of it, each
      // refused one said with its reason on the board.
      await call('POST', '/v1/shows', body);
      const repeat = Math.max(1, Math.min(31, Number($('editor-repeat').value) || 1));
      const refused = [];
      for (let k = 1; k < repeat; k++) {
        const later = shiftedStart(startsAt, k);
        try { await call('POST', '/v1/shows', { ...body, id: showIdFor(hall, later), startsAt: later }); } catch (error) { refused.push(`${showTime(later).day}: ${refusal(error)}`); }
      }
      const made = w(repeat > 1 ? 'createdMany' : 'created', titleOf({ details }), when({ startsAt }), repeat - refused.length);
      done('board-message', refused.length ? `${made} ${w('copied', repeat - refused.length, refused)}` : made);
    }
    $('show-editor').close();
    document.dispatchEvent(new CustomEvent('shows-changed'));
  } catch (error) {
    say('editor-message', refusal(error));
  }
}

function done(box, text) { say(box, text, 'ok'); announce(text); }

/// The desk's show, for a manager: its state in a word and the buttons that fit it.
export function renderShowActions(show) {
  $('show-actions').hidden = !mayEditShows() || !show;
  if (!show || !mayEditShows()) return;
  const started = Date.parse(show.startsAt) <= Date.now();
  $('show-state').textContent = w(show.cancelledAt ? 'stateCancelled' : show.salesSwitch === false ? 'statePaused' : started ? 'stateStarted' : 'stateOnSale');
  $('show-state').dataset.state = show.cancelledAt ? 'cancelled' : show.salesSwitch === false ? 'paused' : 'on';
  $('pause-show').textContent = w(show.salesSwitch === false ? 'resumeShow' : 'pauseShow');
  for (const id of ['edit-show', 'pause-show', 'cancel-show']) $(id).disabled = !!show.cancelledAt;
  // Where it is kept, with shards only; it moves only off sale (the server checks it again, in the database).
  $('show-shard').hidden = $('move-show').hidden = !show.shard;
  $('show-shard').textContent = show.shard ? w('onShard', show.shard) : '';
  const offSale = !!show.cancelledAt || show.salesSwitch === false || started;
  $('move-show').disabled = !offSale;
  $('move-hint').textContent = offSale ? '' : w('moveHint');
  $('move-show').title = offSale ? '' : w('moveHint');
}

/// The move dialog: the other shards, each with its shows; one that cannot be reached is offered but
/// not chosen (the server would say 503).
async function openMove() {
  const show = await deskShow();
  const { shards } = await call('GET', '/v1/shards');
  const others = shards.filter(s => s.name !== show.shard);
  $('move-form').reset();
  say('move-message', others.some(s => s.up) ? '' : w('moveNowhere'));
  $('move-what').textContent = w('moveWhat', titleOf(show), when(show), show.shard);
  $('move-shard').replaceChildren(...others.map(s => Object.assign(document.createElement('option'), {
    value: s.name, disabled: !s.up, textContent: `${s.name} · ${w('shardShows', s.shows)}${s.up ? '' : ` · ${w('shardDown')}`}`,
  })));
  const first = others.find(s => s.up);
  if (first) $('move-shard').value = first.name;
  $('move-confirm').disabled = !first;
  $('move-dialog').showModal();
  $('move-shard').focus();
}

async function confirmMove() {
  try {
    const shard = $('move-shard').value;
    const after = await call('POST', `/v1/shows/${encodeURIComponent(state.showId)}/move`, { shard });
    $('move-dialog').close();
    renderShowActions(after);
    done('desk-message', w('moved', after.shard));
    document.dispatchEvent(new CustomEvent('shows-changed'));
  } catch (error) {
    say('move-message', refusal(error));
  }
}

async function deskShow() { return call('GET', `/v1/shows/${encodeURIComponent(state.showId)}`); }

async function togglePause() {
  try {
    const show = await deskShow();
    const paused = show.salesSwitch === false;
    const after = await call('PATCH', `/v1/shows/${encodeURIComponent(show.id)}`, { onSale: paused });
    renderShowActions(after);
    done('desk-message', w(paused ? 'resumed' : 'paused'));
    document.dispatchEvent(new CustomEvent('shows-changed'));
  } catch (error) {
    say('desk-message', refusal(error));
  }
}

async function openCancel() {
  const show = await deskShow();
  $('cancel-form').reset();
  say('cancel-message', '');
  $('cancel-what').textContent = w('cancelWhat', titleOf(show), when(show));
  $('cancel-dialog').showModal();
  $('cancel-reason').focus();
}

async function confirmCancel() {
  try {
    const answer = await call('POST', `/v1/shows/${encodeURIComponent(state.showId)}/cancel`, { reason: $('cancel-reason').value.trim() });
    $('cancel-dialog').close();
    done('desk-message', w('cancelled', answer.toRefund?.length ?? 0));
    renderShowActions(await deskShow());
    document.dispatchEvent(new CustomEvent('shows-changed'));
  } catch (error) {
    say('cancel-message', refusal(error));
  }
}

/// The board's days (the week or the day) copied to the days from `to`: each show at the same time with
/// the same film, prices, rules and hold time; each refused one said with its reason, the rest made.
export async function copyShows(days) {
  const to = $('copy-to').value;
  if (!to) { say('board-message', w('copyPick')); $('copy-to').focus(); return; }
  const offset = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${days[0]}T00:00:00Z`)) / 86_400_000);
  const shows = known.shows.filter(s => days.includes(s.startsAt.slice(0, 10)) && !s.cancelledAt);
  if (!shows.length || offset === 0) { say('board-message', w('copyNothing')); return; }
  let made = 0;
  const refused = [];
  for (const s of shows) {
    const startsAt = shiftedStart(s.startsAt, offset);
    const { currency, categories, adjustments } = s.prices;
    const body = { id: showIdFor(s.venueId, startsAt), venueId: s.venueId, startsAt, prices: { currency, categories, adjustments }, policy: s.policy, holdSeconds: s.holdSeconds, details: s.details };
    try {
      await call('POST', '/v1/shows', body);
      made += 1;
    } catch (error) {
      refused.push(`${titleOf(s)} ${showTime(startsAt).day} ${showTime(startsAt).time}: ${refusal(error)}`);
    }
  }
  done('board-message', w('copied', made, refused));
  document.dispatchEvent(new CustomEvent('shows-changed'));
}

export function bindShows({ days }) {
  $('new-show').addEventListener('click', () => openEditor({}));
  $('copy-shows').addEventListener('click', () => copyShows(days()));
  $('editor-hall').addEventListener('change', () => { if (!editing) fillPrices(); });
  $('editor-form').addEventListener('submit', e => { e.preventDefault(); saveEditor(); });
  $('editor-close').addEventListener('click', () => $('show-editor').close());
  $('edit-show').addEventListener('click', async () => openEditor({ show: await deskShow() }));
  $('pause-show').addEventListener('click', togglePause);
  $('cancel-show').addEventListener('click', openCancel);
  $('cancel-form').addEventListener('submit', e => { e.preventDefault(); confirmCancel(); });
  $('cancel-close').addEventListener('click', () => $('cancel-dialog').close());
  $('move-show').addEventListener('click', openMove);
  $('move-form').addEventListener('submit', e => { e.preventDefault(); confirmMove(); });
  $('move-close').addEventListener('click', () => $('move-dialog').close());
  document.documentElement.dataset.lang = lang();
}
