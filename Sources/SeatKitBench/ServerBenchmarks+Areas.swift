import Foundation
import LoopbackHTTP
import SeatJSON
import SeatMap
import SeatSamples
import SeatInventory
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
                return try timedHold(c, show: "bench", body)
            }
        }
        let places = {
            load(port: app.port, connections: 64, seconds: 4) { c, _, n in try timedHold(c, show: "bench", #"{"areas":{"pitch":\#(1 + n % 4)}}"#) }
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
}

/// A stadium's reads (#53): 100,000 seats and 50,000 standing places against the same 100,000 seats
/// alone, one server, both shows with 1,000 holds of seats (and the stadium 1,000 of places): the
/// availability a viewer fetches (cached, and right after a change) and the picker's geometry document.
extension ServerBenchmarks {
    static func stadiumReads(dir: URL, report: Report) throws {
        let seatsOnly = SampleVenues.arena(seats: 100_000), stadium = SampleVenues.stadium(seats: 100_000, places: 50_000)
        let app = try server(store: "sqlite:" + dir.appendingPathComponent("stadium.db").path, seed: false)
        defer { app.stop() }
        for (show, venue) in [("seats-only", seatsOnly), ("stadium", stadium)] {
            try app.inventory.addVenue(venue)
            try app.inventory.addShow(
                Inventory.NewShow(
                    id: show, venueID: venue.id, startsAt: "2099-12-01T19:00:00+08:00",
                    prices: PriceTable(categoryPrices: ["lower": 580, "upper": 380]), policy: SelectionPolicy(maxSeats: 6, noLoneSeat: false)))
        }
        let c = try HTTPConnection(port: app.port)
        let gzip = [("Accept-Encoding", "gzip")]
        for (show, venue) in [("seats-only", seatsOnly), ("stadium", stadium)] {
            for k in 0..<1_000 {
                let seat = venue.seatID((k * 97) % venue.numberedSeatCount)
                _ = try c.request("POST", "/v1/shows/\(show)/holds", json: #"{"seats":["\#(seat)"]}"#)
                if show == "stadium" { _ = try c.request("POST", "/v1/shows/\(show)/holds", json: #"{"areas":{"pitch-n":2}}"#) }
            }
        }
        /// Median seconds and the bytes of `path` asked `n` times (after one unmeasured).
        func reads(_ path: String, _ n: Int) throws -> (Double, Int) {
            var times: [Double] = [], bytes = 0
            _ = try c.request("GET", path, headers: gzip)
            for _ in 0..<n {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let r = try c.request("GET", path, headers: gzip)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
                bytes = r.body.count
            }
            return (times.sorted()[n / 2], bytes)
        }
        func row(_ what: String, _ ours: (Double, Int), _ base: (Double, Int)) {
            report.row(
                what, ours: String(format: "%.2f ms, %.0f KB", ours.0 * 1000, Double(ours.1) / 1024),
                baseline: String(format: "%.2f ms, %.0f KB", base.0 * 1000, Double(base.1) / 1024),
                ratio: String(format: "%.2f× time", ours.0 / base.0), goal: "—")
        }
        row(
            "availability GET (the cached encoding, its bytes as sent) of a 100,000-seat + 50,000-place stadium vs the same 100,000 seats alone, 1,000 holds each (and 1,000 of 2 places)",
            try reads("/v1/shows/stadium/availability", 300), try reads("/v1/shows/seats-only/availability", 300))
        // Each hold moves the version: the next read encodes the availability anew (a viewer's first
        // read of a new version).
        func changed(_ show: String, _ venue: VenueLayout) throws -> (Double, Int) {
            var times: [Double] = [], bytes = 0
            for k in 0..<200 {
                let seat = venue.seatID(50_000 + k * 13)
                _ = try c.request("POST", "/v1/shows/\(show)/holds", json: #"{"seats":["\#(seat)"]}"#)
                let t0 = DispatchTime.now().uptimeNanoseconds
                let r = try c.request("GET", "/v1/shows/\(show)/availability", headers: gzip)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
                bytes = r.body.count
            }
            return (times.sorted()[100], bytes)
        }
        row(
            "availability GET right after a hold (the encoding made anew), stadium vs the seats alone",
            try changed("stadium", stadium), try changed("seats-only", seatsOnly))
        func geometry(_ venue: VenueLayout) throws -> (Double, Int) {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let r = try c.request("GET", "/v1/venues/\(venue.id)/geometry?lang=zh", headers: gzip)
            return (Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9, r.body.count)
        }
        row(
            "the picker's geometry document (GET, the first: built, then gzip), stadium vs the seats alone",
            try geometry(stadium), try geometry(seatsOnly))
    }
}
