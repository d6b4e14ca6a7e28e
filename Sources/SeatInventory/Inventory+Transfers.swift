import Foundation
import SeatDomain
import SeatJSON
import SeatMap
import SeatSecrets
import SeatTickets

/// A real-name ticket as its code is made: its generation (transfers and first binding so far), the
/// door's check of its attendee's document, and the attendee's name masked.
public struct BoundTicket: Sendable, Hashable {
    public var generation: Int
    public var binding: [UInt8]?
    public var attendee: String
}

/// A real-name ticket given to another person, or a ticket sold without a name bound to its first
/// (`POST /v1/tickets/{code}/transfer`): the sale stays, the attendee changes, the old code is revoked
/// everywhere (its id is the ticket's previous generation: online doors refuse it at once, offline ones
/// from the revoked list).
extension Inventory {
    /// The key a door checks documents against a show's tickets with (handed to door operators for
    /// offline checks): drawn from the index key, so it opens nothing else.
    public func doorKey(show: String) -> [UInt8] { personalData.derivedKey("door\u{1F}" + show) }

    /// A sealed attendee opened (nil: sealed under a key this server no longer has).
    func opened(attendee sealed: String, show: String) -> AttendeeRecord? {
        personalData.open(sealed, context: show).flatMap(AttendeeRecord.init(text:))
    }

    /// The code-making facts of a real-name show's sold seats, by `sale\u{1F}seat` (the sales' seats
    /// still sold and, for the revoked list, the generation each had). Reads the store: off the lock.
    func boundTickets(show: String, sales: [String]) throws(Refusal) -> [String: BoundTicket] {
        guard locked({ m in m.shows[show]?.realName.isOn == true }) else { return [:] }
        var out: [String: BoundTicket] = [:]
        do {
            let transfers = try store.personalData?.transfers(show: show) ?? []
            for t in transfers { out["\(t.sale)\u{1F}\(t.seat)", default: BoundTicket(generation: 0, binding: nil, attendee: "")].generation += 1 }
            let key = doorKey(show: show)
            for sale in sales {
                for claim in try store.attendeeClaims(show: show, holdID: sale) {
                    guard let sealed = claim.attendee, let record = opened(attendee: sealed, show: show) else { continue }
                    let k = "\(sale)\u{1F}\(claim.seat)"
                    out[k, default: BoundTicket(generation: 0, binding: nil, attendee: "")].binding = TicketCode.binding(key: key, document: record.document)
                    out[k]!.attendee = PersonName.masked(record.name)
                }
            }
        } catch { throw Self.storeRefusal(error) }
        return out
    }

    /// Whether `typed` (as typed or read: any document type, spaces and case as they come) is the
    /// document whose keyed hash is `identity`.
    public func documentMatches(_ typed: String, identity: String) -> Bool {
        IdentityDocument.Kind.allCases.contains { kind in
            guard case .success(let d) = IdentityDocument.check(kind: kind, number: typed) else { return false }
            return personalData.index(d.canonical, purpose: "id") == identity
        }
    }

    /// A sealed attendee's name masked (`?` when this server cannot open it).
    public func attendeeMask(_ sealed: String?, show: String) -> String {
        sealed.flatMap { opened(attendee: $0, show: show) }.map { PersonName.masked($0.name) } ?? "?"
    }

    /// Gives the ticket of `seat` (whose current code's id is `ticketID`) to `to`, or binds a ticket sold
    /// without a name: by the box office (`operatorName`), or by the buyer with their order's code.
    /// Within the show's policy (a first binding until `bindByMinutes` before the start; transfers until
    /// `transferMinutes`, at most `transfers` times); the old code is revoked.
    /// - Returns: the ticket's new generation and facts, for its new code.
    public func transferTicket(
        show: String, seat: SeatIndex, ticketID: [UInt8], to person: AttendeeInput, by operatorName: String?, buyerCode: String?
    ) throws(Refusal) -> (sale: String, orderRef: String, seatID: String, ticket: BoundTicket) {
        let sales = try seatSales(show: show, seat: seat)
        guard let sale = sales.current, TicketCode.id(sale: sale, seat: seat, generation: sales.generation) == ticketID else {
            throw Refusal(.notInOrder, detail: "this ticket no longer stands (refunded, exchanged or transferred): transfer the current one")
        }
        let read: (record: HoldRecord, seats: [Int])?
        do { read = try store.holdWithSeats(id: sale) } catch { throw Self.storeRefusal(error) }
        guard let orderRef = read?.record.orderRef else { throw Refusal(.notFound, detail: "no ticket with this code") }
        // The buyer's own order (its code is the hold token it was bought with), or the box office.
        if operatorName == nil {
            guard let code = buyerCode else { throw Refusal(.notFound, detail: "no ticket with this code and order code") }
            let (rows, refunds) = try storedOrder(orderRef)
            guard try Self.buyerScope(code: code, rows: rows, refunds: refunds, orderRef: orderRef).contains(sale) else {
                throw Refusal(.notFound, detail: "no ticket with this code and order code")
            }
        }
        var given = person
        let (seatID, policy, starts): (String, RealNamePolicy, Int64?) = try lockedWhenFresh(show: show) { (m: Memory) throws(Refusal) in
            let state = try state(forShow: show, in: m)
            given.seat = state.layout.seatID(seat)
            return (state.layout.seatID(seat), state.realName, state.startsAtMilliseconds)
        }
        guard policy.isOn else { throw Refusal.invalid(path: "to", "show \(show) does not sell by real name: its tickets name nobody") }
        let first = sales.identity == nil
        let earlier: [TicketTransfer]
        do { earlier = try store.personalData?.transfers(show: show).filter { $0.sale == sale && $0.seat == seat && !$0.firstBinding } ?? [] } catch {
            throw Self.storeRefusal(error)
        }
        let minutes = first ? policy.bindByMinutes : policy.transferMinutes
        if let starts, clock() >= starts - Int64(minutes) * 60_000 {
            let what = first ? "binding a ticket sold without a name" : "transfers"
            throw Refusal(
                .afterSaleClosed,
                detail: "\(what) for show \(show) closed at \(Self.isoTime(starts - Int64(minutes) * 60_000)), \(minutes) minutes before it starts")
        }
        if !first && earlier.count >= policy.transfers {
            throw Refusal(.afterSaleClosed, detail: "seat \(seatID)'s ticket was transferred \(earlier.count) times: show \(show) allows \(policy.transfers)")
        }
        guard let next = try prepareAttendees([given], show: show).first?.attendee else { throw Refusal.invalid(path: "to", "an attendee is needed") }
        if !policy.idTypes.contains(next.kind) {
            throw Refusal.invalid(path: "to.idType", "show \(show) takes \(policy.idTypes.map(\.rawValue).joined(separator: ", ")), not \(next.kind.rawValue)")
        }
        try locked { (m: Memory) throws(Refusal) in
            if let state = m.shows[show], let taken = state.seatOfIdentity[next.identity], taken != seat {
                throw Refusal(
                    .idAlreadyUsed, detail: "seat \(seatID): this document already has seat \(state.layout.seatID(taken)) of show \(show) (one a show)")
            }
        }
        let record = TicketTransfer(
            show: show, seat: seat, sale: sale, oldTicket: SHA256.hex(ticketID), firstBinding: first, at: clock(), operatorName: operatorName ?? "buyer")
        let done: Bool
        do { done = try store.personalData?.transfer(record, from: sales.identity, to: next.identity, attendee: next.sealed) ?? false } catch {
            if StoreError(error).isIdentityInUse {
                throw Refusal(.idAlreadyUsed, detail: "seat \(seatID): this document already has a seat of show \(show) (one a show)")
            }
            throw Self.storeRefusal(error)
        }
        guard done else { throw Refusal(.showChanged, detail: "seat \(seatID)'s ticket changed meanwhile (refunded or transferred): look again") }
        let ticket = try lockedWhenFresh(show: show) { (m: Memory) throws(Refusal) -> CommitTicket in
            let state = try state(forShow: show, in: m)
            state.bind(seat, next)
            let what = first ? "bound to \(next.nameMask)" : "transferred to \(next.nameMask)"
            return try apply(
                state, in: m, changes: [], holds: [], durable: true,
                log: LogEntry(
                    action: first ? "bind" : "transfer", holdID: sale, operatorName: operatorName ?? "buyer",
                    reason: "seat \(seatID) \(what); ticket \(record.oldTicket) revoked"))
        }
        try wait(ticket)
        metrics.count(first ? "tickets_bound" : "tickets_transferred")
        let binding = opened(attendee: next.sealed, show: show).map { TicketCode.binding(key: doorKey(show: show), document: $0.document) }
        return (sale, orderRef, seatID, BoundTicket(generation: sales.generation + 1, binding: binding, attendee: next.nameMask))
    }
}

/// The 15 % a real-name show may sell without names (to partners, at the counter): each such ticket
/// must be bound to its attendee before `bindByMinutes` before the start; the box office's list of those
/// still unbound.
extension Inventory {
    public struct UnboundTickets: Sendable {
        /// When binding closes (Unix milliseconds; nil: the show's start cannot be read).
        public var bindBy: Int64?
        public var tickets: [(seat: String, orderRef: String?, sale: String)]
    }

    /// The show's sold seats without an attendee, in seat order: 404 for an unknown show, 422 for a show
    /// that does not sell by real name. Reads the store: off the lock.
    public func unboundTickets(show: String) throws(Refusal) -> UnboundTickets {
        let facts: (RealNamePolicy, Int64?, VenueLayout)? = locked { m in m.shows[show].map { ($0.realName, $0.startsAtMilliseconds, $0.layout) } }
        guard let (policy, starts, layout) = facts else { throw noSuchShow(show) }
        guard policy.isOn else { throw Refusal.invalid(path: "show", "show \(show) does not sell by real name: its tickets name nobody") }
        do {
            let bound = Set(try store.claims(show: show).filter { $0.status == .sold && $0.identity != nil }.map(\.seat))
            var out: [(seat: Int, orderRef: String?, sale: String)] = []
            for sale in try store.sales(show: show) {
                // A per-order show binds one document to an order, on its first seat.
                let seats = policy.mode == .perOrder ? Array(sale.seats.sorted().prefix(1)) : sale.seats
                for seat in seats where !bound.contains(seat) && !(policy.mode == .perOrder && sale.seats.contains(where: bound.contains)) {
                    out.append((seat, sale.record.orderRef, sale.record.id))
                }
            }
            let deadline = starts.map { $0 - Int64(policy.bindByMinutes) * 60_000 }
            return UnboundTickets(bindBy: deadline, tickets: out.sorted { $0.seat < $1.seat }.map { (layout.seatID($0.seat), $0.orderRef, $0.sale) })
        } catch { throw Self.storeRefusal(error) }
    }
}
