// The compact encodings of docs/formats/availability.md: `ska1` (every seat's status as runs) and
// `skd1` (the changes from one version to the next). Statuses are kept as one byte a seat.

export const STATUS = ['available', 'held', 'sold', 'blocked'];
const CODE = { a: 0, h: 1, s: 2, b: 3 };

/// `ska1;<fingerprint>;<version>;<count>;<runs>` → { fingerprint, version, statuses }.
export function decodeAvailability(text) {
  const parts = text.trim().split(';');
  if (parts.length !== 5 || parts[0] !== 'ska1') throw new Error(`not an availability encoding: ${text.slice(0, 40)}`);
  const count = Number(parts[3]);
  const statuses = new Uint8Array(count);
  let at = 0, length = '';
  for (const ch of parts[4]) {
    if (ch >= '0' && ch <= '9') { length += ch; continue; }
    const code = CODE[ch];
    const n = length === '' ? 1 : Number(length);
    if (code === undefined || at + n > count) throw new Error(`bad availability run "${length}${ch}" at seat ${at}`);
    statuses.fill(code, at, at + n);
    at += n; length = '';
  }
  if (at !== count) throw new Error(`availability covers ${at} of ${count} seats`);
  return { fingerprint: parts[1], version: Number(parts[2]), statuses };
}

/// `skd1;<from>;<to>;<seat><code>,…` → { from, to, changes: [[seat, status], …] }.
export function decodeDelta(text) {
  const parts = text.trim().split(';');
  if (parts.length !== 4 || parts[0] !== 'skd1') throw new Error(`not a delta: ${text.slice(0, 40)}`);
  const changes = parts[3] === '' ? [] : parts[3].split(',').map(item => {
    const code = CODE[item.slice(-1)];
    const seat = Number(item.slice(0, -1));
    if (code === undefined || !Number.isInteger(seat)) throw new Error(`bad delta entry "${item}"`);
    return [seat, code];
  });
  return { from: Number(parts[1]), to: Number(parts[2]), changes };
}
