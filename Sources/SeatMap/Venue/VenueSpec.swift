/// The input to building a layout: plain values, as an importer or the JSON decoder produce them.
public struct VenueSpec: Sendable {
    public var id: String
    public var name: String
    public var stage: Stage?
    public var zones: [Zone]
    public var rows: [RowSpec]
    /// Tables: their seats become rows after `rows` (`Table`).
    public var tables: [Table]
    /// General-admission areas: their places become rows after the tables' (`Area`).
    public var areas: [Area]

    public init(id: String, name: String, stage: Stage? = nil, zones: [Zone], rows: [RowSpec], tables: [Table] = [], areas: [Area] = []) {
        self.id = id; self.name = name; self.stage = stage; self.zones = zones; self.rows = rows; self.tables = tables
        self.areas = areas
    }
}

public struct RowSpec: Sendable {
    public var id: String
    public var label: String
    /// The zone of seats that name none.
    public var zone: String?
    /// In floor order along the row (left to right as seen from the stage, or along the arc).
    public var seats: [SeatSpec]

    public init(id: String, label: String, zone: String? = nil, seats: [SeatSpec]) {
        self.id = id; self.label = label; self.zone = zone; self.seats = seats
    }
}

public struct SeatSpec: Sendable, Hashable {
    public var id: String
    public var label: String
    public var x: Double
    public var y: Double
    public var type: SeatType
    public var flags: SeatFlags
    public var zone: String?
    /// The other half of a couple seat, or the wheelchair space of a companion seat (and back).
    public var partner: String?
    /// Where the seat came from in the source document, for error paths (importers set it).
    public var sourceIndex: Int

    public init(
        id: String, label: String, x: Double, y: Double, type: SeatType = .standard, flags: SeatFlags = [],
        zone: String? = nil, partner: String? = nil, sourceIndex: Int = -1
    ) {
        self.id = id; self.label = label; self.x = x; self.y = y; self.type = type; self.flags = flags
        self.zone = zone; self.partner = partner; self.sourceIndex = sourceIndex
    }
}

/// How error paths name a seat: SeatKit JSON says `rows[3].seats[4]`, the seed format `seats[17]`.
public struct SeatPathStyle: Sendable {
    public var rowPath: @Sendable (_ row: Int) -> String
    public var seatPath: @Sendable (_ row: Int, _ seat: Int, _ sourceIndex: Int) -> String

    public init(
        rowPath: @escaping @Sendable (Int) -> String,
        seatPath: @escaping @Sendable (Int, Int, Int) -> String
    ) {
        self.rowPath = rowPath; self.seatPath = seatPath
    }

    public static let layoutJSON = SeatPathStyle(rowPath: { "rows[\($0)]" }, seatPath: { r, s, _ in "rows[\(r)].seats[\(s)]" })
    /// For formats whose seats are one flat list: the seat's own index in that list.
    public static func flat(_ key: String) -> SeatPathStyle {
        SeatPathStyle(rowPath: { "row \($0 + 1)" }, seatPath: { "\(key)[\($2)]" })
    }
}

/// Seats further apart than this (centre to centre, in seat pitches) have an aisle between them.
public let aisleGapThreshold = 1.5
