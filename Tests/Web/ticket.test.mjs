// js/ticket.js: the door page's offline check of a ticket code, replaying the vectors SeatTickets
// writes (Tests/Web/Vectors/tickets/tickets.json, by WebTicketVectorsTests): every code the Swift issuer
// signed reads to the same ticket and verifies with its show's key; a changed character, a cut, another
// show's key or another format fails the same way in both.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  readTicket, verifyTicket, base32Decode, TicketCodeError, documentMatches, normalizedDocument,
} from '../../Sources/SeatServer/Web/Site/js/ticket.js';

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
      assert.deepEqual(
        { show: read.show, seat: read.seat, seatName: read.seatName, id: read.id, binding: read.binding, attendee: read.attendee }, c.ticket);
    }
  }
});

test('base 32 has one spelling a byte string', () => {
  assert.deepEqual(Array.from(base32Decode('MZXW6YTBOI')), Array.from(new TextEncoder().encode('foobar')));
  assert.equal(base32Decode('MZXW6YTBOJ'), null);
  assert.equal(base32Decode('MZXW6YTB0I'), null);
  assert.equal(base32Decode('mzxw6ytboi'), null, 'readTicket upper-cases; the decoder itself does not');
});

test('offline, the door decides as the server does and keeps what it let in', async () => {
  const { decideOffline, afterScan, upload } = await import('../../Sources/SeatServer/Web/Site/js/door-offline.js');
  const good = vectors.cases.filter(c => c.ticket && c.ticket.show === 'show');
  const other = vectors.cases.find(c => c.ticket && c.ticket.show !== 'show');
  const issuers = { show: { publicKey: good[0].publicKey, revoked: [good[1].ticket.id] }, [other.ticket.show]: { publicKey: other.publicKey, revoked: [] } };
  let inside = new Set();
  const decide = (code, direction = 'in') => decideOffline(code, { shows: ['show'], issuers, inside, direction });
  const first = await decide(good[0].code);
  assert.equal(first.result, 'ok');
  assert.equal(first.seat, good[0].ticket.seatName);
  inside = afterScan(inside, first, 'in');
  assert.equal((await decide(good[0].code)).result, 'already_in');
  assert.equal((await decide(good[1].code)).result, 'revoked');
  assert.equal((await decide(other.code)).result, 'wrong_show', "another show's real ticket");
  const altered = vectors.cases.find(c => c.ticket === null && c.publicKey === good[0].publicKey && !c.code.endsWith(good[0].code.slice(-4)));
  assert.equal((await decide(altered?.code ?? 'SK1')).result, 'invalid');
  assert.equal((await decide('QR-1')).reason, 'notATicket');
  assert.equal((await decide(good[2].code, 'out')).result, 'not_in');
  inside = afterScan(inside, await decide(good[0].code, 'out'), 'out');
  assert.equal(inside.size, 0);
  // Uploaded in order; a scan let through offline that the server refuses is a conflict; a network
  // failure keeps the rest for later.
  const queue = [{ nonce: 'a', offlineResult: 'ok' }, { nonce: 'b', offlineResult: 'ok' }, { nonce: 'c', offlineResult: 'ok' }];
  let calls = 0;
  const result = await upload(queue, async scan => {
    calls += 1;
    if (scan.nonce === 'c') throw new TypeError('Failed to fetch');
    return scan.nonce === 'b' ? { ok: false, result: 'already_in' } : { ok: true, result: 'ok' };
  });
  assert.equal(calls, 3);
  assert.deepEqual(result.left.map(s => s.nonce), ['c']);
  assert.deepEqual(result.conflicts.map(c => [c.scan.nonce, c.server.result]), [['b', 'already_in']]);
});

const door = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'Vectors/tickets/door.json'), 'utf8'));

test('a real-name ticket carries its binding and masked attendee, read as Swift wrote them', () => {
  const bound = vectors.cases.filter(c => c.ticket && c.ticket.binding);
  assert.equal(bound.length, 2);
  assert.deepEqual(bound.map(c => c.ticket.attendee), ['王*明', 'A*** ******t']);
  assert.ok(vectors.cases.filter(c => c.ticket && c.ticket.binding === null).length >= 18, 'format 1 tickets have none');
});

test('a document typed or read matches its binding however it is typed, another does not', async () => {
  assert.equal(normalizedDocument(' 110105 19491231 002x\n'), '11010519491231002X');
  assert.equal(normalizedDocument('１１０-１０５'), '110105');
  for (const c of door.cases) assert.equal(await documentMatches(c.binding, door.doorKey, c.typed), c.matches, JSON.stringify(c));
  assert.equal(await documentMatches(door.cases[0].binding, door.doorKey, ''), false);
});

test("offline, a real-name ticket needs its attendee's document; one sold without a name is unbound", async () => {
  const { decideOffline } = await import('../../Sources/SeatServer/Web/Site/js/door-offline.js');
  const bound = vectors.cases.find(c => c.ticket && c.ticket.binding === door.cases[0].binding);
  const plain = vectors.cases.find(c => c.ticket && c.ticket.show === 'show' && !c.ticket.binding);
  const issuers = { show: { publicKey: bound.publicKey, revoked: [], doorKey: door.doorKey } };
  const decide = (code, document) => decideOffline(code, { shows: ['show'], issuers, inside: new Set(), document });
  const ask = await decide(bound.code, null);
  assert.deepEqual([ask.result, ask.reason, ask.attendee], ['id_required', 'idRequired', '王*明']);
  assert.equal((await decide(bound.code, '110105194912310021')).result, 'wrong_person');
  assert.equal((await decide(bound.code, '11010519491231002x')).result, 'ok');
  assert.equal((await decide(plain.code, '11010519491231002X')).result, 'unbound');
  const noRealName = { show: { publicKey: bound.publicKey, revoked: [] } };
  assert.equal((await decideOffline(plain.code, { shows: ['show'], issuers: noRealName, inside: new Set() })).result, 'ok', 'a show without real names');
});
