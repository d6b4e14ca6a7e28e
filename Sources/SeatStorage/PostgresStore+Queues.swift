import Foundation
import SeatDomain
import SeatJSON

/// The waiting rooms in the shared store: the room's row is its lock (`SELECT … FOR UPDATE`), held
/// until the decision taken under it commits, so instances take turns and revisions commit in order.
extension PostgresStore: QueueStore {
    public var waitingRooms: (any QueueStore)? { self }

    public func rooms() throws -> [QueueRecord] {
        try withConnection { c in
            let r = try c.run("queue_rooms", "SELECT \(QueueSchema.roomColumns) FROM queues ORDER BY show_id")
            return r.rows.indices.map { Self.room(r, $0) }
        }
    }

    public func queueChanges(show: String, after revision: Int64) throws -> QueueChanges {
        try withConnection { c in
            try c.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { _ = try? c.execute("COMMIT") }
            return try Self.changes(c, show: show, after: revision, locking: false)
        }
    }

    public func updateQueue(show: String, after revision: Int64, _ decide: (QueueChanges, Int64) throws -> QueueWrite) throws -> Int64 {
        try withConnection { c in
            try c.execute("BEGIN")
            do {
                let changes = try Self.changes(c, show: show, after: revision, locking: true)
                let next = changes.revision + 1
                let write = try decide(changes, next)
                if write.isEmpty {
                    try c.execute("COMMIT")
                    return changes.revision
                }
                // Buyers let in by this write are webhook events, written with it (queue.admitted).
                let admitted = try WebhookEventSchema.admissions(write, show: show, seq: next) { key in
                    write.resetEntries
                        ? nil : try c.run("queue_entry_state", QueueSchema.numbered(WebhookEventSchema.entryState), [show, key]).rows.first?[0] ?? nil
                }
                if write.resetEntries { try c.run("queue_reset", "DELETE FROM queue_entries WHERE show_id = $1", [show]) }
                if var room = write.room {
                    room.showID = show
                    try c.run("queue_upsert_room", QueueSchema.numbered(QueueSchema.upsertRoom), Self.fields(of: room, revision: next))
                } else {
                    try c.run("queue_revision", "UPDATE queues SET revision = $1 WHERE show_id = $2", [String(next), show])
                }
                if !write.entries.isEmpty {
                    // Every entry in one statement: a second's touches are thousands of rows.
                    try c.run("queue_upsert_entries", Self.bulkUpsert, [show, String(next), Self.json(write.entries, seq: next)])
                }
                try record(admitted, c)
                try c.execute("COMMIT")
                return next
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    static let bulkUpsert = """
        INSERT INTO queue_entries(show_id, \(QueueSchema.entryColumns), revision)
        SELECT $1, x.key, x.address, x.seq, x.arrived_at, x.state, x.place, x.admitted_until, x.used, x.last_seen, x.identity, x.proof, x.lane, x.pass,
               $2::bigint
        FROM jsonb_to_recordset($3::jsonb) AS x(key text, address text, seq bigint, arrived_at bigint, state text, place integer,
                                                admitted_until bigint, used integer, last_seen bigint, identity text, proof text,
                                                lane text, pass text)
        ON CONFLICT(show_id, key) DO UPDATE SET address = excluded.address, seq = excluded.seq, arrived_at = excluded.arrived_at,
          state = excluded.state, place = excluded.place, admitted_until = excluded.admitted_until, used = excluded.used,
          last_seen = excluded.last_seen, identity = excluded.identity, proof = excluded.proof,
          lane = excluded.lane, pass = excluded.pass, revision = excluded.revision
        """

    static func json(_ entries: [QueueEntryRecord], seq next: Int64) -> String {
        var w = JSONWriter(reservingCapacity: entries.count * 160)
        w.raw("[")
        for (k, e) in entries.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{\"key\":"); w.string(e.key)
            w.raw(",\"address\":"); w.string(e.address)
            w.raw(",\"seq\":\(e.seq == 0 ? next : e.seq),\"arrived_at\":\(e.arrivedAt),\"state\":"); w.string(e.state)
            w.raw(",\"place\":\(e.place.map(String.init) ?? "null"),\"admitted_until\":\(e.admittedUntil.map(String.init) ?? "null")")
            w.raw(",\"used\":\(e.used ? 1 : 0),\"last_seen\":\(e.lastSeen),\"identity\":")
            if let identity = e.identity { w.string(identity) } else { w.raw("null") }
            w.raw(",\"proof\":")
            if let proof = e.proof { w.string(proof) } else { w.raw("null") }
            w.raw(",\"lane\":")
            if let lane = e.lane { w.string(lane) } else { w.raw("null") }
            w.raw(",\"pass\":")
            if let pass = e.pass { w.string(pass) } else { w.raw("null") }
            w.raw("}")
        }
        w.raw("]")
        return w.text
    }

    static func changes(_ c: PostgresConnection, show: String, after revision: Int64, locking: Bool) throws -> QueueChanges {
        let rooms =
            locking
            ? try c.run("queue_room_locked", "SELECT \(QueueSchema.roomColumns) FROM queues WHERE show_id = $1 FOR UPDATE", [show])
            : try c.run("queue_room", "SELECT \(QueueSchema.roomColumns) FROM queues WHERE show_id = $1", [show])
        guard !rooms.rows.isEmpty else { return QueueChanges(room: nil, entries: [], revision: 0) }
        let r = try c.run(
            "queue_entries",
            "SELECT \(QueueSchema.entryColumns) FROM queue_entries WHERE show_id = $1 AND revision > $2 ORDER BY revision, seq",
            [show, String(revision)])
        let entries = r.rows.indices.map { i in
            QueueEntryRecord(
                key: r.text(i, 0), address: r.text(i, 1), seq: r.int(i, 2), arrivedAt: r.int(i, 3), state: r.text(i, 4),
                place: r.rows[i][5].flatMap { Int($0) }, admittedUntil: r.rows[i][6].flatMap { Int64($0) }, used: r.int(i, 7) != 0, lastSeen: r.int(i, 8),
                identity: r.rows[i][9], proof: r.rows[i][10], lane: r.rows[i][11], pass: r.rows[i][12])
        }
        return QueueChanges(room: room(rooms, 0), entries: entries, revision: rooms.int(0, 13))
    }

    static func room(_ r: PostgresRows, _ i: Int) -> QueueRecord {
        func optional(_ k: Int) -> Int64? { r.rows[i][k].flatMap { Int64($0) } }
        return QueueRecord(
            showID: r.text(i, 0), createdAt: r.int(i, 1), opensAt: r.int(i, 2), admitPerMinute: Int(r.int(i, 3)), earlyMinutes: Int(r.int(i, 4)),
            admissionMinutes: Int(r.int(i, 5)), maxEntriesPerAddress: Int(r.int(i, 6)), maxEntriesPerNetwork: Int(r.int(i, 14)),
            maxJoinsPerSecond: Int(r.int(i, 15)), openedAt: optional(7), earlyCount: Int(r.int(i, 8)),
            credit: Double(r.text(i, 9)) ?? 0, lastAdvance: optional(10), soldOut: r.int(i, 11) != 0, offAt: optional(12),
            proofOfWorkBits: Int(r.int(i, 16)), drawAt: optional(17), drawWinners: Int(r.int(i, 18)), lanes: r.rows[i][19])
    }

    static func fields(of q: QueueRecord, revision: Int64) -> [String?] {
        [
            q.showID, String(q.createdAt), String(q.opensAt), String(q.admitPerMinute), String(q.earlyMinutes), String(q.admissionMinutes),
            String(q.maxEntriesPerAddress), q.openedAt.map(String.init), String(q.earlyCount), String(q.credit), q.lastAdvance.map(String.init),
            q.soldOut ? "1" : "0", q.offAt.map(String.init), String(revision), String(q.maxEntriesPerNetwork), String(q.maxJoinsPerSecond),
            String(q.proofOfWorkBits), q.drawAt.map(String.init), String(q.drawWinners), q.lanes,
        ]
    }
}
