import SeatJSON
extension VenueLayout {
    /// Validates `spec` and builds the layout. Every problem found is reported (up to `ProblemLog.limit`):
    /// duplicate ids, two seats at one position, unknown zones, couple seats without their partner,
    /// companions without a wheelchair space. Nothing is built unless all is well.
    /// - Complexity: O(seats).
    public init(validating spec: VenueSpec, paths documentPaths: SeatPathStyle = .layoutJSON) throws(LayoutError) {
        var log = ProblemLog()
        // Tables' seats and areas' places are rows after the document's; a problem in one names its table or area.
        let documentRows = spec.rows.count, tableCount = spec.tables.count
        let documentRowIDs = Set(spec.rows.map(\.id))
        let tableRows = Self.tableRows(spec.tables, zones: spec.zones, takenIDs: documentRowIDs.union(spec.areas.map(\.id)), into: &log)
        let placeRows = Self.placeRows(spec.areas, zones: spec.zones, rowIDs: documentRowIDs.union(spec.tables.map(\.id)), into: &log)
        let allRows = spec.rows + tableRows + placeRows
        let areasFrom = documentRows + tableRows.count
        let paths = SeatPathStyle(
            rowPath: { r in
                r < documentRows ? documentPaths.rowPath(r) : r < areasFrom ? "tables[\(r - documentRows)]" : "areas[\(r - areasFrom)]"
            },
            seatPath: { r, s, source in
                r < documentRows
                    ? documentPaths.seatPath(r, s, source)
                    : r < areasFrom ? "tables[\(r - documentRows)].seats[\(s)]" : "areas[\(r - areasFrom)].places[\(s)]"
            })
        if spec.id.isEmpty { log.add("id", "venue id is empty") }
        if let stage = spec.stage {
            _ = Self.checkCoordinate(stage.center.x, "x", { "stage" }, &log)
            _ = Self.checkCoordinate(stage.center.y, "y", { "stage" }, &log)
            if !(stage.width >= 0 && stage.width <= Self.coordinateLimit) {
                log.add("stage.width", "\(JSONWriter.format(stage.width)) is out of range (expected 0 to \(Int(Self.coordinateLimit)))")
            }
            if let depth = stage.depth, !(depth > 0 && depth <= Self.coordinateLimit) {
                log.add("stage.depth", "\(JSONWriter.format(depth)) is out of range (expected more than 0, at most \(Int(Self.coordinateLimit)))")
            }
        }
        var zoneIndex: [String: Int] = [:]
        for (k, zone) in spec.zones.enumerated() {
            if zone.id.isEmpty { log.add("zones[\(k)].id", "zone id is empty") }
            if zoneIndex[zone.id] != nil { log.add("zones[\(k)].id", "duplicate zone id \"\(zone.id)\"") }
            zoneIndex[zone.id] = zoneIndex[zone.id] ?? k
            if !Self.isHexColor(zone.color) { log.add("zones[\(k)].color", "expected a #RRGGBB colour, got \"\(zone.color)\"") }
        }
        if spec.zones.count > Int(UInt16.max) { log.add("zones", "more than \(UInt16.max) zones") }
        let total = allRows.reduce(0) { $0 + $1.seats.count }
        if total > Int(Int32.max) / 2 { log.add("rows", "too many seats (\(total))"); throw log.error }
        // Every importer ends here, so `validate`, `import` and an upload agree: a venue with no seat is
        // a capture that lost its seats (an empty reseller list once passed `validate` and failed `import`).
        if total == 0 { log.add("rows", "no seats: a venue needs at least one (or an area)") }

        var ids = PackedStrings(reservingCapacity: total)
        var idTable = SeatHashTable(capacityFor: total)
        var labelPool: [String] = [], labelIndex: [String: UInt32] = [:]
        var seatLabel = [UInt32](), xs = [Float](), ys = [Float](), rowOf = [UInt32](), zoneOf = [UInt16]()
        var typeOf = [UInt8](), flagsOf = [UInt8](), blockOf = [UInt32]()
        seatLabel.reserveCapacity(total); xs.reserveCapacity(total); ys.reserveCapacity(total)
        rowOf.reserveCapacity(total); zoneOf.reserveCapacity(total); typeOf.reserveCapacity(total)
        flagsOf.reserveCapacity(total); blockOf.reserveCapacity(total)
        var rows: [Row] = [], blocks: [Range<SeatIndex>] = []
        var rowIDs: [String: Int] = [:]
        // Two seats at one spot (to the hundredth of a seat) are a mistake; found with an index table
        // over the stored positions rather than a dictionary of boxed keys.
        var positions = SeatHashTable(capacityFor: total)
        func spot(_ x: Float, _ y: Float) -> Int64 {
            Int64((Double(x) * 100).rounded()) &* 4_000_000_007 &+ Int64((Double(y) * 100).rounded())
        }
        var origins = [(row: Int, seat: Int, source: Int)]()
        origins.reserveCapacity(total)
        func seatPath(_ i: Int) -> String { let o = origins[i]; return paths.seatPath(o.row, o.seat, o.source) }

        for (r, rowSpec) in allRows.enumerated() {
            let rowPath = paths.rowPath(r)
            let isArea = r >= areasFrom
            // A table's seats go round it: one block, no aisles between them.
            let isTable = r >= documentRows && !isArea
            if rowSpec.id.isEmpty { log.add(rowPath + ".id", "row id is empty") }
            if let first = rowIDs[rowSpec.id] { log.add(rowPath + ".id", "duplicate row id \"\(rowSpec.id)\" (first at \(paths.rowPath(first)))") }
            rowIDs[rowSpec.id] = rowIDs[rowSpec.id] ?? r
            if let z = rowSpec.zone, zoneIndex[z] == nil { log.add(rowPath + ".zone", "unknown zone \"\(z)\"") }
            let start = xs.count
            var blockStart = start
            for (s, seat) in rowSpec.seats.enumerated() {
                let i = xs.count
                origins.append((r, s, seat.sourceIndex))
                let path = { paths.seatPath(r, s, seat.sourceIndex) }
                if seat.id.isEmpty { log.add(path() + ".id", "seat id is empty") }
                if seat.label.isEmpty { log.add(path() + ".label", "seat label is empty") }
                if seat.type == .place && !isArea { log.add(path() + ".type", "\"place\" is an area's (write the area under areas)") }
                ids.append(seat.id)
                let duplicate = ids.withUTF8(i) { utf8 in idTable.insert(i, hash: FNV1a.hash(utf8)) { ids.equals($0, utf8) } }
                if let other = duplicate {
                    log.add(path() + ".id", "duplicate seat id \"\(seat.id)\" (first at \(seatPath(other)))")
                }
                // A position is checked before anything converts it: past ±9.2·10^16 the duplicate check's
                // `x * 100` leaves Int64 and traps (a 2-seat upload with x = 1e17 once stopped the server).
                let placed = Self.checkCoordinate(seat.x, "x", path, &log) && Self.checkCoordinate(seat.y, "y", path, &log)

                let zoneID = seat.zone ?? rowSpec.zone
                var z = 0
                if let zoneID {
                    if let k = zoneIndex[zoneID] { z = k } else if seat.zone != nil { log.add(path() + ".zone", "unknown zone \"\(zoneID)\"") }
                } else if spec.zones.count != 1 {
                    log.add(path() + ".zone", "no zone (set one on the seat or its row)")
                }
                if let k = labelIndex[seat.label] {
                    seatLabel.append(k)
                } else {
                    labelIndex[seat.label] = UInt32(labelPool.count)
                    seatLabel.append(UInt32(labelPool.count))
                    labelPool.append(seat.label)
                }
                if i > start && !isArea && !isTable {
                    // Compare stored (Float) positions, so every reader of the layout sees the same aisles.
                    let dx = Double(Float(seat.x)) - Double(xs[i - 1]), dy = Double(Float(seat.y)) - Double(ys[i - 1])
                    if (dx * dx + dy * dy) > aisleGapThreshold * aisleGapThreshold {
                        blocks.append(blockStart..<i)
                        blockStart = i
                    }
                }
                // `+ 0` turns -0.0 into 0: both print as 0, and the fingerprint must survive a JSON round trip.
                // A seat out of range is kept at 0,0 (never built: the log has its problem) so nothing traps.
                xs.append(placed ? Float(seat.x) + 0 : 0); ys.append(placed ? Float(seat.y) + 0 : 0)
                let key = spot(xs[i], ys[i])
                // An area's places all stand at its centre: no aisle, no two-seats-at-one-spot check.
                if placed, !isArea,
                    let other = positions.insert(i, hash: UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15, isEqual: { spot(xs[$0], ys[$0]) == key })
                {
                    log.add(path(), "same position \(FloorPoint(x: seat.x, y: seat.y)) as seat \"\(ids[other])\" at \(seatPath(other))")
                }
                rowOf.append(UInt32(r)); zoneOf.append(UInt16(z)); typeOf.append(seat.type.rawValue)
                var flags = seat.flags
                if seat.type == .wheelchair || seat.type == .companion { flags.insert(.accessible) }
                flagsOf.append(flags.rawValue)
                blockOf.append(UInt32(blocks.count))
            }
            if xs.count > blockStart { blocks.append(blockStart..<xs.count) }
            rows.append(Row(id: rowSpec.id, label: rowSpec.label, seats: start..<xs.count))
            if rowSpec.label.isEmpty && !isArea && !isTable { log.add(rowPath + ".label", "row label is empty") }
        }

        // Partners are resolved once every id is known.
        var partner: [Int32: Int32] = [:]  // sparse: few seats have one
        var flat = 0
        for (r, rowSpec) in spec.rows.enumerated() {
            for (s, seat) in rowSpec.seats.enumerated() {
                defer { flat += 1 }
                guard let p = seat.partner else { continue }
                var pid = p
                let found = pid.withUTF8 { u in idTable.find(hash: FNV1a.hash(u)) { ids.equals($0, u) } }
                if let found {
                    partner[Int32(flat)] = Int32(found)
                } else {
                    log.add(paths.seatPath(r, s, seat.sourceIndex) + ".partner", "partner \"\(p)\" is not a seat in this venue")
                }
            }
        }
        // A table or an area refused (no seats, capacity out of range) made no row: the log has it, nothing is built.
        let complete = tableRows.count == tableCount && placeRows.count == spec.areas.count
        let tables =
            !complete
            ? []
            : spec.tables.enumerated().map { k, table in
                PlacedTable(table: table, seats: rows[documentRows + k].seats, row: documentRows + k)
            }
        let areas =
            !complete
            ? []
            : spec.areas.enumerated().map { k, area in
                PlacedArea(area: area, places: rows[areasFrom + k].seats, row: areasFrom + k)
            }
        let storage = VenueStorage(
            id: spec.id, name: spec.name, stage: spec.stage, zones: spec.zones, rows: rows,
            blocks: blocks, seatIDs: ids, labelPool: labelPool, labelIndex: labelIndex,
            seatLabel: seatLabel, x: xs, y: ys, rowOf: rowOf, zoneOf: zoneOf, typeOf: typeOf,
            flagsOf: flagsOf, partner: partner, blockOf: blockOf, idTable: idTable, tables: tables, areas: areas)
        let layout = VenueLayout(storage: storage)
        layout.checkPartners(into: &log, path: seatPath)
        try log.check()
        self = layout
    }

    /// How far from the origin a seat or stage may be, in seat widths: a million seats side by side.
    public static let coordinateLimit = 1e6

    /// Records a problem naming the seat's (or stage's) field when `value` is not a finite number within
    /// ±`coordinateLimit`; true when it is.
    package static func checkCoordinate(_ value: Double, _ field: String, _ path: () -> String, _ log: inout ProblemLog) -> Bool {
        if value.isFinite && abs(value) <= coordinateLimit { return true }
        log.add(joinPath(path(), field), "\(JSONWriter.format(value)) is out of range (expected -\(Int(coordinateLimit)) to \(Int(coordinateLimit)))")
        return false
    }

    static func isHexColor(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 7, u[0] == UInt8(ascii: "#") else { return false }
        return u.dropFirst().allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 70) || ($0 >= 97 && $0 <= 102) }
    }
}
