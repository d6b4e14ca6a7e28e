// The operator console at /console (docs/CONSOLE.md), its entry: sign in with an operator's key (kept
// for this tab only), the schedule board, then the show desk (console-desk.js) with its prices
// (console-prices.js), heat map (console-heat.js), side lists (console-side.js) and reports
// (console-reports.js). Everything comes from the public v1 API with the operator's key; every action
// reaches every buyer's map in the same instant (one version, one event).

import { ApiProblem, request } from './api.js';
import { ScheduleBoard } from './board.js';
import { $, CSRF, KEY, call, key, money, problemWords, say, state } from './console-common.js';
import { bindStaff, renderStaff } from './console-staff.js';
import { bindDesk, bindShortcuts, listShows, openDesk, openShow, renderMarked } from './console-desk.js';
import { bindHeat } from './console-heat.js';
import { bindPrices } from './console-prices.js';
import { bindQueue } from './console-queue.js';
import { bindReports } from './console-reports.js';
import { bindMoney, renderPaymentsReport, renderWebhooks } from './console-money.js';
import { bindShows, newShowAt, remember, renderShowActions } from './console-shows.js';
import { bindToday, renderToday } from './console-today.js';
import { refreshSide } from './console-side.js';
import { refreshChannels, renderSeasons, wirePartners } from './console-partners.js';
import { w } from './console-words.js';
import { lang, localName, setLanguage, showTime } from './i18n.js';
import { detailText } from './ui.js';
import './element.js';

function applyWords() {
  document.documentElement.lang = lang() === 'zh' ? 'zh-CN' : 'en';
  for (const el of document.querySelectorAll('[data-c]')) el.textContent = w(el.dataset.c);
  for (const el of document.querySelectorAll('[data-c-label]')) el.setAttribute('aria-label', w(el.dataset.cLabel));
  for (const el of document.querySelectorAll('[data-c-payment]')) el.textContent = w('payments')[el.dataset.cPayment];
  $('language').textContent = lang() === 'zh' ? 'EN' : '中文';
  $('language').setAttribute('lang', lang() === 'zh' ? 'en' : 'zh');
  document.title = w('title');
  if (state.operator) $('who').textContent = w('signedIn', state.operator.name, state.operator.role);
}

// — Signing in and out —

/// Signs in with a key (`candidate`), or with the session cookie already set (`candidate` null): who it
/// is, then the console for them.
async function signIn(candidate) {
  if (candidate) sessionStorage.setItem(KEY, candidate);
  try {
    state.operator = await call('GET', '/v1/operators/me');
    // The door scans tickets and nothing else: the box office's console has nothing for it.
    if (!state.operator.may.includes('block')) {
      await forget();
      say('sign-in-message', w('doorOnly'));
      return false;
    }
  } catch (error) {
    sessionStorage.removeItem(KEY);
    state.operator = null;
    if (candidate) say('sign-in-message', error instanceof ApiProblem && error.status === 401 ? w('wrongKey') : problemWords(error));
    return false;
  }
  $('sign-in').hidden = true; $('sign-out').hidden = false;
  $('who').textContent = w('signedIn', state.operator.name, state.operator.role);
  $('schedule').hidden = false;
  const query = new URLSearchParams(location.search);
  if (query.get('day')) $('board-view').value = 'day';
  if (!$('board-from').value) $('board-from').value = query.get('day') ?? query.get('week') ?? new Date().toISOString().slice(0, 10);
  $('board-actions').hidden = !state.operator.may.includes('shows');
  $('money').hidden = false;
  $('staff').hidden = !state.operator.may.includes('staff');
  await Promise.all([openDesk(), renderBoard(), renderToday(), renderPaymentsReport(), renderWebhooks(), renderStaff()]);
  return true;
}

/// A person's name and password (and one-time code): the server sets the session's cookie; its CSRF
/// token is kept for this tab.
async function signInWithPassword(name, password, code) {
  try {
    const session = await request('POST', '/v1/sessions', { body: { name, password, ...(code ? { code } : {}) }, retry: false });
    sessionStorage.setItem(CSRF, session.csrf);
    $('sign-password').value = ''; $('sign-code').value = ''; $('code-row').hidden = true;
    return signIn(null);
  } catch (error) {
    const type = error instanceof ApiProblem ? error.problem.type : '';
    if (type === '/problems/code-required') {
      $('code-row').hidden = false; $('sign-code').focus();
      say('sign-in-message', w('codeNeeded'));
    } else if (type === '/problems/sign-in-failed') {
      $('sign-password').value = ''; $('sign-code').value = '';
      $('sign-password').focus();
      say('sign-in-message', w('wrongPassword'));
    } else if (error instanceof ApiProblem && error.status === 429) {
      say('sign-in-message', w(type === '/problems/sign-in-locked' ? 'signInLocked' : 'signInSlowed', error.problem.retryAfter ?? 1));
    } else {
      say('sign-in-message', problemWords(error));
    }
    return false;
  }
}

/// The key or the session forgotten (the session ended on the server too).
async function forget() {
  if (!key()) await call('DELETE', '/v1/sessions/current').catch(() => {});
  sessionStorage.removeItem(KEY); sessionStorage.removeItem(CSRF);
  state.operator = null;
}

async function signOut() {
  await forget();
  location.reload();
}

// — The schedule board —

let board = null;

/// The board's days as shown (seven from the chosen date, or the one day).
function boardDays() {
  const length = $('board-view').value === 'day' ? 1 : 7, start = new Date(`${$('board-from').value}T00:00:00Z`);
  return [...Array(length).keys()].map(k => new Date(start.getTime() + k * 86_400_000).toISOString().slice(0, 10));
}


/// The board from the chosen day: the week (every hall, seven days) or the day (every hall, the day's
/// hours), each show's counts and net revenue, refreshed every three seconds while signed in (the counts
/// are the server's live ones).
async function renderBoard() {
  if (!board) {
    board = new ScheduleBoard($('board'), {
      onOpen: id => { $('show').value = id; openShow(id); $('desk').scrollIntoView({ behavior: 'instant', block: 'start' }); },
      onEmpty: newShowAt,
      words: {},
    });
    setInterval(() => renderBoard(), 3000);
  }
  Object.assign(board.words, {
    corner: w('corner'), dayCorner: d => w('dayCorner', d), day: d => showTime(`${d}T00:00`).day,
    show: (time, seats, net, s) => w('boardShow', time, seats, net, s && (detailText(s, 'title') ?? detailText(s, 'film'))),
    timedShow: (from, to, s, net, overlaps) => w('timedShow', from, to, detailText(s, 'title') ?? detailText(s, 'film') ?? s.id, s.seats, net, overlaps),
  });
  const view = $('board-view').value, from = $('board-from').value, days = boardDays();
  $('board-from-label').textContent = w(view === 'day' ? 'dayOf' : 'weekOf');
  $('copy-to-label').textContent = w(view === 'day' ? 'copyDayTo' : 'copyWeekTo');
  $('board').setAttribute('aria-label', w(view === 'day' ? 'dayLabel' : 'boardLabel'));
  const to = new Date(Date.parse(`${days.at(-1)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  try {
    // As the operator: a cinema's staff get their cinema's halls and shows only.
    const [venues, shows, sales] = await Promise.all([
      call('GET', '/v1/venues'), call('GET', '/v1/shows'), call('GET', `/v1/reports/sales?from=${from}&to=${to}`),
    ]);
    state.halls = new Map(venues.map(v => [v.id, v.name]));
    listShows(shows);
    // A reply for a choice since changed is dropped: the newer one is on its way.
    if (view !== $('board-view').value || from !== $('board-from').value) return;
    const halls = venues.map(v => ({ id: v.id, name: localName(v.name) }))
      .sort((a, b) => a.id.localeCompare(b.id));
    remember(shows, halls);
    const revenue = new Map(sales.shows.map(s => [s.showId, s.net === '0.00' ? '' : money(s.net, s.currency)]));
    board.setData({ view, halls, days, shows: shows.filter(s => days.includes(s.startsAt.slice(0, 10))), revenue });
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

async function main() {
  applyWords();
  $('language').onclick = () => { setLanguage(lang() === 'zh' ? 'en' : 'zh'); applyWords(); renderMarked(); refreshSide(); refreshChannels(); renderSeasons().catch(() => {}); if (board) renderBoard(); renderToday(); };
  $('sign-out').onclick = signOut;
  $('sign-in').addEventListener('submit', async e => {
    e.preventDefault();
    const candidate = $('key').value.trim();
    $('key').value = '';
    say('sign-in-message', '');
    if (candidate) await signIn(candidate);
    else if ($('sign-name').value.trim() && $('sign-password').value) {
      await signInWithPassword($('sign-name').value.trim(), $('sign-password').value, $('sign-code').value.trim());
    } else say('sign-in-message', w('nameAndPassword'));
  });
  bindDesk();
  wirePartners();
  bindPrices();
  bindQueue();
  bindHeat();
  bindReports();
  bindMoney();
  bindShortcuts();
  bindShows({ days: boardDays });
  bindToday();
  bindStaff();
  // A show made, changed, paused or cancelled: the board, the desk's list and its buttons at once.
  document.addEventListener('shows-changed', async () => {
    await renderBoard();
    if (state.showId) renderShowActions(await call('GET', `/v1/shows/${encodeURIComponent(state.showId)}`));
  });
  $('board-from').addEventListener('change', () => renderBoard());
  $('board-view').addEventListener('change', () => renderBoard());
  // A key of this tab, else a session cookie still alive (a reload): signed in again without asking.
  await signIn(key());
}

main();
