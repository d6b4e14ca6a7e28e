// js/ticket.js: the door page's offline check of a ticket code, replaying the vectors SeatTickets
// writes (Tests/Web/Vectors/tickets/tickets.json, by WebTicketVectorsTests): every code the Swift issuer
// signed reads to the same ticket and verifies with its show's key; a changed character, a cut, another
// show's key or another format fails the same way in both.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTicket, verifyTicket, base32Decode, TicketCodeError } from '../../Sources/SeatServer/Web/Site/js/ticket.js';

const vectors = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'Vectors/tickets/tickets.json'), 'utf8'));

test('the issuer wrote vectors: good codes, changed ones, cut ones and not codes at all', () => {
  assert.ok(vectors.cases.filter(c => c.ticket).length >= 18);
  assert.ok(vectors.cases.filter(c => c.ticket === null).length >= 5);
  assert.ok(vectors.cases.filter(c => c.error).length >= 5);
});

test('every code reads and verifies as the Swift issuer says', async () => {
  for (const c of vectors.cases) {
    if (c.error) {
      assert.throws(() => readTicket(c.code), e => e instanceof TicketCodeError && e.kind === c.error, c.code);
      await assert.rejects(verifyTicket(c.code, c.publicKey), e => e.kind === c.error, c.code);
      continue;
    }
    const ticket = await verifyTicket(c.code, c.publicKey);
    assert.deepEqual(ticket, c.ticket, c.code);
    if (c.ticket) {
      const read = readTicket(c.code);
      assert.equal(read.signature.length, 64);
      assert.deepEqual({ show: read.show, seat: read.seat, seatName: read.seatName, id: read.id }, c.ticket);
    }
  }
});

test('base 32 has one spelling a byte string', () => {
  assert.deepEqual(Array.from(base32Decode('MZXW6YTBOI')), Array.from(new TextEncoder().encode('foobar')));
  assert.equal(base32Decode('MZXW6YTBOJ'), null);
  assert.equal(base32Decode('MZXW6YTB0I'), null);
  assert.equal(base32Decode('mzxw6ytboi'), null, 'readTicket upper-cases; the decoder itself does not');
});
