// The desk's side lists: the show's reservations and its last changes from the log, drawn again once
// for a burst of changes.

import { $, call, li, problemWords, say, state } from './console-common.js';
import { w } from './console-words.js';

let sideTimer = null, sideWaiting = [];
/// The reservations and the last changes, again (once for a burst of deltas: they come fast). Resolves
/// when the lists are drawn, whichever call of the burst drew them.
export function refreshSide() {
  clearTimeout(sideTimer);
  return new Promise(resolve => {
    sideWaiting.push(resolve);
    sideTimer = setTimeout(async () => {
      const waiting = sideWaiting.splice(0);
      try {
        const [reservations, log] = await Promise.all([
          // The log pages from a version: the last fifty versions' lines.
          call('GET', `/v1/shows/${encodeURIComponent(state.showId)}/reservations`),
          call('GET', `/v1/shows/${encodeURIComponent(state.showId)}/log?since=${Math.max(0, Number(state.map.dataset.version || 0) - 50)}`),
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

/// "19:02:11 sell li 5-1 5-2 BOX-1A2B": a log line as the desk lists it.
function logLine(e) {
  const seats = Array.isArray(e.seats) ? e.seats.map(s => s.seat ?? s).join(' ') : null;
  // A partner's hold (`p_…@…`) by its channel's name, not its id; a buyer's by no one.
  const who = e.operator ?? (e.by?.startsWith('p_') ? e.reason : e.by?.startsWith('h_') ? null : e.by);
  return [e.at?.slice(11, 19), e.action, who, seats, e.orderRef].filter(Boolean).join(' ');
}
