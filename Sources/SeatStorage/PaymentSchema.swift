import SeatDomain
import SeatJSON

/// The payments' statements (the table: `Migrations/*-payments.sql`). A payment is written only with
/// its change (`StoreCommit.payments`, in the change's transaction); these read them, and `upsert`
/// writes them inside a commit.
enum PaymentSchema {
    static let columns = "id, hold_id, show_id, provider, provider_id, amount, currency, state, created_at, updated_at, expires_at, outcome, seats"
    /// A payment as it is now: its id, show, provider, amount, currency and creation never change; its
    /// hold does when a late payment sells its seats as a new sale (`Inventory.beginSellLate`).
    static let upsert = """
        INSERT INTO payments(\(columns)) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET hold_id = excluded.hold_id, provider_id = excluded.provider_id, state = excluded.state, updated_at = excluded.updated_at,
          expires_at = excluded.expires_at, outcome = excluded.outcome
        """
    static let byID = "SELECT \(columns) FROM payments WHERE id = ?"
    static let byProvider = "SELECT \(columns) FROM payments WHERE provider = ? AND provider_id = ?"
    static let byHold = "SELECT \(columns) FROM payments WHERE hold_id = ? ORDER BY created_at, id"
    static let between = "SELECT \(columns) FROM payments WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id"
    static let pendingDue = "SELECT \(columns) FROM payments WHERE state = 'pending' AND expires_at <= ? ORDER BY expires_at, id"

    static let refundColumns =
        "id, payment_id, hold_id, show_id, provider, amount, currency, state, provider_refund_id, reason, created_at, updated_at, outcome"
    static let refundUpsert = """
        INSERT INTO payment_refunds(\(refundColumns)) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET state = excluded.state, provider_refund_id = excluded.provider_refund_id, updated_at = excluded.updated_at,
          outcome = excluded.outcome
        """
    static let refundsByPayment = "SELECT \(refundColumns) FROM payment_refunds WHERE payment_id = ? ORDER BY created_at, id"
    static let refundsBetween = "SELECT \(refundColumns) FROM payment_refunds WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id"
    static let refundsPending = "SELECT \(refundColumns) FROM payment_refunds WHERE state = 'pending' AND created_at <= ? ORDER BY created_at, id"

    static func values(_ r: PaymentRefundRecord) -> [String?] {
        [
            r.id, r.paymentID, r.holdID, r.showID, r.provider, String(r.amount), r.currency, r.state.rawValue, r.providerRefundID, r.reason,
            String(r.createdAt), String(r.updatedAt), r.outcome,
        ]
    }

    static func refund(_ row: [String?]) -> PaymentRefundRecord? {
        guard row.count == 13, let id = row[0], let payment = row[1], let hold = row[2], let show = row[3], let provider = row[4],
            let amount = row[5].flatMap({ Int64($0) }), let currency = row[6], let state = row[7].flatMap(PaymentRefundRecord.State.init(rawValue:)),
            let reason = row[9], let created = row[10].flatMap({ Int64($0) }), let updated = row[11].flatMap({ Int64($0) })
        else { return nil }
        return PaymentRefundRecord(
            id: id, paymentID: payment, holdID: hold, showID: show, provider: provider, amount: amount, currency: currency, state: state,
            providerRefundID: row[8], reason: reason, createdAt: created, updatedAt: updated, outcome: row[12])
    }

    /// The upsert's values, in `columns` order (nil: NULL).
    static func values(_ p: PaymentRecord) -> [String?] {
        [
            p.id, p.holdID, p.showID, p.provider, p.providerID, String(p.amount), p.currency, p.state.rawValue, String(p.createdAt),
            String(p.updatedAt), String(p.expiresAt), p.outcome, p.seats.isEmpty ? nil : seatsText(p.seats),
        ]
    }

    /// Seat ids as a JSON array (an id may hold any character a venue file allowed).
    static func seatsText(_ seats: [String]) -> String {
        var w = JSONWriter()
        w.strings(seats)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func seats(_ text: String) -> [String] {
        (try? JSONParser.parse(Array(text.utf8)))?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// A row in `columns` order; nil when a column the record needs is not what it must be.
    static func record(_ row: [String?]) -> PaymentRecord? {
        guard row.count == 13, let id = row[0], let hold = row[1], let show = row[2], let provider = row[3], let amount = row[5].flatMap({ Int64($0) }),
            let currency = row[6], let state = row[7].flatMap(PaymentState.init(rawValue:)), let created = row[8].flatMap({ Int64($0) }),
            let updated = row[9].flatMap({ Int64($0) }), let expires = row[10].flatMap({ Int64($0) })
        else { return nil }
        return PaymentRecord(
            id: id, holdID: hold, showID: show, provider: provider, providerID: row[4], amount: amount, currency: currency, state: state,
            createdAt: created, updatedAt: updated, expiresAt: expires, outcome: row[11],
            seats: row[12].map(seats) ?? [])
    }
}

extension SQLiteStore: PaymentStore {
    public var payments: (any PaymentStore)? { self }

    func read(_ sql: String, _ values: [SQLValue]) throws -> [PaymentRecord] {
        try locked { db in try rows(db, sql, values, columns: 13).compactMap(PaymentSchema.record) }
    }

    public func payment(id: String) throws -> PaymentRecord? { try read(PaymentSchema.byID, [.text(id)]).first }
    public func payment(provider: String, providerID: String) throws -> PaymentRecord? {
        try read(PaymentSchema.byProvider, [.text(provider), .text(providerID)]).first
    }
    public func payments(hold holdID: String) throws -> [PaymentRecord] { try read(PaymentSchema.byHold, [.text(holdID)]) }
    public func payments(from: Int64, to: Int64) throws -> [PaymentRecord] { try read(PaymentSchema.between, [.integer(from), .integer(to)]) }
    public func pendingPayments(dueBy time: Int64) throws -> [PaymentRecord] { try read(PaymentSchema.pendingDue, [.integer(time)]) }

    func readRefunds(_ sql: String, _ values: [SQLValue]) throws -> [PaymentRefundRecord] {
        try locked { db in try rows(db, sql, values, columns: 13).compactMap(PaymentSchema.refund) }
    }

    public func paymentRefunds(payment paymentID: String) throws -> [PaymentRefundRecord] {
        try readRefunds(PaymentSchema.refundsByPayment, [.text(paymentID)])
    }
    public func paymentRefunds(from: Int64, to: Int64) throws -> [PaymentRefundRecord] {
        try readRefunds(PaymentSchema.refundsBetween, [.integer(from), .integer(to)])
    }
    public func pendingPaymentRefunds(madeBy time: Int64) throws -> [PaymentRefundRecord] {
        try readRefunds(PaymentSchema.refundsPending, [.integer(time)])
    }

    /// The batch's payments and refunds through providers, inside its transaction.
    func writePayments(_ batch: [StoreCommit], _ db: SQLiteDatabase) throws {
        for c in batch {
            for p in c.payments {
                try db.run(PaymentSchema.upsert, Self.bind(PaymentSchema.values(p)))
            }
            for r in c.paymentRefunds {
                try db.run(PaymentSchema.refundUpsert, Self.bind(PaymentSchema.values(r)))
            }
        }
    }
}

extension PostgresStore: PaymentStore {
    public var payments: (any PaymentStore)? { self }

    func read(_ name: String, _ sql: String, _ values: [String?]) throws -> [PaymentRecord] {
        try withConnection { c in try c.run(name, QueueSchema.numbered(sql), values).rows.compactMap(PaymentSchema.record) }
    }

    public func payment(id: String) throws -> PaymentRecord? { try read("payment_by_id", PaymentSchema.byID, [id]).first }
    public func payment(provider: String, providerID: String) throws -> PaymentRecord? {
        try read("payment_by_provider", PaymentSchema.byProvider, [provider, providerID]).first
    }
    public func payments(hold holdID: String) throws -> [PaymentRecord] { try read("payments_by_hold", PaymentSchema.byHold, [holdID]) }
    public func payments(from: Int64, to: Int64) throws -> [PaymentRecord] {
        try read("payments_between", PaymentSchema.between, [String(from), String(to)])
    }
    public func pendingPayments(dueBy time: Int64) throws -> [PaymentRecord] { try read("payments_due", PaymentSchema.pendingDue, [String(time)]) }

    func readRefunds(_ name: String, _ sql: String, _ values: [String?]) throws -> [PaymentRefundRecord] {
        try withConnection { c in try c.run(name, QueueSchema.numbered(sql), values).rows.compactMap(PaymentSchema.refund) }
    }

    public func paymentRefunds(payment paymentID: String) throws -> [PaymentRefundRecord] {
        try readRefunds("payment_refunds_by_payment", PaymentSchema.refundsByPayment, [paymentID])
    }
    public func paymentRefunds(from: Int64, to: Int64) throws -> [PaymentRefundRecord] {
        try readRefunds("payment_refunds_between", PaymentSchema.refundsBetween, [String(from), String(to)])
    }
    public func pendingPaymentRefunds(madeBy time: Int64) throws -> [PaymentRefundRecord] {
        try readRefunds("payment_refunds_pending", PaymentSchema.refundsPending, [String(time)])
    }

    /// The payments of `changes` that `seatkit_commit` committed (`results`, in the same order), inside
    /// the caller's transaction: a refused change writes none of its payments.
    static func writePayments(of changes: [StoreCommit], _ results: [CommitOutcome], _ c: PostgresConnection) throws {
        for (change, result) in zip(changes, results) {
            guard case .committed = result else { continue }
            for p in change.payments { try c.run("payment_upsert", QueueSchema.numbered(PaymentSchema.upsert), PaymentSchema.values(p)) }
            for r in change.paymentRefunds {
                try c.run("payment_refund_upsert", QueueSchema.numbered(PaymentSchema.refundUpsert), PaymentSchema.values(r))
            }
        }
    }

    /// A batch with payments (a checkout, a paid sale: one a purchase, so two round trips more are
    /// cheap): `seatkit_commit` in a transaction of its own, then each committed change's payments, and
    /// the commit; a refused change writes none of its payments. Anything failing rolls all of it back.
    func commitWithPayments(_ batch: [StoreCommit]) throws -> [CommitOutcome] {
        try withConnection { c in
            _ = try c.execute("BEGIN")
            do {
                let results = try Self.changeByChange(c, batch)
                try Self.writePayments(of: batch, results, c)
                _ = try c.execute("COMMIT")
                return results
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }
}

extension ShardedStore: PaymentStore {
    public var payments: (any PaymentStore)? { self }

    public func payment(id: String) throws -> PaymentRecord? { try everyShard { try $0.payment(id: id) }.compactMap { $0 }.first }
    public func payment(provider: String, providerID: String) throws -> PaymentRecord? {
        try everyShard { try $0.payment(provider: provider, providerID: providerID) }.compactMap { $0 }.first
    }
    public func payments(hold holdID: String) throws -> [PaymentRecord] {
        try shards(forRecord: holdID).flatMap { shard in try shard.run { try $0.payments(hold: holdID) } }
    }
    public func payments(from: Int64, to: Int64) throws -> [PaymentRecord] {
        try everyShard { try $0.payments(from: from, to: to) }.flatMap { $0 }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }
    public func pendingPayments(dueBy time: Int64) throws -> [PaymentRecord] {
        try everyShard { try $0.pendingPayments(dueBy: time) }.flatMap { $0 }.sorted { ($0.expiresAt, $0.id) < ($1.expiresAt, $1.id) }
    }
    public func paymentRefunds(payment paymentID: String) throws -> [PaymentRefundRecord] {
        try everyShard { try $0.paymentRefunds(payment: paymentID) }.flatMap { $0 }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }
    public func paymentRefunds(from: Int64, to: Int64) throws -> [PaymentRefundRecord] {
        try everyShard { try $0.paymentRefunds(from: from, to: to) }.flatMap { $0 }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }
    public func pendingPaymentRefunds(madeBy time: Int64) throws -> [PaymentRefundRecord] {
        try everyShard { try $0.pendingPaymentRefunds(madeBy: time) }.flatMap { $0 }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }
}
