// @ts-check
// A SeatKit ticket code read and checked in the browser, by the rules of SeatTickets' TicketCode
// (Swift): `SK1` and the base 32 (RFC 4648, no padding) of the payload — format 1, the 8-byte ticket
// id, the seat as a LEB128 varint, the show's id and the seat's printed name (each a length byte and
// UTF-8) — then the 64-byte Ed25519
// signature of `seatkit-ticket` U+001F and the payload by the show's key. Format 2 is a real-name
// ticket's: 8 bytes of its attendee's door binding after the id, and the attendee's masked name as a
// third text. The door page checks codes with this when the network is gone; Tests/Web/ticket.test.mjs
// replays the vectors Swift writes.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const DOMAIN = new TextEncoder().encode('seatkit-ticket\u001f');
export const PREFIX = 'SK1';

/** Why a code is not a ticket: `notATicket`, `truncated` or `unknownFormat`. */
export class TicketCodeError extends Error {
  constructor(kind, message) { super(message); this.kind = kind; }
}

/** The bytes of upper-case, unpadded base 32; null for another character, a length no encoding makes, or stray bits. */
export function base32Decode(text) {
  const out = [];
  let buffer = 0, bits = 0;
  for (const c of text) {
    const v = ALPHABET.indexOf(c);
    if (v < 0) return null;
    buffer = ((buffer << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) { bits -= 8; out.push((buffer >> bits) & 0xff); }
  }
  if (bits >= 5 || (buffer & ((1 << bits) - 1)) !== 0) return null;
  return Uint8Array.from(out);
}

const hex = bytes => Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');

export function hexBytes(text) {
  const out = new Uint8Array(text.length / 2);
  for (let k = 0; k < out.length; k++) out[k] = parseInt(text.slice(2 * k, 2 * k + 2), 16);
  return out;
}

/** The ticket a code carries, unchecked: `{show, seat, id, payload, signature}`; throws TicketCodeError. */
export function readTicket(code) {
  const text = String(code).trim().toUpperCase();
  if (!text.startsWith(PREFIX)) throw new TicketCodeError('notATicket', 'not a SeatKit ticket code');
  const bytes = base32Decode(text.slice(PREFIX.length));
  if (!bytes) throw new TicketCodeError('notATicket', 'not a SeatKit ticket code');
  if (bytes.length < 1 + 8 + 3 + 64) throw new TicketCodeError('truncated', 'the ticket code is cut short');
  if (bytes[0] !== 1 && bytes[0] !== 2) throw new TicketCodeError('unknownFormat', `a ticket code of format ${bytes[0]}`);
  const bound = bytes[0] === 2;
  const payload = bytes.slice(0, bytes.length - 64), signature = bytes.slice(bytes.length - 64);
  if (bound && payload.length < 17 + 4) throw new TicketCodeError('truncated', 'the ticket code is cut short');
  let at = bound ? 17 : 9, seat = 0, shift = 0;
  for (;;) {
    if (at >= payload.length || shift >= 35) throw new TicketCodeError('truncated', 'the ticket code is cut short');
    const b = payload[at++];
    seat += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b & 0x80) === 0) break;
  }
  const texts = [];
  for (let k = 0; k < (bound ? 3 : 2); k++) {
    if (at >= payload.length || at + 1 + payload[at] > payload.length) throw new TicketCodeError('truncated', 'the ticket code is cut short');
    try { texts.push(new TextDecoder('utf-8', { fatal: true }).decode(payload.slice(at + 1, at + 1 + payload[at]))); } catch {
      throw new TicketCodeError('truncated', 'the ticket code is cut short');
    }
    at += 1 + payload[at];
  }
  if (at !== payload.length || !texts[0]) throw new TicketCodeError('truncated', 'the ticket code is cut short');
  const binding = bound ? hex(payload.slice(9, 17)) : null;
  return { show: texts[0], seat, seatName: texts[1], id: hex(payload.slice(1, 9)), binding, attendee: bound ? texts[2] : '', payload, signature };
}

/** The document types a door tries a typed or read number as (SeatMap's IdentityDocument.Kind). */
export const DOCUMENT_TYPES = ['idCard', 'passport', 'hkMacauPermit', 'taiwanPermit', 'militaryID'];

/** A number as typed or read, written as SeatMap's IdentityDocument.normalized: half-width, upper case, no spaces or dashes. */
export function normalizedDocument(text) {
  let out = '';
  for (const ch of String(text)) {
    if (/\s/u.test(ch) || ch === '-') continue;
    const c = ch.codePointAt(0);
    out += (c >= 0xff01 && c <= 0xff5e ? String.fromCodePoint(c - 0xfee0) : ch).toUpperCase();
  }
  return out;
}

/**
 * Whether the number typed or read is the document a real-name ticket is bound to: HMAC-SHA-256 under the
 * show's door key (hex) of `seatkit-door-id` U+001F and `type:NUMBER`, its first 8 bytes against the
 * ticket's binding, for each document type.
 */
export async function documentMatches(bindingHex, doorKeyHex, typed, subtle = globalThis.crypto.subtle) {
  const number = normalizedDocument(typed);
  if (!bindingHex || !doorKeyHex || !number) return false;
  const key = await subtle.importKey('raw', hexBytes(doorKeyHex), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  for (const type of DOCUMENT_TYPES) {
    const mac = new Uint8Array(await subtle.sign('HMAC', key, new TextEncoder().encode(`seatkit-door-id\u001f${type}:${number}`)));
    if (hex(mac.slice(0, 8)) === bindingHex) return true;
  }
  return false;
}

/** The ticket if `publicKeyHex` (the show's key) signed the code, else null; throws TicketCodeError for a code that is not one. */
export async function verifyTicket(code, publicKeyHex, subtle = globalThis.crypto.subtle) {
  const ticket = readTicket(code);
  const key = await subtle.importKey('raw', hexBytes(publicKeyHex), { name: 'Ed25519' }, false, ['verify']);
  const message = new Uint8Array(DOMAIN.length + ticket.payload.length);
  message.set(DOMAIN); message.set(ticket.payload, DOMAIN.length);
  const ok = await subtle.verify({ name: 'Ed25519' }, key, ticket.signature, message);
  return ok ? { show: ticket.show, seat: ticket.seat, seatName: ticket.seatName, id: ticket.id, binding: ticket.binding, attendee: ticket.attendee } : null;
}
