import SeatDomain

/// The webhooks' second outbox (`Migrations/*-webhook-events.sql`, alike in both stores): events that
/// are not a show's change — a ticket let in, a buyer let in from the waiting room — each written in the
/// transaction that records it, read by the dispatcher past `webhook_cursor.events_at`.
enum WebhookEventSchema {
    static let insert = "INSERT INTO webhook_events(id, show_id, type, created_at, fields) VALUES(?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING"
    static let read = """
        SELECT seq, id, show_id, type, created_at, fields FROM webhook_events WHERE created_at > ? AND created_at <= ?
        ORDER BY created_at, seq LIMIT ?
        """
    static let cursor = "SELECT events_at FROM webhook_cursor WHERE id = 1"
    /// A first write leaves the log's cursor at 0 (its first round starts at the oldest endpoint, as before).
    static let setCursor = "INSERT INTO webhook_cursor(id, at, events_at) VALUES(1, 0, ?) ON CONFLICT(id) DO UPDATE SET events_at = excluded.events_at"
    /// An entry's state before a write changes it (whether an admitted entry was admitted just now).
    static let entryState = "SELECT state FROM queue_entries WHERE show_id = ? AND key = ?"

    static func values(_ e: OutboxEvent) -> [String?] { [e.id, e.showID, e.type, String(e.at), e.fields] }

    static func event(_ r: [String?]) -> OutboxEvent? {
        guard r.count == 6, let seq = r[0].flatMap({ Int64($0) }), let id = r[1], let show = r[2], let type = r[3],
            let at = r[4].flatMap({ Int64($0) }), let fields = r[5]
        else { return nil }
        return OutboxEvent(id: id, showID: show, type: type, at: at, fields: fields, seq: seq)
    }

    /// The admissions a queue write makes: its entries admitted now that were not before (`before`: an
    /// entry's stored state, read in the write's transaction).
    static func admissions(_ write: QueueWrite, show: String, seq next: Int64, before: (String) throws -> String?) rethrows -> [OutboxEvent] {
        try write.entries.filter { $0.state == "admitted" }.compactMap { e in
            guard try before(e.key) != "admitted" else { return nil }
            return OutboxEvent.admitted(show: show, seq: e.seq == 0 ? next : e.seq, place: e.place, until: e.admittedUntil, at: OutboxEvent.now())
        }
    }
}

extension SQLiteStore {
    public func outboxEvents(after: Int64, upTo: Int64, limit: Int) throws -> [OutboxEvent] {
        try locked { db in
            try rows(db, WebhookEventSchema.read, [.integer(after), .integer(upTo), .integer(Int64(limit))], columns: 6).compactMap(WebhookEventSchema.event)
        }
    }

    public func eventsCursor() throws -> Int64 {
        try locked { db in try rows(db, WebhookEventSchema.cursor, [], columns: 1).first?[0].flatMap { Int64($0) } ?? 0 }
    }

    public func fanOutEvents(_ deliveries: [WebhookDelivery], cursor: Int64) throws -> Bool {
        try locked { db in
            try db.transaction {
                for d in deliveries { try db.run(WebhookSchema.insertDelivery, Self.bind(WebhookSchema.values(d))) }
                try db.run(WebhookEventSchema.setCursor, [.integer(cursor)])
                return true
            }
        }
    }

    /// Writes `events` in the caller's transaction.
    func record(_ events: [OutboxEvent], _ db: SQLiteDatabase) throws {
        for e in events { try db.run(WebhookEventSchema.insert, Self.bind(WebhookEventSchema.values(e))) }
    }
}

extension PostgresStore {
    public func outboxEvents(after: Int64, upTo: Int64, limit: Int) throws -> [OutboxEvent] {
        try withConnection { c in
            try c.run("webhook_events", QueueSchema.numbered(WebhookEventSchema.read), [String(after), String(upTo), String(limit)]).rows
                .compactMap(WebhookEventSchema.event)
        }
    }

    public func eventsCursor() throws -> Int64 {
        try withConnection { c in try c.run("webhook_events_cursor", WebhookEventSchema.cursor).rows.first?[0].flatMap { Int64($0) } ?? 0 }
    }

    /// One instance at a time, under the log's fan-out lock.
    public func fanOutEvents(_ deliveries: [WebhookDelivery], cursor: Int64) throws -> Bool {
        try fanOut(deliveries, cursor: cursor, name: "webhook_events_cursor_set", QueueSchema.numbered(WebhookEventSchema.setCursor))
    }

    /// Writes `events` in the caller's transaction on `c`.
    func record(_ events: [OutboxEvent], _ c: PostgresConnection) throws {
        for e in events { _ = try c.run("webhook_event_add", QueueSchema.numbered(WebhookEventSchema.insert), WebhookEventSchema.values(e)) }
    }
}
