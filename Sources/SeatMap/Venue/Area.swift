import SeatJSON

/// A general-admission area (#53): a standing floor, a box sold whole, a room for one party. Its people
/// are *places*, not seats: numbered only inside the inventory, never printed, drawn as the area's
/// outline with a count. Each place is a seat of the layout (type `.place`, in a row of the area's own,
/// after the document's rows), so a hold, a sale, a refund, an exchange, the log and the door treat
/// places as they treat seats, and the store's one-claim-a-seat key makes "never more sold than the
/// capacity" the store's guarantee on every instance, not memory's.
public struct Area: Sendable, Hashable {
    public var id: String
    public var name: String
    /// The zone (and so the price category) its places are sold in.
    public var zone: String?
    /// How many people it takes: 1 to `Area.capacityLimit`.
    public var capacity: Int
    public var mode: AreaMode
    /// Its outline on the floor plan, in grid units (at least 3 points).
    public var shape: [FloorPoint]

    public init(id: String, name: String, zone: String? = nil, capacity: Int, mode: AreaMode = .places, shape: [FloorPoint]) {
        self.id = id; self.name = name; self.zone = zone; self.capacity = capacity; self.mode = mode; self.shape = shape
    }

    /// The most people one area takes: a stadium's pitch (100,000 places cost 5.7 MB of layout, as many seats do).
    public static let capacityLimit = 100_000

    /// Where its places stand on the floor plan: the mean of its outline's points.
    public var centre: FloorPoint {
        guard !shape.isEmpty else { return FloorPoint(x: 0, y: 0) }
        return FloorPoint(x: shape.reduce(0) { $0 + $1.x } / Double(shape.count), y: shape.reduce(0) { $0 + $1.y } / Double(shape.count))
    }

    /// The id of its `k`th place (1-based): `floor:17`.
    public func placeID(_ k: Int) -> String { "\(id):\(k)" }
}

/// How an area is sold.
public enum AreaMode: Sendable, Hashable {
    /// People counted: any number of places, up to what is free.
    case places
    /// The area as one unit (a box): a hold takes every place of it or none.
    case whole
    /// One group of `min` to `max` people takes the area; nobody else shares it.
    case party(min: Int, max: Int)

    public var name: String {
        switch self {
        case .places: "places"
        case .whole: "whole"
        case .party: "party"
        }
    }
}

/// An area in a built layout: what was declared and the places it became.
public struct PlacedArea: Sendable, Hashable {
    public var area: Area
    /// Its places: seat indices, one row of the layout's.
    public var places: Range<SeatIndex>
    /// That row's index.
    public var row: Int
}

extension VenueLayout {
    /// The general-admission areas, in document order.
    public var areas: [PlacedArea] { storage.areas }

    /// The area a place belongs to; nil for a seat.
    /// - Complexity: O(areas).
    public func area(of i: SeatIndex) -> PlacedArea? {
        guard storage.typeOf[i] == SeatType.place.rawValue else { return nil }
        return storage.areas.first { $0.places.contains(i) }
    }

    /// The area with this id.
    /// - Complexity: O(areas).
    public func area(id: String) -> PlacedArea? { storage.areas.first { $0.area.id == id } }

    /// Whether `i` is a place of an area (not a seat).
    @inline(__always) public func isPlace(_ i: SeatIndex) -> Bool { storage.typeOf[i] == SeatType.place.rawValue }

    /// How many of the layout's indices are seats (the rest are areas' places).
    public var numberedSeatCount: Int { seatCount - storage.areas.reduce(0) { $0 + $1.places.count } }

    /// Checks `areas` and turns each into a row of places after the document's rows, so the one
    /// builder makes seats and places alike. Problems name `areas[k]` and its field.
    static func placeRows(_ areas: [Area], zones: [Zone], rowIDs: Set<String>, into log: inout ProblemLog) -> [RowSpec] {
        var seen = Set<String>()
        var rows: [RowSpec] = []
        for (k, area) in areas.enumerated() {
            let path = "areas[\(k)]"
            if area.id.isEmpty { log.add(path + ".id", "area id is empty") }
            if area.id.contains(":") { log.add(path + ".id", "\"\(area.id)\" has a \":\" (its places are named \"\(area.id):1\"…)") }
            if !seen.insert(area.id).inserted { log.add(path + ".id", "duplicate area id \"\(area.id)\"") }
            if rowIDs.contains(area.id) { log.add(path + ".id", "\"\(area.id)\" is also a row's or a table's id") }
            if area.name.isEmpty { log.add(path + ".name", "area name is empty") }
            if let zone = area.zone, !zones.contains(where: { $0.id == zone }) { log.add(path + ".zone", "unknown zone \"\(zone)\"") }
            if area.zone == nil && zones.count != 1 { log.add(path + ".zone", "no zone (an area names the zone its places are sold in)") }
            guard area.capacity >= 1 && area.capacity <= Area.capacityLimit else {
                log.add(path + ".capacity", "\(area.capacity) is out of range (expected 1 to \(Area.capacityLimit))")
                continue
            }
            if case .party(let low, let high) = area.mode, !(1 <= low && low <= high && high <= area.capacity) {
                log.add(path + ".max", "a party of \(low) to \(high) does not fit (expected 1 ≤ min ≤ max ≤ capacity \(area.capacity))")
            }
            if area.shape.count < 3 { log.add(path + ".shape", "an outline of \(area.shape.count) points (expected at least 3)") }
            for (p, point) in area.shape.enumerated() {
                _ = checkCoordinate(point.x, "x", { "\(path).shape[\(p)]" }, &log)
                _ = checkCoordinate(point.y, "y", { "\(path).shape[\(p)]" }, &log)
            }
            let centre = area.shape.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) ? area.centre : FloorPoint(x: 0, y: 0)
            let seats = (1...area.capacity).map { n in
                SeatSpec(id: area.placeID(n), label: String(n), x: centre.x, y: centre.y, type: .place, zone: area.zone, sourceIndex: -1 - k)
            }
            rows.append(RowSpec(id: area.id, label: area.name, zone: area.zone, seats: seats))
        }
        return rows
    }
}
