// The console's staff part (managers; docs/STAFF.md): the people they manage — added with a role, their
// cinemas and a password, disabled or enabled, given a new key, removed — and, for head office, the
// chain's cinemas. Every change is the server's (one call each); the list is read again after it.

import { $, call, problemWords, say, state } from './console-common.js';
import { w } from './console-words.js';
import { localName } from './i18n.js';

/// The cinemas the signed-in manager may give, and every hall (for a new cinema).
let cinemas = [], halls = [];

const headOffice = () => state.operator?.cinemas === 'all';
const cinemaName = id => cinemas.find(c => c.id === id)?.name ?? id;

export async function renderStaff() {
  if ($('staff').hidden) return;
  try {
    const [people, list, venues] = await Promise.all([call('GET', '/v1/operators'), call('GET', '/v1/cinemas'), call('GET', '/v1/venues')]);
    cinemas = list; halls = venues;
    renderChoices();
    renderPeople(people);
    $('cinemas-part').hidden = !headOffice();
    if (headOffice()) renderCinemas();
  } catch (error) {
    say('staff-message', problemWords(error));
  }
}

/// The cinemas a new person may be given: every one (head office's choice) or one of the manager's.
function renderChoices() {
  const select = $('staff-cinemas'), kept = select.value;
  select.replaceChildren(
    ...(headOffice() ? [new Option(w('allCinemas'), 'all')] : []),
    ...cinemas.map(c => new Option(c.name, c.id)));
  if ([...select.options].some(o => o.value === kept)) select.value = kept;
}

/// The people as a table: name, role, cinemas, state, how they sign in, and what may be done to them.
function renderPeople(people) {
  const t = document.createElement('table');
  t.dataset.table = 'staff';
  t.createCaption().textContent = w('staffCaption', people.filter(p => p.state !== 'deleted').length);
  const head = t.createTHead().insertRow();
  for (const h of w('staffHead')) head.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: h }));
  const body = t.createTBody();
  for (const p of people.filter(p => p.state !== 'deleted')) {
    const r = body.insertRow();
    r.dataset.name = p.name;
    r.append(Object.assign(document.createElement('th'), { scope: 'row', textContent: p.name }));
    const cells = [
      w('roleWord', p.role),
      p.cinemas === 'all' ? w('allCinemas') : p.cinemas.map(cinemaName).join('、'),
      w(p.state === 'active' ? 'stateActive' : 'stateDisabled'),
      [p.password ? w('hasPassword') : w('keyOnly'), p.totp ? w('hasCode') : ''].filter(Boolean).join(' · '),
    ];
    for (const text of cells) r.insertCell().textContent = text;
    const actions = r.insertCell();
    if (p.name !== state.operator.name) {
      actions.append(
        button(w('edit'), 'edit', () => edit(actions, p)),
        button(w(p.state === 'active' ? 'disable' : 'enable'), 'toggle', () => change(p.name, { state: p.state === 'active' ? 'disabled' : 'active' })),
        button(w('resetKey'), 'reset', () => change(p.name, { resetKey: true })),
        button(w(p.totp ? 'codeOff' : 'codeOn'), 'totp', () => change(p.name, { totp: !p.totp })),
        button(w('remove'), 'remove', () => remove(p.name)));
    }
  }
  $('staff-list').replaceChildren(t);
}

/// The row's actions turned into a small form: the role, the cinema and a new password (left empty: kept).
function edit(cell, p) {
  const form = document.createElement('form');
  form.className = 'staff-edit';
  form.dataset.name = p.name;
  const role = Object.assign(document.createElement('select'), { name: 'role' });
  role.setAttribute('aria-label', w('roleLabel'));
  role.append(...['boxoffice', 'door', 'manager'].map(r => new Option(w('roleWord', r), r, false, r === p.role)));
  const where = Object.assign(document.createElement('select'), { name: 'cinemas' });
  where.setAttribute('aria-label', w('cinemasLabel'));
  where.append(...(headOffice() ? [new Option(w('allCinemas'), 'all', false, p.cinemas === 'all')] : []),
    ...cinemas.map(c => new Option(c.name, c.id, false, Array.isArray(p.cinemas) && p.cinemas.length === 1 && p.cinemas[0] === c.id)));
  const password = Object.assign(document.createElement('input'), { type: 'password', name: 'password', autocomplete: 'new-password', minLength: 10 });
  password.setAttribute('aria-label', w('newPasswordOptional'));
  password.placeholder = w('newPasswordOptional');
  const save = Object.assign(document.createElement('button'), { type: 'submit', className: 'primary', textContent: w('save') });
  const cancel = button(w('cancel'), 'cancel', () => renderStaff());
  form.append(role, where, password, save, cancel);
  form.addEventListener('submit', e => {
    e.preventDefault();
    const body = {};
    if (role.value !== p.role) body.role = role.value;
    const chosen = where.value === 'all' ? 'all' : [where.value];
    if (JSON.stringify(chosen) !== JSON.stringify(p.cinemas)) body.cinemas = chosen;
    if (password.value) body.password = password.value;
    if (Object.keys(body).length) change(p.name, body); else renderStaff();
  });
  cell.replaceChildren(form);
  role.focus();
}

function button(text, action, onclick) {
  const b = Object.assign(document.createElement('button'), { type: 'button', textContent: text, onclick });
  b.dataset.action = action;
  return b;
}

async function change(name, body) {
  try {
    const answer = await call('PATCH', `/v1/operators/${encodeURIComponent(name)}`, body);
    showKey(answer.key ? w('newKey', name) : '', answer.key);
    if (answer.totpUri) showCode(name, answer.totpUri, answer.totpSvg);
    say('staff-message', w('staffChanged', name), 'ok');
    await renderStaff();
  } catch (error) {
    say('staff-message', problemWords(error));
  }
}

async function remove(name) {
  if (!confirm(w('removeConfirm', name))) return;
  try {
    await call('DELETE', `/v1/operators/${encodeURIComponent(name)}`);
    say('staff-message', w('staffRemoved', name), 'ok');
    await renderStaff();
  } catch (error) {
    say('staff-message', problemWords(error));
  }
}

/// A new one-time-code secret, shown once: its QR code for the person's authenticator app to scan, and
/// the secret in text for one that cannot scan.
function showCode(name, uri, svg) {
  const box = $('staff-key');
  box.hidden = false;
  const picture = Object.assign(document.createElement('img'), { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg ?? '')}`,
    alt: w('codeQr', name), width: 180, height: 180 });
  const secret = Object.assign(document.createElement('code'), { textContent: new URL(uri).searchParams.get('secret') ?? '' });
  box.replaceChildren(w('codeSetUp', name), document.createElement('br'), picture, document.createElement('br'), w('codeSecret'), ' ', secret);
}

/// A key shown once (a new person's, or a new one): for a script or a checkout's server to keep.
function showKey(text, key) {
  const box = $('staff-key');
  box.hidden = !key;
  if (!key) return;
  const code = Object.assign(document.createElement('code'), { textContent: key });
  box.replaceChildren(text, ' ', code);
}

function renderCinemas() {
  const list = document.createElement('ul');
  list.dataset.list = 'cinemas';
  for (const c of cinemas) {
    const item = document.createElement('li');
    item.textContent = `${c.name}：${c.venues.map(v => localName(halls.find(h => h.id === v)?.name ?? v)).join('、') || w('noHalls')}`;
    list.append(item);
  }
  $('cinema-list').replaceChildren(list);
  const taken = new Set(cinemas.flatMap(c => c.venues));
  const box = $('cinema-venues');
  box.replaceChildren(box.querySelector('legend'), ...halls.filter(h => !taken.has(h.id)).map(h => {
    const label = document.createElement('label');
    const input = Object.assign(document.createElement('input'), { type: 'checkbox', value: h.id, name: 'cinema-venue' });
    label.append(input, ' ', localName(h.name));
    return label;
  }));
}

export function bindStaff() {
  $('staff-add').addEventListener('submit', async e => {
    e.preventDefault();
    const name = $('staff-name').value.trim(), choice = $('staff-cinemas').value;
    const body = { name, role: $('staff-role').value, cinemas: choice === 'all' ? 'all' : [choice], password: $('staff-password').value };
    try {
      const made = await call('POST', '/v1/operators', body);
      $('staff-name').value = ''; $('staff-password').value = '';
      say('staff-message', w('staffAdded', name, made.cinemas === 'all' ? w('allCinemas') : made.cinemas.map(cinemaName).join('、')), 'ok');
      showKey(w('newKey', name), made.key);
      await renderStaff();
    } catch (error) {
      say('staff-message', problemWords(error));
    }
  });
  $('cinema-add').addEventListener('submit', async e => {
    e.preventDefault();
    const name = $('cinema-name').value.trim();
    const venues = [...document.querySelectorAll('input[name="cinema-venue"]:checked')].map(i => i.value);
    try {
      await call('POST', '/v1/cinemas', { name, venues });
      $('cinema-name').value = '';
      say('staff-message', w('cinemaMade', name, venues.length), 'ok');
      await renderStaff();
    } catch (error) {
      say('staff-message', problemWords(error));
    }
  });
}
