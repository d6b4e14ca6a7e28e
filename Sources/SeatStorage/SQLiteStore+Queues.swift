import SeatDomain

/// The waiting rooms in the embedded store: one instance, so the room's lock is the connection's.
extension SQLiteStore: QueueStore {
    public var waitingRooms: (any QueueStore)? { self }

    public func rooms() throws -> [QueueRecord] {
        try locked { db in
            var out: [QueueRecord] = []
            try db.query("SELECT \(QueueSchema.roomColumns) FROM queues ORDER BY show_id") { out.append(Self.room($0)) }
            return out
        }
    }

    public func queueChanges(show: String, after revision: Int64) throws -> QueueChanges {
        try locked { db in try Self.changes(db, show: show, after: revision) }
    }

    public func updateQueue(show: String, after revision: Int64, _ decide: (QueueChanges, Int64) throws -> QueueWrite) throws -> Int64 {
        try locked { db in
            try db.transaction {
                let changes = try Self.changes(db, show: show, after: revision)
                let next = changes.revision + 1
                let write = try decide(changes, next)
                guard !write.isEmpty else { return changes.revision }
                // Buyers let in by this write are webhook events, written with it (queue.admitted).
                let admitted = try WebhookEventSchema.admissions(write, show: show, seq: next) { key in
                    write.resetEntries ? nil : try rows(db, WebhookEventSchema.entryState, [.text(show), .text(key)], columns: 1).first?[0] ?? nil
                }
                if write.resetEntries { try db.run("DELETE FROM queue_entries WHERE show_id = ?", [.text(show)]) }
                if var room = write.room {
                    room.showID = show
                    try db.run(QueueSchema.upsertRoom, Self.fields(of: room, revision: next))
                } else {
                    try db.run("UPDATE queues SET revision = ? WHERE show_id = ?", [.integer(next), .text(show)])
                }
                for e in write.entries {
                    try db.run(QueueSchema.upsertEntry, [.text(show)] + Self.fields(of: e, seq: e.seq == 0 ? next : e.seq) + [.integer(next)])
                }
                try record(admitted, db)
                return next
            }
        }
    }

    static func changes(_ db: SQLiteDatabase, show: String, after revision: Int64) throws -> QueueChanges {
        var room: QueueRecord?, current: Int64 = 0
        try db.query("SELECT \(QueueSchema.roomColumns) FROM queues WHERE show_id = ?", [.text(show)]) {
            room = Self.room($0)
            current = $0.int(13)
        }
        var entries: [QueueEntryRecord] = []
        try db.query(
            "SELECT \(QueueSchema.entryColumns) FROM queue_entries WHERE show_id = ? AND revision > ? ORDER BY revision, seq",
            [.text(show), .integer(revision)]
        ) { r in
            entries.append(
                QueueEntryRecord(
                    key: r.text(0), address: r.text(1), seq: r.int(2), arrivedAt: r.int(3), state: r.text(4), place: r.isNull(5) ? nil : Int(r.int(5)),
                    admittedUntil: r.isNull(6) ? nil : r.int(6), used: r.int(7) != 0, lastSeen: r.int(8),
                    identity: r.isNull(9) ? nil : r.text(9), proof: r.isNull(10) ? nil : r.text(10), lane: r.isNull(11) ? nil : r.text(11),
                    pass: r.isNull(12) ? nil : r.text(12)))
        }
        return QueueChanges(room: room, entries: entries, revision: current)
    }

    static func room(_ r: SQLRow) -> QueueRecord {
        func optional(_ k: Int32) -> Int64? { r.isNull(k) ? nil : r.int(k) }
        return QueueRecord(
            showID: r.text(0), createdAt: r.int(1), opensAt: r.int(2), admitPerMinute: Int(r.int(3)), earlyMinutes: Int(r.int(4)),
            admissionMinutes: Int(r.int(5)), maxEntriesPerAddress: Int(r.int(6)), maxEntriesPerNetwork: Int(r.int(14)),
            maxJoinsPerSecond: Int(r.int(15)), openedAt: optional(7), earlyCount: Int(r.int(8)),
            credit: r.double(9), lastAdvance: optional(10), soldOut: r.int(11) != 0, offAt: optional(12), proofOfWorkBits: Int(r.int(16)),
            drawAt: optional(17), drawWinners: Int(r.int(18)), lanes: r.isNull(19) ? nil : r.text(19))
    }

    static func fields(of q: QueueRecord, revision: Int64) -> [SQLValue] {
        func optional(_ v: Int64?) -> SQLValue { v.map { .integer($0) } ?? .null }
        return [
            .text(q.showID), .integer(q.createdAt), .integer(q.opensAt), .integer(Int64(q.admitPerMinute)), .integer(Int64(q.earlyMinutes)),
            .integer(Int64(q.admissionMinutes)), .integer(Int64(q.maxEntriesPerAddress)), optional(q.openedAt), .integer(Int64(q.earlyCount)),
            .real(q.credit), optional(q.lastAdvance), .integer(q.soldOut ? 1 : 0), optional(q.offAt), .integer(revision),
            .integer(Int64(q.maxEntriesPerNetwork)), .integer(Int64(q.maxJoinsPerSecond)), .integer(Int64(q.proofOfWorkBits)), optional(q.drawAt),
            .integer(Int64(q.drawWinners)), q.lanes.map { .text($0) } ?? .null,
        ]
    }

    static func fields(of e: QueueEntryRecord, seq: Int64) -> [SQLValue] {
        [
            .text(e.key), .text(e.address), .integer(seq), .integer(e.arrivedAt), .text(e.state), e.place.map { .integer(Int64($0)) } ?? .null,
            e.admittedUntil.map { .integer($0) } ?? .null, .integer(e.used ? 1 : 0), .integer(e.lastSeen), e.identity.map { .text($0) } ?? .null,
            e.proof.map { .text($0) } ?? .null, e.lane.map { .text($0) } ?? .null, e.pass.map { .text($0) } ?? .null,
        ]
    }
}
