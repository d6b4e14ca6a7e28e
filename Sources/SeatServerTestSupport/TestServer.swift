import Foundation
import LoopbackHTTP
import SeatKitCLI
import SeatMap
import SeatServer


/// For tests: a real server on an ephemeral loopback port with a fresh SQLite file, the sample hall and one show.
public final class TestServer: @unchecked Sendable {
    public let directory: URL
    public private(set) var app: SeatServerApp
    let options: SeatServerApp.Options
    public static let adminKey = "test-admin-key"

    public init(holdsPerSecond: Double = 0, holdSeconds: Int = 600, seed: Bool = true) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var options = SeatServerApp.Options(adminKey: Self.adminKey)
        options.port = 0
        options.store = "sqlite:" + directory.appendingPathComponent("seatkit.db").path
        options.holdsPerSecond = holdsPerSecond
        options.threads = 4
        options.heartbeatSeconds = 0.5
        self.options = options
        app = try SeatServerApp(options: options)
        if seed {
            try app.inventory.addVenue(SampleVenues.cinemaHall())
            try app.inventory.addShow(Inventory.NewShow(id: "show", venueID: "cinema-hall-3", startsAt: "2026-12-01T19:30:00+08:00",
                                                        prices: PriceTable(categoryPrices: ["standard": Decimal(string: "33.30")!, "vip": 58, "couple": Decimal(string: "99.90")!]),
                                                        holdSeconds: holdSeconds))
        }
        try app.start()
    }

    /// Stops the server (clients' connections drop) and starts it again on the same port and store.
    public func restart() throws {
        let port = app.port
        app.stop()
        var again = options
        again.port = port
        app = try SeatServerApp(options: again)
        try app.start()
    }

    deinit {
        app.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    public var port: UInt16 { app.port }
    public func connection() throws -> HTTPConnection { try HTTPConnection(port: port) }

    /// The show's availability as the server reports it.
    public func availability(_ show: String = "show") throws -> SeatAvailability {
        let r = try connection().request("GET", "/v1/shows/\(show)/availability")
        return try SeatAvailability(encoded: r.text)
    }
}

extension HTTPConnection.Response {
    public var json: JSONObject? { (try? JSONParser.parse(body))?.objectValue }
    public func string(_ key: String) -> String? { json?[key]?.stringValue }
}

public func hold(_ c: HTTPConnection, _ seats: [String], show: String = "show", headers: [(String, String)] = []) throws -> HTTPConnection.Response {
    try c.request("POST", "/v1/shows/\(show)/holds", json: "{\"seats\":[" + seats.map { "\"\($0)\"" }.joined(separator: ",") + "]}", headers: headers)
}
