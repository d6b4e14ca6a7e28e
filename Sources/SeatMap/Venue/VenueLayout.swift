/// A venue's seating layout: zones, rows and seats. Immutable, built once, shared by every show held in
/// the venue. Seats are stored as parallel arrays (about 50 bytes a seat) and addressed by `SeatIndex`.
///
/// Build one from a `VenueSpec` (validated: every problem is reported, nothing half-built) or decode it
/// from SeatKit layout JSON with `VenueLayout(json:)`.
public struct VenueLayout: Sendable {
    let storage: VenueStorage

    public var id: String { storage.id }
    public var name: String { storage.name }
    public var stage: Stage? { storage.stage }
    public var zones: [Zone] { storage.zones }
    public var rows: [Row] { storage.rows }
    /// Runs of seats in one row with no aisle between them, in floor order (`blocks[k]` is an index range).
    public var blocks: [Range<SeatIndex>] { storage.blocks }
    public var seatCount: Int { storage.x.count }
    public var seatIndices: Range<SeatIndex> { 0..<seatCount }

    /// A 64-bit hash of everything in the layout: equal layouts have equal fingerprints. Availability
    /// encodings carry it so a status list is never applied to the wrong hall.
    public var fingerprint: UInt64 { storage.fingerprint }
    public var fingerprintHex: String {
        let s = String(storage.fingerprint, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// - Complexity: O(length of the id).
    public func seatID(_ i: SeatIndex) -> String { storage.seatIDs[i] }
    public func seatLabel(_ i: SeatIndex) -> String { storage.labelPool[Int(storage.seatLabel[i])] }
    public func position(_ i: SeatIndex) -> FloorPoint { FloorPoint(x: Double(storage.x[i]), y: Double(storage.y[i])) }
    public func rowIndex(of i: SeatIndex) -> Int { Int(storage.rowOf[i]) }
    public func zoneIndex(of i: SeatIndex) -> Int { Int(storage.zoneOf[i]) }
    public func type(of i: SeatIndex) -> SeatType { SeatType(rawValue: storage.typeOf[i]) ?? .standard }
    public func flags(of i: SeatIndex) -> SeatFlags { SeatFlags(rawValue: storage.flagsOf[i]) }
    public func partner(of i: SeatIndex) -> SeatIndex? {
        // Only couple, companion and wheelchair seats can have one: skip the lookup for the rest.
        guard storage.typeOf[i] != 0 else { return nil }
        return storage.partner[Int32(i)].map(Int.init)
    }
    public func blockIndex(of i: SeatIndex) -> Int { Int(storage.blockOf[i]) }
    public func zone(of i: SeatIndex) -> Zone { storage.zones[Int(storage.zoneOf[i])] }
    public func row(of i: SeatIndex) -> Row { storage.rows[Int(storage.rowOf[i])] }

    /// Everything about one seat in one value.
    public func seat(_ i: SeatIndex) -> Seat {
        Seat(
            index: i, id: seatID(i), row: rowIndex(of: i), label: seatLabel(i), position: position(i),
            type: type(of: i), flags: flags(of: i), zone: zoneIndex(of: i), partner: partner(of: i))
    }

    /// The seat with this stable id.
    /// - Complexity: O(1) expected.
    public func index(ofSeatID id: String) -> SeatIndex? {
        var id = id
        return id.withUTF8 { utf8 in
            storage.idTable.find(hash: FNV1a.hash(utf8)) { storage.seatIDs.equals($0, utf8) }
        }
    }

    /// The seat printed as `seatLabel` in the row whose id is `rowID`.
    /// - Complexity: O(1) expected.
    public func index(rowID: String, seatLabel: String) -> SeatIndex? {
        guard let row = storage.rowIndexByID[rowID], let label = storage.labelIndex[seatLabel] else { return nil }
        return storage.printedTable.find(hash: VenueStorage.printedHash(row: row, label: label)) {
            Int(storage.rowOf[$0]) == row && storage.seatLabel[$0] == label
        }
    }

    public func zoneIndex(id: String) -> Int? { storage.zones.firstIndex { $0.id == id } }
    public func rowIndex(id: String) -> Int? { storage.rowIndexByID[id] }

    /// The template of `printedName`: `{row}` and `{number}` stand for the row's label and the seat's
    /// (a page that holds both fills it instead of receiving 100,000 names).
    public static func printedNameFormat(_ language: Language) -> String {
        switch language {
        case .chinese: return "{row}排{number}座"
        case .english: return "Row {row}, seat {number}"
        }
    }

    /// "7排12座" / "Row 7, seat 12" (`printedNameFormat` filled in).
    /// A place of an area is its area's name: places are not numbered for people. A seat at a table is
    /// "1号桌3座" / "Table 1, seat 3".
    public func printedName(_ i: SeatIndex, language: Language) -> String {
        if isPlace(i) { return localizedName(row(of: i).label, language) }
        if let placed = table(of: i) { return printedTableSeat(placed.table, label: seatLabel(i), language: language) }
        switch language {
        case .chinese: return "\(row(of: i).label)排\(seatLabel(i))座"
        case .english: return "Row \(row(of: i).label), seat \(seatLabel(i))"
        }
    }

    /// The smallest rectangle holding every seat's centre (grid units).
    public var bounds: FloorRect { storage.bounds }

    /// Bytes held by the layout's arrays and tables (capacities, not counts), for the memory benchmark.
    public var storageByteCount: Int { storage.byteCount }
}

/// The two languages every user-facing message comes in.
public enum Language: String, Sendable, CaseIterable {
    case chinese = "zh"
    case english = "en"
}

final class VenueStorage: Sendable {
    let id: String
    let name: String
    let stage: Stage?
    let zones: [Zone]
    let rows: [Row]
    let blocks: [Range<SeatIndex>]
    let seatIDs: PackedStrings
    let labelPool: [String]
    let labelIndex: [String: UInt32]
    let seatLabel: [UInt32]
    let x: [Float]
    let y: [Float]
    let rowOf: [UInt32]
    let zoneOf: [UInt16]
    let typeOf: [UInt8]
    let flagsOf: [UInt8]
    let partner: [Int32: Int32]
    let blockOf: [UInt32]
    let idTable: SeatHashTable
    let printedTable: SeatHashTable
    let rowIndexByID: [String: Int]
    let fingerprint: UInt64
    let bounds: FloorRect
    /// The tables and the rows of seats they became (after the document's rows).
    let tables: [PlacedTable]
    /// The general-admission areas and the rows of places they became (after the tables').
    let areas: [PlacedArea]

    init(
        id: String, name: String, stage: Stage?, zones: [Zone], rows: [Row], blocks: [Range<SeatIndex>],
        seatIDs: PackedStrings, labelPool: [String], labelIndex: [String: UInt32], seatLabel: [UInt32],
        x: [Float], y: [Float], rowOf: [UInt32], zoneOf: [UInt16], typeOf: [UInt8], flagsOf: [UInt8],
        partner: [Int32: Int32], blockOf: [UInt32], idTable: SeatHashTable, tables: [PlacedTable] = [],
        areas: [PlacedArea] = []
    ) {
        self.tables = tables
        self.areas = areas
        self.id = id; self.name = name; self.stage = stage; self.zones = zones; self.rows = rows
        self.blocks = blocks; self.seatIDs = seatIDs; self.labelPool = labelPool; self.labelIndex = labelIndex
        self.seatLabel = seatLabel; self.x = x; self.y = y; self.rowOf = rowOf; self.zoneOf = zoneOf
        self.typeOf = typeOf; self.flagsOf = flagsOf; self.partner = partner; self.blockOf = blockOf
        self.idTable = idTable
        var byID: [String: Int] = [:]
        for (k, row) in rows.enumerated() { byID[row.id] = k }
        self.rowIndexByID = byID
        var printed = SeatHashTable(capacityFor: x.count)
        for i in 0..<x.count {
            _ = printed.insert(i, hash: Self.printedHash(row: Int(rowOf[i]), label: seatLabel[i])) { _ in false }
        }
        self.printedTable = printed
        var b = FloorRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
        if let fx = x.first, let fy = y.first {
            b = FloorRect(minX: Double(fx), minY: Double(fy), maxX: Double(fx), maxY: Double(fy))
            for i in 0..<x.count {
                b.minX = min(b.minX, Double(x[i])); b.maxX = max(b.maxX, Double(x[i]))
                b.minY = min(b.minY, Double(y[i])); b.maxY = max(b.maxY, Double(y[i]))
            }
        }
        self.bounds = b
        self.fingerprint = Self.computeFingerprint(
            id: id, name: name, stage: stage, zones: zones, rows: rows,
            seatIDs: seatIDs, labelPool: labelPool, seatLabel: seatLabel,
            x: x, y: y, zoneOf: zoneOf, typeOf: typeOf, flagsOf: flagsOf,
            partner: partner, tables: tables, areas: areas)
    }

    static func printedHash(row: Int, label: UInt32) -> UInt64 {
        FNV1a.hash(UInt64(row) << 32 | UInt64(label), into: FNV1a.offsetBasis)
    }

    var byteCount: Int {
        seatIDs.byteCount + seatLabel.capacity * 4 + x.capacity * 4 + y.capacity * 4 + rowOf.capacity * 4
            + zoneOf.capacity * 2 + typeOf.capacity + flagsOf.capacity + partner.capacity * 16 + blockOf.capacity * 4
            + idTable.byteCount + printedTable.byteCount
            + labelPool.reduce(0) { $0 + 16 + $1.utf8.count } * 2
            + rows.reduce(0) { $0 + 64 + $1.id.utf8.count + $1.label.utf8.count } + blocks.capacity * 16
    }
}
