import CollectionLayout
import SeatMap

/// What an assistive technology needs of a seat: a spoken label, its traits and its frame on screen.
public struct SeatAccessibilityElement: Sendable, Hashable {
    public struct Traits: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let button = Traits(rawValue: 1)
        public static let selected = Traits(rawValue: 2)
        public static let notEnabled = Traits(rawValue: 4)
    }
    public var seat: SeatIndex
    public var label: String
    public var traits: Traits
    /// View coordinates.
    public var frame: LayoutRect
}

extension SeatCanvas {
    /// "7排12座，可选，VIP区，¥58.00" / "Row 7, seat 12, available, VIP, ¥58.00", with the seat's kind
    /// (wheelchair space, companion seat, couple seat) and a restricted view said where they apply.
    public func spokenLabel(_ s: SeatIndex, status: SeatStatus, selected: Bool, prices: SeatPrices?, language: Language) -> String {
        let parts = spokenLabelParts(s, prices: prices, language: language)
        return ([parts.name, statusWord(status, selected: selected, language: language)] + parts.details)
            .joined(separator: Self.labelSeparator(language))
    }

    /// The parts of a spoken label that do not depend on the seat's status: its printed name, then zone,
    /// kind, restricted view and price. A page that recolours seats live composes
    /// `name, status, details…` itself with `statusWord` and `labelSeparator`.
    public func spokenLabelParts(_ s: SeatIndex, prices: SeatPrices?, language: Language) -> (name: String, details: [String]) {
        let zh = language == .chinese
        var details = [localizedName(layout.zone(of: s).name, language)]
        switch layout.type(of: s) {
        case .wheelchair: details.append(zh ? "轮椅位" : "wheelchair space")
        case .companion: details.append(zh ? "陪同座" : "companion seat")
        case .coupleLeft, .coupleRight: details.append(zh ? "情侣座" : "couple seat")
        case .emergencyExit: details.append(zh ? "安全出口排" : "exit row")
        case .place: details.append(zh ? "站席" : "standing place")
        case .standard: break
        }
        if layout.flags(of: s).contains(.restrictedView) { details.append(zh ? "视线受限" : "restricted view") }
        if let prices { details.append(prices.format(prices.price(of: s))) }
        return (layout.printedName(s, language: language), details)
    }

    /// The status as said in a label: "可选" / "available", "已选" / "selected", ….
    public func statusWord(_ status: SeatStatus, selected: Bool, language: Language) -> String {
        selected ? (language == .chinese ? "已选" : "selected") : status.localizedName(language)
    }

    public static func labelSeparator(_ language: Language) -> String { language == .chinese ? "，" : ", " }

    /// The visible seats as accessibility elements, in reading order: rows in layout order, each row's
    /// seats along the row (left to right as drawn), as a sighted reader scans the map.
    /// - Complexity: O(visible seats · log).
    public func accessibilityElements(in viewport: Viewport, content: FrameContent) -> [SeatAccessibilityElement] {
        var status = content.availability.reader()
        return visibleSeats(in: viewport).sorted().map { s in
            let st = status(s)
            let selected = content.selection.contains(s)
            var traits: SeatAccessibilityElement.Traits = [.button]
            if selected { traits.insert(.selected) }
            if st != .available && !selected { traits.insert(.notEnabled) }
            return SeatAccessibilityElement(
                seat: s, label: spokenLabel(s, status: st, selected: selected, prices: content.prices, language: content.language),
                traits: traits, frame: viewport.viewRect(forContent: geometry.rect(of: s)))
        }
    }

    /// The list mode, an alternative to the map: zone → row → runs of free seats side by side.
    public func freeSeatList(_ availability: SeatAvailability, language: Language) -> [ZoneListing] {
        var status = availability.reader()
        var zones: [ZoneListing] = layout.zones.indices.map { ZoneListing(zone: $0, name: localizedName(layout.zones[$0].name, language), rows: []) }
        for (r, row) in layout.rows.enumerated() {
            var runsByZone: [Int: [[SeatIndex]]] = [:]
            for block in layout.blocks[layout.blockIndex(of: row.seats.lowerBound)...] {
                guard block.lowerBound < row.seats.upperBound else { break }
                var run: [SeatIndex] = []
                for s in block {
                    if status(s) == .available && (run.isEmpty || layout.zoneIndex(of: run[0]) == layout.zoneIndex(of: s)) { run.append(s); continue }
                    if !run.isEmpty { runsByZone[layout.zoneIndex(of: run[0]), default: []].append(run) }
                    run = status(s) == .available ? [s] : []
                }
                if !run.isEmpty { runsByZone[layout.zoneIndex(of: run[0]), default: []].append(run) }
            }
            for (z, runs) in runsByZone.sorted(by: { $0.key < $1.key }) {
                let free = runs.reduce(0) { $0 + $1.count }
                let summary = language == .chinese ? "第\(row.label)排，\(free)个空座" : "Row \(row.label), \(free) free seat\(free == 1 ? "" : "s")"
                zones[z].rows.append(RowListing(row: r, summary: summary, runs: runs.map { RunListing(seats: $0, text: runText($0, language)) }))
            }
        }
        return zones.filter { !$0.rows.isEmpty }
    }

    /// "9–11座（3个相邻）" when the printed numbers run on; "1、2、4座（3个相邻）" when the hall numbers
    /// centre-out and neighbours are not consecutive numbers; "15座（单座）" for one seat.
    func runText(_ run: [SeatIndex], _ language: Language) -> String {
        let labels = run.map { layout.seatLabel($0) }
        let numbers = labels.compactMap { Int($0) }
        let ascending = numbers.count == labels.count && zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 + 1 }
        let descending = numbers.count == labels.count && zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 - 1 }
        let zh = language == .chinese
        let names: String
        if labels.count > 2 && (ascending || descending) {
            names = "\(labels.first!)–\(labels.last!)"
        } else {
            names = labels.joined(separator: zh ? "、" : ", ")
        }
        if run.count == 1 { return zh ? "\(names)座（单座）" : "seat \(names) (single)" }
        return zh ? "\(names)座（\(run.count)个相邻）" : "seats \(names) (\(run.count) together)"
    }

    /// Sentences for a screen reader's live region: changes to seats near the buyer's selection (same
    /// row, within `reach` seats), e.g. "7排13座刚刚被选走" / "Row 7, seat 13 was just taken".
    public func announcements(for changes: [SeatChange], near selection: Set<SeatIndex>, reach: Int = 3, language: Language) -> [String] {
        guard !selection.isEmpty else { return [] }
        var out: [String] = []
        for change in changes where !selection.contains(change.seat) {
            let row = layout.rowIndex(of: change.seat)
            let near = selection.contains { layout.rowIndex(of: $0) == row && abs($0 - change.seat) <= reach }
            guard near else { continue }
            let name = layout.printedName(change.seat, language: language)
            switch (change.status, language) {
            case (.available, .chinese): out.append("\(name)现在可选")
            case (.available, .english): out.append("\(name) is available again")
            case (_, .chinese): out.append("\(name)刚刚被选走")
            case (_, .english): out.append("\(name) was just taken")
            }
        }
        return out
    }
}

public struct ZoneListing: Sendable, Hashable {
    public var zone: Int
    public var name: String
    public var rows: [RowListing]
}

public struct RowListing: Sendable, Hashable {
    public var row: Int
    /// "第7排，12个空座" / "Row 7, 12 free seats".
    public var summary: String
    public var runs: [RunListing]
}

public struct RunListing: Sendable, Hashable {
    public var seats: [SeatIndex]
    public var text: String
}
