import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatSamples
import SeatServer

/// General-admission areas (#53): places held a second on one 10,000-place area against seats held on
/// the same show, same server, same load; seats measured just before and after, averaged (the store
/// grows with each run).
extension ServerBenchmarks {
    static func areaRates(dir: URL, report: Report) throws {
        let arena = SampleVenues.arena(seats: 20_000)
        var text = String(decoding: arena.jsonBytes(), as: UTF8.self)
        while text.last == "\n" || text.last == "}" { text.removeLast() }
        let zone = arena.zones[0].id
        text += #","areas":[{"id":"pitch","name":"Pitch","zone":"\#(zone)","capacity":10000,"shape":[[0,-40],[60,-40],[60,-10],[0,-10]]}]}"#
        let venue = try VenueLayout(json: Array(text.utf8))
        let app = try server(store: "sqlite:" + dir.appendingPathComponent("areas.db").path, seed: true, venue: venue)
        defer { app.stop() }
        let layout = venue
        func seats() -> LoadResult {
            load(port: app.port, connections: 64, seconds: 4) { c, worker, n in
                let row = layout.rows[(worker * 7) % (layout.rows.count - 1)]
                let count = 1 + n % 4
                let start = row.seats.lowerBound + (n * 5) % max(row.seats.count - count, 1)
                let body = "{\"seats\":[" + (start..<min(start + count, row.seats.upperBound)).map { "\"\(layout.seatID($0))\"" }.joined(separator: ",") + "]}"
                return try timedHold(c, body)
            }
        }
        let places = {
            load(port: app.port, connections: 64, seconds: 4) { c, _, n in try timedHold(c, #"{"areas":{"pitch":\#(1 + n % 4)}}"#) }
        }
        let before = seats(), placed = places(), after = seats()
        let seatRate = (before.perSecond + after.perSecond) / 2, seatP99 = (before.p99 + after.p99) / 2
        let ratio = placed.perSecond / seatRate
        report.row(
            "places held + released, 1–4 a hold of one 10,000-place area (20,000-seat arena beside it), 64 connections vs seats held + released on the same show just before and after",
            ours: String(format: "%.0f holds/s, p99 %.1f ms", placed.perSecond, placed.p99 * 1000),
            baseline: String(format: "%.0f holds/s, p99 %.1f ms", seatRate, seatP99 * 1000), ratio: String(format: "%.2f×", ratio),
            goal: ratio >= 0.8 ? "≥ 0.8× ✓" : "≥ 0.8× ✗")
    }

    /// A hold's latency when it was made (then released), nil when refused.
    static func timedHold(_ c: HTTPConnection, _ body: String) throws -> Double? {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let r = try c.request("POST", "/v1/shows/bench/holds", json: body)
        let latency = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        guard r.status == 201, let token = (try? JSONParser.parse(r.body))?.objectValue?["token"]?.stringValue else { return nil }
        _ = try c.request("DELETE", "/v1/holds/\(token)")
        return latency
    }
}
