// The waiting room's proof of work in the browser (docs/API.md, Waiting room): find decimal digits s
// such that SHA-256(challenge "." s) starts with `bits` zero bits — the rule ProofOfWork.swift checks,
// tested against vectors it writes (Tests/Web/Vectors/queue/proof-of-work.json). SHA-256 is written out
// here because crypto.subtle answers one promise a hash (some 40,000 a second; 20 bits ask a million):
// this runs synchronously in slices, with the challenge's full 64-byte blocks hashed once (its midstate).

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const w = new Uint32Array(64);

/// One 64-byte block of `bytes` at `offset` into `state` (eight words, changed in place).
function compress(state, bytes, offset) {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15], b = w[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let [a, b, c, d, e, f, g, h] = state;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0; state[1] = (state[1] + b) | 0; state[2] = (state[2] + c) | 0; state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0; state[5] = (state[5] + f) | 0; state[6] = (state[6] + g) | 0; state[7] = (state[7] + h) | 0;
}

const utf8 = text => new TextEncoder().encode(text);

/// The leading zero bits of a digest given as eight 32-bit words.
export function zeroBits(state) {
  let n = 0;
  for (const word of state) {
    const v = word >>> 0;
    if (v === 0) { n += 32; continue; }
    return n + Math.clz32(v);
  }
  return n;
}

/// A hasher for `challenge "." s`: the challenge's whole blocks hashed once, each s costing the last one or two.
export function prefixHasher(challenge) {
  const head = utf8(challenge + '.');
  const whole = head.length - (head.length % 64);
  const mid = Uint32Array.from(INITIAL);
  for (let o = 0; o < whole; o += 64) compress(mid, head, o);
  const rest = head.subarray(whole);
  const block = new Uint8Array(128);
  const state = new Uint32Array(8);
  /// The digest (eight words) of the challenge, ".", then the ASCII digits of `s`.
  return s => {
    const digits = String(s);
    const n = rest.length + digits.length;
    block.fill(0);
    block.set(rest);
    for (let i = 0; i < digits.length; i++) block[rest.length + i] = digits.charCodeAt(i);
    block[n] = 0x80;
    const blocks = n + 9 <= 64 ? 1 : 2;
    const bitLength = (head.length + digits.length) * 8;
    const end = blocks * 64;
    block[end - 4] = (bitLength >>> 24) & 0xff; block[end - 3] = (bitLength >>> 16) & 0xff;
    block[end - 2] = (bitLength >>> 8) & 0xff; block[end - 1] = bitLength & 0xff;
    state.set(mid);
    compress(state, block, 0);
    if (blocks === 2) compress(state, block, 64);
    return state;
  };
}

/// SHA-256 of `text`, hex (the vectors check the hasher itself).
export function sha256Hex(text) {
  const bytes = utf8(text);
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const bits = bytes.length * 8;
  const end = padded.length;
  padded[end - 4] = (bits >>> 24) & 0xff; padded[end - 3] = (bits >>> 16) & 0xff; padded[end - 2] = (bits >>> 8) & 0xff; padded[end - 1] = bits & 0xff;
  padded[end - 5] = Math.floor(bits / 2 ** 32) & 0xff;
  const state = Uint32Array.from(INITIAL);
  for (let o = 0; o < end; o += 64) compress(state, padded, o);
  return Array.from(state, v => (v >>> 0).toString(16).padStart(8, '0')).join('');
}

/// Whether `solution` solves `challenge` at `bits` (the server's rule: 1 to 20 decimal digits).
export function isSolved(challenge, solution, bits) {
  if (!/^[0-9]{1,20}$/.test(solution)) return false;
  return zeroBits(prefixHasher(challenge)(solution)) >= bits;
}

/// Finds the smallest solution, `slice` tries at a time between pauses (so the page keeps answering);
/// `progress(tried)` after each slice. Resolves to the solution's digits.
export async function solve(challenge, bits, { slice = 20000, progress = () => {}, pause = () => new Promise(r => setTimeout(r, 0)) } = {}) {
  const hash = prefixHasher(challenge);
  for (let s = 0; ; s += slice) {
    for (let k = s; k < s + slice; k++) {
      if (zeroBits(hash(k)) >= bits) return String(k);
    }
    progress(s + slice);
    await pause();
  }
}
