/// The rules a show sells under, checked against a proposed selection (the whole set of seats a buyer
/// would hold). Travels as JSON with the show.
public struct SelectionPolicy: Sendable, Hashable {
    /// At most this many seats in one hold or order.
    public var maxSeats: Int
    /// Couple seats are sold as a pair: both halves or neither.
    public var couplesTogether: Bool
    /// No single empty seat left between the selection and a taken seat, a row end or an aisle, unless
    /// every placement of as many seats in that free run leaves one too.
    public var noLoneSeat: Bool
    /// Wheelchair spaces only when the buyer asks for one.
    public var wheelchairOnRequest: Bool
    /// A companion seat only together with its wheelchair space.
    public var companionWithWheelchair: Bool
    /// How this show sells tables, by table id (`"*"`: every table not named); a table in neither is
    /// sold as its layout says (`Table.mode`).
    public var tableModes: [String: TableMode] = [:]

    public init(
        maxSeats: Int = 6, couplesTogether: Bool = true, noLoneSeat: Bool = true,
        wheelchairOnRequest: Bool = true, companionWithWheelchair: Bool = true
    ) {
        self.maxSeats = maxSeats; self.couplesTogether = couplesTogether; self.noLoneSeat = noLoneSeat
        self.wheelchairOnRequest = wheelchairOnRequest; self.companionWithWheelchair = companionWithWheelchair
    }

    public static let standard = SelectionPolicy()

    /// How this show sells the table.
    /// - Complexity: O(1).
    public func mode(of placed: PlacedTable) -> TableMode {
        tableModes[placed.table.id] ?? tableModes["*"] ?? placed.table.mode
    }

    /// Problems with the policy in this venue, naming `tables.<id>`: a table it does not have, a minimum
    /// over the table's seats.
    public func check(against layout: VenueLayout) throws(LayoutError) {
        var log = ProblemLog()
        for id in tableModes.keys.sorted() {
            if id == "*" {
                if layout.tables.isEmpty { log.add("tables.*", "the venue has no tables") }
                continue
            }
            guard let placed = layout.table(id: id) else {
                log.add("tables.\(id)", "the venue has no table \"\(id)\"")
                continue
            }
            if case .minimum(let n) = tableModes[id]!, n > placed.seats.count {
                log.add("tables.\(id).min", "\(n) is more than the table's \(placed.seats.count) seats")
            }
        }
        try log.check()
    }
}

/// Which rule a selection broke.
public enum SelectionRule: String, Sendable, CaseIterable {
    case notAvailable
    case seatLimit
    case couplePair
    case wheelchairOnRequest
    case companionWithWheelchair
    case loneSeat
    /// A table sold whole, only part of it chosen.
    case wholeTable
    /// Fewer seats at a table than its minimum.
    case tableMinimum
}

/// One broken rule: the rule, the seats involved, and what to tell the buyer in both languages.
public struct SelectionViolation: Sendable, Hashable, CustomStringConvertible {
    public var rule: SelectionRule
    public var seats: [SeatIndex]
    public var chinese: String
    public var english: String

    public func message(_ language: Language) -> String { language == .chinese ? chinese : english }
    public var description: String { "\(rule.rawValue): \(english) / \(chinese)" }
}

/// What the buyer brings to a check besides the seats.
public struct SelectionContext: Sendable {
    /// The buyer asked for a wheelchair space.
    public var wheelchairRequested: Bool
    /// Seats already in this buyer's own hold: they count as free for this buyer.
    public var ownHeld: Set<SeatIndex>

    public init(wheelchairRequested: Bool = false, ownHeld: Set<SeatIndex> = []) {
        self.wheelchairRequested = wheelchairRequested; self.ownHeld = ownHeld
    }
}

extension SelectionPolicy {
    /// What a tap on seat `i` picks, as every picker does it: at a table sold whole, every seat of it
    /// (to add, or to let go when all are the buyer's); at a table with a minimum where the buyer has no
    /// seat yet, `i` and the next free seats round the table up to the minimum; else `i` alone.
    /// - Complexity: O(seats at the table).
    public func tapChoice(at i: SeatIndex, in layout: VenueLayout, isFree: (SeatIndex) -> Bool, mine: Set<SeatIndex>) -> [SeatIndex] {
        guard let placed = layout.table(of: i) else { return [i] }
        switch mode(of: placed) {
        case .bySeat: return [i]
        case .byTable: return Array(placed.seats)
        case .minimum(let n):
            guard !placed.seats.contains(where: mine.contains), isFree(i) else { return [i] }
            let seats = Array(placed.seats), start = seats.firstIndex(of: i)!
            var out: [SeatIndex] = []
            for k in 0..<seats.count where out.count < n {
                let s = seats[(start + k) % seats.count]
                if isFree(s) { out.append(s) }
            }
            return out
        }
    }
}
