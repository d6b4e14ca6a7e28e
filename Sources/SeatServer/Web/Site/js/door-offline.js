// The door's decisions while the server cannot be reached (no DOM): a code checked with the show's
// public key and revoked list, kept from the last time the page was online, and against the tickets
// this scanner let in; the scans kept to upload, and what the server said of them once back.
// pretix keeps offline a manual choice because two scanners offline can both let one ticket in; here
// it is automatic, and every such case is listed as a conflict when the scans are uploaded.

import { documentMatches, readTicket, verifyTicket } from './ticket.js';

/**
 * The answer for `code` offline, shaped as the server's: {result, ok, showId, seat, seatName, ticketId, offline: true}.
 * `shows`: the show ids this gate admits; `issuers`: {showId: {publicKey, revoked: [ids]}} of every show of the
 * day (so another show's real ticket is told from a forged one);
 * `inside`: the ticket ids this scanner let in and not out; `document`: a real-name ticket's attendee's number, typed
 * or read (checked against the ticket's binding with the show's `doorKey`).
 */
export async function decideOffline(code, { shows, issuers, inside, direction = 'in', verify = verifyTicket, document = null, matches = documentMatches }) {
  let read;
  try { read = readTicket(code); } catch (error) { return { result: 'invalid', ok: false, reason: error.kind, offline: true }; }
  const base = { showId: read.show, seat: read.seatName, ticketId: read.id, offline: true };
  // As the server decides: a show it cannot check, then the signature, then the gate's shows.
  const issuer = issuers[read.show];
  if (!issuer) return { result: 'invalid', ok: false, reason: 'unknownShow', offline: true };
  const ticket = await verify(code, issuer.publicKey);
  if (!ticket) return { result: 'invalid', ok: false, reason: 'signature', offline: true };
  if (!shows.includes(read.show)) return { ...base, result: 'wrong_show', ok: false };
  if (issuer.revoked.includes(ticket.id)) return { ...base, result: 'revoked', ok: false };
  if (direction === 'in' && inside.has(ticket.id)) return { ...base, result: 'already_in', ok: false };
  if (direction === 'out' && !inside.has(ticket.id)) return { ...base, result: 'not_in', ok: false };
  // A real-name show's ticket going in: bound to an attendee, whose document is checked here as the server would.
  if (direction === 'in' && issuer.doorKey) {
    if (!ticket.binding) return { ...base, result: 'unbound', ok: false, reason: 'unbound' };
    const attendee = ticket.attendee;
    if (!document) return { ...base, result: 'id_required', ok: false, reason: 'idRequired', attendee };
    if (!(await matches(ticket.binding, issuer.doorKey, document))) return { ...base, result: 'wrong_person', ok: false, reason: 'wrongPerson', attendee };
    return { ...base, result: 'ok', ok: true, attendee };
  }
  return { ...base, result: 'ok', ok: true };
}

/** What `inside` becomes after an accepted scan. */
export function afterScan(inside, answer, direction) {
  if (!answer.ok || !answer.ticketId) return inside;
  const next = new Set(inside);
  if (direction === 'in') next.add(answer.ticketId); else next.delete(answer.ticketId);
  return next;
}

/**
 * Uploads the queued scans one by one (each with its own nonce, so an upload retried is the same
 * scan); returns {left: scans not yet sent (the network failed again), conflicts: scans let through
 * offline that the server refuses (another gate let the ticket in meanwhile, or it was refunded)}.
 */
export async function upload(queue, send) {
  const conflicts = [];
  for (let k = 0; k < queue.length; k++) {
    let answer;
    try { answer = await send(queue[k]); } catch { return { left: queue.slice(k), conflicts }; }
    if (queue[k].offlineResult === 'ok' && !answer.ok) conflicts.push({ scan: queue[k], server: answer });
  }
  return { left: [], conflicts };
}
