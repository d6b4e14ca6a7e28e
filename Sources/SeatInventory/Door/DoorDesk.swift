import SeatDomain
import SeatTickets

/// What the door decided of one scanned code: the rules of the gate in one place, returned as a typed
/// verdict the HTTP edge only writes out (`SeatAPI+Door`). A code is read and its signature checked
/// against its show's key; then, in this order, the gate's shows, a cancelled show, doors not open yet,
/// the sale that stands for the seat now; last the store decides, across every gate and instance at
/// once, whether the ticket is inside.
public struct DoorVerdict: Sendable, Hashable {
    public enum Refused: String, Sendable, Hashable, CaseIterable {
        /// Not a ticket code, cut short, an unknown format, a show this server does not have, a forged signature.
        case notATicket, truncated, unknownFormat, unknownShow, signature
        /// A ticket of a show this gate does not admit.
        case wrongShow
        /// The show was cancelled; the seat was refunded, exchanged or sold again since; the ticket was
        /// given to another person (a real-name show's: the new code is theirs).
        case cancelled, refunded, exchanged, resold, transferred
        /// Going in before the doors open.
        case tooEarly
        /// A real-name ticket: no document given yet (the attendant checks the attendee's), the document
        /// is another person's, or the ticket was sold without a name and never bound to one.
        case idRequired, wrongPerson, unbound

        /// The answer's family, as the wire names it (`invalid`, `wrong_show`, `revoked`, `too_early`).
        public var result: String {
            switch self {
            case .notATicket, .truncated, .unknownFormat, .unknownShow, .signature: "invalid"
            case .wrongShow: "wrong_show"
            case .cancelled, .refunded, .exchanged, .resold, .transferred: "revoked"
            case .tooEarly: "too_early"
            case .idRequired: "id_required"
            case .wrongPerson: "wrong_person"
            case .unbound: "unbound"
            }
        }
    }

    public enum Outcome: Sendable, Hashable {
        /// Let in or out (`replay`: this nonce's earlier scan, counted once).
        case passed(CheckInScan, replay: Bool)
        case refused(Refused, detail: String)
        /// Going in while inside: the scan that let it in.
        case alreadyIn(CheckInScan)
        /// Going out while not inside: the last scan, if any.
        case notInside(CheckInScan?)
    }

    public var outcome: Outcome
    public var direction: CheckInScan.Direction
    /// What the code says, once it could be read (its show, its ticket id) and the seat as printed.
    public var showID: String?
    public var ticketID: String?
    public var seat: DoorShowFacts?
    /// When the doors open (Unix milliseconds), for a scan too early.
    public var opensAt: Int64?
    /// A real-name ticket's attendee, masked (`王*明`).
    public var attendee: String?
}

/// The door's rules over an inventory and the shows' ticket keys. Holds no state of its own.
public struct DoorDesk: Sendable {
    /// Doors open this long before a show starts: a ticket scanned in earlier is `tooEarly` (Chinese
    /// cinemas let people in 15–30 minutes before; concerts an hour or two).
    public static let doorsOpenMinutes: Int64 = 120
    /// A ticket's last generation the door looks for: a first binding and at most 9 transfers.
    static let mostGenerations = 10

    public let inventory: Inventory
    public let tickets: TicketIssuer

    public init(inventory: Inventory, tickets: TicketIssuer) { self.inventory = inventory; self.tickets = tickets }

    /// The scan of `code` by `operatorName` at `gate`, decided and, when it passes, recorded (`shows`:
    /// the shows this gate admits, empty for any; `outside`: why a show is not this operator's to admit,
    /// nil when it is: door staff of one cinema). A nonce another scan used is `nonceReused`.
    /// - Complexity: O(1) reads of memory and two of the store (the seat's sales, the scan).
    public func decide(
        code: String, direction: CheckInScan.Direction, gate: String, nonce: String, shows: [String], operatorName: String, now: Int64,
        document: String? = nil, outside: (String) -> String? = { _ in nil }
    ) throws(Refusal) -> DoorVerdict {
        var verdict = DoorVerdict(outcome: .refused(.unknownShow, detail: ""), direction: direction)
        func refused(_ why: DoorVerdict.Refused, _ detail: String) -> DoorVerdict {
            var v = verdict
            v.outcome = .refused(why, detail: detail)
            return v
        }
        let ticket: TicketCode
        do throws(TicketCodeError) {
            let (read, payload, signature) = try TicketCode.read(code)
            guard let facts = inventory.doorFacts(show: read.show, seat: read.seat), facts.seatID != nil else {
                return refused(.unknownShow, "not a ticket of this cinema's shows")
            }
            guard TicketCode.isSigned(payload, signature, by: tickets.key(show: read.show).publicKey) else {
                return refused(.signature, "forged or altered: its signature is not the show's")
            }
            ticket = read
            verdict.showID = read.show; verdict.ticketID = read.idHex; verdict.seat = facts
        } catch {
            let why: DoorVerdict.Refused =
                switch error {
                case .notATicket: .notATicket
                case .truncated: .truncated
                case .unknownFormat: .unknownFormat
                }
            return refused(why, error.description)
        }
        guard let facts = verdict.seat, let id = verdict.ticketID else { return refused(.unknownShow, "not a ticket of this cinema's shows") }
        if let elsewhere = outside(ticket.show) { return refused(.wrongShow, elsewhere) }
        if !shows.isEmpty && !shows.contains(ticket.show) {
            return refused(.wrongShow, "a ticket for \(ticket.show), not for \(shows.joined(separator: ", "))")
        }
        // Cancelled before too early: a ticket of a cancelled show will never let anyone in.
        if facts.cancelled { return refused(.cancelled, "the show was cancelled") }
        if direction == .in, let starts = facts.startsAt, now < starts - Self.doorsOpenMinutes * 60_000 {
            verdict.opensAt = starts - Self.doorsOpenMinutes * 60_000
            return refused(.tooEarly, "doors open \(Self.doorsOpenMinutes) minutes before the show")
        }
        let sales = try inventory.seatSales(show: ticket.show, seat: ticket.seat)
        // A ticket's generations: a real-name ticket changes id each time it changes hands (10 at most:
        // a first binding and 9 transfers).
        func isOf(_ sale: String, upTo last: Int = Self.mostGenerations) -> Bool {
            (0...last).contains { TicketCode.id(sale: sale, seat: ticket.seat, generation: $0) == ticket.id }
        }
        guard let sale = sales.current, TicketCode.id(sale: sale, seat: ticket.seat, generation: sales.generation) == ticket.id else {
            if let sale = sales.current, sales.generation > 0, isOf(sale, upTo: sales.generation - 1) {
                return refused(.transferred, "the ticket was given to another person: this code no longer stands, theirs does")
            }
            guard let refunded = sales.refunded.first(where: { isOf($0) }) else {
                return refused(.resold, "the seat was sold again since: this ticket no longer stands")
            }
            return try inventory.wasExchanged(sale: refunded, seat: ticket.seat)
                ? refused(.exchanged, "the ticket was exchanged for another seat or showing: ask for the new ticket")
                : refused(.refunded, "the ticket was refunded")
        }
        // A real-name ticket: its attendee's document, typed or read, against the ticket's (going in).
        if facts.realName && direction == .in {
            guard let identity = sales.identity else {
                return refused(.unbound, "this ticket was sold without a name: bind it to its attendee at the box office first")
            }
            verdict.attendee = inventory.attendeeMask(sales.attendee, show: ticket.show)
            guard let document else { return refused(.idRequired, "check the attendee's document: \(verdict.attendee ?? "")") }
            guard inventory.documentMatches(document, identity: identity) else {
                return refused(.wrongPerson, "the document is not this ticket's attendee's (\(verdict.attendee ?? ""))")
            }
        }
        let scan = CheckInScan(
            showID: ticket.show, ticketID: id, seat: ticket.seat, direction: direction, gate: gate, operatorName: operatorName, nonce: nonce, at: now)
        switch try inventory.checkIn(scan) {
        case .recorded(let done, let replay):
            guard done.ticketID == id, done.direction == direction else {
                throw Refusal(.invalidBody, detail: "nonce \(nonce) was another scan's: every scan needs its own")
            }
            verdict.outcome = .passed(done, replay: replay)
        case .alreadyIn(let first): verdict.outcome = .alreadyIn(first)
        case .notInside(let last): verdict.outcome = .notInside(last)
        }
        return verdict
    }
}
