// The waiting page's arithmetic, apart from the page (js/queue.js draws it): the countdown to the
// opening, the progress bar and the milestones a screen reader hears. No DOM, so node --test runs it.

/// The countdown to the opening, `mm:ss`, or `h:mm:ss` from an hour on; never below zero.
export function countdownText(seconds) {
  const s = Math.max(0, Math.ceil(seconds)), p = n => String(n).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${p(Math.floor(s / 60) % 60)}:${p(s % 60)}` : `${p(Math.floor(s / 60))}:${p(s % 60)}`;
}

/// The bar, 0–100: from the place first seen (`start` people ahead) to being let in, reaching the front
/// a step of it, so a buyer who is next sees it half full, not empty (an empty bar beside "You're next"
/// read as broken). Let in (or the room switched off): full; early, sold out or lapsed: empty.
export function progressPercent(place, start) {
  if (place.state === 'admitted' || place.queueOff) return 100;
  if (place.state !== 'waiting') return 0;
  return Math.max(0, Math.min(100, Math.round(100 * (start - place.ahead + 1) / (start + 2))));
}

/// The places ahead at which the page speaks: 1,000, 500, 100, 50 and 10.
export const milestones = [1000, 500, 100, 50, 10];

/// Whether the page speaks now: on the first place it sees, then once each milestone is crossed.
export function speaksAt(ahead, lastAhead) {
  if (lastAhead === null) return true;
  return milestones.some(m => ahead <= m && lastAhead > m);
}

/// Whether an answer is news: the room's revision it reflects is not older than the last one shown.
/// A page whose requests reach two instances (or a stream and a poll) hears answers out of order; an
/// older one would move the place back (positions rose by 2, admitted pages read waiting again).
export function isNewer(place, shownRevision) {
  return shownRevision === null || (place.revision ?? 0) >= shownRevision;
}

/// Whole minutes an admission still lasts (`admittedUntil`, ISO) at `now` (ms), at least 1 while it
/// lasts: the buyer is told how long they have to pick seats.
export function admissionMinutesLeft(admittedUntil, now) {
  const left = Date.parse(admittedUntil) - now;
  return left <= 0 ? 0 : Math.max(1, Math.floor(left / 60000));
}

/// An instant (ms) as a local ISO time ("2026-12-24T18:30") on the clock `startsAt` is written in (its
/// offset, or UTC for a start written with Z); without a start, on this browser's clock. The waiting
/// page printed the show's 19:30 beside an admission deadline on another clock.
export function onClockOf(instant, startsAt) {
  const p = n => String(n).padStart(2, '0');
  const m = /(Z|([+-])(\d{2}):(\d{2}))$/.exec(startsAt ?? '');
  if (!m) {
    const d = new Date(instant);
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
  }
  const offset = m[1] === 'Z' ? 0 : (m[2] === '-' ? -1 : 1) * (Number(m[3]) * 60 + Number(m[4]));
  return new Date(instant + offset * 60_000).toISOString().slice(0, 16);
}
