import Foundation
import SeatMap

extension PostgresStore {
    /// One transaction for the batch; each change in a savepoint, in show order then queue order. A
    /// change the database refuses (a seat another instance took, a hold another instance finished) is
    /// rolled back alone and reported; a lost connection fails the whole batch (nothing was committed).
    public func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
        guard !batch.isEmpty else { return [] }
        let order = batch.indices.sorted { (batch[$0].showID, $0) < (batch[$1].showID, $1) }
        var outcomes = [CommitOutcome?](repeating: nil, count: batch.count)
        try withConnection { c in
            try c.execute("BEGIN")
            do {
                // Holds may lose their last moments on a crash of the database; a sale may not.
                if !batch.contains(where: \.durable) { try c.execute("SET LOCAL synchronous_commit = off") }
                for k in order {
                    try c.execute("SAVEPOINT change")
                    do {
                        let (version, delta) = try write(batch[k], on: c)
                        try c.execute("RELEASE SAVEPOINT change")
                        outcomes[k] = .committed(version: version, delta: delta)
                    } catch let e as PostgresError where !e.isConnectionFailure {
                        try c.execute("ROLLBACK TO SAVEPOINT change")
                        outcomes[k] = .refused(DatabaseError(code: e.isUniqueViolation || e.sqlState == "SK001" ? 19 : 1, message: e.message))
                    }
                }
                try c.execute("COMMIT")
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
        return outcomes.map { $0! }
    }

    /// Writes one change and returns the version the database gave it and its event.
    private func write(_ commit: StoreCommit, on c: PostgresConnection) throws -> (UInt64, String) {
        let show = commit.showID
        // The show row is the change's lock and its version counter.
        let bumped = try c.run("bump_version", "UPDATE shows SET version = version + 1 WHERE id = $1 RETURNING version", [show])
        guard !bumped.rows.isEmpty else { throw Self.refusal("show \(show) does not exist") }
        let version = UInt64(bumped.int(0, 0))
        for h in commit.holds {
            let r = try c.run("upsert_hold", """
                INSERT INTO holds(\(Self.holdColumns)) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9)
                ON CONFLICT(id) DO UPDATE SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at,
                  extended = EXCLUDED.extended, order_ref = EXCLUDED.order_ref
                WHERE holds.state = 'active'
                """, [h.id, h.token, h.showID, h.state.rawValue, String(h.expiresAt), h.extended ? "t" : "f", h.orderRef, h.wheelchair ? "t" : "f", String(h.createdAt)])
            if r.affected != 1 { throw Self.refusal("hold \(h.id) is no longer active") }
        }
        if !commit.delete.isEmpty {
            let r = try c.run("delete_claims", "DELETE FROM claims WHERE show_id = $1 AND seat = ANY($2::int[]) AND status = 'held'",
                              [show, Self.array(commit.delete)])
            if r.affected != commit.delete.count { throw Self.refusal("seats to release are no longer held") }
        }
        // Claims go in seat order (one statement per status and hold): overlapping holds meet in the same order.
        let groups = Dictionary(grouping: commit.insert) { "\($0.status.name)|\($0.holdID ?? "")" }
        for key in groups.keys.sorted() {
            let claims = groups[key]!.sorted { $0.seat < $1.seat }
            try c.run("insert_claims", "INSERT INTO claims(show_id, seat, status, hold_id) SELECT $1, s, $3, $4 FROM unnest($2::int[]) AS s ORDER BY s",
                      [show, Self.array(claims.map(\.seat)), claims[0].status.name, claims[0].holdID])
        }
        if !commit.sell.isEmpty {
            let r = try c.run("sell_claims", "UPDATE claims SET status = 'sold' WHERE show_id = $1 AND seat = ANY($2::int[]) AND status = 'held'",
                              [show, Self.array(commit.sell)])
            if r.affected != commit.sell.count { throw Self.refusal("seats to sell are no longer held") }
        }
        let delta = AvailabilityDelta(fromVersion: version - 1, toVersion: version, changes: commit.changes).encoded()
        try c.run("insert_event", "INSERT INTO events(show_id, version, delta, created_at) VALUES($1,$2,$3,$4)", [show, String(version), delta, Self.now()])
        if let r = commit.idempotency {
            try c.run("insert_idempotency", "INSERT INTO idempotency(key, fingerprint, status, body, created_at) VALUES($1,$2,$3,$4,$5)",
                      [r.key, r.requestFingerprint, String(r.status), String(decoding: r.body, as: UTF8.self), Self.now()])
        }
        try c.run("notify", "SELECT pg_notify('\(Self.channel)', $1)", [show])
        return (version, delta)
    }

    /// A change the data no longer allows (the store's own refusal, reported like a constraint).
    static func refusal(_ message: String) -> PostgresError { PostgresError(sqlState: "SK001", message: message) }

    static func array(_ seats: [Int]) -> String { "{" + seats.map(String.init).joined(separator: ",") + "}" }
}
