import Foundation
import LoopbackHTTP
import SeatDomain
import SeatJSON
import SeatSamples
import SeatMap
import SeatServer
import SeatStorage
import SeatInventory

/// Which store a test runs on: the embedded SQLite file, or the shared PostgreSQL when the test run has
/// one (`SEATKIT_TEST_POSTGRES`, set by `scripts/with-postgres.sh`, which `make test` uses).
public enum StoreBackend: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite, postgres
    public var description: String { rawValue }

    /// The backends this run can test: always SQLite, PostgreSQL when a server was given, or when
    /// `SEATKIT_REQUIRE_POSTGRES=1` says there must be one (`make test` sets it): then a missing server
    /// fails every PostgreSQL test instead of leaving them out.
    public static var available: [StoreBackend] {
        postgresURL == nil && !postgresRequired ? [.sqlite] : [.sqlite, .postgres]
    }

    public static var postgresRequired: Bool { ProcessInfo.processInfo.environment["SEATKIT_REQUIRE_POSTGRES"] == "1" }

    public struct MissingPostgres: Error, CustomStringConvertible {
        public init() {}
        public var description: String {
            "SEATKIT_REQUIRE_POSTGRES=1 but SEATKIT_TEST_POSTGRES is not set: run the tests through scripts/with-postgres.sh (make test does)"
        }
    }

    public static var postgresURL: String? { ProcessInfo.processInfo.environment["SEATKIT_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 } }

    /// A fresh store location: a file in `directory`, or a new schema in the test database. Throws
    /// `MissingPostgres` for PostgreSQL without a server: it once answered a bare `?schema=…`, which the
    /// servers took for a SQLite file in the working directory, so two "PostgreSQL" tests ran (and
    /// passed) on one SQLite file.
    public func freshStore(in directory: URL) throws -> String {
        try freshStore(in: directory, postgresURL: Self.postgresURL)
    }

    /// `freshStore(in:)` with the PostgreSQL server given (tests of the missing case).
    public func freshStore(in directory: URL, postgresURL: String?) throws -> String {
        switch self {
        case .sqlite: return "sqlite:" + directory.appendingPathComponent("seatkit.db").path
        case .postgres:
            guard let base = postgresURL, base.hasPrefix("postgres://") || base.hasPrefix("postgresql://") else { throw MissingPostgres() }
            let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
            return base + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
        }
    }
}

/// For tests: a real server on an ephemeral loopback port with a fresh store (a SQLite file or a
/// PostgreSQL schema), the sample hall and one show. `@unchecked Sendable`: `app` is replaced by
/// `restart`, which a test calls from its own thread while nothing else uses the server.
public final class TestServer: @unchecked Sendable {
    public let directory: URL
    public let backend: StoreBackend
    /// The store the server uses (`sqlite:PATH` or a `postgres://…?schema=` URL).
    public let storeURL: String
    /// The shards, when the server has several stores (then `storeURL` is the first one's).
    public let shards: ShardList?
    public private(set) var app: SeatServerApp
    public let options: SeatServerApp.Options
    public static let adminKey = "test-admin-key-0123456789"

    /// `shards`: the server keeps its shows on these PostgreSQL databases (`ShardedStore`) instead.
    public init(
        backend: StoreBackend = .sqlite, holdsPerSecond: Double = 0, holdSeconds: Int = 600, seed: Bool = true, storeURL: String? = nil,
        shards: ShardList? = nil, configure: (inout SeatServerApp.Options) -> Void = { _ in }
    ) throws {
        if backend == .postgres && storeURL == nil && shards == nil && StoreBackend.postgresURL == nil { throw StoreBackend.MissingPostgres() }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.backend = shards == nil ? backend : .postgres
        self.storeURL = try shards?.entries[0].url ?? storeURL ?? backend.freshStore(in: directory)
        self.shards = shards
        var options = SeatServerApp.Options(adminKey: Self.adminKey)
        options.port = 0
        options.store = self.storeURL
        options.shards = shards
        options.holdsPerSecond = holdsPerSecond
        options.threads = 4
        options.heartbeatSeconds = 0.5
        // The tests' crowds of buyers all come from 127.0.0.1, as from a load balancer; tests of the
        // per-address budgets come from other loopback addresses (127.0.0.2 and up).
        options.trustedAddresses = ["127.0.0.1"]
        configure(&options)
        self.options = options
        app = try SeatServerApp(options: options)
        if seed {
            try app.inventory.addVenue(SampleVenues.cinemaHall())
            try app.inventory.addShow(
                Inventory.NewShow(
                    id: "show", venueID: "cinema-hall-3", startsAt: "2099-12-01T19:30:00+08:00",
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

    /// A second instance on the same store (several instances behind one load balancer).
    /// Another instance on the same store (PostgreSQL), with the same payment providers and operators.
    public func sibling() throws -> TestServer {
        let (payments, operators) = (options.payments, options.operatorsFile)
        return try TestServer(backend: backend, holdsPerSecond: options.holdsPerSecond, seed: false, storeURL: storeURL, shards: shards) {
            $0.payments = payments
            $0.operatorsFile = operators
        }
    }

    /// The store itself, opened anew (what a restarted or another instance would read).
    public func openStore() throws -> SeatStore {
        if let shards { return try ShardedStore(shards) }
        return backend == .sqlite ? try SQLiteStore(path: String(storeURL.dropFirst("sqlite:".count))) : try PostgresStore(url: storeURL)
    }

    deinit {
        app.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    public var port: UInt16 { app.port }
    /// A client connection; `timeoutSeconds` bounds each read (the race tests' 200 buyer threads give
    /// theirs 30 s: under ThreadSanitizer, beside the other suites, a 10 s read timed out twice in 1,800
    /// answered requests, and a request counted as lost fails those tests).
    public func connection(timeoutSeconds: Int = 10) throws -> HTTPConnection { try HTTPConnection(port: port, timeoutSeconds: timeoutSeconds) }

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
