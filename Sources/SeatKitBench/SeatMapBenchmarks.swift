import CHeapStats
import Foundation
import SeatJSON
import SeatMap

/// A plain model of the same layout JSON, decoded by Foundation's `JSONDecoder`: the baseline.
struct PlainLayout: Codable {
    struct Stage: Codable { var label: String; var x: Double; var y: Double; var width: Double }
    struct Zone: Codable { var id: String; var name: String; var category: String; var color: String }
    struct Seat: Codable {
        var id: String; var label: String; var x: Double; var y: Double?
        var type: String?; var flags: [String]?; var zone: String?; var partner: String?
    }
    struct Row: Codable { var label: String; var id: String?; var zone: String?; var y: Double?; var seats: [Seat] }
    var format: String; var version: Int; var id: String; var name: String
    var stage: Stage?; var zones: [Zone]; var rows: [Row]
}

/// The naive per-seat availability JSON, `[{"id":…,"status":…}]`.
struct PlainSeatStatus: Codable { var id: String; var status: String }

/// The naive immutable seat collection: every seat a struct, a change rebuilds the array.
struct PlainSeat { var id: String; var row: Int; var x: Float; var y: Float; var status: SeatStatus }

enum SeatMapBenchmarks {
    static func run(layout: VenueLayout, availability: SeatAvailability, report: Report) {
        let n = layout.seatCount
        // Heap growth first, before the timing loops leave the allocator's free lists in any state.
        let layoutBytes = layout.jsonBytes()
        var heapPerSeat: Double? = nil
        if let before = HeapUsage.bytesInUse() {
            let decoded = try! VenueLayout(json: layoutBytes)
            if let after = HeapUsage.bytesInUse() { heapPerSeat = Double(after - before) / Double(n) }
            consume(decoded.seatCount)
        }

        // 1. One seat changes on a snapshot somebody else holds.
        let plain = layout.seatIndices.map {
            PlainSeat(
                id: layout.seatID($0), row: layout.rowIndex(of: $0),
                x: Float(layout.position($0).x), y: Float(layout.position($0).y),
                status: availability[$0])
        }
        var k = 0
        let ours = measure {
            k = (k &+ 7919) % n
            let next = availability.settingStatus(.held, for: k)  // path copy: the original is shared
            consume(next.counts.held)
        }
        let naive = measure {
            k = (k &+ 7919) % n
            let next = plain.enumerated().map { i, s in i == k ? PlainSeat(id: s.id, row: s.row, x: s.x, y: s.y, status: .held) : s }
            consume(next.count)
        }
        report.compare("single-seat change, 100k-seat show (shared snapshot vs rebuilding the seat array)", ours: ours, baseline: naive, goal: 1000)

        // 2. Availability decode.
        let encoded = availability.encoded()
        var perSeat = JSONWriter()
        perSeat.raw("[")
        for i in layout.seatIndices {
            if i > 0 { perSeat.raw(",") }
            perSeat.raw("{"); perSeat.key("id", first: true); perSeat.string(layout.seatID(i))
            perSeat.key("status"); perSeat.string(availability[i].name); perSeat.raw("}")
        }
        perSeat.raw("]")
        let perSeatData = Data(perSeat.bytes)
        let decodeOurs = measure { consume(try! SeatAvailability(encoded: encoded, layout: layout).counts.sold) }
        let decodeJSON = measure { consume(try! JSONDecoder().decode([PlainSeatStatus].self, from: perSeatData).count) }
        report.compare(
            "decode availability of 100k seats (compact, \(encoded.utf8.count / 1024) KiB vs per-seat JSON, \(perSeatData.count / 1024) KiB, JSONDecoder)",
            ours: decodeOurs, baseline: decodeJSON, goal: 50)

        // 3. Layout decode.
        let layoutData = Data(layoutBytes)
        let layoutOurs = measure(batches: 3) { consume(try! VenueLayout(json: layoutBytes).seatCount) }
        let layoutJSON = measure(batches: 3) { consume(try! JSONDecoder().decode(PlainLayout.self, from: layoutData).rows.count) }
        report.compare(
            "decode + validate the 100k-seat layout (\(layoutBytes.count / 1024) KiB) vs JSONDecoder into a plain Codable model",
            ours: layoutOurs, baseline: layoutJSON, goal: 2)

        // 4. Best available.
        let request = BestAvailableRequest(count: 4)
        let fast = layout.bestAvailable(request, availability: availability)
        let slow = ReferenceAlgorithms.bestAvailableTryingEveryWindow(request, layout: layout, availability: availability)
        precondition(fast == slow, "best available disagrees with the reference")
        let bestOurs = measure { consume(layout.bestAvailable(request, availability: availability)?.first) }
        let bestNaive = measure(batches: 3) {
            consume(ReferenceAlgorithms.bestAvailableTryingEveryWindow(request, layout: layout, availability: availability)?.first)
        }
        report.compare("best available 4 seats, 100k-seat show (one pass vs every window of every row)", ours: bestOurs, baseline: bestNaive, goal: nil)

        // 5. Memory.
        let layoutPerSeat = Double(layout.storageByteCount) / Double(n)
        let availabilityPerSeat = Double(availability.storageByteCount) / Double(n)
        report.figure(
            "layout bytes per seat (counted from array capacities)", value: String(format: "%.1f B", layoutPerSeat),
            goal: layoutPerSeat <= 64 ? "≤ 64 ✓" : "≤ 64 ✗")
        if let heapPerSeat {
            report.figure(
                "layout bytes per seat (heap growth measured by malloc while decoding)", value: String(format: "%.1f B", heapPerSeat),
                goal: heapPerSeat <= 64 ? "≤ 64 ✓" : "≤ 64 ✗")
        }
        report.figure(
            "availability bytes per seat", value: String(format: "%.2f B", availabilityPerSeat),
            goal: availabilityPerSeat <= 1 ? "≤ 1 ✓" : "≤ 1 ✗")
        importers(report: report)
        report.notes.append(
            "Venue: generated arena, \(n) seats in \(layout.rows.count) curved rows; availability 30% sold, 5% held, scattered at random (seed 42).")
    }
}

extension SeatMapBenchmarks {
    /// One 20,000-seat hall (100 rows of 200) as a reseller seat list and as a cinema-grid capture, each
    /// imported whole (parse, convert, validate). The reseller list carries three times the bytes a seat
    /// (nine members, every spelling looked up), so per seat it may cost more, per byte not.
    static func importers(report: Report) {
        var reseller = "[", grid = #"{"data":{"hall_id":"big","seats":["#
        for r in 1...100 {
            grid += (r > 1 ? "," : "") + #"{"row_id":"\#(r)","row_num":\#(r),"columns":["#
            for c in 1...200 {
                if r > 1 || c > 1 { reseller += "," }
                reseller +=
                    #"{"seatNo":"\#(r)-\#(c)","seatRow":"\#(r)","seatCol":"\#(c)","graphRow":\#(r),"graphCol":\#(c),"seatPieceNo":"01","seatPieceName":"普通区","seatType":"N","seatState":0}"#
                grid += (c > 1 ? "," : "") + #"{"column_id":"\#(c)","seat_no":"\#(r)-\#(c)","st":"N"}"#
            }
            grid += "]}"
        }
        reseller += "]"
        grid += "]}}"
        let resellerBytes = Array(reseller.utf8), gridBytes = Array(grid.utf8)
        let ours = measure { consume((try! ImportedVenue(format: nil, json: resellerBytes, fallbackID: "big")).layout.seatCount) }
        let baseline = measure { consume((try! ImportedVenue(format: nil, json: gridBytes, fallbackID: "big")).layout.seatCount) }
        report.compare(
            "import a 20,000-seat hall: reseller seat list (\(resellerBytes.count / 1000) kB) vs the same hall as a cinema-grid capture (\(gridBytes.count / 1000) kB)",
            ours: ours, baseline: baseline, goal: nil)
        report.notes.append(
            String(
                format:
                    "Importers per input byte: reseller %.1f ns, cinema-grid %.1f ns (a reseller seat once cost 5× a cinema-grid one: its member spellings were built anew for every seat).",
                ours * 1e9 / Double(resellerBytes.count), baseline * 1e9 / Double(gridBytes.count)))
    }
}

/// Heap bytes in use, from the allocator (nil where it cannot say).
enum HeapUsage {
    static func bytesInUse() -> Int? {
        let n = seatkit_heap_bytes_in_use()
        return n == 0 ? nil : Int(n)
    }
}
