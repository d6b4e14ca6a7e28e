import Foundation
import SeatDomain
import SeatMap
import SeatSecrets

extension Inventory {
    /// Checks an exchange against the order, the shows, the seats and (for a buyer) the policy, then
    /// makes it in memory and queues it: one change for a move within the show, two written all or none
    /// between shows. Every refusal names what it refuses and changes nothing. Called under the lock.
    func decideExchange(
        orderRef: String, _ x: Exchange, as actor: OrderActor, rows: [(record: HoldRecord, seats: [Int])], earlier: [RefundRecord],
        paid: [String: (payment: PaymentRecord, left: Int64)] = [:], idempotency: IdempotentRequest<ExchangeView>?, in m: Memory
    ) throws(Refusal) -> (Answer<ExchangeView>, [CommitTicket]) {
        var scope: Set<String>? = nil
        if case .buyer(let code) = actor { scope = try Self.buyerScope(code: code, rows: rows, refunds: earlier, orderRef: orderRef) }
        // The seats given back: sold now in the order (the buyer's part of it), the named ones or all.
        var wanted = x.seatIDs.map { Set($0) }
        var chosen: [(record: HoldRecord, seat: Int)] = [], fromShows = Set<String>()
        for row in rows where (scope?.contains(row.record.id) ?? true) && (x.fromShow.map { $0 == row.record.showID } ?? true) {
            let state = try state(forShow: row.record.showID, in: m)
            for seat in row.seats where wanted == nil || wanted!.contains(state.layout.seatID(seat)) {
                guard state.availability[seat] == .sold else { continue }
                chosen.append((row.record, seat)); fromShows.insert(row.record.showID)
                wanted?.remove(state.layout.seatID(seat))
            }
        }
        if let left = wanted, !left.isEmpty {
            throw Refusal(
                .notInOrder, detail: "not sold in order \(orderRef) (never in it, refunded or exchanged already): \(left.sorted().joined(separator: ", "))",
                details: [.seats(left.sorted())])
        }
        guard !chosen.isEmpty else { throw Refusal(.notInOrder, detail: "order \(orderRef) has no seat left to exchange") }
        guard fromShows.count == 1, let fromID = fromShows.first else {
            throw Refusal(
                .invalidBody, detail: "the seats given back are of \(fromShows.count) shows: exchange one show's seats at a time (name them in seats)")
        }
        let from = try state(forShow: fromID, in: m), to = try state(forShow: x.toShow, in: m)
        try checkNotCancelled(to)
        let n = chosen.count, now = clock()
        let policy = AfterSalePolicy(detailsJSON: from.record.detailsJSON)
        if case .buyer = actor {
            if x.force { throw Refusal(.invalidBody, detail: "force is the box office's: a buyer's exchange keeps the show's seat rules") }
            let made = Self.exchangesMade(scope ?? [])
            guard made < policy.exchanges else {
                throw Refusal(
                    .afterSaleClosed,
                    detail: policy.exchanges == 0
                        ? "show \(fromID) takes no exchanges from buyers; the box office can still help"
                        : "this order was exchanged \(made) time\(made == 1 ? "" : "s") already, as many as show \(fromID) allows")
            }
            try checkWindow(from, minutes: policy.exchangeMinutes, what: "exchanges")
            try checkWindow(to, minutes: policy.exchangeMinutes, what: "exchanges into it")
            try checkOnSale(to)
            if let admission = x.admission { try checkAdmissionFree(admission, in: to) }
        }
        guard to.prices.table.currency == from.prices.table.currency else {
            throw Refusal(
                .invalidBody, detail: "show \(to.record.id) sells in \(to.prices.table.currency), this order in \(from.prices.table.currency)")
        }
        // The new seats: as many as are given back, free, under the new show's rules.
        var rules = to.policy
        rules.maxSeats = max(rules.maxSeats, n)
        let seats: [SeatIndex]
        switch x.target {
        case .seats(let ids):
            seats = try resolve(ids, in: to.layout).sorted()
            guard seats.count == n else {
                throw Refusal(
                    .invalidBody, detail: "\(n) seat\(n == 1 ? "" : "s") given back, \(seats.count) named in to.seats: an exchange keeps the number of seats",
                    details: [.errors([("to.seats", "name \(n) seat\(n == 1 ? "" : "s")")])])
            }
        case .best(let count):
            guard count == n else {
                throw Refusal(
                    .invalidBody, detail: "\(n) seat\(n == 1 ? "" : "s") given back, best asks for \(count): an exchange keeps the number of seats",
                    details: [.errors([("to.best", "ask for \(n)")])])
            }
            guard let found = to.layout.bestAvailable(BestAvailableRequest(count: n), availability: to.availability, policy: rules) else {
                throw Refusal(.seatsTaken, detail: "show \(to.record.id) has no \(n) free seats side by side (version \(to.availability.version))")
            }
            seats = found.sorted()
        }
        if to === from {
            let mine = seats.filter { s in chosen.contains { $0.seat == s } }
            if !mine.isEmpty {
                let names = mine.map { to.layout.seatID($0) }
                throw Refusal(.invalidBody, detail: "\(names.joined(separator: ", ")) already this order's: name other seats", details: [.seats(names)])
            }
        }
        try checkFree(seats, in: to, own: [])
        let violations = rules.violations(
            for: seats, in: to.layout, availability: to.availability, context: SelectionContext(wheelchairRequested: true, ownHeld: [])
        ).filter { $0.rule != .seatLimit && $0.rule != .wheelchairOnRequest && $0.rule != .notAvailable }
        if !violations.isEmpty && !x.force {
            let v = violations[0]
            let hint = if case .boxOffice = actor { " Exchange anyway with \"force\": true (recorded)." } else { "" }
            throw Refusal(.ruleViolation, detail: "\(v.rule.rawValue): \(v.english)\(hint)", details: [Self.violations(violations, in: to.layout)])
        }
        return try makeExchange(
            orderRef: orderRef, x, as: actor, chosen: chosen, from: from, to: to, seats: seats, forced: violations.map(\.rule.rawValue),
            fee: actor.isBuyer ? policy.exchangeFee * Decimal(n) : 0, rows: rows, earlier: earlier, paid: paid, idempotency: idempotency, now: now,
            in: m)
    }
}

extension OrderActor {
    public var isBuyer: Bool { if case .buyer = self { true } else { false } }
}
