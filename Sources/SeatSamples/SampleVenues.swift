import Foundation
import SeatMap

/// The sample venues shipped in `Samples/` and the generated arenas, built in code so they can be
/// regenerated (`seatkit generate …`) and used at any size by the benchmarks.
public enum SampleVenues {
    /// Hall 3: 172 seats in 10 rows of three blocks plus a couple row; centre-out numbering (odd seats
    /// left of centre, even right); wheelchair spaces with companions; an exit row; a VIP block.
    public static func cinemaHall() -> VenueLayout {
        let zones = [
            Zone(id: "standard", name: "普通区 Standard", category: "standard", color: "#4A90D9"),
            Zone(id: "vip", name: "VIP区 VIP", category: "vip", color: "#E5A000"),
            Zone(id: "couple", name: "情侣座 Couple", category: "couple", color: "#E8505B"),
        ]
        let xs: [Double] = Array(0...3).map(Double.init) + Array(5...12).map(Double.init) + Array(14...17).map(Double.init)
        var rows: [RowSpec] = []
        for r in 1...10 {
            let y = Double(r <= 5 ? r - 1 : r)  // a cross aisle between rows 5 and 6
            var seats: [SeatSpec] = []
            for (k, x) in xs.enumerated() {
                // Centre-out: the seat left of the centre line is 1, right of it 2, then 3 and 4 outwards.
                let label = k < 8 ? 2 * (7 - k) + 1 : 2 * (k - 8) + 2
                var seat = SeatSpec(id: "\(r)-\(label)", label: String(label), x: x, y: y)
                if r >= 6 && r <= 8 && x >= 5 && x <= 12 { seat.zone = "vip" }
                if r == 1 && (x == 2 || x == 3 || x == 14 || x == 15) { seat.flags = [.restrictedView] }
                if r == 6 && (x <= 3 || x >= 14) { seat.type = .emergencyExit }
                if r == 1 && (x == 0 || x == 17) { seat.type = .wheelchair; seat.partner = "\(r)-\(x == 0 ? 13 : 14)" }
                if r == 1 && (x == 1 || x == 16) { seat.type = .companion; seat.partner = "\(r)-\(x == 1 ? 15 : 16)" }
                seats.append(seat)
            }
            rows.append(RowSpec(id: String(r), label: String(r), zone: "standard", seats: seats))
        }
        var couples: [SeatSpec] = []
        for pair in 0..<6 {
            let left = 2 * pair + 1, x = 0.5 + Double(pair) * 3
            couples.append(SeatSpec(id: "11-\(left)", label: String(left), x: x, y: 11.2, type: .coupleLeft, partner: "11-\(left + 1)"))
            couples.append(SeatSpec(id: "11-\(left + 1)", label: String(left + 1), x: x + 1, y: 11.2, type: .coupleRight, partner: "11-\(left)"))
        }
        rows.append(RowSpec(id: "11", label: "11", zone: "couple", seats: couples))
        return try! VenueLayout(
            validating: VenueSpec(
                id: "cinema-hall-3", name: "3号厅 Hall 3",
                stage: Stage(label: "银幕 SCREEN", center: FloorPoint(x: 8.5, y: -2.5), width: 12), zones: zones, rows: rows))
    }

    /// An IMAX hall: 20 curved, staggered rows of 26 (520 seats), numbered left to right.
    public static func imaxHall() -> VenueLayout {
        let zones = [
            Zone(id: "standard", name: "普通区 Standard", category: "standard", color: "#4A90D9"),
            Zone(id: "premium", name: "黄金区 Premium", category: "premium", color: "#E5A000"),
        ]
        var rows: [RowSpec] = []
        for r in 1...20 {
            let stagger = r % 2 == 0 ? 0.5 : 0
            var seats: [SeatSpec] = []
            var label = 1
            for x in Array(0...5) + Array(7...20) + Array(22...27) {
                let fx = Double(x) + stagger
                let curve = 0.008 * (fx - 13.75) * (fx - 13.75)
                let y = ((Double(r - 1) * 1.2 - curve) * 100).rounded() / 100
                var seat = SeatSpec(id: "\(r)-\(label)", label: String(label), x: fx, y: y)
                if r >= 8 && r <= 14 && x >= 7 && x <= 20 { seat.zone = "premium" }
                if r == 20 && (x == 0 || x == 27) { seat.type = .wheelchair; seat.partner = "\(r)-\(x == 0 ? 2 : 25)" }
                if r == 20 && (x == 1 || x == 26) { seat.type = .companion; seat.partner = "\(r)-\(x == 1 ? 1 : 26)" }
                seats.append(seat)
                label += 1
            }
            rows.append(RowSpec(id: String(r), label: String(r), zone: "standard", seats: seats))
        }
        return try! VenueLayout(
            validating: VenueSpec(
                id: "imax-1", name: "IMAX厅 IMAX Hall",
                stage: Stage(label: "IMAX银幕 IMAX SCREEN", center: FloorPoint(x: 13.75, y: -4), width: 26), zones: zones, rows: rows))
    }

    /// An arena of exactly `seats` seats around a central stage: sections of concentric curved rows,
    /// aisles between sections, a lower and an upper tier, wheelchair platforms in the front rows.
    public static func arena(seats target: Int, sections: Int? = nil) -> VenueLayout {
        let sectionCount = sections ?? (target >= 50_000 ? 32 : 16)
        let innerRadius = target >= 50_000 ? 60.0 : 30.0
        let lowerRings = 25
        let span = 2 * Double.pi / Double(sectionCount)
        var zones: [Zone] = []
        var sectionRows: [[RowSpec]] = Array(repeating: [], count: sectionCount)
        for s in 0..<sectionCount {
            let n = String(format: "%03d", 101 + s)
            // Each tier's section by its own name (a ring's 101 is above another 101): 下层101区 / Lower 101.
            zones.append(Zone(id: "\(n)-L", name: "下层\(n)区 Lower \(n)", category: "lower", color: "#4A90D9"))
            zones.append(Zone(id: "\(n)-U", name: "上层\(n)区 Upper \(n)", category: "upper", color: "#7B61FF"))
        }
        var count = 0
        var ring = 0
        while count < target {
            let radius = innerRadius + Double(ring) * 1.1 + (ring >= lowerRings ? 3 : 0)  // a walkway between the tiers
            let perRow = Int(radius * span - 2)
            for s in 0..<sectionCount where count < target {
                let n = String(format: "%03d", 101 + s)
                let rowLabel = String(ring + 1)
                let rowID = "\(n)-\(rowLabel)"
                var seats: [SeatSpec] = []
                for j in 0..<min(perRow, target - count) {
                    let angle = Double(s) * span + (1 + Double(j) + 0.5) / radius
                    let x = (radius * cos(angle) * 100).rounded() / 100, y = (radius * sin(angle) * 100).rounded() / 100
                    var seat = SeatSpec(id: "\(rowID)-\(j + 1)", label: String(j + 1), x: x, y: y)
                    if ring == 0 && s % 4 == 0 && j < 2 {
                        seat.type = j == 0 ? .wheelchair : .companion
                        seat.partner = "\(rowID)-\(j == 0 ? 2 : 1)"
                    }
                    seats.append(seat)
                }
                count += seats.count
                sectionRows[s].append(RowSpec(id: rowID, label: rowLabel, zone: "\(n)-\(ring < lowerRings ? "L" : "U")", seats: seats))
            }
            ring += 1
        }
        return try! VenueLayout(
            validating: VenueSpec(
                id: "arena-\(target)", name: "体育馆（\(target)座） Arena (\(target) seats)",
                stage: Stage(label: "舞台 STAGE", center: FloorPoint(x: 0, y: 0), width: 30), zones: zones,
                rows: sectionRows.flatMap { $0 }))
    }

    /// The arena of `seats` seats with `places` standing places on its pitch, in two areas either side
    /// of the stage (each at most half, as a stadium's pitch is split for the crowd's sake): the venue
    /// the #53 benchmark compares with the seats alone.
    public static func stadium(seats: Int, places: Int) -> VenueLayout {
        let arena = arena(seats: seats)
        var text = String(decoding: arena.jsonBytes(), as: UTF8.self)
        while text.last == "\n" || text.last == "}" { text.removeLast() }
        text = text.replacingOccurrences(of: "\"id\":\"\(arena.id)\"", with: "\"id\":\"stadium-\(seats)-\(places)\"")
        text = text.replacingOccurrences(
            of: "\"name\":\"\(arena.name)\"", with: "\"name\":\"体育场（\(seats)座＋\(places)站席） Stadium (\(seats) seats + \(places) standing)\"")
        let west = places / 2, east = places - west
        let zone = arena.zones[0].id
        var areas: [String] = []
        // In front of the stage and behind it (its floor is 15 deep), inside the innermost ring (the arena's inner radius).
        let r = seats >= 50_000 ? 60.0 : 30.0, w = (0.6 * r).rounded(), far = (0.7 * r).rounded()
        for (id, name, capacity, y0, y1) in [("pitch-n", "北侧内场 Pitch north", west, -far, -9), ("pitch-s", "南侧内场 Pitch south", east, 9, far)]
        where capacity > 0 {
            areas.append(
                #"{"id":"\#(id)","name":"\#(name)","zone":"\#(zone)","capacity":\#(capacity),"mode":"places","shape":[[\#(-w),\#(y0)],[\#(w),\#(y0)],[\#(w),\#(y1)],[\#(-w),\#(y1)]]}"#
            )
        }
        text += ",\"areas\":[" + areas.joined(separator: ",") + "]}"
        return try! VenueLayout(json: Array(text.utf8))
    }

    /// A deterministic random availability: `sold` and `held` are fractions of the seats.
    public static func randomAvailability(
        for layout: VenueLayout, sold: Double, held: Double = 0, seed: UInt64,
        version: UInt64 = 1
    ) -> SeatAvailability {
        var rng = SplitMix64(seed: seed)
        var a = SeatAvailability(layout: layout)
        for i in layout.seatIndices {
            let u = Double(rng.next() >> 11) / Double(1 << 53)
            if u < sold { a.setStatus(.sold, for: i) } else if u < sold + held { a.setStatus(.held, for: i) }
        }
        a.commit(version: version)
        return a
    }
}
