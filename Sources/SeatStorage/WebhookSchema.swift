import SeatDomain

/// The webhooks' statements (the tables: `Migrations/*-webhooks.sql`). The outbox is `show_log`, which
/// every change writes in its own transaction; these keep endpoints, the read position and deliveries.
enum WebhookSchema {
    static let endpointColumns = "id, url, events, secret, description, enabled, disabled_reason, failing_since, created_at, updated_at"
    static let deliveryColumns =
        "endpoint_id, event_id, show_id, version, type, payload, at, state, attempts, next_at, last_code, last_error, delivered_at"
    /// How far behind now the log is read (2 s): a transaction that took its time (`created_at` is set
    /// before its commit) is not skipped by a reader that already moved past it.
    static let settle: Int64 = 2_000

    static func endpoint(_ r: [String?]) -> WebhookEndpoint? {
        guard r.count == 10, let id = r[0], let url = r[1], let events = r[2], let secret = r[3], let enabled = r[5],
            let created = r[8].flatMap({ Int64($0) }), let updated = r[9].flatMap({ Int64($0) })
        else { return nil }
        return WebhookEndpoint(
            id: id, url: url, events: events.split(separator: " ").map(String.init), sealedSecret: secret, description: r[4],
            enabled: enabled == "1" || enabled == "t" || enabled == "true", disabledReason: r[6], failingSince: r[7].flatMap { Int64($0) },
            createdAt: created, updatedAt: updated)
    }

    static func values(_ e: WebhookEndpoint, boolean: (Bool) -> String) -> [String?] {
        [
            e.id, e.url, e.events.joined(separator: " "), e.sealedSecret, e.description, boolean(e.enabled), e.disabledReason, e.failingSince.map(String.init),
            String(e.createdAt), String(e.updatedAt),
        ]
    }

    static func delivery(_ r: [String?]) -> WebhookDelivery? {
        guard r.count == 13, let endpoint = r[0], let event = r[1], let show = r[2], let version = r[3].flatMap({ UInt64($0) }), let type = r[4],
            let payload = r[5], let at = r[6].flatMap({ Int64($0) }), let state = r[7].flatMap(WebhookDelivery.State.init(rawValue:)),
            let attempts = r[8].flatMap({ Int($0) }), let next = r[9].flatMap({ Int64($0) })
        else { return nil }
        return WebhookDelivery(
            endpointID: endpoint, eventID: event, showID: show, version: version, type: type, payload: payload, at: at, state: state, attempts: attempts,
            nextAt: next, lastCode: r[10].flatMap { Int($0) }, lastError: r[11], deliveredAt: r[12].flatMap { Int64($0) })
    }

    static func values(_ d: WebhookDelivery) -> [String?] {
        [
            d.endpointID, d.eventID, d.showID, String(d.version), d.type, d.payload, String(d.at), d.state.rawValue, String(d.attempts), String(d.nextAt),
            d.lastCode.map(String.init), d.lastError, d.deliveredAt.map(String.init),
        ]
    }

    static let upsertEndpoint = """
        INSERT INTO webhook_endpoints(\(endpointColumns)) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET url = excluded.url, events = excluded.events, secret = excluded.secret, description = excluded.description,
          enabled = excluded.enabled, disabled_reason = excluded.disabled_reason, failing_since = excluded.failing_since,
          updated_at = excluded.updated_at
        """
    static let insertDelivery = "INSERT INTO webhook_deliveries(\(deliveryColumns)) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
    static let saveDelivery = """
        UPDATE webhook_deliveries SET state = ?, attempts = ?, next_at = ?, last_code = ?, last_error = ?, delivered_at = ?
        WHERE endpoint_id = ? AND event_id = ?
        """
    /// Due and first of their endpoint and show among the pending (per-show order).
    static let due = """
        SELECT \(deliveryColumns) FROM webhook_deliveries d WHERE d.state = 'pending' AND d.next_at <= ?
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e.endpoint_id = d.endpoint_id AND e.show_id = d.show_id
                          AND e.state = 'pending' AND e.version < d.version)
        ORDER BY d.next_at, d.at LIMIT ?
        """
    /// `saveDelivery`'s values: the outcome, then the key.
    static func outcome(_ d: WebhookDelivery) -> [String?] {
        [
            d.state.rawValue, String(d.attempts), String(d.nextAt), d.lastCode.map(String.init), d.lastError, d.deliveredAt.map(String.init), d.endpointID,
            d.eventID,
        ]
    }
    static let claim = "UPDATE webhook_deliveries SET next_at = ? WHERE endpoint_id = ? AND event_id = ? AND state = 'pending' AND next_at = ?"
    static let recent = "SELECT \(deliveryColumns) FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY at DESC, event_id DESC LIMIT ?"
    static let replay = """
        UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_at = ?, last_error = NULL WHERE endpoint_id = ? AND at >= ?
        """

    static func logged(_ actions: [String]) -> String {
        """
        SELECT show_id, version, created_at, action, hold_id, operator, reason, order_ref, delta FROM show_log
        WHERE created_at > ? AND created_at <= ? AND action IN (\(actions.map { "'\($0.replacingOccurrences(of: "'", with: ""))'" }.joined(separator: ", ")))
        ORDER BY created_at, show_id, version LIMIT ?
        """
    }

    static func change(_ r: [String?]) -> LoggedChange? {
        guard r.count == 9, let show = r[0], let version = r[1].flatMap({ UInt64($0) }), let at = r[2].flatMap({ Int64($0) }), let action = r[3] else {
            return nil
        }
        return LoggedChange(
            showID: show, version: version, at: at, entry: LogEntry(action: action, holdID: r[4], operatorName: r[5], reason: r[6], orderRef: r[7]),
            delta: r[8] ?? "")
    }
}

extension SQLiteStore: WebhookOutbox {
    public var webhooks: (any WebhookStore)? { self }
    public var webhookParts: [any WebhookOutbox] { [self] }

    public func webhookEndpoints() throws -> [WebhookEndpoint] {
        try locked { db in
            try rows(db, "SELECT \(WebhookSchema.endpointColumns) FROM webhook_endpoints ORDER BY created_at, id", [], columns: 10)
                .compactMap(WebhookSchema.endpoint)
        }
    }

    public func saveWebhookEndpoint(_ endpoint: WebhookEndpoint) throws {
        try locked { db in try db.run(WebhookSchema.upsertEndpoint, Self.bind(WebhookSchema.values(endpoint) { $0 ? "1" : "0" })) }
    }

    public func deleteWebhookEndpoint(id: String) throws -> Bool {
        try locked { db in
            try db.execute("BEGIN IMMEDIATE")
            do {
                try db.run("DELETE FROM webhook_deliveries WHERE endpoint_id = ?", [.text(id)])
                try db.run("DELETE FROM webhook_endpoints WHERE id = ?", [.text(id)])
                let gone = db.changes > 0
                try db.execute("COMMIT")
                return gone
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func loggedChanges(after: Int64, upTo: Int64, actions: [String], limit: Int) throws -> [LoggedChange] {
        try locked { db in
            try rows(db, WebhookSchema.logged(actions), [.integer(after), .integer(upTo), .integer(Int64(limit))], columns: 9).compactMap(WebhookSchema.change)
        }
    }

    public func webhookCursor() throws -> Int64 {
        try locked { db in try rows(db, "SELECT at FROM webhook_cursor WHERE id = 1", [], columns: 1).first?[0].flatMap { Int64($0) } ?? 0 }
    }

    public func fanOut(_ deliveries: [WebhookDelivery], cursor: Int64) throws -> Bool {
        try locked { db in
            try db.execute("BEGIN IMMEDIATE")
            do {
                for d in deliveries { try db.run(WebhookSchema.insertDelivery, Self.bind(WebhookSchema.values(d))) }
                try db.run("INSERT INTO webhook_cursor(id, at) VALUES(1, ?) ON CONFLICT(id) DO UPDATE SET at = excluded.at", [.integer(cursor)])
                try db.execute("COMMIT")
                return true
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// One transaction for the read and every claim (a commit a claim was most of the dispatcher's
    /// cost on the store's one writer beside the hold load).
    public func claimDueDeliveries(by time: Int64, lease: Int64, limit: Int) throws -> [WebhookDelivery] {
        try locked { db in
            try db.transaction {
                let due = try rows(db, WebhookSchema.due, [.integer(time), .integer(Int64(limit))], columns: 13).compactMap(WebhookSchema.delivery)
                var claimed: [WebhookDelivery] = []
                for var d in due {
                    try db.run(WebhookSchema.claim, [.integer(lease), .text(d.endpointID), .text(d.eventID), .integer(d.nextAt)])
                    guard db.changes == 1 else { continue }
                    d.nextAt = lease
                    claimed.append(d)
                }
                return claimed
            }
        }
    }

    public func saveDeliveries(_ deliveries: [WebhookDelivery]) throws {
        guard !deliveries.isEmpty else { return }
        try locked { db in
            try db.transaction {
                for d in deliveries { try db.run(WebhookSchema.saveDelivery, Self.bind(WebhookSchema.outcome(d))) }
            }
        }
    }

    public func deliveries(endpoint: String, limit: Int) throws -> [WebhookDelivery] {
        try locked { db in
            try rows(db, WebhookSchema.recent, [.text(endpoint), .integer(Int64(limit))], columns: 13).compactMap(WebhookSchema.delivery)
        }
    }

    public func replayDeliveries(endpoint: String, since time: Int64, now: Int64) throws -> Int {
        try locked { db in
            try db.run(WebhookSchema.replay, [.integer(now), .text(endpoint), .integer(time)])
            return db.changes
        }
    }
}

extension PostgresStore: WebhookOutbox {
    public var webhooks: (any WebhookStore)? { self }
    public var webhookParts: [any WebhookOutbox] { [self] }

    public func webhookEndpoints() throws -> [WebhookEndpoint] {
        try withConnection { c in
            try c.run("webhook_endpoints", "SELECT \(WebhookSchema.endpointColumns) FROM webhook_endpoints ORDER BY created_at, id").rows
                .compactMap(WebhookSchema.endpoint)
        }
    }

    public func saveWebhookEndpoint(_ endpoint: WebhookEndpoint) throws {
        try withConnection { c in
            _ = try c.run("webhook_endpoint_save", QueueSchema.numbered(WebhookSchema.upsertEndpoint), WebhookSchema.values(endpoint) { $0 ? "t" : "f" })
        }
    }

    public func deleteWebhookEndpoint(id: String) throws -> Bool {
        try withConnection { c in
            _ = try c.execute("BEGIN")
            do {
                _ = try c.run("webhook_deliveries_drop", "DELETE FROM webhook_deliveries WHERE endpoint_id = $1", [id])
                let gone = try c.run("webhook_endpoint_drop", "DELETE FROM webhook_endpoints WHERE id = $1", [id]).affected > 0
                _ = try c.execute("COMMIT")
                return gone
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func loggedChanges(after: Int64, upTo: Int64, actions: [String], limit: Int) throws -> [LoggedChange] {
        try withConnection { c in
            try c.run("webhook_log", QueueSchema.numbered(WebhookSchema.logged(actions)), [String(after), String(upTo), String(limit)]).rows
                .compactMap(WebhookSchema.change)
        }
    }

    public func webhookCursor() throws -> Int64 {
        try withConnection { c in try c.run("webhook_cursor", "SELECT at FROM webhook_cursor WHERE id = 1").rows.first?[0].flatMap { Int64($0) } ?? 0 }
    }

    /// One instance at a time (a transaction-scoped advisory lock, one a schema: deployments sharing a
    /// database do not wait on each other; the other instances skip this round).
    public func fanOut(_ deliveries: [WebhookDelivery], cursor: Int64) throws -> Bool {
        try fanOut(
            deliveries, cursor: cursor, name: "webhook_cursor_set",
            "INSERT INTO webhook_cursor(id, at) VALUES(1, $1) ON CONFLICT(id) DO UPDATE SET at = excluded.at")
    }

    /// `deliveries` added and a cursor set by `setCursor` (its one parameter), in one transaction under the
    /// fan-out lock; false when another instance holds it.
    func fanOut(_ deliveries: [WebhookDelivery], cursor: Int64, name: String, _ setCursor: String) throws -> Bool {
        try withConnection { c in
            _ = try c.execute("BEGIN")
            do {
                guard try c.run("webhook_lock", "SELECT pg_try_advisory_xact_lock(5271009, hashtext(current_schema()))").rows.first?[0] == "t" else {
                    _ = try c.execute("ROLLBACK")
                    return false
                }
                for d in deliveries {
                    _ = try c.run("webhook_delivery_add", QueueSchema.numbered(WebhookSchema.insertDelivery), WebhookSchema.values(d))
                }
                _ = try c.run(name, setCursor, [String(cursor)])
                _ = try c.execute("COMMIT")
                return true
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func claimDueDeliveries(by time: Int64, lease: Int64, limit: Int) throws -> [WebhookDelivery] {
        try withConnection { c in
            _ = try c.execute("BEGIN")
            do {
                let due = try c.run("webhook_due", QueueSchema.numbered(WebhookSchema.due), [String(time), String(limit)]).rows
                    .compactMap(WebhookSchema.delivery)
                var claimed: [WebhookDelivery] = []
                for var d in due {
                    let taken = try c.run(
                        "webhook_claim", QueueSchema.numbered(WebhookSchema.claim), [String(lease), d.endpointID, d.eventID, String(d.nextAt)]
                    ).affected
                    guard taken == 1 else { continue }
                    d.nextAt = lease
                    claimed.append(d)
                }
                _ = try c.execute("COMMIT")
                return claimed
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func saveDeliveries(_ deliveries: [WebhookDelivery]) throws {
        guard !deliveries.isEmpty else { return }
        try withConnection { c in
            _ = try c.execute("BEGIN")
            do {
                for d in deliveries {
                    _ = try c.run("webhook_delivery_save", QueueSchema.numbered(WebhookSchema.saveDelivery), WebhookSchema.outcome(d))
                }
                _ = try c.execute("COMMIT")
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func deliveries(endpoint: String, limit: Int) throws -> [WebhookDelivery] {
        try withConnection { c in
            try c.run("webhook_recent", QueueSchema.numbered(WebhookSchema.recent), [endpoint, String(limit)]).rows.compactMap(WebhookSchema.delivery)
        }
    }

    public func replayDeliveries(endpoint: String, since time: Int64, now: Int64) throws -> Int {
        try withConnection { c in
            try c.run("webhook_replay", QueueSchema.numbered(WebhookSchema.replay), [String(now), endpoint, String(time)]).affected
        }
    }
}

/// A sharded store keeps every endpoint on every shard (any shard's dispatcher sends its own shows'
/// events), each shard's log, cursor and deliveries its own (`webhookParts`).
extension ShardedStore: WebhookStore {
    public var webhooks: (any WebhookStore)? { self }
    public var webhookParts: [any WebhookOutbox] { reachable.compactMap { try? $0.store() } }

    public func webhookEndpoints() throws -> [WebhookEndpoint] { try everyShard { try $0.webhookEndpoints() }.first ?? [] }
    public func saveWebhookEndpoint(_ endpoint: WebhookEndpoint) throws { _ = try everyShard { try $0.saveWebhookEndpoint(endpoint) } }
    public func deleteWebhookEndpoint(id: String) throws -> Bool { try everyShard { try $0.deleteWebhookEndpoint(id: id) }.contains(true) }
    public func deliveries(endpoint: String, limit: Int) throws -> [WebhookDelivery] {
        try everyShard { try $0.deliveries(endpoint: endpoint, limit: limit) }.flatMap { $0 }.sorted { ($0.at, $0.eventID) > ($1.at, $1.eventID) }
            .prefix(limit).map { $0 }
    }
    public func replayDeliveries(endpoint: String, since time: Int64, now: Int64) throws -> Int {
        try everyShard { try $0.replayDeliveries(endpoint: endpoint, since: time, now: now) }.reduce(0, +)
    }
}
