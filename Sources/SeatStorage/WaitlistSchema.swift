import Foundation
import SeatDomain

/// The waitlists' statements (the table: `Migrations/*-waitlists.sql`). An entry's place is its `seq`
/// within its show, given as the show's largest plus one: a show's line moves with it between shards
/// as its rows are, and two instances adding at once on PostgreSQL meet the primary key (added again).
enum WaitlistSchema {
    static let columns =
        "seq, show_id, entry, category, zone, count, attendees, state, offers, offer_hold, created_at, updated_at, payment, paid_at, outcome"
    static let add = """
        INSERT INTO waitlist(seq, show_id, entry, category, zone, count, attendees, state, offers, offer_hold, created_at, updated_at, payment,
                             paid_at, outcome)
        SELECT COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM waitlist WHERE show_id = ? RETURNING seq
        """
    static let byDigest = "SELECT \(columns) FROM waitlist WHERE entry = ?"
    static let open = "SELECT \(columns) FROM waitlist WHERE show_id = ? AND state IN ('waiting', 'offered') ORDER BY seq"
    static let shows = "SELECT DISTINCT show_id FROM waitlist WHERE state IN ('waiting', 'offered') ORDER BY show_id"
    static let update = """
        UPDATE waitlist SET state = ?, offers = ?, offer_hold = ?, outcome = ?, updated_at = ?
        WHERE show_id = ? AND seq = ? AND state = ? AND offers = ?
        """
    static let paid = """
        UPDATE waitlist SET paid_at = ?, updated_at = ? WHERE show_id = ? AND seq = ? AND state = 'waiting' AND paid_at IS NULL
        """

    /// `add`'s values: the entry's, then the show again (for the line's end).
    static func values(_ e: WaitlistEntry) -> [String?] {
        [
            e.showID, e.digest, e.category, e.zone, String(e.count), e.attendees, e.state.rawValue, String(e.offers), e.offerHold,
            String(e.createdAt), String(e.updatedAt), e.payment, e.paidAt.map { String($0) }, e.outcome, e.showID,
        ]
    }

    static func updateValues(_ e: WaitlistEntry, whenState state: WaitlistEntry.State, offers: Int) -> [String?] {
        [e.state.rawValue, String(e.offers), e.offerHold, e.outcome, String(e.updatedAt), e.showID, String(e.seq), state.rawValue, String(offers)]
    }

    static func entry(_ row: [String?]) -> WaitlistEntry {
        WaitlistEntry(
            seq: Int64(row[0] ?? "") ?? 0, showID: row[1] ?? "", digest: row[2] ?? "", category: row[3], zone: row[4], count: Int(row[5] ?? "") ?? 0,
            attendees: row[6], state: WaitlistEntry.State(rawValue: row[7] ?? "") ?? .cancelled, offers: Int(row[8] ?? "") ?? 0, offerHold: row[9],
            payment: row[12], paidAt: row[13].flatMap { Int64($0) }, outcome: row[14], createdAt: Int64(row[10] ?? "") ?? 0,
            updatedAt: Int64(row[11] ?? "") ?? 0)
    }
}

extension SQLiteStore: WaitlistStore {
    public var waitlists: (any WaitlistStore)? { self }

    public func addWaitlistEntry(_ e: WaitlistEntry) throws -> Int64 {
        let seq: Int64 = try locked { db in
            var seq: Int64 = 0
            try db.query(WaitlistSchema.add, WaitlistSchema.values(e).map { $0.map(SQLValue.text) ?? .null }) { seq = $0.int(0) }
            return seq
        }
        try syncer?.waitUntilDurable()
        return seq
    }

    public func waitlistEntry(digest: String) throws -> WaitlistEntry? {
        try rows(WaitlistSchema.byDigest, [.text(digest)]).first
    }

    public func openWaitlist(show: String) throws -> [WaitlistEntry] { try rows(WaitlistSchema.open, [.text(show)]) }

    public func waitlistShows() throws -> [String] {
        try locked { db in
            var out: [String] = []
            try db.query(WaitlistSchema.shows, []) { out.append($0.text(0)) }
            return out
        }
    }

    public func updateWaitlistEntry(_ e: WaitlistEntry, whenState state: WaitlistEntry.State, offers: Int) throws -> Bool {
        let done: Bool = try locked { db in
            try db.run(WaitlistSchema.update, WaitlistSchema.updateValues(e, whenState: state, offers: offers).map { $0.map(SQLValue.text) ?? .null })
            return db.changes == 1
        }
        try syncer?.waitUntilDurable()
        return done
    }

    public func markWaitlistPrepaid(show: String, seq: Int64, at time: Int64) throws -> Bool {
        let done: Bool = try locked { db in
            try db.run(WaitlistSchema.paid, [.text(String(time)), .text(String(time)), .text(show), .text(String(seq))])
            return db.changes == 1
        }
        try syncer?.waitUntilDurable()
        return done
    }

    public func waitlistEntry(show: String, digest: String) throws -> WaitlistEntry? { try waitlistEntry(digest: digest) }

    private func rows(_ sql: String, _ values: [SQLValue]) throws -> [WaitlistEntry] {
        try locked { db in
            var out: [WaitlistEntry] = []
            try db.query(sql, values) { r in out.append(WaitlistSchema.entry((0..<15).map { r.isNull(Int32($0)) ? nil : r.text(Int32($0)) })) }
            return out
        }
    }
}

extension PostgresStore: WaitlistStore {
    public var waitlists: (any WaitlistStore)? { self }

    public func addWaitlistEntry(_ e: WaitlistEntry) throws -> Int64 {
        // Two instances adding to one show at once give the same place: the primary key refuses the
        // later, which takes the next (a few tries settle any crowd that matters).
        for attempt in 0..<20 {
            do {
                return try withConnection { c in
                    let row = try c.run("waitlist_add", QueueSchema.numbered(WaitlistSchema.add), WaitlistSchema.values(e)).rows.first
                    return Int64((row?[0] ?? nil) ?? "") ?? 0
                }
            } catch let error as PostgresError where error.isUniqueViolation && attempt < 19 {
                usleep(UInt32.random(in: 200...2000))
            }
        }
        throw StoreError.conflict("show \(e.showID)'s waitlist kept changing while an entry was added")
    }

    public func waitlistEntry(digest: String) throws -> WaitlistEntry? {
        try withConnection { c in try c.run("waitlist_entry", QueueSchema.numbered(WaitlistSchema.byDigest), [digest]).rows.map(WaitlistSchema.entry).first }
    }

    public func openWaitlist(show: String) throws -> [WaitlistEntry] {
        try withConnection { c in try c.run("waitlist_open", QueueSchema.numbered(WaitlistSchema.open), [show]).rows.map(WaitlistSchema.entry) }
    }

    public func waitlistShows() throws -> [String] {
        try withConnection { c in try c.run("waitlist_shows", WaitlistSchema.shows).rows.compactMap { $0[0] } }
    }

    public func updateWaitlistEntry(_ e: WaitlistEntry, whenState state: WaitlistEntry.State, offers: Int) throws -> Bool {
        try withConnection { c in
            try c.run("waitlist_update", QueueSchema.numbered(WaitlistSchema.update), WaitlistSchema.updateValues(e, whenState: state, offers: offers))
                .affected == 1
        }
    }

    public func markWaitlistPrepaid(show: String, seq: Int64, at time: Int64) throws -> Bool {
        try withConnection { c in
            try c.run("waitlist_paid", QueueSchema.numbered(WaitlistSchema.paid), [String(time), String(time), show, String(seq)]).affected == 1
        }
    }

    public func waitlistEntry(show: String, digest: String) throws -> WaitlistEntry? { try waitlistEntry(digest: digest) }
}
