// @ts-check
// A real-name show's attendees (实名制): which saved attendee sits in which seat, and a mainland ID card
// number's check as SeatMap's IdentityDocument makes it (GB 11643), so the page says a digit is mistyped
// before the server does. No DOM; Tests/Web/attendee-pick.test.mjs replays the numbers Swift checked.

/** The document types a show may take, as the server names them. */
export const DOCUMENT_TYPES = ['idCard', 'passport', 'hkMacauPermit', 'taiwanPermit', 'militaryID'];

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];

/** A number as the server reads it: half-width, upper case, without spaces or dashes. @param {string} text */
export function normalized(text) {
  let out = '';
  for (const ch of String(text)) {
    if (/\s/u.test(ch) || ch === '-') continue;
    const c = ch.codePointAt(0) ?? 0;
    out += (c >= 0xff01 && c <= 0xff5e ? String.fromCodePoint(c - 0xfee0) : ch).toUpperCase();
  }
  return out;
}

/**
 * Why an ID card number is not one (`length`, `characters`, `birthDate`, `checkDigit`), or null when it is.
 * @param {string} text
 * @returns {null | { problem: string, expected?: string }}
 */
export function idCardProblem(text) {
  const n = normalized(text);
  if (n.length !== 18) return { problem: 'length' };
  if (!/^[0-9]{17}[0-9X]$/.test(n)) return { problem: 'characters' };
  const year = +n.slice(6, 10), month = +n.slice(10, 12), day = +n.slice(12, 14);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (year < 1900 || year > 2100 || !days || day < 1 || day > days) return { problem: 'birthDate' };
  let sum = 0;
  for (let k = 0; k < 17; k++) sum += (n.charCodeAt(k) - 48) * WEIGHTS[k];
  const expected = '10X98765432'[sum % 11];
  return n[17] === expected ? null : { problem: 'checkDigit', expected };
}

/**
 * The hold's attendees from the saved ones picked, in seat order: `{seat, saved}` each (perTicket: as many as seats;
 * perOrder: the first one picked, for the order). Null when the count does not fit.
 * @param {string[]} seats @param {string[]} picked saved attendees' ids, in the order picked
 * @param {'perTicket' | 'perOrder'} mode
 */
export function assignment(seats, picked, mode) {
  if (mode === 'perOrder') return picked.length === 1 && seats.length > 0 ? [{ seat: seats[0], saved: picked[0] }] : null;
  if (picked.length !== seats.length) return null;
  return seats.map((seat, k) => ({ seat, saved: picked[k] }));
}

/** How many attendees a hold of `seats` seats needs. @param {number} seats @param {'perTicket' | 'perOrder'} mode */
export const needed = (seats, mode) => (mode === 'perOrder' ? 1 : seats);

/** A show's real-name mode from its details (`"perTicket"` or `{mode: …}`); null without one. @param {any} details */
export function realNameMode(details) {
  const r = details?.realName;
  const mode = typeof r === 'string' ? r : r?.mode;
  return mode === 'perTicket' || mode === 'perOrder' ? mode : null;
}
