import Foundation
import SeatDomain
import SeatJSON
import SeatMap

extension PostgresStore {
    /// The whole batch in one transaction and one round trip: written whole when it can be
    /// (`seatkit_write`, see `writesTogether` and `writeChanges`), else, or when the database refuses any
    /// of it (nothing of it written then), by `seatkit_commit`: each change in its own subtransaction,
    /// in show order then queue order. A change the database refuses (a seat another instance took, a
    /// hold another instance finished) is rolled back alone and reported; a lost connection fails the
    /// whole batch (nothing was committed).
    public func commit(batch: [StoreCommit]) throws -> [CommitOutcome] {
        guard !batch.isEmpty else { return [] }
        if batch.contains(where: \.allOrNoneWithNext) { return try commitLinked(batch) }
        if batch.contains(where: { !$0.payments.isEmpty || !$0.paymentRefunds.isEmpty }) { return try commitWithPayments(batch) }
        let order = Self.showOrder(batch)
        // Each delta's body once: in what is sent, and in the answer of a batch written whole.
        let bodies = order.map { Self.deltaBody(batch[$0]) }
        var together = Self.writesTogether(batch)
        let outcomes = try withConnection { c -> [CommitOutcome] in
            if together {
                let flag = batch.contains(where: \.durable) ? "t" : "f"
                do {
                    let bytes = Self.changesBinary(
                        order.map { batch[$0] }, bodies: bodies, now: Int64(Date().timeIntervalSince1970 * 1000), oids: try c.compositeOIDs())
                    let cell = try c.run("write", Self.writeCall, values: [.text(flag), .binary(bytes)]).rows.first?[0]
                    guard let versions = cell.flatMap(Self.bigintArray), versions.count == batch.count else {
                        throw PostgresError(sqlState: "XX000", message: "seatkit_write answered \(cell ?? "nothing")")
                    }
                    // Written whole: each change its version; the delta is the one sent, numbered.
                    var outcomes = [CommitOutcome?](repeating: nil, count: batch.count)
                    for (k, i) in order.enumerated() {
                        let v = UInt64(versions[k])
                        outcomes[i] = .committed(version: v, delta: AvailabilityDelta.encoded(from: v - 1, to: v, body: bodies[k]))
                    }
                    return outcomes.map { $0! }
                } catch let error as PostgresError where Self.refusesBatch(error) {
                    // Something of it is refused: nothing was written; change by change, each refusal alone.
                    together = false
                    batchesWritten.withLock { $0[1] += 1 }
                }
            }
            return try Self.changeByChange(c, batch, order: order, bodies: bodies)
        }
        batchesWritten.withLock {
            if together { $0[0] += 1 }
            $0[2] += 1
            $0[3] += batch.count
        }
        return outcomes
    }

    /// A batch with changes linked all or none (an exchange between two shows: the old seats freed, the
    /// new sold): `seatkit_commit` in a transaction of its own, which is committed only when no linked
    /// group has a refused change. Otherwise it is rolled back and the batch goes again without those
    /// groups (each refused whole: the refused change with its reason, the others as conflicts), until
    /// every group is written whole or not at all. Rare (exchanges), so two round trips more are cheap.
    func commitLinked(_ batch: [StoreCommit]) throws -> [CommitOutcome] {
        var group = [Int](repeating: 0, count: batch.count), sizes: [Int] = [0]
        for i in batch.indices {
            group[i] = sizes.count - 1
            sizes[sizes.count - 1] += 1
            if !batch[i].allOrNoneWithNext { sizes.append(0) }
        }
        var outcomes = [CommitOutcome?](repeating: nil, count: batch.count)
        while true {
            let live = batch.indices.filter { outcomes[$0] == nil }
            guard !live.isEmpty else { break }
            let round: (results: [CommitOutcome], refused: Set<Int>) = try withConnection { c in
                _ = try c.execute("BEGIN")
                do {
                    let results = try Self.changeByChange(c, live.map { batch[$0] })
                    var refused = Set<Int>()
                    for (k, i) in live.enumerated() where sizes[group[i]] > 1 {
                        if case .refused = results[k] { refused.insert(group[i]) }
                    }
                    // Payments ride with their changes (`commitWithPayments`), here too.
                    if refused.isEmpty { try Self.writePayments(of: live.map { batch[$0] }, results, c) }
                    _ = try c.execute(refused.isEmpty ? "COMMIT" : "ROLLBACK")
                    return (results, refused)
                } catch {
                    _ = try? c.execute("ROLLBACK")
                    throw error
                }
            }
            for (k, i) in live.enumerated() where round.refused.isEmpty || round.refused.contains(group[i]) {
                if case .committed = round.results[k], !round.refused.isEmpty {
                    outcomes[i] = .refused(.conflict("written only with its linked change, which was refused"))
                } else {
                    outcomes[i] = round.results[k]
                }
            }
        }
        return outcomes.map { $0! }
    }

    /// `seatkit_commit` on `batch` (in show order, as every instance locks shows; `order` and `bodies`
    /// when the caller has them), each change's outcome in the batch's order: the refused ones classified
    /// by their SQLSTATE (a conflict, a race with another instance, or a failure).
    static func changeByChange(
        _ c: PostgresConnection, _ batch: [StoreCommit], order given: [Int]? = nil, bodies known: [String]? = nil
    ) throws -> [CommitOutcome] {
        let order = given ?? showOrder(batch)
        let w = batchJSON(order.map { batch[$0] }, bodies: known ?? order.map { deltaBody(batch[$0]) })
        let cell = try c.run("commit_batch", "SELECT seatkit_commit($1::jsonb, $2::boolean)", [w.text, batch.contains(where: \.durable) ? "t" : "f"])
            .rows.first?[0]
        guard let results = cell.flatMap({ try? JSONParser.parse(Array($0.utf8)) })?.arrayValue, results.count == batch.count else {
            throw PostgresError(sqlState: "XX000", message: "seatkit_commit answered \(cell ?? "nothing")")
        }
        var outcomes = [CommitOutcome?](repeating: nil, count: batch.count)
        for (k, i) in order.enumerated() {
            let r = results[k].objectValue
            if let v = r?["version"]?.intValue, let delta = r?["delta"]?.stringValue {
                outcomes[i] = .committed(version: UInt64(v), delta: delta)
            } else {
                outcomes[i] = .refused(StoreError(sqlState: r?["code"]?.stringValue ?? "SK001", message: r?["refused"]?.stringValue ?? "refused"))
            }
        }
        return outcomes.map { $0! }
    }

    /// What `seatkit_write` raises when the database refuses part of a batch (a seat or hold
    /// another instance changed, a show edited meanwhile, a claim or hold not its change's, an admission
    /// in use): the batch goes again change by change. Anything else fails the batch.
    static func refusesBatch(_ error: PostgresError) -> Bool {
        ["23505", "23503", "21000", "SK001", "SK002"].contains(error.sqlState)
    }

    /// A bigint[] in the text format (`{1,2,3}`); nil if any element is not a number.
    static func bigintArray(_ text: String) -> [Int64]? {
        guard text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
        let inner = text.dropFirst().dropLast()
        if inner.isEmpty { return [] }
        var out: [Int64] = []
        for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
            guard let v = Int64(part) else { return nil }
            out.append(v)
        }
        return out
    }

    /// In one durable transaction, with the show row locked as `seatkit_commit` locks it: empty lines of
    /// the log for the lost versions `expected + 1 ... past`, then `changes` as version `past + 1`.
    public func advanceVersion(show: String, from expected: UInt64, past: UInt64, changes: [SeatChange]) throws -> Bool {
        guard past >= expected else { return false }
        let delta = AvailabilityDelta(fromVersion: past, toVersion: past + 1, changes: changes).encoded()
        return try withConnection { c in
            try c.execute("BEGIN")
            do {
                let current = try c.run("lock_show", "SELECT version FROM shows WHERE id = $1 FOR UPDATE", [show])
                guard current.rows.count == 1, UInt64(current.int(0, 0)) == expected else {
                    try c.execute("ROLLBACK")
                    return false
                }
                let now = Self.now()
                // Each lost version an empty delta (numbered here: the delta's text is made in one place).
                let lost = past > expected ? Array((expected + 1)...past) : []
                try c.run(
                    "fill_log",
                    "INSERT INTO show_log(show_id, version, created_at, action, reason, delta) SELECT $1, v, $2::bigint, 'repair', "
                        + "'a version the database lost in a crash', d FROM unnest($3::bigint[], $4::text[]) AS u(v, d)",
                    [
                        show, now, PostgresArray.bigint(lost.map { Int64($0) }).literal,
                        PostgresArray.text(lost.map { AvailabilityDelta.encoded(from: $0 - 1, to: $0, body: "") }).literal,
                    ])
                try c.run(
                    "repair_log",
                    "INSERT INTO show_log(show_id, version, created_at, action, reason, delta) VALUES($1, $2, $3, 'repair', "
                        + "'the database lost changes in a crash: the seats as it has them', $4)", [show, String(past + 1), now, delta])
                try c.run("advance_show", "UPDATE shows SET version = $2 WHERE id = $1", [show, String(past + 1)])
                try c.run(
                    "notify_repair", "SELECT pg_notify('seatkit_events_' || current_schema(), $1)",
                    [show + "\n" + (delta.utf8.count < 7000 ? delta : "")])
                try c.execute("COMMIT")
                return true
            } catch {
                // As in SQLite's: the commit's own error is the one that matters.
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// A batch (already in show order) as the JSON `seatkit_commit` reads, with each change's delta
    /// body (`deltaBody`) already made.
    static func batchJSON(_ batch: [StoreCommit], bodies: [String]) -> JSONWriter {
        var w = JSONWriter(reservingCapacity: batch.count * 256)
        w.raw("[")
        for (k, c) in batch.enumerated() {
            if k > 0 { w.raw(",") }
            write(c, body: bodies[k], into: &w)
        }
        w.raw("]")
        return w
    }

    /// A change's delta without its versions (the database puts `skd1;FROM;TO;` in front).
    static func deltaBody(_ c: StoreCommit) -> String { AvailabilityDelta.body(c.changes) }

    /// One change as the JSON `seatkit_commit` reads. An optional field that is nil is left out (`->>`
    /// reads a missing key as NULL, as it reads `null`): parsing the batch was 9 % of the database's
    /// CPU a hold + release, and a buyer's hold carries six such nulls.
    static func write(_ c: StoreCommit, body: String, into w: inout JSONWriter) {
        func seats(_ list: [Int]) -> String { "[" + list.map(String.init).joined(separator: ",") + "]" }
        w.raw("{"); w.key("show", first: true); w.string(c.showID)
        w.key("holds"); w.raw("[")
        for (k, h) in c.holds.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("id", first: true); w.string(h.id); w.key("token"); w.string(h.tokenDigest); w.key("show"); w.string(h.showID)
            w.key("state"); w.string(h.state.rawValue); w.key("expiresAt"); w.number(Int(h.expiresAt)); w.key("extended"); w.raw(h.extended ? "true" : "false")
            if let o = h.orderRef { w.key("orderRef"); w.string(o) }
            w.key("wheelchair"); w.raw(h.wheelchair ? "true" : "false"); w.key("createdAt"); w.number(Int(h.createdAt))
            w.key("kind"); w.string(h.kind.rawValue)
            if let r = h.reason { w.key("reason"); w.string(r) }
            if let o = h.operatorName { w.key("operator"); w.string(o) }
            if let p = h.payment { w.key("payment"); w.string(p) }
            if let p = h.prices { w.key("prices"); w.string(p) }
            if let a = h.admission { w.key("admission"); w.string(a) }
            w.raw("}")
        }
        w.raw("]")
        w.key("delete"); w.raw(seats(c.delete)); w.key("sell"); w.raw(seats(c.sell))
        if !c.refunds.isEmpty {
            w.key("refunds"); w.raw("[")
            for (k, r) in c.refunds.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("hold", first: true); w.string(r.holdID); w.key("seat"); w.number(r.seat); w.key("at"); w.number(Int(r.refundedAt))
                w.key("reason"); w.string(r.reason); w.key("operator"); w.string(r.operatorName)
                w.key("returnedTo"); if let t = r.returnedTo { w.string(t) } else { w.raw("null") }
                w.key("fee"); if let fee = r.fee { w.string("\(fee)") } else { w.raw("null") }; w.raw("}")
            }
            w.raw("]")
        }
        w.key("insert"); w.raw("[")
        for (k, claim) in c.insert.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("seat", first: true); w.number(claim.seat); w.key("status"); w.string(claim.status.name)
            if let h = claim.holdID { w.key("hold"); w.string(h) }
            if let i = claim.identity { w.key("identity"); w.string(i) }
            if let a = claim.attendee { w.key("attendee"); w.string(a) }
            w.raw("}")
        }
        w.raw("]")
        // The delta's body; the database puts the versions in front of it.
        w.key("changes"); w.string(body)
        w.key("now"); w.number(Int(Date().timeIntervalSince1970 * 1000))
        func optional(_ key: String, _ s: String?) { if let s { w.key(key); w.string(s) } }
        w.key("log"); w.raw("{"); w.key("action", first: true); w.string(c.log.action); optional("hold", c.log.holdID)
        optional("operator", c.log.operatorName); optional("reason", c.log.reason); optional("orderRef", c.log.orderRef)
        w.raw("}")
        func row(_ key: String, _ s: ShowRecord) {
            w.key(key); w.raw("{"); w.key("startsAt", first: true); w.string(s.startsAt); w.key("prices"); w.string(s.pricesJSON)
            w.key("policy"); w.string(s.policyJSON); w.key("holdSeconds"); w.number(s.holdSeconds); w.key("details"); w.string(s.detailsJSON)
            w.key("onSale"); w.raw(s.onSale ? "true" : "false"); w.key("cancelledAt"); if let t = s.cancelledAt { w.number(Int(t)) } else { w.raw("null") }
            w.key("priceRevision"); w.number(s.priceRevision); w.key("earlierPrices"); w.string(s.earlierPricesJSON); w.raw("}")
        }
        if let s = c.show {
            row("showRow", s)
            if let base = c.showBase { row("showBase", base) }
        }
        if let r = c.idempotency {
            w.key("idempotency"); w.raw("{"); w.key("key", first: true); w.string(r.key); w.key("fingerprint"); w.string(r.requestFingerprint)
            w.key("status"); w.number(r.status); w.key("body"); w.string(String(decoding: r.body, as: UTF8.self)); w.raw("}")
        }
        w.raw("}")
    }
}
