import Foundation
import LoopbackHTTP
import SeatMap
@testable import SeatServer
import SeatServerTestSupport
import Testing
@testable import SeatSecrets
@testable import SeatStorage
import SeatHTTP

/// Hold tokens and idempotency answers at rest; the admin key; text with control characters.
@Suite(.serialized) struct SecretsTests {
    @Test func sha256MatchesTheFIPSVectors() {
        #expect(SHA256.hex(SHA256.hash("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(SHA256.hash("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(SHA256.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // 1,000,000 × "a" crosses many blocks and the 56-byte padding edge on the way.
        var h = SHA256()
        for _ in 0..<1000 { h.update(String(repeating: "a", count: 1000)) }
        #expect(SHA256.hex(h.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// The stack-padded digest of short tokens is the general hasher's, at every length up to and past
    /// its two blocks (the 55/56 and 119/120-byte padding edges), for ASCII and for other scripts.
    /// RFC 4231 test cases 1, 2, 4 and 6 (a key longer than the block), and the verifier refuses a code
    /// with one bit changed or cut short.
    @Test func hmacMatchesRFC4231() {
        func bytes(_ hex: String) -> [UInt8] {
            var out: [UInt8] = []
            var i = hex.startIndex
            while i < hex.endIndex {
                let j = hex.index(i, offsetBy: 2)
                out.append(UInt8(hex[i..<j], radix: 16)!)
                i = j
            }
            return out
        }
        let cases: [([UInt8], [UInt8], String)] = [
            (Array(repeating: 0x0b, count: 20), Array("Hi There".utf8), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            (
                bytes("0102030405060708090a0b0c0d0e0f10111213141516171819"), Array(repeating: 0xcd, count: 50),
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                Array(repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
        ]
        for (key, message, expected) in cases {
            let code = HMACSHA256.code(key: key, message: message)
            #expect(SHA256.hex(code) == expected)
            #expect(HMACSHA256.verify(code, key: key, message: message))
            var flipped = code
            flipped[31] ^= 1
            #expect(!HMACSHA256.verify(flipped, key: key, message: message) && !HMACSHA256.verify(Array(code.prefix(16)), key: key, message: message))
        }
    }

    @Test func theShortTokenDigestIsTheGeneralOne() {
        var random = SystemRandomNumberGenerator()
        for length in 0...140 {
            let ascii = String((0..<length).map { _ in "0123456789abcdef".randomElement(using: &random)! })
            #expect(Secrets.tokenDigest(ascii) == Secrets.slowTokenDigest(ascii), "length \(length)")
        }
        for token in ["票", "票票票票票票票票", "0123456789a票bcdef", "0123456789ab票", String(repeating: "é", count: 60)] {
            #expect(Secrets.tokenDigest(token) == Secrets.slowTokenDigest(token), "\(token)")
        }
        // Pinned: a digest the stores already hold must not change.
        #expect(
            Secrets.tokenDigest("019a1b2c3d4e5f60718293a4b5c6d7e8f9") == "019a1b2c3d4e"
                + SHA256.hex(Array(SHA256.hash("seatkit-hold-token\u{1F}019a1b2c3d4e5f60718293a4b5c6d7e8f9").prefix(20))))
    }

    @Test func idempotencyKeysMustCarry128Bits() {
        for good in [
            UUID().uuidString, UUID().uuidString.lowercased(), String(repeating: "ab", count: 16), "k1-0123456789abcdef0123456789abcdef",
            String(repeating: "x", count: 200),
        ] {
            #expect(Secrets.idempotencyKeyProblem(good) == nil, "\(good)")
        }
        for bad in [
            "", "k-1", "pay-1", String(repeating: "a", count: 31), "0123456789abcdef0123456789abcde", "Zm9vYmFyYmF6cXV4cXV1eA",
            "has space in it 0123456789abcdef",
            String(repeating: "x", count: 201), "ключ-0123456789abcdef0123456789abcdef",
        ] {
            #expect(Secrets.idempotencyKeyProblem(bad) != nil, "\(bad)")
        }
    }

    @Test func sealingIsUndoneOnlyWithTheSameKey() {
        let body = Array(#"{"token":"0190aabbccdd0123456789abcdef0123456789abcdef"}"#.utf8)
        let sealed = Secrets.seal(body, scope: "hold:show", key: "k1-0123456789abcdef0123456789abcdef")
        #expect(sealed != body && sealed.count == body.count)
        #expect(Secrets.seal(sealed, scope: "hold:show", key: "k1-0123456789abcdef0123456789abcdef") == body)
        #expect(Secrets.seal(sealed, scope: "hold:show", key: "k2-0123456789abcdef0123456789abcdef") != body)
        #expect(Secrets.seal(sealed, scope: "hold:other", key: "k1-0123456789abcdef0123456789abcdef") != body)
    }

    /// An unset `$KEY` in a deploy script: the server must not start (before, an empty `X-Admin-Key:`
    /// header then created shows).
    @Test func anEmptyOrShortAdminKeyIsRefusedAtStart() throws {
        for key in ["", "short", "fifteen-chars!!", "sixteen chars no"] {
            var options = SeatServerApp.Options(adminKey: key)
            options.port = 0
            options.store = "sqlite:" + FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-key-\(UUID().uuidString).db").path
            #expect(throws: ServerError.self, "\(key.debugDescription)") { _ = try SeatServerApp(options: options) }
            #expect(!FileManager.default.fileExists(atPath: String(options.store.dropFirst(7))), "no store is made for a refused key")
        }
        #expect(AdminKey.problem(with: "sixteen-chars-ok") == nil)
    }

    @Test(arguments: StoreBackend.available) func emptyAdminHeadersAreNotAdmin(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        for header in [("X-Admin-Key", ""), ("Authorization", "Bearer "), ("Authorization", "Bearer")] {
            let r = try c.request(
                "POST", "/v1/shows", json: #"{"id":"x","venueId":"cinema-hall-3","startsAt":"2099-01-01T00:00:00Z","prices":{"categories":{"standard":"1"}}}"#,
                headers: [header])
            #expect(r.status == 401 && r.string("type") == "/problems/admin-key-required", "\(header): \(r.status)")
        }
        #expect(try c.request("GET", "/v1/shows/x").status == 404)
    }

    /// A NUL was accepted, echoed whole, stored cut off, and the same confirmation then answered 409.
    @Test(arguments: StoreBackend.available) func controlCharactersInTextAre422NamingTheField(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let token = try #require(try hold(c, ["7-1", "7-2"]).string("token"))
        for (body, field) in [(#"{"orderRef":"A\u0000B"}"#, "orderRef"), (#"{"orderRef":"A\nB"}"#, "orderRef"), (#"{"orderRef":"A\u009fB"}"#, "orderRef")] {
            let r = try c.request("POST", "/v1/holds/\(token)/confirm", json: body)
            #expect(r.status == 422 && r.string("type") == "/problems/invalid-body", "\(body): \(r.status) \(r.text)")
            let path = r.json?["errors"]?.arrayValue?.first?.objectValue?["path"]?.stringValue
            #expect(path == field && r.text.contains("control character"), "\(r.text)")
        }
        let held = try c.request("POST", "/v1/shows/show/holds", json: #"{"seats":["5-1\u0000"]}"#)
        #expect(held.status == 422 && held.json?["errors"]?.arrayValue?.first?.objectValue?["path"]?.stringValue == "seats[0]", "\(held.text)")
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let show = try c.request(
            "POST", "/v1/shows",
            json:
                #"{"id":"s\u0000","venueId":"cinema-hall-3","startsAt":"2099-01-01T00:00:00Z","prices":{"categories":{"standard":"1","vip":"2","couple":"3"}}}"#,
            headers: admin)
        #expect(show.status == 422 && show.text.contains("\"path\":\"id\""), "\(show.text)")
        #expect(try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"A-B"}"#).status == 200)
        #expect(try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"A-B"}"#).status == 200, "the same confirmation again")
        #expect(try server.availability().counts.sold == 2)
    }

    /// schemathesis (seed 20261201) sent a 65-character seat id to a released hold and got 410: the
    /// hold's state was looked at before the body. A malformed seat id is one 422 naming it, whatever
    /// the hold's state, in every body that lists seats.
    @Test(arguments: StoreBackend.available) func malformedSeatIDsAre422BeforeTheHoldsState(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let token = try #require(try hold(c, ["7-1", "7-2"]).string("token"))
        #expect(try c.request("DELETE", "/v1/holds/\(token)").status == 204)
        let long = String(repeating: "0", count: 65)
        for (body, field) in [
            (#"{"add":["7-3"],"remove":["\#(long)"]}"#, "remove[0]"), (#"{"add":[""]}"#, "add[0]"),
            (#"{"add":["7-3","7-4\u0001"]}"#, "add[1]"),
        ] {
            let r = try c.request("POST", "/v1/holds/\(token)/seats", json: body)
            let path = r.json?["errors"]?.arrayValue?.first?.objectValue?["path"]?.stringValue
            #expect(r.status == 422 && path == field, "\(body): \(r.status) \(r.text)")
        }
        #expect(try c.request("POST", "/v1/holds/\(token)/seats", json: #"{"add":["7-3"]}"#).status == 410, "a well-formed change")
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        for (path, body) in [
            ("/v1/shows/show/holds", #"{"seats":["\#(long)"]}"#),
            ("/v1/shows/show/reservations", #"{"kind":"blocked","seats":["\#(long)"],"reason":"broken"}"#),
            ("/v1/shows/show/sales", #"{"seats":["\#(long)"],"orderRef":"BOX-1","payment":"cash"}"#),
        ] {
            let r = try c.request("POST", path, json: body, headers: admin)
            let field = r.json?["errors"]?.arrayValue?.first?.objectValue?["path"]?.stringValue
            #expect(r.status == 422 && field == "seats[0]" && r.text.contains("at most 64 characters"), "\(path): \(r.status) \(r.text)")
        }
        #expect(try server.availability().counts.held == 0)
    }

    /// The contract's maxLength counts code points (JSON Schema), not UTF-8 bytes or grapheme clusters,
    /// and its "something not blank" pattern counts line separators as blank.
    @Test(arguments: StoreBackend.available) func lengthsAreCountedAsTheContractCountsThem(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let blank = try c.request(
            "POST", "/v1/shows/show/reservations", json: #"{"kind":"blocked","seats":["7-1"],"reason":"\u2028"}"#, headers: admin)
        #expect(blank.status == 422 && blank.text.contains("\"path\":\"reason\""), "\(blank.text)")
        let combining = String(repeating: "e\u{301}", count: 101)  // 101 characters, 202 code points
        let long = try c.request("POST", "/v1/shows/show/reservations", json: #"{"kind":"blocked","seats":["7-1"],"reason":"\#(combining)"}"#, headers: admin)
        #expect(long.status == 422 && long.text.contains("\"path\":\"reason\""), "\(long.text)")
        let token = try #require(try hold(c, ["7-1", "7-2"]).string("token"))
        let ref = String(repeating: "票", count: 128)  // 384 bytes, 128 code points: within the contract
        let confirmed = try c.request("POST", "/v1/holds/\(token)/confirm", json: #"{"orderRef":"\#(ref)"}"#)
        #expect(confirmed.status == 200 && confirmed.string("orderRef") == ref, "\(confirmed.status) \(confirmed.text)")
        #expect(try server.availability().counts.sold == 2)
    }

    @Test(arguments: StoreBackend.available) func shortIdempotencyKeysAreA400(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let c = try server.connection()
        let r = try hold(c, ["7-1", "7-2"], headers: [("Idempotency-Key", "k-1")])
        #expect(r.status == 400 && r.string("type") == "/problems/bad-idempotency-key", "\(r.text)")
        #expect(try server.availability().counts.held == 0)
    }

    /// Everything a copy of the database holds: no hold token, no idempotency key, no kept answer in
    /// the clear; yet the holder's retry is still answered from the kept answer.
    @Test func aCopyOfTheDatabaseYieldsNoToken() throws {
        let server = try TestServer(backend: .sqlite)
        let c = try server.connection()
        let key = UUID().uuidString
        let first = try hold(c, ["7-1", "7-2"], headers: [("Idempotency-Key", key)])
        let token = try #require(first.string("token"))
        let confirmKey = UUID().uuidString
        let other = try #require(try hold(c, ["8-1", "8-2"]).string("token"))
        #expect(try c.request("POST", "/v1/holds/\(other)/confirm", json: #"{"orderRef":"O-1"}"#, headers: [("Idempotency-Key", confirmKey)]).status == 200)
        server.app.stop()  // everything committed, the log checkpointed or not: both files are read
        let path = String(server.storeURL.dropFirst("sqlite:".count))
        var bytes = [UInt8]()
        for file in [path, path + "-wal"] { if let d = FileManager.default.contents(atPath: file) { bytes += d } }
        #expect(bytes.count > 4096)
        for secret in [token, other, key, confirmKey, String(token.dropFirst(12)), String(other.dropFirst(12))] {
            #expect(!contains(bytes, Array(secret.utf8)), "the store holds \(secret)")
        }
        // The digest is there (the store can find the hold when its holder shows the token).
        #expect(contains(bytes, Array(Secrets.tokenDigest(token).utf8)))
        try server.restart()
        let retry = try server.connection()
        let again = try hold(retry, ["7-1", "7-2"], headers: [("Idempotency-Key", key)])
        #expect(again.status == 201 && again.headers["idempotent-replayed"] == "true" && again.string("token") == token)
        #expect(try retry.request("GET", "/v1/holds/\(token)").status == 200)
        // A retry with the same body and a different key is a new request: here, seats taken.
        #expect(try hold(retry, ["7-1", "7-2"], headers: [("Idempotency-Key", UUID().uuidString)]).status == 409)
    }

    /// A store written by the version that kept tokens in the clear (before migration 2: no digests, no
    /// reservation columns, no show log): its holds still work after the upgrade, and their tokens are digests from
    /// then on. On PostgreSQL the digests were never made before (the data step ran with migration 1,
    /// the commit function, not with migration 2): an upgraded store's holds were unreachable.
    @Test(arguments: StoreBackend.available) func plainTokensOfAnOlderStoreAreHashedOnUpgrade(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend)
        let token = try #require(try hold(try server.connection(), ["7-1", "7-2"]).string("token"))
        server.app.stop()
        switch backend {
        case .sqlite:
            let db = try SQLiteDatabase(path: String(server.storeURL.dropFirst("sqlite:".count)))
            try db.run("UPDATE holds SET token = ?", [.text(token)])
            try db.execute("DROP TABLE refunds")
            // Before migration 4 the events were a table of their own (migration 4 makes them the log's first lines).
            try db.execute("CREATE TABLE events AS SELECT show_id, version, delta, created_at FROM show_log")
            try db.execute("DROP TABLE show_log")
            try db.execute("DROP TABLE checkins")
            try db.execute("DROP TABLE ticket_presence")
            try db.execute("DROP TABLE order_contacts")
            try db.execute("DROP TABLE payments")
            try db.execute("DROP TABLE payment_refunds")
            for table in [
                "webhook_endpoints", "webhook_deliveries", "webhook_cursor", "webhook_events", "seasons", "ticket_transfers", "attendee_books", "waitlist",
                "cinemas", "staff", "staff_log", "staff_sessions",
            ] {
                try db.execute("DROP TABLE \(table)")
            }
            try db.execute("DROP TABLE queue_entries")
            try db.execute("DROP TABLE queues")
            try db.execute("DROP INDEX holds_order")
            try db.execute("DROP INDEX holds_admission")
            try db.execute("DROP INDEX claims_identity")
            for column in ["identity", "attendee"] { try db.execute("ALTER TABLE claims DROP COLUMN \(column)") }
            for column in ["kind", "reason", "operator", "payment", "prices", "admission"] { try db.execute("ALTER TABLE holds DROP COLUMN \(column)") }
            for column in ["details", "on_sale", "cancelled_at", "price_revision", "earlier_prices"] {
                try db.execute("ALTER TABLE shows DROP COLUMN \(column)")
            }
            try db.execute("PRAGMA user_version = 1")
        case .postgres:
            let store = try PostgresStore(url: server.storeURL)
            try store.withConnection { c in
                _ = try c.run("plain_token", "UPDATE holds SET token = $1", [token])
                _ = try c.execute("DROP TABLE refunds")
                _ = try c.execute("CREATE TABLE events AS SELECT show_id, version, delta, created_at FROM show_log")
                _ = try c.execute("DROP TABLE show_log")
                _ = try c.execute("DROP TABLE checkins, ticket_presence, order_contacts")
                _ = try c.execute("DROP TABLE payments")
                _ = try c.execute("DROP TABLE payment_refunds")
                _ = try c.execute(
                    "DROP TABLE webhook_endpoints, webhook_deliveries, webhook_cursor, webhook_events, seasons, ticket_transfers, attendee_books, waitlist")
                _ = try c.execute("DROP TABLE cinemas, staff, staff_log, staff_sessions")
                // Migration 19 made the shards' tables part of the schema.
                _ = try c.execute("DROP TABLE shard_moves, shard_identity")
                _ = try c.execute("DROP TABLE queue_entries")
                _ = try c.execute("DROP TABLE queues")
                // Migration 20 made the batch's types and this function.
                _ = try c.execute("DROP FUNCTION seatkit_write")
                _ = try c.execute("DROP TYPE seatkit_change, seatkit_hold, seatkit_claim, seatkit_key")
                _ = try c.execute("DROP INDEX holds_order")
                _ = try c.execute("ALTER TABLE claims DROP COLUMN identity, DROP COLUMN attendee")
                // Migration 9 dropped the hot path's keys; migration 1 made them.
                _ = try c.execute(
                    "ALTER TABLE claims ADD FOREIGN KEY (show_id) REFERENCES shows(id), ADD FOREIGN KEY (hold_id) REFERENCES holds(id); "
                        + "ALTER TABLE holds ADD FOREIGN KEY (show_id) REFERENCES shows(id)")
                _ = try c.execute(
                    "ALTER TABLE holds DROP COLUMN kind, DROP COLUMN reason, DROP COLUMN operator, DROP COLUMN payment, DROP COLUMN prices, DROP COLUMN admission"
                )
                _ = try c.execute(
                    "ALTER TABLE shows DROP COLUMN details, DROP COLUMN on_sale, DROP COLUMN cancelled_at, DROP COLUMN price_revision, DROP COLUMN earlier_prices"
                )
                _ = try c.execute("DELETE FROM schema_migrations WHERE version > 2")
            }
        }
        try server.restart()
        #expect(try server.connection().request("GET", "/v1/holds/\(token)").status == 200)
        // The events from before are the first lines of the show's log.
        let log = try server.connection().request("GET", "/v1/shows/show/log", headers: [("X-Admin-Key", TestServer.adminKey)])
        #expect(log.json?["lines"]?.arrayValue?.first?.objectValue?["action"]?.stringValue == "change", "\(log.text)")
        let store = try server.openStore()
        #expect(try store.hold(tokenDigest: Secrets.tokenDigest(token)) != nil && store.hold(tokenDigest: token) == nil)
    }

    func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == first && Array(haystack[i..<(i + needle.count)]) == needle { return true }
            i += 1
        }
        return false
    }
}
