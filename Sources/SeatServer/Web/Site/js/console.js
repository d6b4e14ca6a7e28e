// The operator console at /console (docs/CONSOLE.md): sign in with an operator's key (kept for this tab
// only), then the show desk — the show's live map (the picker's `<seatkit-map>` in operator mode: taps
// and drags mark seats of any status) and what the box office does with the marked seats: block and
// return to sale, keep for guests, sell at the counter, refund; beside it the show's reservations and
// its recent changes from the log. Every action reaches every buyer's map in the same instant (one
// version, one event). Everything comes from the public v1 API with the operator's key.

import { ApiProblem, randomKey, request } from './api.js';
import { ScheduleBoard } from './board.js';
import { lang, localName, setLanguage, showTime } from './i18n.js';
import { detailText } from './ui.js';
import './element.js';

const $ = id => document.getElementById(id);
const KEY = 'seatkit.operatorKey';

const seats = n => (n === 1 ? '1 seat' : `${n} seats`);

const WORDS = {
  zh: {
    title: 'SeatKit 售票台', skip: '跳到内容', signInTitle: '登录', keyLabel: '操作员密钥', signIn: '登录', signOut: '退出',
    wrongKey: '这不是操作员的密钥，请检查后重试。', signedIn: (n, r) => `${n}（${r === 'manager' ? '经理' : '售票员'}）`,
    desk: '场次工作台', showLabel: '场次', deskHelp: '点击或拖动标记座位（任何状态），按住 Shift 拖出方框可框选，再选择下面的操作。方向键移动，空格标记。快捷键：B 锁座，U 恢复销售，K 预留，S 售票，R 退票，Esc 清除标记。',
    marked: '已标记座位', none: '未标记座位', reason: '原因', blockTitle: '锁座', block: '锁定', unblock: '恢复销售',
    keepTitle: '预留给来宾', guest: '来宾', releaseAt: '恢复销售时间', keep: '预留', sellTitle: '柜台售票', payment: '付款方式',
    orderRef: '订单号', sell: '售出', refundTitle: '退票', findOrder: '查找标记座位的订单', refund: '退标记的座位',
    reservations: '预留与锁座', recent: '最近变更', noneYet: '暂无', blocked: '锁座', house: '预留',
    done: {
      block: n => `已锁定 ${n} 个座位`, unblock: n => `${n} 个座位已恢复销售`, keep: n => `已为来宾预留 ${n} 个座位`,
      sell: (ref, total) => `已售出：订单 ${ref}，合计 ${total}`, refund: (ref, n) => (n === 'all' ? `订单 ${ref} 已全部退票` : `订单 ${ref} 已退 ${n} 个座位`),
    },
    markFirst: '请先在座位图上标记座位。', noReservation: '标记的座位不在任何预留或锁座中。', noOrder: '标记的座位不属于任何订单。',
    heatTitle: '热力图', heatShow: '在座位图上显示以往上座率', period: '时段（天）',
    heatCaption: (shows, days) => `过去 ${days} 天的 ${shows} 场演出中每个座位售出的比例`, heatNone: days => `过去 ${days} 天没有已结束的场次`,
    zoneAverage: (name, pct) => `${name}：${pct}`,
    schedule: '排片表', weekOf: '起始日期', dayOf: '日期', corner: '影厅 / 日期', boardLabel: '各厅每日场次（方向键滚动）',
    boardView: '视图', viewWeek: '一周（影厅 × 日期）', viewDay: '一天（影厅 × 时段）', dayLabel: '各厅当天时段（方向键滚动）',
    dayCorner: d => `影厅 / ${d.slice(5)}`,
    timedShow: (from, to, title, seats, net, overlaps) =>
      `${from}–${to} ${title}${overlaps ? ' ⚠与上一场重叠' : ''} · 空${seats.available}${seats.held ? ` 留${seats.held}` : ''} 售${seats.sold}${net ? ` · ${net}` : ''}`,
    boardShow: (time, seats, net) => `${time} · 空${seats.available}${seats.held ? ` 留${seats.held}` : ''} 售${seats.sold}${net ? ` · ${net}` : ''}`,
    reportsTitle: '报表', showReport: '本场', dayReport: '按日', refresh: '刷新', csv: '下载 CSV', from: '从', to: '到', show: '显示',
    status: '状态', seats: '座位', share: '占比', zone: '区域', available: '可售', held: '保留中', sold: '已售', blockedStatus: '锁定',
    revenue: '收入', gross: '总收入', refunded: '已退', net: '净收入', byCategory: '按类别', byChannel: '按渠道', byPayment: '按付款方式',
    date: '日期', shows: '场次', amount: '金额', seatsChart: '座位状态', netChart: '每日净收入', nothing: '没有数据',
    pricesTitle: '票价', category: '类别', now: '现价', new: '新价', preview: '预览', apply: '应用',
    previewText: (changes, free, held) => `${changes}。${free} 个可售座位按新价出售；已保留的 ${held} 个座位保持原价。`,
    noChange: '票价没有变化。', applied: rev => `新票价已生效（第 ${rev} 版），所有打开的选座页同时更新。`, badPrice: c => `${c} 的价格应为如 45.00 的金额`,
    forbidden: '你的角色不能做这件事。', failed: t => `操作失败：${t}`, offline: '无法连接服务器。',
  },
  en: {
    title: 'SeatKit console', skip: 'Skip to content', signInTitle: 'Sign in', keyLabel: 'Operator key', signIn: 'Sign in', signOut: 'Sign out',
    wrongKey: 'That is not an operator key. Check it and try again.', signedIn: (n, r) => `${n} (${r === 'manager' ? 'manager' : 'box office'})`,
    desk: 'Show desk', showLabel: 'Show', deskHelp: 'Click or drag to mark seats (of any status), or Shift and drag a box around them; then choose an action below. Arrow keys move, Space marks. Keys: B block, U return to sale, K keep, S sell, R refund, Esc clear the marks.',
    marked: 'Marked seats', none: 'No seats marked', reason: 'Reason', blockTitle: 'Block', block: 'Block', unblock: 'Return to sale',
    keepTitle: 'Keep for guests', guest: 'For', releaseAt: 'Back on sale', keep: 'Keep', sellTitle: 'Sell at the counter', payment: 'Payment',
    orderRef: 'Order', sell: 'Sell', refundTitle: 'Refund', findOrder: 'Order of the marked seat', refund: 'Refund marked seats',
    reservations: 'Reservations', recent: 'Recent changes', noneYet: 'None yet', blocked: 'blocked', house: 'kept',
    done: {
      block: n => `${seats(n)} blocked`, unblock: n => `${seats(n)} back on sale`, keep: n => `${seats(n)} kept for guests`,
      sell: (ref, total) => `Sold: order ${ref}, total ${total}`, refund: (ref, n) => (n === 'all' ? `Order ${ref} refunded` : `${seats(n)} of order ${ref} refunded`),
    },
    markFirst: 'Mark seats on the map first.', noReservation: 'None of the marked seats is blocked or kept.', noOrder: 'The marked seat is in no order.',
    heatTitle: 'Heat map', heatShow: 'Past occupancy over the map', period: 'Period (days)',
    heatCaption: (shows, days) => `Share of the ${shows} shows of the last ${days} days in which each seat sold`, heatNone: days => `No show ended in the last ${days} days`,
    zoneAverage: (name, pct) => `${name}: ${pct}`,
    schedule: 'Schedule', weekOf: 'Week from', dayOf: 'Day', corner: 'Hall / day', boardLabel: 'Halls by day (arrow keys scroll)',
    boardView: 'View', viewWeek: 'Week (halls × days)', viewDay: 'Day (halls × time of day)', dayLabel: 'Halls by time of day (arrow keys scroll)',
    dayCorner: d => `Hall / ${d.slice(5)}`,
    timedShow: (from, to, title, seats, net, overlaps) =>
      `${from}–${to} ${title}${overlaps ? ' ⚠ overlaps the show before' : ''} · ${seats.available} free${seats.held ? ` · ${seats.held} held` : ''} · ${seats.sold} sold${net ? ` · ${net}` : ''}`,
    boardShow: (time, seats, net) => `${time} · ${seats.available} free${seats.held ? ` · ${seats.held} held` : ''} · ${seats.sold} sold${net ? ` · ${net}` : ''}`,
    reportsTitle: 'Reports', showReport: 'This show', dayReport: 'By day', refresh: 'Refresh', csv: 'Download CSV', from: 'From', to: 'To', show: 'Show',
    status: 'Status', seats: 'Seats', share: 'Share', zone: 'Zone', available: 'available', held: 'held', sold: 'sold', blockedStatus: 'blocked',
    revenue: 'Revenue', gross: 'gross', refunded: 'refunded', net: 'net', byCategory: 'By category', byChannel: 'By channel', byPayment: 'By payment',
    date: 'Date', shows: 'Shows', amount: 'Amount', seatsChart: 'Seats by status', netChart: 'Net revenue by day', nothing: 'Nothing yet',
    pricesTitle: 'Prices', category: 'Category', now: 'Now', new: 'New', preview: 'Preview', apply: 'Apply',
    previewText: (changes, free, held) => `${changes}. ${free} seats on sale are sold at the new prices; the ${held} seats held now keep the prices they were held at.`,
    noChange: 'No price changes.', applied: rev => `New prices in force (revision ${rev}); every open picker has them now.`, badPrice: c => `The price of ${c} must be an amount like 45.00`,
    forbidden: 'Your role cannot do this.', failed: t => `That did not work: ${t}`, offline: 'Cannot reach the server.',
  },
};
const w = key => WORDS[lang()][key];

let operator = null;  // {name, role, may} once signed in
const key = () => sessionStorage.getItem(KEY);
const call = (method, path, body) => request(method, path, {
  body, retry: false,
  headers: { Authorization: `Bearer ${key()}`, ...(method === 'POST' ? { 'Idempotency-Key': randomKey() } : {}) },
});

function say(box, text, kind = 'error') { $(box).textContent = text; $(box).dataset.kind = kind; }

function announce(text) {
  $('announcer').textContent = '';
  setTimeout(() => { $('announcer').textContent = text; }, 50);
}

/// A refusal in words: the rule's own message, the seats someone else has, or the problem's title.
function problemWords(error) {
  // Not from the server: fetch failed twice (api.js retries once), or the page itself failed; logged
  // either way, so a fault of the page is never only "cannot reach the server".
  if (!(error instanceof ApiProblem)) { console.error(error); return w('offline'); }
  const p = error.problem;
  if (error.status === 403) return w('forbidden');
  if (p.violations?.length) return p.violations.map(v => v.message?.[lang()] ?? v.rule).join(' ');
  if (p.conflicts?.length) return w('failed')(p.conflicts.map(c => `${c.seat}: ${c.status}`).join(', '));
  return w('failed')(p.detail ?? p.title ?? `HTTP ${error.status}`);
}

function applyWords() {
  document.documentElement.lang = lang() === 'zh' ? 'zh-CN' : 'en';
  for (const el of document.querySelectorAll('[data-c]')) el.textContent = w(el.dataset.c);
  for (const el of document.querySelectorAll('[data-c-label]')) el.setAttribute('aria-label', w(el.dataset.cLabel));
  $('language').textContent = lang() === 'zh' ? 'EN' : '中文';
  $('language').setAttribute('lang', lang() === 'zh' ? 'en' : 'zh');
  document.title = w('title');
  if (operator) $('who').textContent = w('signedIn')(operator.name, operator.role);
}

// — Signing in and out —

async function signIn(candidate) {
  sessionStorage.setItem(KEY, candidate);
  try {
    operator = await call('GET', '/v1/operators/me');
  } catch (error) {
    sessionStorage.removeItem(KEY);
    operator = null;
    say('sign-in-message', error instanceof ApiProblem && error.status === 401 ? w('wrongKey') : problemWords(error));
    return false;
  }
  $('sign-in').hidden = true; $('sign-out').hidden = false;
  $('who').textContent = w('signedIn')(operator.name, operator.role);
  $('schedule').hidden = false;
  const query = new URLSearchParams(location.search);
  if (query.get('day')) $('board-view').value = 'day';
  if (!$('board-from').value) $('board-from').value = query.get('day') ?? query.get('week') ?? new Date().toISOString().slice(0, 10);
  await Promise.all([openDesk(), renderBoard()]);
  return true;
}

function signOut() {
  sessionStorage.removeItem(KEY);
  operator = null;
  location.reload();
}

// — The show desk —

let map = null, showId = null;

async function openDesk() {
  $('desk').hidden = false;
  const shows = await request('GET', '/v1/shows'), select = $('show');
  listShows(shows);
  const asked = new URLSearchParams(location.search).get('show');
  if (asked && shows.some(s => s.id === asked)) select.value = asked;
  select.onchange = () => openShow(select.value);
  await openShow(select.value);
}

/// The desk's list of shows, in time order; kept as current as the board (which asks for the shows every
/// 3 s), so a show created since signing in can be chosen and opened from the board. The chosen one stays.
function listShows(shows) {
  const select = $('show'), chosen = select.value;
  const sorted = [...shows].sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  const label = s => `${detailText(s, 'title') ?? s.venueId} · ${s.startsAt.slice(0, 16).replace('T', ' ')} · ${s.id}`;
  const same = select.options.length === sorted.length && sorted.every((s, k) => select.options[k].value === s.id && select.options[k].textContent === label(s));
  if (same) return;
  select.replaceChildren(...sorted.map(s => Object.assign(document.createElement('option'), { value: s.id, textContent: label(s) })));
  if (sorted.some(s => s.id === chosen)) select.value = chosen;
}

async function openShow(id) {
  showId = id;
  // A show of its own map: a fresh element (its canvas, focus and stream), the last one stopped.
  const old = $('desk-map');
  map = old;
  if (old.picker) {
    old.picker.stop();
    map = document.createElement('seatkit-map');
    for (const name of ['id', 'mode', 'aria-describedby']) map.setAttribute(name, old.getAttribute(name));
    old.replaceWith(map);
  }
  map.addEventListener('selection', renderMarked);
  map.addEventListener('statuses', () => refreshSide());
  await new Promise(resolve => { map.addEventListener('ready', resolve, { once: true }); map.setAttribute('show', id); });
  $('order-ref').value = `BOX-${randomKey().slice(0, 8).toUpperCase()}`;
  renderMarked();
  await refreshSide();
  if (operator.may.includes('prices')) await renderPrices();
  await renderHeat();
  if (operator.may.includes('reports')) {
    $('reports').hidden = false;
    await Promise.all([renderShowReport(), renderDayReport()]);
  }
}

// — Prices (managers) —

let shownShow = null;

/// The show's price per category, with a field for the new one; nothing for a role that may not change them.
async function renderPrices() {
  shownShow = await request('GET', `/v1/shows/${encodeURIComponent(showId)}`);
  $('prices-form').hidden = false;
  const rows = Object.entries(shownShow.prices.categories).sort(([a], [b]) => a.localeCompare(b)).map(([category, price]) => {
    const tr = document.createElement('tr');
    const input = Object.assign(document.createElement('input'), { value: price, inputMode: 'decimal', id: `price-${category}` });
    input.dataset.category = category;
    input.setAttribute('aria-label', `${category}: ${w('new')}`);
    const cells = [category, price].map(text => Object.assign(document.createElement('td'), { textContent: text }));
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
  const categories = { ...shownShow.prices.categories }, changes = [];
  for (const input of $('price-table').querySelectorAll('input')) {
    const value = input.value.trim(), category = input.dataset.category;
    if (!/^[0-9]+(\.[0-9]+)?$/.test(value)) throw new Error(w('badPrice')(category));
    if (value !== categories[category]) changes.push(`${category} ${categories[category]} → ${value}`);
    categories[category] = value;
  }
  return { table: { ...shownShow.prices, categories }, changes };
}

/// What the change does before it is applied: which categories, how many seats on sale take the new
/// prices, and that open holds keep theirs (a hold keeps the price revision it was made at).
async function previewPrices() {
  let proposal;
  try { proposal = proposedPrices(); } catch (error) { say('desk-message', error.message); return null; }
  if (!proposal.changes.length) { $('price-preview').textContent = w('noChange'); return null; }
  const report = await call('GET', `/v1/shows/${encodeURIComponent(showId)}/report`);
  const changed = new Set(proposal.changes.map(c => c.split(' ')[0]));
  const free = report.zones.filter(z => changed.has(z.category)).reduce((n, z) => n + z.byStatus.available, 0);
  $('price-preview').textContent = w('previewText')(proposal.changes.join(', '), free, report.byStatus.held);
  return proposal;
}

function marked() { return map?.ready ? map.selection : []; }

function renderMarked() {
  const ids = marked();
  $('marked').textContent = ids.length ? ids.map(id => map.seat(id)?.name ?? id).join(lang() === 'zh' ? '、' : ', ') : w('none');
}

let sideTimer = null, sideWaiting = [];
/// The reservations and the last changes, again (once for a burst of deltas: they come fast). Resolves
/// when the lists are drawn, whichever call of the burst drew them.
function refreshSide() {
  clearTimeout(sideTimer);
  return new Promise(resolve => {
    sideWaiting.push(resolve);
    sideTimer = setTimeout(async () => {
      const waiting = sideWaiting.splice(0);
      try {
        const [reservations, log] = await Promise.all([
          // The log pages from a version: the last fifty versions' lines.
          call('GET', `/v1/shows/${encodeURIComponent(showId)}/reservations`),
          call('GET', `/v1/shows/${encodeURIComponent(showId)}/log?since=${Math.max(0, Number(map.dataset.version || 0) - 50)}`),
        ]);
        $('reservations').replaceChildren(...(reservations.length ? reservations.map(r => li(
          `${w(r.kind) ?? r.kind}: ${r.seats.join(' ')} — ${r.reason ?? ''} (${r.operator})`, { reservation: r.id })) : [li(w('noneYet'))]));
        const entries = log.lines.slice(-8).reverse();
        $('recent').replaceChildren(...(entries.length ? entries.map(e => li(logLine(e))) : [li(w('noneYet'))]));
      } catch (error) {
        say('desk-message', problemWords(error));
      }
      for (const done of waiting) done();
    }, 150);
  });
}

function li(text, data = {}) {
  const el = document.createElement('li');
  el.textContent = text;
  for (const [k, v] of Object.entries(data)) el.dataset[k] = v;
  return el;
}

/// "19:02:11 sell li 5-1 5-2 BOX-1A2B": a log line as the desk lists it.
function logLine(e) {
  const seats = Array.isArray(e.seats) ? e.seats.map(s => s.seat ?? s).join(' ') : null;
  return [e.at?.slice(11, 19), e.action, e.operator ?? e.by, seats, e.orderRef].filter(Boolean).join(' ');
}

/// Runs one action on the marked seats: its answer said in words, the marks cleared when it worked.
async function act(needsSeats, action) {
  const ids = marked();
  if (needsSeats && !ids.length) { say('desk-message', w('markFirst')); return; }
  try {
    const text = await action(ids);
    if (text === null) return;
    say('desk-message', text, 'ok');
    announce(text);
    await map.deselect(ids);
    renderMarked();
    refreshSide();
    renderShowReport();
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

function bindDesk() {
  const path = suffix => `/v1/shows/${encodeURIComponent(showId)}${suffix}`;
  $('block-form').addEventListener('submit', e => {
    e.preventDefault();
    act(true, async ids => {
      await call('POST', path('/reservations'), { kind: 'blocked', seats: ids, reason: $('block-reason').value });
      return w('done').block(ids.length);
    });
  });
  $('unblock').addEventListener('click', () => act(true, async ids => {
    // Each reservation holding a marked seat lets go of those seats (the whole of it when all are marked).
    const marks = new Set(ids);
    const touched = (await call('GET', path('/reservations'))).filter(r => r.seats.some(s => marks.has(s)));
    if (!touched.length) { say('desk-message', w('noReservation')); return null; }
    let freed = 0;
    for (const r of touched) {
      const mine = r.seats.filter(s => marks.has(s));
      freed += mine.length;
      if (mine.length === r.seats.length) await call('DELETE', `/v1/reservations/${encodeURIComponent(r.id)}`);
      else await call('POST', `/v1/reservations/${encodeURIComponent(r.id)}/seats`, { add: [], remove: mine });
    }
    return w('done').unblock(freed);
  }));
  $('keep-form').addEventListener('submit', e => {
    e.preventDefault();
    act(true, async ids => {
      const body = { kind: 'house', seats: ids, reason: $('keep-name').value };
      if ($('keep-until').value.trim()) body.releaseAt = $('keep-until').value.trim();
      await call('POST', path('/reservations'), body);
      return w('done').keep(ids.length);
    });
  });
  $('sell-form').addEventListener('submit', e => {
    e.preventDefault();
    act(true, async ids => {
      const ref = $('order-ref').value;
      const order = await call('POST', path('/sales'), { seats: ids, orderRef: ref, payment: $('payment').value });
      $('order-ref').value = `BOX-${randomKey().slice(0, 8).toUpperCase()}`;
      $('refund-ref').value = ref;
      const total = order.parts?.map(p => `${p.total} ${p.currency}`).join(' + ');
      return w('done').sell(ref, total);
    });
  });
  $('find-order').addEventListener('click', async () => {
    // The show's report, one line a seat, names each sold seat's order.
    const ids = marked();
    if (!ids.length) { say('desk-message', w('markFirst')); return; }
    try {
      const [header, ...rows] = (await reportCSV()).trim().split('\n').map(line => line.split(','));
      const seatAt = header.indexOf('seat'), refAt = header.indexOf('orderRef');
      const ref = rows.find(r => r[seatAt] === ids[0])?.[refAt];
      if (!ref) { say('desk-message', w('noOrder')); return; }
      $('refund-ref').value = ref;
      say('desk-message', `${w('orderRef')}: ${ref}`, 'ok');
    } catch (error) {
      say('desk-message', problemWords(error));
    }
  });
  $('refund-form').addEventListener('submit', e => {
    e.preventDefault();
    act(false, async ids => {
      const ref = $('refund-ref').value;
      const body = ids.length ? { seats: ids, reason: 'box office' } : { reason: 'box office' };
      await call('POST', `/v1/orders/${encodeURIComponent(ref)}/refund`, body);
      return w('done').refund(ref, ids.length || 'all');
    });
  });
}

// — The schedule board —

let board = null, boardTimer = null;

/// The board from the chosen day: the week (every hall, seven days) or the day (every hall, the day's
/// hours), each show's counts and net revenue, refreshed every three seconds while signed in (the counts
/// are the server's live ones).
async function renderBoard() {
  if (!board) {
    board = new ScheduleBoard($('board'), {
      onOpen: id => { $('show').value = id; openShow(id); $('desk').scrollIntoView({ behavior: 'instant', block: 'start' }); },
      words: {},
    });
    boardTimer = setInterval(() => renderBoard(), 3000);
  }
  Object.assign(board.words, {
    corner: w('corner'), dayCorner: w('dayCorner'), day: d => showTime(`${d}T00:00`).day,
    show: (time, seats, net) => w('boardShow')(time, seats, net),
    timedShow: (from, to, s, net, overlaps) => w('timedShow')(from, to, detailText(s, 'title') ?? detailText(s, 'film') ?? s.id, s.seats, net, overlaps),
  });
  const view = $('board-view').value, from = $('board-from').value, length = view === 'day' ? 1 : 7;
  $('board-from-label').textContent = w(view === 'day' ? 'dayOf' : 'weekOf');
  $('board').setAttribute('aria-label', w(view === 'day' ? 'dayLabel' : 'boardLabel'));
  const start = new Date(`${from}T00:00:00Z`);
  const days = [...Array(length).keys()].map(k => new Date(start.getTime() + k * 86_400_000).toISOString().slice(0, 10));
  const to = new Date(start.getTime() + length * 86_400_000).toISOString().slice(0, 10);
  try {
    const [venues, shows, sales] = await Promise.all([
      request('GET', '/v1/venues'), request('GET', '/v1/shows'), call('GET', `/v1/reports/sales?from=${from}&to=${to}`),
    ]);
    // A reply for a choice since changed is dropped: the newer one is on its way.
    listShows(shows);
    if (view !== $('board-view').value || from !== $('board-from').value) return;
    const halls = venues.map(v => ({ id: v.id, name: localName(v.name) }))
      .sort((a, b) => a.id.localeCompare(b.id));
    const revenue = new Map(sales.shows.map(s => [s.showId, s.net === '0.00' ? '' : `${s.net} ${s.currency}`]));
    board.setData({ view, halls, days, shows: shows.filter(s => days.includes(s.startsAt.slice(0, 10))), revenue });
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

// — Reports —

const STATUS_WORD = { available: 'available', held: 'held', sold: 'sold', blocked: 'blockedStatus' };

/// A table: a caption, a header row and body rows (the first cell of each a row header).
function table(caption, head, rows) {
  const t = document.createElement('table');
  t.createCaption().textContent = caption;
  const tr = t.createTHead().insertRow();
  for (const h of head) tr.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: h }));
  const body = t.createTBody();
  for (const row of rows) {
    const r = body.insertRow();
    row.forEach((v, k) => r.append(Object.assign(document.createElement(k === 0 ? 'th' : 'td'), { textContent: String(v), ...(k === 0 ? { scope: 'row' } : {}) })));
  }
  return t;
}

/// A small horizontal bar chart as SVG, drawn here (no library): a bar a pair `[label, value]`, its
/// summary as the picture's accessible name.
function chart(title, pairs, format = v => String(v)) {
  const NS = 'http://www.w3.org/2000/svg', bar = 18, gap = 6, labelWidth = 110, width = 360;
  const svg = document.createElementNS(NS, 'svg');
  const max = Math.max(...pairs.map(([, v]) => v), 0);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('viewBox', `0 0 ${width} ${Math.max(pairs.length, 1) * (bar + gap)}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${title}: ${pairs.map(([l, v]) => `${l} ${format(v)}`).join(', ') || w('nothing')}`);
  pairs.forEach(([label, value], k) => {
    const y = k * (bar + gap);
    const text = document.createElementNS(NS, 'text');
    Object.entries({ x: 0, y: y + bar * 0.72, 'font-size': 12, fill: '#202124' }).forEach(([a, v]) => text.setAttribute(a, v));
    text.textContent = label;
    const rect = document.createElementNS(NS, 'rect');
    const length = max > 0 ? (width - labelWidth - 70) * value / max : 0;
    Object.entries({ x: labelWidth, y, width: Math.max(length, 1), height: bar, rx: 3, fill: '#1a73e8' }).forEach(([a, v]) => rect.setAttribute(a, v));
    const amount = document.createElementNS(NS, 'text');
    Object.entries({ x: labelWidth + length + 6, y: y + bar * 0.72, 'font-size': 12, fill: '#202124' }).forEach(([a, v]) => amount.setAttribute(a, v));
    amount.textContent = format(value);
    svg.append(text, rect, amount);
  });
  return svg;
}

/// The desk's show: seats by status and by zone, revenue and its splits, as the API's report says them.
async function renderShowReport() {
  if (!showId) return;
  try {
    const report = await call('GET', `/v1/shows/${encodeURIComponent(showId)}/report`);
    const statuses = ['available', 'held', 'sold', 'blocked'];
    const pct = n => `${(100 * n / report.seats).toFixed(1)}%`;
    const money = amount => `${amount} ${report.revenue.currency}`;
    const splits = ['byCategory', 'byChannel', 'byPayment'].map(key => {
      const entries = Object.entries(report.revenue[key]);
      return table(w(key), [w(key === 'byCategory' ? 'zone' : 'status'), w('amount')], entries.length ? entries.map(([k, v]) => [k, money(v)]) : [[w('nothing'), '']]);
    });
    $('show-report').replaceChildren(
      chart(w('seatsChart'), statuses.map(s => [w(STATUS_WORD[s]), report.byStatus[s]])),
      table(w('seats'), [w('status'), w('seats'), w('share')], statuses.map(s => [w(STATUS_WORD[s]), report.byStatus[s], pct(report.byStatus[s])])),
      table(w('zone'), [w('zone'), w('category'), ...statuses.map(s => w(STATUS_WORD[s]))], report.zones.map(z => [z.zone, z.category, ...statuses.map(s => z.byStatus[s])])),
      table(w('revenue'), [w('revenue'), w('amount')], [[w('gross'), money(report.revenue.gross)], [w('refunded'), money(report.revenue.refunded)], [w('net'), money(report.revenue.net)]]),
      chart(w('byCategory'), Object.entries(report.revenue.byCategory).map(([k, v]) => [k, Number(v)]), v => v.toFixed(2)),
      ...splits);
    $('show-report').dataset.version = String(report.version);
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

/// The days of a period: each day's shows, seats, sold and revenue, and its net as a chart.
async function renderDayReport() {
  try {
    const data = await call('GET', `/v1/reports/sales?from=${$('period-from').value}&to=${$('period-to').value}`);
    $('day-report').replaceChildren(
      chart(w('netChart'), data.days.map(d => [d.date, Number(d.net)]), v => v.toFixed(2)),
      table(w('dayReport'), [w('date'), w('shows'), w('seats'), w('sold'), w('gross'), w('refunded'), w('net')],
        data.days.length ? data.days.map(d => [d.date, d.shows, d.seats, d.sold, d.gross, d.refunded, `${d.net} ${d.currency}`]) : [[w('nothing'), '', '', '', '', '', '']]));
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

/// The desk's show's report as CSV, one line a seat (`seat,row,zone,category,status,price,orderRef,…`).
const reportCSV = () => request('GET', `/v1/shows/${encodeURIComponent(showId)}/report`, {
  as: 'text', retry: false, headers: { Authorization: `Bearer ${key()}`, Accept: 'text/csv' },
});

/// The show's report as CSV (one line a seat), downloaded as a file.
async function downloadCSV() {
  try {
    const text = await reportCSV();
    const link = Object.assign(document.createElement('a'), { href: URL.createObjectURL(new Blob([text], { type: 'text/csv' })), download: `${showId}-report.csv` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    $('report-csv').dataset.lines = String(text.trim().split('\n').length);
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

function bindReports() {
  $('report-refresh').addEventListener('click', renderShowReport);
  $('report-csv').addEventListener('click', downloadCSV);
  const today = new Date(), week = new Date(today.getTime() + 7 * 86_400_000);
  $('period-from').value = today.toISOString().slice(0, 10);
  $('period-to').value = week.toISOString().slice(0, 10);
  $('period-form').addEventListener('submit', e => { e.preventDefault(); renderDayReport(); });
}

// — The heat map over the map —

/// The venue's past occupancy for the chosen period over the desk's map (or taken away), with the ramp
/// as its legend and each zone's average, highest first.
async function renderHeat() {
  if (!map?.ready) return;
  if (!$('heat-on').checked) {
    map.picker.view.setOverlay(null);
    $('heat-legend').hidden = true; $('heat-zones').hidden = true;
    return;
  }
  const days = Number($('heat-days').value), venue = map.picker.show.venueId;
  try {
    const heat = await call('GET', `/v1/venues/${encodeURIComponent(venue)}/heatmap?days=${days}&shape=levels`);
    map.picker.view.setOverlay(heat);
    const p = heat.palette;
    $('heat-ramp').style.background = `linear-gradient(to right, ${[0, 25, 50, 75, 100].map(k => p[k]).join(', ')})`;
    $('heat-caption').textContent = heat.shows ? w('heatCaption')(heat.shows, days) : w('heatNone')(days);
    const names = new Map(map.picker.venue.zones.map(z => [z.id, z.name]));
    const pct = v => `${Math.round(v * 100)}%`;
    $('heat-zones').replaceChildren(...heat.zones.filter(z => z.average !== null).sort((a, b) => b.average - a.average)
      .map(z => li(w('zoneAverage')(names.get(z.id) ?? z.id, pct(z.average)), { zone: z.id })));
    $('heat-legend').hidden = false; $('heat-zones').hidden = false;
    announce($('heat-caption').textContent);
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

function bindPrices() {
  $('heat-on').addEventListener('change', renderHeat);
  $('heat-days').addEventListener('change', renderHeat);
  $('price-preview-button').addEventListener('click', () => previewPrices().catch(error => say('desk-message', problemWords(error))));
  $('prices-form').addEventListener('submit', async e => {
    e.preventDefault();
    try {
      const proposal = await previewPrices();
      if (!proposal) return;
      const show = await call('PUT', `/v1/shows/${encodeURIComponent(showId)}/prices`, proposal.table);
      say('desk-message', w('applied')(show.priceRevision), 'ok');
      announce(w('applied')(show.priceRevision));
      await renderPrices();
      refreshSide();
    } catch (error) {
      say('desk-message', problemWords(error));
    }
  });
}

/// The desk's frequent actions from the keyboard, when the focus is not in a field: each key takes the
/// action's first field (Enter then does it), U returns the marked seats to sale, Esc clears the marks.
function bindShortcuts() {
  const fields = { b: 'block-reason', k: 'keep-name', s: 'order-ref', r: 'refund-ref' };
  document.addEventListener('keydown', e => {
    if (!map?.ready || e.ctrlKey || e.metaKey || e.altKey || e.target.closest?.('input, select, textarea')) return;
    const key = e.key.toLowerCase();
    if (fields[key]) { e.preventDefault(); $(fields[key]).focus(); $(fields[key]).select?.(); }
    else if (key === 'u') { e.preventDefault(); $('unblock').click(); }
    else if (e.key === 'Escape') { map.deselect(map.selection); renderMarked(); }
  });
}

async function main() {
  applyWords();
  $('language').onclick = () => { setLanguage(lang() === 'zh' ? 'en' : 'zh'); applyWords(); renderMarked(); refreshSide(); if (board) renderBoard(); };
  $('sign-out').onclick = signOut;
  $('sign-in').addEventListener('submit', async e => {
    e.preventDefault();
    const candidate = $('key').value.trim();
    $('key').value = '';
    say('sign-in-message', '');
    await signIn(candidate);
  });
  bindDesk();
  bindPrices();
  bindReports();
  bindShortcuts();
  $('board-from').addEventListener('change', () => renderBoard());
  $('board-view').addEventListener('change', () => renderBoard());
  if (key()) await signIn(key());
}

main();
