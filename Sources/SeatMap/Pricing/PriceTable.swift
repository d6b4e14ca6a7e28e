import Foundation

/// Prices for one show, as data: a price per zone category, then adjustments by zone, row or seat (a
/// fixed amount added, or a multiplier), applied in the order listed. `Decimal` throughout, rounded to
/// the currency's minor unit after each step, so 3 × ¥33.30 is exactly ¥99.90.
public struct PriceTable: Sendable, Equatable {
    public var currency: String
    /// Digits after the decimal point (2 for CNY, 0 for JPY).
    public var minorUnits: Int
    public var categoryPrices: [String: Decimal]
    public var adjustments: [PriceAdjustment]
    /// A table's own price, by table id: the whole table's, shared among its seats to the minor unit
    /// (the first seats take the remainder), in place of their seats' prices.
    public var tablePrices: [String: Decimal]

    public init(
        currency: String = "CNY", minorUnits: Int = 2, categoryPrices: [String: Decimal],
        adjustments: [PriceAdjustment] = [], tablePrices: [String: Decimal] = [:]
    ) {
        self.currency = currency; self.minorUnits = minorUnits
        self.categoryPrices = categoryPrices; self.adjustments = adjustments; self.tablePrices = tablePrices
    }
}

public struct PriceAdjustment: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        case zone(String)
        case row(String)
        case seat(String)
    }
    public enum Change: Sendable, Equatable {
        /// Added to the price (negative for a discount).
        case amount(Decimal)
        case multiplier(Decimal)
    }
    public var target: Target
    public var change: Change
    public init(target: Target, change: Change) { self.target = target; self.change = change }
}

/// A price table checked against one layout: every category has a price, every adjustment names a zone,
/// row or seat that exists. Prices are then O(adjustments of that seat) to look up.
public struct SeatPrices: Sendable {
    public let table: PriceTable
    let base: [Decimal]
    let byZone: [Int: [PriceAdjustment.Change]]
    let byRow: [Int: [PriceAdjustment.Change]]
    let bySeat: [Int: [PriceAdjustment.Change]]
    let layout: VenueLayout
    /// The same prices in whole minor units (fen), for totals without Decimal arithmetic: each zone's
    /// base, and the sum of the amounts added per zone, row and seat. nil where that is not exact
    /// (a multiplier, which rounds after each step, or more decimals than the currency has).
    let minorBase: [Int64?]
    let minorByZone: [Int: Int64?]
    let minorByRow: [Int: Int64?]
    let minorBySeat: [Int: Int64?]
    /// Seats at a table with its own price: their share of it, in minor units.
    let tableShares: [SeatIndex: Int64]
    /// Each zone's lowest and highest seat price (nil: a zone with no seat), made once with the prices,
    /// so a picture of the zones can say them without walking every seat (a 100k arena: ~10 ms).
    public private(set) var zoneRanges: [ClosedRange<Decimal>?] = []

    public init(table: PriceTable, layout: VenueLayout) throws(LayoutError) {
        var log = ProblemLog()
        var base: [Decimal] = []
        for (k, zone) in layout.zones.enumerated() {
            if let p = table.categoryPrices[zone.category] {
                if p < 0 { log.add("categories.\(zone.category)", "price must not be negative") }
                base.append(p)
            } else {
                log.add("categories", "no price for category \"\(zone.category)\" (zone \"\(layout.zones[k].id)\")")
                base.append(0)
            }
        }
        if table.minorUnits < 0 || table.minorUnits > 6 { log.add("minorUnits", "must be 0 to 6") }
        var byZone: [Int: [PriceAdjustment.Change]] = [:], byRow = byZone, bySeat = byZone
        // Which adjustments reach each zone, row and seat, to name the one that takes a seat below zero.
        var reach: (zone: [Int: [Int]], row: [Int: [Int]], seat: [Int: [Int]]) = ([:], [:], [:])
        for (k, adj) in table.adjustments.enumerated() {
            switch adj.target {
            case .zone(let id):
                if let z = layout.zoneIndex(id: id) {
                    byZone[z, default: []].append(adj.change); reach.zone[z, default: []].append(k)
                } else {
                    log.add("adjustments[\(k)].zone", "unknown zone \"\(id)\"")
                }
            case .row(let id):
                if let r = layout.rowIndex(id: id) {
                    byRow[r, default: []].append(adj.change); reach.row[r, default: []].append(k)
                } else {
                    log.add("adjustments[\(k)].row", "unknown row \"\(id)\"")
                }
            case .seat(let id):
                if let s = layout.index(ofSeatID: id) {
                    bySeat[s, default: []].append(adj.change); reach.seat[s, default: []].append(k)
                } else {
                    log.add("adjustments[\(k)].seat", "unknown seat \"\(id)\"")
                }
            }
        }
        var shares: [SeatIndex: Int64] = [:]
        for id in table.tablePrices.keys.sorted() {
            let price = table.tablePrices[id]!
            guard let placed = layout.table(id: id) else { log.add("tables.\(id)", "the venue has no table \"\(id)\""); continue }
            guard price >= 0, let units = Self.exactMinorUnits(price, minorUnits: table.minorUnits) else {
                log.add("tables.\(id)", "\(table.amountString(price)) is not a price (expected 0 or more, in \(table.currency))")
                continue
            }
            let n = Int64(placed.seats.count)
            for (k, seat) in placed.seats.enumerated() { shares[seat] = units / n + (Int64(k) < units % n ? 1 : 0) }
        }
        tableShares = shares
        try log.check()
        self.table = table; self.base = base; self.byZone = byZone; self.byRow = byRow; self.bySeat = bySeat
        self.layout = layout
        let units = table.minorUnits
        minorBase = base.map { Self.exactMinorUnits($0, minorUnits: units) }
        minorByZone = byZone.mapValues { Self.exactMinorUnits(of: $0, minorUnits: units) }
        minorByRow = byRow.mapValues { Self.exactMinorUnits(of: $0, minorUnits: units) }
        minorBySeat = bySeat.mapValues { Self.exactMinorUnits(of: $0, minorUnits: units) }
        // A discount below zero is a mistake in the table, not a free seat: refused, naming the adjustment
        // that leaves a seat under zero (once it was clamped to ¥0.00 and the seat sold at that).
        // - Complexity: O(seats × adjustments per seat), only for seats that have adjustments.
        if !table.adjustments.isEmpty {
            for seat in 0..<layout.seatCount {
                let zone = layout.zoneIndex(of: seat), row = layout.rowIndex(of: seat)
                let steps = (reach.zone[zone] ?? []) + (reach.row[row] ?? []) + (reach.seat[seat] ?? [])
                guard !steps.isEmpty else { continue }
                var p = base[zone]
                for k in steps { p = apply(table.adjustments[k].change, to: p) }
                if p < 0 {
                    log.add(
                        "adjustments[\(steps.last!)]",
                        "takes seat \"\(layout.seatID(seat))\" below zero (\(table.amountString(p))); a price must not be negative")
                }
                if log.problems.count >= 3 { break }  // a few examples say enough
            }
            try log.check()
        }
        var ranges = [ClosedRange<Decimal>?](repeating: nil, count: layout.zones.count)
        for seat in 0..<layout.seatCount {
            let z = layout.zoneIndex(of: seat), p = price(of: seat)
            ranges[z] = ranges[z].map { min($0.lowerBound, p)...max($0.upperBound, p) } ?? p...p
        }
        zoneRanges = ranges
    }

    /// A zone's price as a buyer reads it: `¥38.00`, or `¥33.00–¥38.00` when its seats differ; nil for a
    /// zone with no seat.
    /// - Complexity: O(1).
    public func zonePriceText(_ zone: Int) -> String? {
        guard zone < zoneRanges.count, let r = zoneRanges[zone] else { return nil }
        return r.lowerBound == r.upperBound ? format(r.lowerBound) : format(r.lowerBound) + "–" + format(r.upperBound)
    }

    /// The seat's price: category price, then zone, row and seat adjustments.
    public func price(of seat: SeatIndex) -> Decimal {
        if !tableShares.isEmpty, let share = tableShares[seat] { return Self.decimal(minorUnits: share, digits: table.minorUnits) }
        let zone = layout.zoneIndex(of: seat)
        var p = base[zone]
        for change in byZone[zone] ?? [] { p = apply(change, to: p) }
        for change in byRow[layout.rowIndex(of: seat)] ?? [] { p = apply(change, to: p) }
        for change in bySeat[seat] ?? [] { p = apply(change, to: p) }
        return p  // never below zero: init refuses a table that would be
    }

    /// - Complexity: O(seats).
    public func total(of seats: [SeatIndex]) -> Decimal {
        seats.reduce(Decimal(0)) { $0 + price(of: $1) }
    }

    static func decimal(minorUnits units: Int64, digits: Int) -> Decimal {
        Decimal(sign: units < 0 ? .minus : .plus, exponent: -digits, significand: Decimal(units.magnitude))
    }

    func apply(_ change: PriceAdjustment.Change, to p: Decimal) -> Decimal {
        switch change {
        case .amount(let a): return p + a
        case .multiplier(let m): return PriceTable.round(p * m, minorUnits: table.minorUnits)
        }
    }

    /// "¥99.90".
    public func format(_ amount: Decimal) -> String { table.format(amount) }
}

extension PriceTable {
    /// `value` rounded half up to `minorUnits` decimals.
    public static func round(_ value: Decimal, minorUnits: Int) -> Decimal {
        var v = value, result = Decimal()
        NSDecimalRound(&result, &v, minorUnits, .plain)
        return result
    }

    public var currencySymbol: String {
        switch currency {
        case "CNY", "JPY": return "¥"
        case "USD": return "$"
        case "EUR": return "€"
        case "GBP": return "£"
        default: return currency + " "
        }
    }

    /// The amount with exactly `minorUnits` decimals, no symbol: `58.00`, `-3.50`.
    public func amountString(_ amount: Decimal) -> String { Self.amountString(amount, minorUnits: minorUnits) }

    /// `amount` rounded half up to exactly `minorUnits` decimals, no symbol (`Money` writes itself so too).
    public static func amountString(_ amount: Decimal, minorUnits: Int) -> String {
        let rounded = round(amount, minorUnits: minorUnits)
        let negative = rounded < 0
        var text = "\(negative ? -rounded : rounded)"
        if minorUnits > 0 {
            if !text.contains(".") { text += "." }
            let decimals = text.split(separator: ".", omittingEmptySubsequences: false)[1].count
            text += String(repeating: "0", count: max(0, minorUnits - decimals))
        }
        return (negative ? "-" : "") + text
    }

    /// The amount with exactly `minorUnits` decimals and the currency symbol: `¥58.00`.
    public func format(_ amount: Decimal) -> String {
        let text = amountString(amount)
        return text.hasPrefix("-") ? "-" + currencySymbol + text.dropFirst() : currencySymbol + text
    }
}
