import Foundation
import SeatJSON

extension ResellerFormat {
    /// A seat's status: a code the user mapped, this format's `seatState` (-1 not for sale, 0 for sale),
    /// or a status word; other codes are counted in `ignored` (the seat is for sale). Nil: deleted.
    static func status(
        of o: JSONObject, at path: String, options: ImportOptions, ignored: inout [String: Int], log: inout ProblemLog
    ) -> SeatStatus? {
        for name in ["seatState", "seatStatus", "status", "state"] {
            guard let key = field(o, name), let v = o[key] else { continue }
            let code = v.intValue.map(String.init) ?? v.stringValue ?? v.shortDescription
            if let mapped = options.statusMap[code] { return mapped }
            if Int(code) != nil {
                if name == "seatState" && code == "0" { return .available }
                if name == "seatState" && code == "-1" { return .sold }
            } else if let word = statusWord(code) {
                return word
            }
            ignored["\(key) \(code)", default: 0] += 1
            return .available
        }
        return .available
    }

    /// A seat's own members; problems are recorded with the seat's path.
    static func seat(_ o: JSONObject, at path: String, status: SeatStatus, log: inout ProblemLog) -> Parsed? {
        guard let id = o.label(field(o, "seatNo") ?? "seatNo", at: path, into: &log) else { return nil }
        let row = o.label(field(o, "seatRow") ?? "seatRow", at: path, into: &log)
        let label = o.label(field(o, "seatCol") ?? "seatCol", at: path, into: &log, required: false) ?? id
        // Without graph positions the printed numbers place the seat, when they are numbers in range.
        func inRange(_ text: String) -> Double? { Double(text).flatMap { $0.isFinite && abs($0) <= VenueLayout.coordinateLimit ? $0 : nil } }
        let y = grid(o, "graphRow", at: path, log: &log) ?? row.flatMap(inRange)
        let x = grid(o, "graphCol", at: path, log: &log) ?? inRange(label)
        if y == nil && field(o, "graphRow") == nil { log.add(joinPath(path, "graphRow"), "missing (expected an integer, or a numeric seatRow)") }
        if x == nil && field(o, "graphCol") == nil { log.add(joinPath(path, "graphCol"), "missing (expected an integer, or a numeric seatCol)") }
        var kind = SeatKind.single
        if let key = field(o, "seatType") ?? field(o, "type"), let code = o.label(key, at: path, into: &log) {
            if let k = Self.kind(code) {
                kind = k
            } else {
                log.add(joinPath(path, key), "unknown seat type \"\(code)\" (expected N, L, M, R, NORMAL, LOVE1 or LOVE2)")
            }
        }
        let piece = field(o, "seatPieceNo").flatMap { o.label($0, at: path, into: &log) }
        let pieceName = field(o, "seatPieceName").flatMap { o.string($0, at: path, into: &log) }
        guard let row, let x, let y else { return nil }
        return Parsed(id: id, row: row, label: label, x: x, y: y, kind: kind, status: status, piece: piece, pieceName: pieceName, path: path)
    }

    /// A grid coordinate: a number, or a number written as a string (as XML answers converted to JSON are).
    static func grid(_ o: JSONObject, _ name: String, at path: String, log: inout ProblemLog) -> Double? {
        guard let key = field(o, name), let v = o[key] else { return nil }
        // Swift's Double("nan") and Double("inf") succeed: only finite numbers in range are coordinates.
        if let n = v.doubleValue ?? v.stringValue.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) {
            return VenueLayout.checkCoordinate(n, key, { path }, &log) ? n : nil
        }
        log.add(joinPath(path, key), "expected a number, got \(v.shortDescription)")
        return nil
    }

    /// What piece numbers mean here: areas with their own price (a piece has a name, more than three
    /// seats or seats in several rows), each a zone; or groups of seats sold together (`grouped`).
    static func areas(_ parsed: [Parsed], notes: inout [String]) -> (zones: [Zone], zoneOf: [Int: String], grouped: Bool) {
        let pieces = Dictionary(grouping: parsed.indices.filter { parsed[$0].piece != nil }) { parsed[$0].piece! }
        let areaMode =
            parsed.contains { $0.pieceName != nil }
            || pieces.values.contains { $0.count > 3 || Set($0.map { parsed[$0].y }).count > 1 }
        let standard = Zone(id: "standard", name: "普通区 Standard", category: "standard", color: zonePalette[0])
        guard areaMode else { return ([standard], [:], true) }
        var zones: [Zone] = []
        var zoneOf: [Int: String] = [:]
        for (k, piece) in pieces.keys.sorted().enumerated() {
            let name = pieces[piece]!.lazy.compactMap { parsed[$0].pieceName }.first ?? "\(piece)区 Area \(piece)"
            zones.append(Zone(id: piece, name: name, category: piece, color: zonePalette[k % zonePalette.count]))
            for i in pieces[piece]! { zoneOf[i] = piece }
        }
        if parsed.indices.contains(where: { zoneOf[$0] == nil }) {
            zones.append(Zone(id: "standard", name: "普通区 Standard", category: "standard", color: zonePalette[zones.count % zonePalette.count]))
            for i in parsed.indices where zoneOf[i] == nil { zoneOf[i] = "standard" }
        }
        notes.append("piece numbers are areas (\(zones.count) zones, one price category each): \(zones.map(\.id).joined(separator: ", "))")
        return (zones, zoneOf, false)
    }
}
