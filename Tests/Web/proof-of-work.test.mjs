// js/proof-of-work.js: the browser's SHA-256 and solver agree with ProofOfWork.swift, fed with the
// vectors Swift writes (Tests/Web/Vectors/queue/proof-of-work.json).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isSolved, prefixHasher, sha256Hex, solve, zeroBits } from '../../Sources/SeatServer/Web/Site/js/proof-of-work.js';

const vectors = JSON.parse(readFileSync(new URL('./Vectors/queue/proof-of-work.json', import.meta.url), 'utf8'));

test('SHA-256 matches libcrypto on texts around the block edges', () => {
  assert.ok(vectors.digests.length >= 9);
  for (const v of vectors.digests) assert.equal(sha256Hex(v.text), v.sha256, `"${v.text.slice(0, 10)}…" (${v.text.length})`);
});

test('the work of a solution is the server\'s count of leading zero bits', () => {
  for (const c of vectors.challenges) {
    const hash = prefixHasher(c.challenge);
    for (const w of c.work) assert.equal(zeroBits(hash(w.solution)), w.bits, `${c.challenge.slice(0, 20)} ${w.solution}`);
  }
});

test('the solver finds the smallest solution Swift finds, and only digits solve', async () => {
  for (const c of vectors.challenges) {
    let slices = 0;
    const found = await solve(c.challenge, c.bits, { slice: 50, progress: () => { slices += 1; }, pause: async () => {} });
    assert.equal(found, c.smallest);
    assert.ok(isSolved(c.challenge, found, c.bits));
    assert.equal(slices, Math.floor(Number(c.smallest) / 50), 'it pauses between slices');
    assert.equal(isSolved(c.challenge, `${found}a`, 0), false);
    assert.equal(isSolved(c.challenge, '', 0), false);
  }
});
