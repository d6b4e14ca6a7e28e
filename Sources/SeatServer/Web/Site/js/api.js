// @ts-check
// The public v1 API, nothing else. Errors arrive as application/problem+json and are thrown as
// ApiProblem with the document attached, so callers can name the seat or the rule.

/**
 * @typedef {{ type?: string, title?: string, status?: number, detail?: string, retryAfter?: number,
 *   errors?: { path: string, message: string }[], [member: string]: any }} Problem
 *   an application/problem+json document (RFC 9457), with the members SeatKit adds
 * @typedef {{ body?: any, headers?: Record<string, string>, as?: 'json' | 'text', retry?: boolean,
 *   cache?: RequestCache, timeout?: number }} RequestOptions
 */

export class ApiProblem extends Error {
  /** @param {number} status @param {Problem} problem */
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

let clockSkew = 0; // server clock minus ours, from the Date header (1 s resolution is enough for a countdown)
export const serverNow = () => Date.now() + clockSkew;

function noteServerTime(response, sentAt) {
  const date = Date.parse(response.headers.get('Date') || '');
  if (!Number.isNaN(date)) clockSkew = date + 500 - (sentAt + Date.now()) / 2;
}

export function randomKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');
}

/// One request; a network failure is retried once with the same idempotency key, so a hold or a
/// confirmation is never made twice by the retry.
/** @param {string} method @param {string} path @param {RequestOptions} options @returns {Promise<any>} */
export async function request(method, path, { body, headers = {}, as = 'json', retry = true, cache = 'no-store', timeout = 0 } = {}) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: { ...headers }, cache };
  // A deadline (`timeout` ms): the door's scan cannot wait for a server that does not answer.
  let timer;
  if (timeout > 0) {
    const abort = new AbortController();
    timer = setTimeout(() => abort.abort(), timeout);
    init.signal = abort.signal;
  }
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let response;
  const sentAt = Date.now();
  try {
    response = await fetch(path, init);
  } catch (error) {
    clearTimeout(timer);
    if (!retry) throw error;
    await new Promise(r => setTimeout(r, 300));
    return request(method, path, { body, headers, as, retry: false, cache, timeout });
  }
  clearTimeout(timer);
  noteServerTime(response, sentAt);
  if (!response.ok) {
    /** @type {Problem} */
    let problem = { title: response.statusText, status: response.status };
    try { problem = await response.json(); } catch { /* not a problem document */ }
    if (response.status === 429) problem.retryAfter = Number(response.headers.get('Retry-After') || 1);
    throw new ApiProblem(response.status, problem);
  }
  if (response.status === 204) return null;
  return as === 'text' ? response.text() : response.json();
}

const seg = encodeURIComponent;

/// The admission the show's waiting room gave this buyer (js/queue.js), sent with every new hold.
const admissions = new Map();
export const setAdmission = (showId, admission) => { if (admission) admissions.set(showId, admission); else admissions.delete(showId); };
const admissionHeader = showId => (admissions.has(showId) ? { 'Seat-Admission': admissions.get(showId) } : {});

/// A partner's page (`/shows/{id}?channel=KEY`): the channel's key, sent where the server answers from
/// the channel (its seats free, holds taken from it, best seats within it).
const channels = new Map();
export const setChannel = (showId, key) => { if (key) channels.set(showId, key); else channels.delete(showId); };
export const channelOf = showId => channels.get(showId) ?? null;
const channelHeader = showId => (channels.has(showId) ? { 'Seat-Channel': channels.get(showId) } : {});

export const api = {
  shows: () => request('GET', '/v1/shows'),
  venues: () => request('GET', '/v1/venues'),
  show: id => request('GET', `/v1/shows/${seg(id)}`),
  // The venue's geometry is immutable for its layout (cached a year under its fingerprint): the
  // browser's cache keeps it; the seat prices revalidate by ETag (a price change is a new revision).
  geometry: (venueId, lang) => request('GET', `/v1/venues/${seg(venueId)}/geometry?lang=${lang}`, { cache: 'default' }),
  seatPrices: (id, lang) => request('GET', `/v1/shows/${seg(id)}/seat-prices?lang=${lang}`, { cache: 'no-cache' }),
  availability: id => request('GET', `/v1/shows/${seg(id)}/availability`, { as: 'text', headers: channelHeader(id) }),
  best: (id, count, wheelchair) =>
    request('GET', `/v1/shows/${seg(id)}/best?count=${count}${wheelchair ? '&wheelchair=true' : ''}`, { headers: channelHeader(id) }),
  freeSeats: (id, lang) => request('GET', `/v1/shows/${seg(id)}/free-seats?lang=${lang}`),
  /// Seats by id and (`areas`, `{floor: 2}`) places of general-admission areas by count, all or none.
  createHold: (id, seats, wheelchair, areas = {}) =>
    request('POST', `/v1/shows/${seg(id)}/holds`, {
      body: Object.keys(areas).length ? { seats, wheelchair, areas } : { seats, wheelchair },
      headers: { 'Idempotency-Key': randomKey(), ...admissionHeader(id), ...channelHeader(id) },
    }),
  /// A place in the show's waiting room; `body`: the proof of work the room asks, a real-name show's document.
  joinQueue: (id, body = {}) => request('POST', `/v1/shows/${seg(id)}/queue`, Object.keys(body).length ? { body, retry: false } : { retry: false }),
  queueChallenge: id => request('GET', `/v1/shows/${seg(id)}/queue/challenge`),
  /// The show's waitlist (候补): join for `count` seats of a price category; an entry's state; leave.
  joinWaitlist: (id, price, count, prepay = undefined) =>
    request('POST', `/v1/shows/${seg(id)}/waitlist`, { body: { ...(price ? { price } : {}), count, ...(prepay ? { prepay } : {}) }, retry: false }),
  waitlistEntry: entry => request('GET', `/v1/waitlist/${seg(entry)}`),
  leaveWaitlist: entry => request('DELETE', `/v1/waitlist/${seg(entry)}`, { retry: false }),
  hold: token => request('GET', `/v1/holds/${seg(token)}`),
  queuePlace: (entry, after) => request('GET', `/v1/queue/${seg(entry)}${after ? `?after=${after}` : ''}`),
  /// Seats added and removed, and each area's places to have (`{floor: 0}`: none of it).
  changeHold: (token, add, remove, areas = {}) =>
    request('POST', `/v1/holds/${seg(token)}/seats`, { body: Object.keys(areas).length ? { add, remove, areas } : { add, remove }, retry: false }),
  extend: token => request('POST', `/v1/holds/${seg(token)}/extend`, { retry: false }),
  release: token => request('DELETE', `/v1/holds/${seg(token)}`, { retry: false }),
  tickets: token => request('GET', `/v1/holds/${seg(token)}/tickets`),
  /// A gate's scan (`POST /v1/checkin`) with the door operator's key, answered within `timeout` ms.
  /// `credentials`: the operator's `Authorization`, or a signed-in person's `X-CSRF-Token` (their cookie goes by itself).
  checkIn: (scan, credentials, timeout) =>
    request('POST', '/v1/checkin', { body: scan, headers: credentials, retry: false, timeout }),
  /// How a buyer pays here (`GET /v1/payments`): the providers and their methods; none, no payment.
  paymentOptions: () => request('GET', '/v1/payments', { cache: 'default' }),
  /// A payment for the hold (retried: the same payment, so a lost answer is asked again safely).
  checkout: (token, body) => request('POST', `/v1/holds/${seg(token)}/checkout`, { body }),
  /// A SetupIntent for the card form (Stripe.js collects the card into it; the card never comes here).
  cardSetup: token => request('POST', `/v1/holds/${seg(token)}/card-setup`, { retry: false }),
  /// The hold's payment charged to the card set up (`succeeded`, `processing` or `requires_action`).
  cardPayment: (token, setupIntent) => request('POST', `/v1/holds/${seg(token)}/card-payment`, { body: { setupIntent }, retry: false }),
  /// A real-name hold's attendees: saved ones of the buyer's attendee book (`{seat, saved}`) or typed.
  setAttendees: (token, attendees, book) =>
    request('PUT', `/v1/holds/${seg(token)}/attendees`, { body: book ? { attendees, book } : { attendees }, retry: false }),
  /// The buyer's attendee book (常用观演人): a token this browser keeps; saved attendees come back masked.
  newBook: () => request('POST', '/v1/attendee-books', { body: {}, retry: false }),
  book: token => request('GET', `/v1/attendee-books/${seg(token)}`),
  saveToBook: (token, attendee) => request('POST', `/v1/attendee-books/${seg(token)}/attendees`, { body: attendee, retry: false }),
  confirm: (token, orderRef) =>
    request('POST', `/v1/holds/${seg(token)}/confirm`, { body: { orderRef }, headers: { 'Idempotency-Key': randomKey() } }),
};
