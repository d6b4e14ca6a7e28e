import Foundation
import LoopbackHTTP
import SeatInventory
import SeatJSON
import SeatMap
import SeatServer

/// The door's row (#30): check-ins a second on one instance, each a real scan (the code's signature
/// checked, the seat's sale read, the ticket's row decided and the scan recorded in one durable
/// transaction), beside the hold + release rate of the same run.
extension ServerBenchmarks {
    static func doorRates(app: SeatServerApp, report: Report, holdsPerSecond: Double?) throws {
        let admin = [("X-Admin-Key", "bench-admin-key-0123456789")]
        let c = try HTTPConnection(port: app.port)
        // A show of the 20k arena starting in 30 minutes (doors open), 10,000 seats sold at the counter.
        let starts = Timestamp.text(Int64(Date().timeIntervalSince1970 * 1000) + 30 * 60_000)
        try app.inventory.addShow(
            Inventory.NewShow(id: "door-bench", venueID: "arena-20000", startsAt: starts, prices: PriceTable(categoryPrices: ["lower": 580, "upper": 380])))
        let layout = app.inventory.venueEntryLayout("arena-20000")!
        var codes: [String] = []
        for order in 0..<20 {
            let seats = (order * 500..<(order + 1) * 500).map { "\"\(layout.seatID($0))\"" }.joined(separator: ",")
            let sale = try c.request(
                "POST", "/v1/shows/door-bench/sales", json: #"{"seats":[\#(seats)],"orderRef":"DOOR-\#(order)","payment":"cash","force":true}"#, headers: admin)
            guard sale.status == 201 else { throw QueueSetupFailed(answer: "door sale: \(sale.status) \(sale.text)") }
            let tickets = try c.request("GET", "/v1/orders/DOOR-\(order)/tickets", headers: admin)
            codes += (try JSONParser.parse(tickets.body)).objectValue?["tickets"]?.arrayValue?.compactMap { $0.objectValue?["code"]?.stringValue } ?? []
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-door-codes-\(getpid()).txt")
        try (codes.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        guard let r = Wrk.run(port: app.port, path: "/v1/checkin", connections: 16, seconds: 4, script: Wrk.checkIn, scriptArguments: [file.path])
        else { return }
        let perSecond = Double(r.holds) / r.seconds
        report.row(
            "check-ins (POST /v1/checkin: signature, the seat's sale, the ticket's row and the scan in one durable transaction), 16 gates, wrk, in then out of \(codes.count) tickets vs hold + release above",
            ours: String(format: "%.0f scans/s, p99 %.1f ms", perSecond, r.p99 * 1000),
            baseline: holdsPerSecond.map { String(format: "%.0f holds/s", $0) } ?? "",
            ratio: holdsPerSecond.map { String(format: "%.2f×", perSecond / $0) } ?? "",
            goal: perSecond >= 50 ? "≥ 50/s ✓" : "≥ 50/s ✗")
    }
}
