// The door at /door (docs/DOOR.md): a door operator signs in, chooses the shows this gate admits and
// its name, then scans. A keyboard-wedge scanner types the code and Enter into the focused field; the
// answer fills the panel green or red with the seat and why, with a sound, and the field is ready for
// the next code at once. When the server cannot be reached the page decides by itself
// (js/door-offline.js: the show's public key and revoked tickets, kept from when it was online), keeps
// the scans, and uploads them when the server answers again, listing the conflicts.

import { api, randomKey, request, ApiProblem } from './api.js';
import { afterScan, decideOffline, upload } from './door-offline.js';
import { w } from './door-words.js';
import { lang, localName, setLanguage, showTime } from './i18n.js';
import { $, detailText } from './ui.js';

const KEY = 'seatkit.doorKey';
const stored = (name, fallback) => { try { return JSON.parse(localStorage.getItem(`seatkit.door.${name}`)) ?? fallback; } catch { return fallback; } };
const store = (name, value) => localStorage.setItem(`seatkit.door.${name}`, JSON.stringify(value));

/// The page's state, owned by its one thread: who is signed in, the gate's shows and their issuers,
/// the tickets this scanner let in, the scans waiting to be uploaded, the conflicts found.
const state = {
  operator: null, gate: stored('gate', ''), shows: stored('shows', []), issuers: stored('issuers', {}),
  known: stored('known', []), titles: stored('titles', {}), inside: new Set(stored('inside', [])), queue: stored('queue', []), conflicts: stored('conflicts', []), online: true, scans: 0, timer: null,
  // The ticket waiting for its attendee's document; the documents of scans queued offline, by nonce, kept in
  // memory only (never in localStorage: a reload uploads those scans without them, and the server lists them).
  pending: null, documents: new Map(),
};

/// A scan's time as the gate's clock shows it (the browser's time zone), from the server's ISO time.
const clock = iso => new Date(iso).toLocaleTimeString(lang() === 'zh' ? 'zh-CN' : 'en-GB', { hour12: false });

/// The session's CSRF token when a person signed in with their name and password (the cookie is HttpOnly).
const CSRF = 'seatkit.doorCsrf';
/// Who the door's calls are from: the key of this tab, else the session's cookie with its token.
const credentials = () => sessionStorage.getItem(KEY)
  ? { Authorization: `Bearer ${sessionStorage.getItem(KEY)}` } : { 'X-CSRF-Token': sessionStorage.getItem(CSRF) ?? '' };
const call = (method, path, body) => request(method, path, { body, retry: false, headers: credentials() });

function applyWords() {
  document.documentElement.lang = lang() === 'zh' ? 'zh-CN' : 'en';
  for (const el of document.querySelectorAll('[data-d]')) el.textContent = w(el.dataset.d);
  $('gate').placeholder = w('gatePlaceholder');
  $('id-number').placeholder = '110105…';
  $('language').textContent = lang() === 'zh' ? 'EN' : '中文';
  $('language').setAttribute('lang', lang() === 'zh' ? 'en' : 'zh-CN');
  $('language').setAttribute('aria-label', lang() === 'zh' ? 'Switch to English' : '切换到中文');
  document.title = w('title');
  if (state.operator) $('who').textContent = state.operator.name;
  renderNetwork();
  renderConflicts();
}

function renderNetwork() {
  const n = $('network');
  n.dataset.state = state.online ? 'online' : 'offline';
  n.textContent = (state.online ? w('online') : w('offline')) + (state.queue.length ? ` · ${w('queued', state.queue.length)}` : '');
}

function renderConflicts() {
  $('conflicts-box').hidden = state.conflicts.length === 0;
  $('conflicts').replaceChildren(...state.conflicts.map(c => {
    const li = document.createElement('li');
    li.textContent = w('conflict', c.seat, w(c.result) ?? c.result) + (c.earlier ? ` — ${w('earlier', clock(c.earlier.at), c.earlier.gate, c.earlier.operator)}` : '');
    return li;
  }));
}

// — Signing in —

/// Signs in with a key (`candidate`), or with the session cookie a password sign-in set (`candidate` null).
async function signIn(candidate) {
  if (candidate) sessionStorage.setItem(KEY, candidate);
  try {
    const me = await call('GET', '/v1/operators/me');
    if (!me.may.includes('scan')) throw new ApiProblem(403, { title: 'forbidden' });
    state.operator = me;
  } catch (error) {
    sessionStorage.removeItem(KEY);
    if (candidate) $('sign-in-message').textContent = error instanceof ApiProblem && error.status === 401 ? w('wrongKey') : (error.message || w('wrongKey'));
    return false;
  }
  $('sign-in').hidden = true; $('sign-out').hidden = false;
  $('who').textContent = state.operator.name;
  if (state.gate && state.shows.length && new URLSearchParams(location.search).get('setup') !== '1') await startScanning();
  else await showSetup();
  return true;
}

// — The gate's shows and name —

async function showSetup() {
  $('scanner').hidden = true; $('setup').hidden = false;
  $('gate').value = state.gate;
  let shows = [];
  try { shows = await call('GET', '/v1/shows'); } catch { /* offline: the shows chosen before */ }
  // Today's and later shows, soonest first; those that started more than four hours ago are over.
  const from = Date.now() - 4 * 3600_000;
  const listed = shows.filter(s => Date.parse(s.startsAt) > from).sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt)).slice(0, 50);
  if (listed.length) {
    state.known = listed.map(s => s.id); store('known', state.known);
    state.titles = Object.fromEntries(listed.map(s => [s.id, `${localName(detailText(s, 'title') ?? s.venueId)} ${showTime(s.startsAt).time}`]));
    store('titles', state.titles);
  }
  $('show-list').replaceChildren(...(listed.length ? listed.map(s => {
    const label = document.createElement('label');
    const box = Object.assign(document.createElement('input'), { type: 'checkbox', value: s.id, checked: state.shows.includes(s.id) });
    const name = document.createElement('span');
    // The film and its hall, as staff know the showing (two showings of a film differ by hall or time).
    name.textContent = [detailText(s, 'title'), detailText(s, 'hall')].filter(Boolean).map(localName).join(' · ') || s.id;
    const when = document.createElement('span');
    const t = showTime(s.startsAt);
    when.className = 'when'; when.textContent = `${t.day} ${t.time}`;
    label.append(box, name, when);
    return label;
  }) : [Object.assign(document.createElement('p'), { textContent: w('noShows') })]));
  $('gate').focus();
}

async function saveSetup(event) {
  event.preventDefault();
  const chosen = [...document.querySelectorAll('#show-list input:checked')].map(b => b.value);
  const gate = $('gate').value.trim();
  if (!chosen.length || !gate) { $('setup-message').textContent = w('showsLabel'); return; }
  state.gate = gate; state.shows = chosen;
  store('gate', gate); store('shows', chosen);
  $('setup-message').textContent = '';
  await startScanning();
}

/// The public key and revoked tickets of each show of the day (the gate's and the others, to tell their
/// real tickets from forged ones), kept for offline scans; refreshed every minute.
async function refreshIssuers() {
  for (const show of new Set([...state.shows, ...state.known])) {
    try {
      const issuer = await call('GET', `/v1/shows/${encodeURIComponent(show)}/issuer`);
      state.issuers[show] = { publicKey: issuer.publicKey, revoked: issuer.revoked, doorKey: issuer.doorKey ?? null };
    } catch { return; }
  }
  store('issuers', state.issuers);
}

async function startScanning() {
  $('setup').hidden = true; $('scanner').hidden = false;
  $('gate-name').textContent = [state.gate, ...state.shows.map(s => state.titles[s] ?? s)].join(' · ');
  await refreshIssuers();
  refreshCounts();
  clearInterval(state.timer);
  state.timer = setInterval(tick, 5000);
  $('code').focus();
}

async function refreshCounts() {
  try {
    const all = await Promise.all(state.shows.map(s => call('GET', `/v1/shows/${encodeURIComponent(s)}/checkin`)));
    $('counts').textContent = w('inside', all.reduce((n, c) => n + c.inside, 0));
  } catch { /* offline: the last count stays */ }
}

// — Scanning —

function beep(ok) {
  try {
    const audio = beep.context ??= new AudioContext();
    const tones = ok ? [[880, 0]] : [[220, 0], [220, 0.2]];
    for (const [hz, at] of tones) {
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = hz; g.gain.value = 0.2;
      o.connect(g).connect(audio.destination);
      o.start(audio.currentTime + at); o.stop(audio.currentTime + at + 0.15);
    }
  } catch { /* no sound device */ }
}

/// Why, in the page's language: the server's reason word (the offline check gives the same words);
/// its English sentence only for what has no word (a refused request).
export function detailOf(answer) {
  if (answer.result === 'already_in' && answer.earlier) return w('earlier', clock(answer.earlier.at), answer.earlier.gate, answer.earlier.operator);
  const words = answer.reason ? w('reasons')[answer.reason] : undefined;
  if (typeof words === 'function') return words(answer.reason === 'tooEarly' ? clock(answer.opensAt) : state.titles[answer.showId]);
  if (words) return words;
  return answer.result !== 'ok' && answer.detail ? answer.detail : '';
}

function show(answer, ms) {
  const panel = $('answer');
  panel.dataset.result = answer.result;
  $('answer-word').textContent = w(answer.result) ?? answer.result;
  $('answer-seat').textContent = answer.seat ? w('seat', answer.seat, answer.row, answer.number) : '';
  $('answer-attendee').textContent = answer.attendee ? w('attendee', answer.attendee) : '';
  $('answer-detail').textContent = detailOf(answer);
  let detail = $('answer-detail').textContent;
  if (answer.offline) detail = [detail, w('offlineNote')].filter(Boolean).join(' · ');
  $('answer-detail').textContent = detail;
  state.scans += 1;
  panel.dataset.scans = String(state.scans);
  panel.dataset.ms = String(Math.round(ms));
  beep(answer.ok);
  // A real-name ticket waits for its attendee's document: the ID field takes the next keystrokes.
  const needsDocument = answer.result === 'id_required' || answer.result === 'wrong_person';
  $('document').hidden = !needsDocument;
  if (needsDocument) $('id-number').focus(); else state.pending = null;
}

/// One scan to the server within `timeout` ms (a gate cannot wait: past it the page decides offline).
/// A refusal (4xx) is a red answer; a server error or no answer throws, and the scan is decided offline.
async function post(scan, timeout = 3000) {
  const body = { code: scan.code, gate: scan.gate, direction: scan.direction, nonce: scan.nonce, shows: scan.shows };
  const idNumber = scan.idNumber ?? state.documents.get(scan.nonce);
  if (idNumber) body.idNumber = idNumber;
  try {
    return await api.checkIn(body, credentials(), timeout);
  } catch (error) {
    if (error instanceof ApiProblem && error.status < 500) return { result: 'invalid', ok: false, detail: error.problem.detail ?? `HTTP ${error.status}` };
    throw error;
  }
}

function setOnline(online) {
  if (state.online === online) return;
  state.online = online;
  renderNetwork();
}

async function scan(event) {
  event.preventDefault();
  const input = $('code'), code = input.value.trim();
  input.value = '';
  input.focus();
  if (!code) return;
  const direction = document.querySelector('input[name="direction"]:checked').value;
  state.pending = { code, direction };
  await check(code, direction, null);
}

/// The attendee's document for the ticket just scanned: the same code again, with the number.
async function checkDocument(event) {
  event.preventDefault();
  const input = $('id-number'), idNumber = input.value.trim();
  input.value = '';
  if (!idNumber || !state.pending) return;
  await check(state.pending.code, state.pending.direction, idNumber);
}

async function check(code, direction, idNumber) {
  const started = performance.now();
  const entry = { code, gate: state.gate, direction, nonce: `door-${randomKey()}`, shows: state.shows, at: new Date().toISOString(), idNumber };
  let answer;
  try {
    if (!state.online && state.queue.length) throw new Error('offline');
    answer = await post(entry);
    setOnline(true);
  } catch {
    setOnline(false);
    answer = await decideOffline(code, { shows: state.shows, issuers: state.issuers, inside: state.inside, direction, document: idNumber });
    if (answer.ok) {
      const { idNumber: number, ...kept } = entry;
      if (number) state.documents.set(entry.nonce, number);
      state.queue.push({ ...kept, offlineResult: 'ok' });
      store('queue', state.queue);
      renderNetwork();
    }
  }
  state.inside = afterScan(state.inside, answer, direction);
  store('inside', [...state.inside]);
  show(answer, performance.now() - started);
  if (state.online) refreshCounts();
}

/// Every 5 s: the queue uploaded when the server answers again, the issuers refreshed every minute.
async function tick() {
  if (state.queue.length) {
    const { left, conflicts } = await upload(state.queue, entry => post(entry));
    for (const sent of state.queue.slice(0, state.queue.length - left.length)) state.documents.delete(sent.nonce);
    state.queue = left;
    store('queue', left);
    setOnline(left.length === 0);
    if (conflicts.length) {
      state.conflicts.push(...conflicts.map(c => ({ seat: c.server.seat, result: c.server.result, earlier: c.server.earlier })));
      store('conflicts', state.conflicts);
      renderConflicts();
    }
    renderNetwork();
    if (!left.length) refreshCounts();
  } else if (!state.online) {
    try { await call('GET', '/healthz'); setOnline(true); } catch { /* still offline */ }
  }
  if ((tick.count = (tick.count ?? 0) + 1) % 12 === 0 && state.online) refreshIssuers();
}

// — Wiring —

$('sign-in').addEventListener('submit', async event => {
  event.preventDefault();
  $('sign-in-message').textContent = '';
  if ($('key').value) { await signIn($('key').value); $('key').value = ''; return; }
  const name = $('sign-name').value.trim(), password = $('sign-password').value, code = $('sign-code').value.trim();
  if (!name || !password) { $('sign-in-message').textContent = w('nameAndPassword'); return; }
  try {
    const session = await request('POST', '/v1/sessions', { body: { name, password, ...(code ? { code } : {}) }, retry: false });
    sessionStorage.setItem(CSRF, session.csrf);
    $('sign-password').value = ''; $('sign-code').value = '';
    await signIn(null);
  } catch (error) {
    const type = error instanceof ApiProblem ? error.problem.type : '';
    if (type === '/problems/code-required') { $('code-row').hidden = false; $('sign-code').focus(); }
    if (type === '/problems/sign-in-failed') $('sign-password').value = '';
    $('sign-in-message').textContent = type === '/problems/code-required' ? w('codeNeeded')
      : type === '/problems/sign-in-failed' ? w('wrongPassword')
      : error instanceof ApiProblem && error.status === 429 ? w('signInSlowed', error.problem.retryAfter ?? 1) : (error.message || w('wrongPassword'));
  }
});
$('setup').addEventListener('submit', saveSetup);
$('scan').addEventListener('submit', scan);
$('document').addEventListener('submit', checkDocument);
$('change').onclick = () => { clearInterval(state.timer); showSetup(); };
$('sign-out').onclick = async () => {
  if (!sessionStorage.getItem(KEY)) await call('DELETE', '/v1/sessions/current').catch(() => {});
  sessionStorage.removeItem(KEY); sessionStorage.removeItem(CSRF);
  location.reload();
};
$('language').onclick = () => { setLanguage(lang() === 'zh' ? 'en' : 'zh'); applyWords(); };
window.addEventListener('online', tick);
// A scanner's keystrokes go to the code field whatever was clicked last.
document.addEventListener('keydown', event => {
  if ($('scanner').hidden || event.target === $('code') || event.target.tagName === 'INPUT' || event.ctrlKey || event.metaKey) return;
  if (!$('document').hidden) { if (event.key.length === 1) $('id-number').focus(); return; }
  if (event.key.length === 1) $('code').focus();
});
applyWords();
// A key of this tab, else a session cookie still alive (a reload): signed in again without asking.
signIn(sessionStorage.getItem(KEY)).then(ok => { if (!ok) $('sign-name').focus(); });
