import Foundation
import SeatDomain
import SeatJSON
import SharedState
import SeatMap
import SeatSecrets

/// The shared store: PostgreSQL, for several stateless SeatServer instances behind a load balancer.
///
/// The guarantee is the database's: a primary key on (show, seat) means a seat is in at most one live
/// hold or sale; a hold changes only while its row is still `active`, so two instances expiring,
/// releasing or confirming the same hold never both succeed. Versions are assigned here (the show row
/// is locked and bumped), so every change of a show, from whichever instance, gets the next version and
/// its event, and `NOTIFY seatkit_events_<schema>` tells every instance to read it. Commits of a batch are taken
/// in show order (no two transactions lock shows in opposite orders: no deadlock), each inside a
/// savepoint, so one refused change does not undo the others.
/// Sendable: its pooled connections live in a `Locked` box and are used by one thread at a time.
public final class PostgresStore: SeatStore, SharedStore, FollowedPart, Sendable {
    public static let channel = "seatkit_events"
    /// The URL the store was opened with.
    public let url: String
    let conninfo: String
    let schema: String?
    /// Idle connections. Lock: `idle` (a leaf: a connection is used outside it, by one thread at a time).
    private let idle = Locked([PostgresConnection]())
    /// The database sessions of this store's connections (their backends' process ids), while each is
    /// connected: a notification one of them sent is this instance's own (`OthersCommits`). Lock: its own (a leaf).
    let backends = Locked(Set<Int32>())
    /// Batches offered whole: [written whole, written again change by change after a refusal], then
    /// [batches, changes] of every commit. Lock: its own.
    let batchesWritten = Locked([0, 0, 0, 0])
    /// Batches committed and the changes in them (the benchmark replays batches of this mean size).
    public var written: (batches: Int, changes: Int) { batchesWritten.withLock { ($0[2], $0[3]) } }
    /// How the batches that could be written whole were written: the second count is the refusals'
    /// (another instance's seats or holds) that sent a batch through `seatkit_commit` instead.
    public var wholeBatches: (together: Int, oneByOne: Int) { batchesWritten.withLock { ($0[0], $0[1]) } }

    /// `postgres://user@host:port/db` (any libpq URI or key=value string); a `schema=NAME` query item
    /// puts the tables in that schema (one database, several independent stores: tests, shards).
    public init(url: String) throws {
        self.url = url
        var info = url, schema: String? = nil
        if var parts = URLComponents(string: url), let item = parts.queryItems?.first(where: { $0.name == "schema" }) {
            schema = item.value
            parts.queryItems = parts.queryItems?.filter { $0.name != "schema" }
            if parts.queryItems?.isEmpty == true { parts.queryItems = nil }
            info = parts.string ?? url
        }
        conninfo = info
        self.schema = schema
        try withConnection { try migrate($0) }
    }

    public var sharing: (any SharedStore)? { self }

    /// A connection from the pool (one per thread using the store at a time), returned afterwards.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        LockRules.checkStoreCall("PostgresStore")
        let pooled = idle.withLock { $0.popLast() }
        let connection = try pooled ?? PostgresConnection(conninfo: conninfo, schema: schema, backends: backends)
        defer { idle.withLock { $0.append(connection) } }
        return try body(connection)
    }

    /// A connection of its own for LISTEN (never returned to the pool), on this store's channel
    /// (`seatkit_events_<schema>`: stores in other schemas of the same database are not heard), that
    /// leaves out what this store's own connections sent (`OthersCommits`).
    public func commitListener() throws -> any CommitListener { try othersCommits() }

    /// One database: one part, one follower (`sk-follower`).
    public func followedParts() -> [any FollowedPart] { [self] }
    public var partName: String { "" }

    /// This store's listener for the other instances' commits.
    func othersCommits() throws -> OthersCommits { OthersCommits(connection: try listeningConnection(), own: backends) }

    public func listeningConnection() throws -> PostgresConnection {
        let c = try PostgresConnection(conninfo: conninfo, schema: schema)
        let current = try c.execute("SELECT current_schema()").text(0, 0)
        try c.execute("LISTEN \(PostgresConnection.identifier(Self.channel + "_" + current))")
        return c
    }

    static func now() -> String { String(Int64(Date().timeIntervalSince1970 * 1000)) }

    public func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws {
        _ = try withConnection {
            try $0.run(
                "insert_venue", "INSERT INTO venues(id, fingerprint, layout, created_at) VALUES($1,$2,$3,$4)",
                [id, fingerprint, String(decoding: layoutJSON, as: UTF8.self), Self.now()])
        }
    }

    public func venues() throws -> [(id: String, layoutJSON: [UInt8])] {
        try withConnection { c in
            let r = try c.run("venues", "SELECT id, layout FROM venues ORDER BY id")
            return r.rows.indices.map { (r.text($0, 0), Array(r.text($0, 1).utf8)) }
        }
    }

    public func insertShow(_ s: ShowRecord) throws {
        _ = try withConnection {
            try $0.run(
                "insert_show", "INSERT INTO shows(\(Self.showColumns)) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)",
                [
                    s.id, s.venueID, s.startsAt, s.pricesJSON, s.policyJSON, String(s.holdSeconds), String(s.version), s.detailsJSON,
                    s.onSale ? "t" : "f", s.cancelledAt.map { String($0) }, String(s.priceRevision), s.earlierPricesJSON,
                ])
        }
    }

    public func shows() throws -> [ShowRecord] {
        try withConnection { c in
            let r = try c.run("shows", "SELECT \(Self.showColumns) FROM shows ORDER BY starts_at, id")
            return r.rows.indices.map { i in
                ShowRecord(
                    id: r.text(i, 0), venueID: r.text(i, 1), startsAt: r.text(i, 2), pricesJSON: r.text(i, 3), policyJSON: r.text(i, 4),
                    holdSeconds: Int(r.int(i, 5)), version: UInt64(r.int(i, 6)), detailsJSON: r.text(i, 7), onSale: r.text(i, 8) == "t",
                    cancelledAt: r.rows[i][9].flatMap { Int64($0) }, priceRevision: Int(r.int(i, 10)), earlierPricesJSON: r.text(i, 11))
            }
        }
    }

    static let showColumns = SQLiteStore.showColumns

    public func log(show: String, after version: UInt64, limit: Int) throws -> [LogRecord] {
        try withConnection { c in
            let r = try c.run(
                "show_log",
                """
                SELECT version, created_at, action, hold_id, operator, reason, order_ref, delta FROM show_log
                WHERE show_id = $1 AND version > $2 ORDER BY version LIMIT $3
                """, [show, String(min(version, UInt64(Int64.max))), String(limit)])
            return r.rows.indices.map { i in
                LogRecord(
                    version: UInt64(r.int(i, 0)), at: r.int(i, 1),
                    entry: LogEntry(action: r.text(i, 2), holdID: r.rows[i][3], operatorName: r.rows[i][4], reason: r.rows[i][5], orderRef: r.rows[i][6]),
                    delta: r.text(i, 7))
            }
        }
    }

    public func showVersions() throws -> [String: UInt64] {
        try withConnection { c in
            let r = try c.run("show_versions", "SELECT id, version FROM shows")
            return Dictionary(uniqueKeysWithValues: r.rows.indices.map { (r.text($0, 0), UInt64(r.int($0, 1))) })
        }
    }

    public func claims(show: String) throws -> [Claim] {
        try withConnection { c in
            let r = try c.run("claims", "SELECT seat, status, hold_id, identity, attendee FROM claims WHERE show_id = $1", [show])
            return r.rows.indices.map {
                Claim(
                    seat: Int(r.int($0, 0)), status: SeatStatus(name: r.text($0, 1)) ?? .blocked, holdID: r.rows[$0][2], identity: r.rows[$0][3],
                    attendee: r.rows[$0][4])
            }
        }
    }

    public func attendeeClaims(show: String, holdID: String) throws -> [Claim] {
        try withConnection { c in
            let r = try c.run(
                "attendee_claims", "SELECT seat, status, identity, attendee FROM claims WHERE hold_id = $1 AND show_id = $2 AND identity IS NOT NULL",
                [holdID, show])
            return r.rows.indices.map {
                Claim(
                    seat: Int(r.int($0, 0)), status: SeatStatus(name: r.text($0, 1)) ?? .blocked, holdID: holdID, identity: r.rows[$0][2],
                    attendee: r.rows[$0][3])
            }
        }
    }

    public func holdSeats(holdID: String) throws -> [Int] {
        try withConnection { c in
            let r = try c.run("hold_seats", "SELECT seat FROM claims WHERE hold_id = $1 ORDER BY seat", [holdID])
            return r.rows.indices.map { Int(r.int($0, 0)) }
        }
    }

    static let holdColumns =
        "id, token, show_id, state, expires_at, extended, order_ref, wheelchair, created_at, kind, reason, operator, payment, prices, admission"

    public func holdWithSeats(tokenDigest: String) throws -> (record: HoldRecord, seats: [Int])? {
        try withConnection { c in
            let r = try c.run(
                "hold_with_seats",
                """
                SELECT h.id, h.token, h.show_id, h.state, h.expires_at, h.extended, h.order_ref, h.wheelchair, h.created_at,
                       h.kind, h.reason, h.operator, h.payment, h.prices, h.admission, coalesce(string_agg(c.seat::text, ',' ORDER BY c.seat), '')
                FROM holds h LEFT JOIN claims c ON c.hold_id = h.id WHERE h.token = $1 GROUP BY h.id
                """, [tokenDigest])
            guard let record = Self.holds(r).first else { return nil }
            return (record, r.text(0, 15).split(separator: ",").compactMap { Int($0) })
        }
    }

    static func holds(_ r: PostgresRows) -> [HoldRecord] {
        r.rows.indices.map { i in
            HoldRecord(
                id: r.text(i, 0), tokenDigest: r.text(i, 1), showID: r.text(i, 2), state: HoldState(rawValue: r.text(i, 3)) ?? .released,
                expiresAt: r.int(i, 4), extended: r.text(i, 5) == "t", orderRef: r.rows[i][6], wheelchair: r.text(i, 7) == "t",
                createdAt: r.int(i, 8), kind: HoldKind(rawValue: r.text(i, 9)) ?? .buyer, reason: r.rows[i][10], operatorName: r.rows[i][11],
                payment: r.rows[i][12], prices: r.rows[i][13], admission: r.rows[i][14])
        }
    }

    public func activeHolds() throws -> [HoldRecord] {
        try withConnection { Self.holds(try $0.run("active_holds", "SELECT \(Self.holdColumns) FROM holds WHERE state = 'active'")) }
    }

    public func activeHolds(show: String) throws -> [HoldRecord] {
        try withConnection {
            Self.holds(try $0.run("active_holds_of_show", "SELECT \(Self.holdColumns) FROM holds WHERE state = 'active' AND show_id = $1", [show]))
        }
    }

    /// Through the partial index on active holds' expiry: every instance asks twice a second.
    public func dueHolds(at time: Int64) throws -> [HoldRecord] {
        try withConnection {
            Self.holds(try $0.run("due_holds", "SELECT \(Self.holdColumns) FROM holds WHERE state = 'active' AND expires_at <= $1", [String(time)]))
        }
    }

    public func orders(orderRef: String) throws -> [(record: HoldRecord, seats: [Int])] { try confirmed(named: "orders", where: "h.order_ref", orderRef) }

    public func sales(show: String) throws -> [(record: HoldRecord, seats: [Int])] { try confirmed(named: "sales", where: "h.show_id", show) }

    public func holdWithSeats(id: String) throws -> (record: HoldRecord, seats: [Int])? {
        try withConnection { c in
            let r = try c.run(
                "hold_by_id",
                """
                SELECT \(Self.holdColumns.split(separator: ",").map { "h." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
                       coalesce(string_agg(c.seat::text, ',' ORDER BY c.seat), '')
                FROM holds h LEFT JOIN claims c ON c.hold_id = h.id WHERE h.id = $1 GROUP BY h.id
                """, [id])
            guard let record = Self.holds(r).first else { return nil }
            return (record, r.text(0, 15).split(separator: ",").compactMap { Int($0) })
        }
    }

    /// Confirmed holds whose `column` is `value`, each with its sold seats.
    private func confirmed(named name: String, where column: String, _ value: String) throws -> [(record: HoldRecord, seats: [Int])] {
        try withConnection { c in
            let r = try c.run(
                name,
                """
                SELECT \(Self.holdColumns.split(separator: ",").map { "h." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
                       coalesce(string_agg(c.seat::text, ',' ORDER BY c.seat) FILTER (WHERE c.status = 'sold'), '')
                FROM holds h LEFT JOIN claims c ON c.hold_id = h.id
                WHERE \(column) = $1 AND h.state = 'confirmed' GROUP BY h.id ORDER BY h.created_at, h.id
                """, [value])
            let records = Self.holds(r)
            return records.indices.map { i in (records[i], r.text(i, 15).split(separator: ",").compactMap { Int($0) }) }
        }
    }

    public func refunds(holdIDs: [String]) throws -> [RefundRecord] {
        guard !holdIDs.isEmpty else { return [] }
        return try withConnection { c in
            let r = try c.run(
                "refunds",
                "SELECT hold_id, seat, refunded_at, reason, operator, returned_to, fee FROM refunds WHERE hold_id = ANY($1::text[]) ORDER BY refunded_at, seat",
                ["{" + holdIDs.map { "\"" + $0 + "\"" }.joined(separator: ",") + "}"])
            return r.rows.indices.map { i in
                RefundRecord(
                    holdID: r.text(i, 0), seat: Int(r.int(i, 1)), refundedAt: r.int(i, 2), reason: r.text(i, 3), operatorName: r.text(i, 4),
                    returnedTo: r.rows[i][5], fee: r.rows[i][6].flatMap { Decimal(string: $0) })
            }
        }
    }

    public func hold(tokenDigest: String) throws -> HoldRecord? {
        try withConnection { Self.holds(try $0.run("hold_by_token", "SELECT \(Self.holdColumns) FROM holds WHERE token = $1", [tokenDigest])).first }
    }

    public func events(show: String, after version: UInt64, limit: Int) throws -> [(version: UInt64, delta: String)]? {
        try withConnection { c in
            let r = try c.run(
                "events", "SELECT version, delta FROM show_log WHERE show_id = $1 AND version > $2 ORDER BY version LIMIT $3",
                [show, String(version), String(limit)])
            let out = r.rows.indices.map { (UInt64(r.int($0, 0)), r.text($0, 1)) }
            if let first = out.first, first.0 != version + 1 { return nil }
            return out
        }
    }

    public func storedResponse(key: String) throws -> StoredResponse? {
        try withConnection { c in
            let r = try c.run("stored_response", "SELECT key, fingerprint, status, body FROM idempotency WHERE key = $1", [key])
            guard !r.rows.isEmpty else { return nil }
            return StoredResponse(key: r.text(0, 0), requestFingerprint: r.text(0, 1), status: Int(r.int(0, 2)), body: Array(r.text(0, 3).utf8))
        }
    }

    public func prune(idempotencyMilliseconds: Int64) throws {
        _ = try withConnection { c in
            try c.run(
                "prune_idempotency", "DELETE FROM idempotency WHERE created_at < $1",
                [String(Int64(Date().timeIntervalSince1970 * 1000) - idempotencyMilliseconds)])
        }
    }

    public func salesHistory(venue: String, since: Date, until: Date) throws -> (shows: Int, soldCounts: [Int: Int]) {
        try withConnection { c in
            let r = try c.run("venue_shows", "SELECT id, starts_at FROM shows WHERE venue_id = $1", [venue])
            let past = r.rows.indices.filter { i in Timestamp.date(r.text(i, 1)).map { $0 >= since && $0 <= until } ?? false }.map { r.text($0, 0) }
            var counts: [Int: Int] = [:]
            for show in past {
                let sold = try c.run("sold_seats", "SELECT seat FROM claims WHERE show_id = $1 AND status = 'sold'", [show])
                for i in sold.rows.indices { counts[Int(sold.int(i, 0)), default: 0] += 1 }
            }
            return (past.count, counts)
        }
    }
}
