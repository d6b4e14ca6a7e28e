// The desk's waiting room (docs/API.md, Waiting room): how the line stands, live (waiting, let in in
// all and in the last minute, the wait at the back, seats sold so far), and for a manager the settings
// and the switch. Refreshed every two seconds while the desk shows the show.

import { ApiProblem, request } from './api.js';
import { $, announce, call, problemWords, say, state } from './console-common.js';
import { w } from './console-words.js';
import { showTime } from './i18n.js';

let timer = null;

/// The room of the desk's show, now and every two seconds.
export async function renderQueue() {
  clearInterval(timer);
  timer = setInterval(() => refresh().catch(() => {}), 2000);
  $('queue-form').hidden = !state.operator.may.includes('shows');
  $('queue-pass-links').hidden = true;
  await refresh(true);
}

async function refresh(fillForm = false) {
  const showId = state.showId;
  let room = null;
  try {
    room = await call('GET', `/v1/shows/${encodeURIComponent(showId)}/queue`);
  } catch (error) {
    if (!(error instanceof ApiProblem && error.status === 404)) throw error;
  }
  const show = await request('GET', `/v1/shows/${encodeURIComponent(showId)}`);
  if (showId !== state.showId) return;
  const facts = w('queueFacts');
  const rows = room ? [
    [facts.state, w('queueState')[room.state] ?? room.state],
    [facts.opens, localTime(room.opensAt)],
    [facts.length, String(room.length)],
    [facts.admitted, String(room.admitted)],
    [facts.lastMinute, `${room.admittedLastMinute} / ${room.admitPerMinute}`],
    [facts.waitAtBack, w('queueWait', room.waitAtBackSeconds)],
    [facts.sold, String(show.seats.sold)],
    ...(room.proofOfWorkBits ? [[facts.pow, `${room.proofOfWorkBits}`]] : []),
    ...(room.drawAt ? [[facts.draw, w('queueDrawFact', localTime(room.drawAt), room.registered ?? 0,
      room.openedAt ? Math.min(room.drawWinners, room.registered ?? 0) : '–')]] : []),
    ...(room.lanes ?? []).map(lane => [facts.lane, w('queueLaneFact', lane)]),
  ] : [[facts.state, w('queueNone')]];
  $('queue-live').replaceChildren(...rows.flatMap(([k, v]) => [Object.assign(document.createElement('dt'), { textContent: k }),
    Object.assign(document.createElement('dd'), { textContent: v })]));
  $('queue').dataset.state = room?.state ?? 'none';
  const on = room && room.state !== 'off';
  $('queue-save').textContent = w(on ? 'queueUpdate' : 'queueSave');
  $('queue-off').hidden = !on;
  const lanes = on ? room.lanes ?? [] : [];
  $('queue-passes').hidden = !state.operator.may.includes('shows') || lanes.length === 0;
  const select = /** @type {HTMLSelectElement} */ ($('queue-pass-lane'));
  if (select.options.length !== lanes.length || [...select.options].some((o, k) => o.value !== lanes[k].name)) {
    select.replaceChildren(...lanes.map(l => Object.assign(document.createElement('option'), { value: l.name, textContent: l.name })));
  }
  if (fillForm && on) {
    $('queue-opens').value = localInput(room.opensAt);
    $('queue-rate').value = room.admitPerMinute;
    $('queue-early').value = room.earlyMinutes;
    $('queue-admission').value = room.admissionMinutes;
    $('queue-per-address').value = room.maxEntriesPerAddress;
    $('queue-pow').value = room.proofOfWorkBits ?? 0;
    $('queue-draw').value = room.drawAt ? localInput(room.drawAt) : '';
    if (room.drawWinners) $('queue-winners').value = room.drawWinners;
    $('queue-lanes').value = (room.lanes ?? []).map(l => `${l.name}:${l.share}`).join(', ');
  } else if (fillForm && !$('queue-opens').value) {
    $('queue-opens').value = localInput(new Date(Date.now() + 3_600_000).toISOString());
  }
}

/// An instant as the console's local date and time ("Thu 24 Dec 19:30").
function localTime(iso) { const t = showTime(localInput(iso)); return `${t.day} ${t.time}`; }
/// An instant as a `datetime-local` value, in this browser's time.
function localInput(iso) {
  const d = new Date(iso), p = n => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function bindQueue() {
  $('queue-form').addEventListener('submit', async e => {
    e.preventDefault();
    const number = id => Number($(id).value);
    try {
      // Every setting the room has goes back (a PUT replaces them: one left out would be switched off).
      const lanes = $('queue-lanes').value.split(',').map(x => x.trim()).filter(Boolean).map(x => {
        const [name, share] = x.split(':').map(y => y.trim());
        return { name, share: Number(share) };
      });
      await call('PUT', `/v1/shows/${encodeURIComponent(state.showId)}/queue`, {
        opensAt: new Date($('queue-opens').value).toISOString(), admitPerMinute: number('queue-rate'), earlyMinutes: number('queue-early'),
        admissionMinutes: number('queue-admission'), maxEntriesPerAddress: number('queue-per-address'), proofOfWorkBits: number('queue-pow'),
        ...($('queue-draw').value ? { drawAt: new Date($('queue-draw').value).toISOString(), drawWinners: number('queue-winners') } : {}),
        ...(lanes.length ? { lanes } : {}),
      });
      say('desk-message', w('queueSet'), 'ok');
      announce(w('queueSet'));
      await refresh(true);
    } catch (error) { say('desk-message', problemWords(error)); }
  });
  $('queue-passes').addEventListener('submit', async e => {
    e.preventDefault();
    const lane = $('queue-pass-lane').value;
    try {
      const made = await call('POST', `/v1/shows/${encodeURIComponent(state.showId)}/queue/lanes/${encodeURIComponent(lane)}/passes`,
        { count: Number($('queue-pass-count').value) });
      const links = $('queue-pass-links');
      links.value = made.passes.map(p => `${location.origin}/shows/${encodeURIComponent(state.showId)}?pass=${p}`).join('\n');
      links.hidden = false;
      const text = w('queuePassesMade', made.passes.length, lane);
      say('desk-message', text, 'ok');
      announce(text);
    } catch (error) { say('desk-message', problemWords(error)); }
  });
  $('queue-off').addEventListener('click', async () => {
    try {
      const room = await call('DELETE', `/v1/shows/${encodeURIComponent(state.showId)}/queue`);
      const text = w('queueSwitchedOff', room.admitted);
      say('desk-message', text, 'ok');
      announce(text);
      await refresh(true);
    } catch (error) { say('desk-message', problemWords(error)); }
  });
}
