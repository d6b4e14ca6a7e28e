import Foundation

/// A table with its seats (#53): a cabaret's round table of eight, a banquet's long table. Its seats are
/// ordinary numbered seats (a row of the layout's own, after the document's rows and before the areas'
/// places), so holds, sales and the door need nothing new; what a table adds is how it is sold
/// (`TableMode`, set per show by the show's policy) and its top, drawn round or long.
public struct Table: Sendable, Hashable {
    public var id: String
    /// "1号桌 Table 1": printed before the seat's number ("1号桌3座", "Table 1, seat 3").
    public var name: String
    /// The zone (price category) of its seats that name none.
    public var zone: String?
    public var shape: TableShape
    /// The centre of its top, in grid units.
    public var center: FloorPoint
    /// The size of its top, in grid units (a round table's diameter is `width`).
    public var width: Double
    public var height: Double
    /// How it is sold unless a show's policy says otherwise.
    public var mode: TableMode
    /// Its seats around the top, in the order they are numbered.
    public var seats: [SeatSpec]

    public init(
        id: String, name: String, zone: String? = nil, shape: TableShape, center: FloorPoint, width: Double, height: Double,
        mode: TableMode = .bySeat, seats: [SeatSpec]
    ) {
        self.id = id; self.name = name; self.zone = zone; self.shape = shape; self.center = center
        self.width = width; self.height = height; self.mode = mode; self.seats = seats
    }

    /// The most seats at one table: a banquet's long table of 40 is already large.
    public static let seatLimit = 60
    /// The largest top, in seat widths.
    public static let sizeLimit = 40.0
    /// How far a seat may sit from the top's edge: a chair is half a seat out, a wide one a little more.
    public static let reach = 1.5

    /// `count` seats placed evenly around the top: round tables from twelve o'clock clockwise, long ones
    /// along both long sides (the first half on the far side, left to right, then the near side, right to
    /// left, so the numbers go round). Ids `T1-1`…, labels 1….
    /// - Complexity: O(count).
    public static func chairs(
        count: Int, shape: TableShape, center c: FloorPoint, width: Double, height: Double, tableID: String
    ) -> [SeatSpec] {
        guard count > 0 else { return [] }
        func seat(_ k: Int, _ x: Double, _ y: Double) -> SeatSpec {
            // Rounded to the hundredth so the canonical JSON (and so the fingerprint) survives a round trip.
            SeatSpec(id: "\(tableID)-\(k + 1)", label: String(k + 1), x: (x * 100).rounded() / 100, y: (y * 100).rounded() / 100)
        }
        switch shape {
        case .round:
            // Chairs at least a seat apart round the circle: 12 at a 2-wide table sit on a radius of 1.9.
            let r = max(max(width, height) / 2 + 0.6, Double(count) / (2 * .pi))
            return (0..<count).map { k in
                let a = 2 * Double.pi * Double(k) / Double(count) - Double.pi / 2
                return seat(k, c.x + r * cos(a), c.y + r * sin(a))
            }
        case .long:
            let far = (count + 1) / 2, near = count - far
            func along(_ k: Int, of n: Int) -> Double { c.x - width / 2 + width * (Double(k) + 0.5) / Double(n) }
            let farSide = (0..<far).map { k in seat(k, along(k, of: far), c.y - height / 2 - 0.6) }
            let nearSide = (0..<near).map { k in seat(far + k, along(near - 1 - k, of: near), c.y + height / 2 + 0.6) }
            return farSide + nearSide
        }
    }

    /// How far `p` lies outside the top (0 inside it).
    func distanceFromTop(_ p: FloorPoint) -> Double {
        let dx = p.x - center.x, dy = p.y - center.y
        switch shape {
        case .round: return max(0, (dx * dx + dy * dy).squareRoot() - max(width, height) / 2)
        case .long:
            let ox = max(0, abs(dx) - width / 2), oy = max(0, abs(dy) - height / 2)
            return (ox * ox + oy * oy).squareRoot()
        }
    }
}

/// A table's top as drawn.
public enum TableShape: String, Sendable, Hashable, CaseIterable {
    case round
    /// A rectangle, seats along its long sides.
    case long
}

/// How a table's seats are sold.
public enum TableMode: Sendable, Hashable {
    /// All its seats in one hold, or none: a tap takes the table.
    case byTable
    /// Any of its seats, one by one.
    case bySeat
    /// At least `n` of its seats together (or all that are left, when fewer are).
    case minimum(Int)

    public var name: String {
        switch self {
        case .byTable: "byTable"
        case .bySeat: "bySeat"
        case .minimum: "minimum"
        }
    }
}

/// A table in a built layout: what was declared and the seats it became.
public struct PlacedTable: Sendable, Hashable {
    public var table: Table
    /// Its seats: seat indices, one row of the layout's.
    public var seats: Range<SeatIndex>
    /// That row's index.
    public var row: Int
}
