import Foundation
@_exported import SeatKitTestSupport
@testable import SeatMap

/// The repository root, found from this file's path, so tests read the shipped samples.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func sampleBytes(_ relativePath: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: repositoryRoot.appendingPathComponent(relativePath)))
}

/// Builds a venue from one pattern string per row, seat by seat in floor order:
/// `S` standard, `_` an empty grid cell (an aisle), `LR` a couple pair, `W` a wheelchair space,
/// `P` a companion of the wheelchair space beside it, `X` an emergency-exit seat.
/// Seat ids are `<row>-<n>` with n counting seats from 1; labels are n.
func venue(_ rows: [String], zones: [String] = ["main"]) -> VenueLayout {
    var specs: [RowSpec] = []
    for (r, pattern) in rows.enumerated() {
        let rowID = String(r + 1)
        var seats: [SeatSpec] = []
        var n = 0
        for (x, ch) in pattern.enumerated() where ch != "_" {
            n += 1
            var s = SeatSpec(id: "\(rowID)-\(n)", label: String(n), x: Double(x), y: Double(r))
            switch ch {
            case "L": s.type = .coupleLeft; s.partner = "\(rowID)-\(n + 1)"
            case "R": s.type = .coupleRight; s.partner = "\(rowID)-\(n - 1)"
            case "W": s.type = .wheelchair
            case "P": s.type = .companion
            case "X": s.type = .emergencyExit
            default: break
            }
            seats.append(s)
        }
        for k in seats.indices where seats[k].type == .companion {
            let w = [k - 1, k + 1].first { $0 >= 0 && $0 < seats.count && seats[$0].type == .wheelchair }!
            seats[k].partner = seats[w].id
            seats[w].partner = seats[k].id
        }
        specs.append(RowSpec(id: rowID, label: rowID, zone: zones[0], seats: seats))
    }
    let zs = zones.enumerated().map { Zone(id: $1, name: $1, category: $1, color: "#11223\($0 % 10)") }
    return try! VenueLayout(validating: VenueSpec(id: "test", name: "Test", zones: zs, rows: specs))
}

/// Statuses from a pattern per row (aisle cells `_` skipped): `a` available, `h` held, `s` sold, `b` blocked.
func availability(_ layout: VenueLayout, _ rows: [String]) -> SeatAvailability {
    var a = SeatAvailability(layout: layout)
    var i = 0
    for pattern in rows {
        for ch in pattern where ch != "_" {
            a.setStatus(SeatStatus(code: ch.asciiValue!)!, for: i)
            i += 1
        }
    }
    precondition(i == layout.seatCount, "pattern covers \(i) of \(layout.seatCount) seats")
    return a
}

func ids(_ layout: VenueLayout, _ seats: [SeatIndex]?) -> [String]? { seats?.map { layout.seatID($0) } }
func seats(_ layout: VenueLayout, _ ids: String...) -> [SeatIndex] { ids.map { layout.index(ofSeatID: $0)! } }
