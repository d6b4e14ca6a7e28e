import SeatJSON
/// A seat's place in a layout's dense seat arrays: 0..<seatCount, in canonical order (rows in document
/// order, each row's seats in floor order along the row). Stable for one layout fingerprint; the seat's
/// `id` is what stays stable across layout versions.
public typealias SeatIndex = Int

/// What kind of place a seat is. Raw values are the names used in every SeatKit format.
public enum SeatType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case standard = 0
    case wheelchair = 1
    /// A companion seat belongs to one wheelchair space (its `partner`).
    case companion = 2
    /// The left half of a couple seat (sold as a pair with its `partner`, the next seat along the row).
    case coupleLeft = 3
    case coupleRight = 4
    /// A seat in an emergency-exit row.
    case emergencyExit = 5
    /// A place of a general-admission area (`Area`): made by the builder from `areas`, never written
    /// on a row's seat.
    case place = 6

    public var name: String {
        switch self {
        case .standard: return "standard"
        case .wheelchair: return "wheelchair"
        case .companion: return "companion"
        case .coupleLeft: return "coupleLeft"
        case .coupleRight: return "coupleRight"
        case .emergencyExit: return "emergencyExit"
        case .place: return "place"
        }
    }

    public init?(name: String) {
        guard let t = SeatType.allCases.first(where: { $0.name == name }) else { return nil }
        self = t
    }

    public var description: String { name }
    public var isCouple: Bool { self == .coupleLeft || self == .coupleRight }
}

/// Per-seat flags.
public struct SeatFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let restrictedView = SeatFlags(rawValue: 1 << 0)
    /// Step-free access (set automatically for wheelchair spaces and companion seats).
    public static let accessible = SeatFlags(rawValue: 1 << 1)

    public static let names: [(String, SeatFlags)] = [("restrictedView", .restrictedView), ("accessible", .accessible)]

    public var names: [String] { Self.names.filter { contains($0.1) }.map(\.0) }
}

/// A point on the floor plan in grid units (one unit is one seat pitch).
public struct FloorPoint: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public var description: String { "(\(JSONWriter.format(x)), \(JSONWriter.format(y)))" }
}

/// An axis-aligned rectangle on the floor plan (grid units).
public struct FloorRect: Sendable, Hashable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
}

/// A zone: a named part of the hall with a price category and a colour.
public struct Zone: Sendable, Hashable {
    public var id: String
    public var name: String
    /// The price category the zone's seats are sold in (several zones may share one).
    public var category: String
    /// `#RRGGBB`.
    public var color: String

    public init(id: String, name: String, category: String, color: String) {
        self.id = id; self.name = name; self.category = category; self.color = color
    }
}

/// A row: its printed label, and its seats as a contiguous index range in floor order.
public struct Row: Sendable, Hashable {
    /// Unique in the venue (arenas repeat printed labels across sections).
    public var id: String
    /// What is printed on the row end and the ticket: "7" in "7排12座".
    public var label: String
    public var seats: Range<SeatIndex>
}

/// The screen or stage: a label, its centre and width on the floor plan.
public struct Stage: Sendable, Hashable {
    public var label: String
    public var center: FloorPoint
    public var width: Double
    /// How deep the stage is from front to back, when the plan says (a pretix stage area's height); nil
    /// for a screen, or a stage drawn half as deep as it is wide.
    public var depth: Double?
    public init(label: String, center: FloorPoint, width: Double, depth: Double? = nil) {
        self.label = label; self.center = center; self.width = width; self.depth = depth
    }
}

/// A read-only view of one seat, assembled from the layout's arrays on demand.
public struct Seat: Sendable, Hashable {
    public var index: SeatIndex
    public var id: String
    public var row: Int
    public var label: String
    public var position: FloorPoint
    public var type: SeatType
    public var flags: SeatFlags
    public var zone: Int
    public var partner: SeatIndex?
}

extension JSONWriter {
    /// Shortest text for a coordinate: `3`, `2.5`.
    public static func format(_ value: Double) -> String {
        var w = JSONWriter()
        w.number(value)
        return w.text
    }
}
