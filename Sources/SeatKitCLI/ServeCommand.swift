import ArgumentParser
import Logging
import Foundation
import SeatMap
import SeatSamples
import SeatPayments
import SeatServer
import SeatJSON

#if canImport(Glibc)
import Glibc
import SeatSecrets
import SeatHTTP
import SeatInventory
import SeatStorage
#endif

/// `seatkit serve`: the seat-inventory server with the embedded store; seeds the sample venues and a
/// few shows into an empty store. Runs until SIGINT or SIGTERM, then shuts down gracefully.
struct ServeCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "The seat-inventory server (docs/API.md); seeds the sample venues and shows into an empty store.",
        discussion: "Runs until SIGINT or SIGTERM, then shuts down gracefully. The admin key: --admin-key or SEATKIT_ADMIN_KEY.")

    @Option(help: "The port (0: any free one).")
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "sqlite:PATH, or postgres://… for several instances on one shared store; given again (NAME=postgres://…), the shards shows are spread over.",
            valueName: "STORE"))
    var store: [String] = []

    @Option(help: ArgumentHelp("The shards: NAME postgres://… a line (docs/DEPLOY.md).", valueName: "FILE"), completion: .file())
    var shards: String?

    @Option(help: "The admin key (at least 16 characters; default SEATKIT_ADMIN_KEY, or a generated one).")
    var adminKey: String?

    @Option(
        help: ArgumentHelp("Operators by name: NAME door|boxoffice|manager sha256:HEX a line (see seatkit operator).", valueName: "FILE"), completion: .file())
    var operators: String?

    @Option(
        help: ArgumentHelp(
            "The secret every show's ticket key is drawn from (default SEATKIT_TICKET_SECRET, else the admin key); at least 16 characters.",
            valueName: "SECRET"))
    var ticketSecret: String?

    @Option(
        help: ArgumentHelp(
            "Keys that seal buyers' names, documents and phones (seatkit personal-data-keys; default SEATKIT_PERSONAL_DATA_KEYS, else drawn from the admin key).",
            valueName: "FILE"),
        completion: .file())
    var personalDataKeys: String?

    @Option(
        help: ArgumentHelp(
            "Payment providers: stripe|wechatpay|alipay|cash and their key=value settings a line (docs/PAYMENTS.md).", valueName: "FILE"),
        completion: .file())
    var payments: String?

    @Option(help: "Minutes a checkout keeps the hold's seats for its payment (1 to 120).")
    var paymentMinutes = 15

    @Option(help: "Minutes a console sign-in lasts (5 to 1440; a shift: 480).")
    var sessionMinutes = 480

    @Option(help: "Holds a second one client may ask for.")
    var holdsPerSecond: Double?

    @Option(
        help: ArgumentHelp(
            "The venues' clock: a show's start written in another offset is kept on it as the same instant (default +08:00).",
            valueName: "OFFSET"))
    var localOffset: String?

    @Option(help: "Request threads (1 to 256).")
    var threads: Int?

    @Option(help: ArgumentHelp("127.0.0.1, or 0.0.0.0 to listen on every address.", valueName: "ADDRESS"))
    var host = "127.0.0.1"

    @Flag(help: "Do not seed the sample venues and shows.")
    var noSamples = false

    @Flag(help: "Commit each change on its own instead of in batches.")
    var noGroupCommit = false

    @Option(help: ArgumentHelp("Proxies whose X-Forwarded-For is believed, comma-separated.", valueName: "ADDR,…"))
    var trustedProxies: String?

    @Option(help: "Connections one address may hold open.")
    var connectionsPerAddress: Int?

    @Option(help: "Event streams one address may hold open.")
    var streamsPerAddress: Int?

    @Option(help: "Event streams in all (0 to 200000).")
    var maxStreams: Int?

    @OptionGroup var logging: LogOptions

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        let key = adminKey ?? ProcessInfo.processInfo.environment["SEATKIT_ADMIN_KEY"]
        if let key, let problem = AdminKey.problem(with: key) { throw UsageError(message: problem) }
        var options = SeatServerApp.Options(adminKey: key ?? Self.randomKey())
        guard (0...65535).contains(port) else { throw UsageError(message: "--port must be 0 to 65535") }
        options.port = UInt16(port)
        guard host == "127.0.0.1" || host == "0.0.0.0" else { throw UsageError(message: "--host is 127.0.0.1 or 0.0.0.0") }
        options.anyAddress = host == "0.0.0.0"
        switch (store.count, shards) {
        case (0, nil): break
        case (1, nil): options.store = store[0]
        case (_, nil):
            do { options.shards = try ShardList(stores: store) } catch { throw UsageError(message: error.description) }
        case (0, let path?):
            guard let data = FileManager.default.contents(atPath: path) else { throw UsageError(message: "--shards: cannot read \(path)") }
            do { options.shards = try ShardList(file: String(decoding: data, as: UTF8.self), path: path) } catch {
                throw UsageError(message: error.description)
            }
        case (_, _?): throw UsageError(message: "give the shards either with --shards FILE or with --store repeated, not both")
        }
        options.operatorsFile = operators
        if let path = payments {
            guard let data = FileManager.default.contents(atPath: path) else { throw UsageError(message: "--payments: cannot read \(path)") }
            do { options.payments = try PaymentSettings(file: String(decoding: data, as: UTF8.self), path: path) } catch {
                throw UsageError(message: "--payments: \(error)")
            }
        }
        guard (1...120).contains(paymentMinutes) else { throw UsageError(message: "--payment-minutes must be 1 to 120") }
        options.paymentMinutes = paymentMinutes
        guard (5...1440).contains(sessionMinutes) else { throw UsageError(message: "--session-minutes must be 5 to 1440") }
        options.sessionMinutes = Double(sessionMinutes)
        options.ticketSecret = ticketSecret ?? ProcessInfo.processInfo.environment["SEATKIT_TICKET_SECRET"]
        if let secret = options.ticketSecret, secret.utf8.count < 16 {
            throw ValidationError("--ticket-secret must be at least 16 characters: every ticket's key is drawn from it")
        }
        if let path = personalDataKeys ?? ProcessInfo.processInfo.environment["SEATKIT_PERSONAL_DATA_KEYS"] {
            guard let data = FileManager.default.contents(atPath: path) else { throw UsageError(message: "--personal-data-keys: cannot read \(path)") }
            do { options.personalData = try PersonalDataKeys(file: String(decoding: data, as: UTF8.self), path: path) } catch {
                throw UsageError(message: "--personal-data-keys: \(error)")
            }
        }
        options.groupCommit = !noGroupCommit
        options.logger = logging.logger()
        if let t = threads { guard t >= 1 && t <= 256 else { throw UsageError(message: "--threads must be 1 to 256") }; options.threads = t }
        if let n = connectionsPerAddress {
            guard n >= 1 else { throw UsageError(message: "--connections-per-address must be at least 1") }
            options.connectionsPerAddress = n
        }
        if let n = streamsPerAddress {
            guard n >= 0 else { throw UsageError(message: "--streams-per-address must be ≥ 0") }
            options.streamsPerAddress = n
        }
        if let n = maxStreams {
            guard (0...200_000).contains(n) else { throw UsageError(message: "--max-streams must be 0 to 200000") }
            options.maximumStreams = n
        }
        if let list = trustedProxies {
            let addresses = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for a in addresses where !HTTPServer.isIPAddress(a) { throw UsageError(message: "--trusted-proxies: \"\(a)\" is not an IPv4 or IPv6 address") }
            options.trustedAddresses = Set(addresses)
        }
        if let text = localOffset {
            guard let minutes = Timestamp.offsetMinutes(text) else {
                throw UsageError(message: "--local-offset: expected an offset like +08:00, -05:30 or Z, got \"\(text)\"")
            }
            options.localOffsetMinutes = minutes
        }
        if let r = holdsPerSecond {
            guard r >= 0 && r.isFinite else { throw UsageError(message: "--holds-per-second must be ≥ 0") }; options.holdsPerSecond = r
        }

        // Signals are blocked before any thread starts, so every thread inherits the mask and only
        // sigwait below sees them.
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set); sigaddset(&set, SIGINT); sigaddset(&set, SIGTERM); sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &set, nil)

        let app: SeatServerApp
        do { app = try SeatServerApp(options: options) } catch let error as OperatorFileError {
            throw UsageError(message: error.description)
        } catch let error as ShardIdentityError {
            throw UsageError(message: error.description)
        } catch { throw IOFailure(message: "cannot open the store: \(error)") }
        // Tests of restart behaviour move the clock instead of waiting out hold times.
        if let offset = ProcessInfo.processInfo.environment["SEATKIT_CLOCK_OFFSET_MS"].flatMap({ Int64($0) }) {
            app.inventory.clockOffset.advance(by: offset)
        }
        if !noSamples {
            if app.inventory.venueIDs.isEmpty {
                try Self.seed(app.inventory)
            }
            // A sample store kept from an earlier day (make demo's demo.db): its shows have started and
            // sales are closed, so tomorrow's sample shows are added under dated ids.
            else if app.inventory.upcomingShowIDs.isEmpty, Set(app.inventory.venueIDs).isSuperset(of: Self.sampleVenueIDs) {
                try Self.seedShows(app.inventory, idSuffix: "-" + String(Self.tomorrow(app.inventory)))
            }
        }
        do { try app.start() } catch { throw IOFailure(message: "\(error)") }
        let host = options.anyAddress ? "0.0.0.0" : "127.0.0.1"
        let banner = """
            seatkit serving on http://\(host):\(app.port)/  (store \(options.shards.map { "\($0.entries.count) shards: " + $0.entries.map(\.name).joined(separator: ", ") } ?? Self.redacted(options.store)))
              seat picker: open http://127.0.0.1:\(app.port)/ in a browser\(app.api.hasWebPage ? "" : "  (its files were not found: set SEATKIT_WEB_ROOT)")
              venues: \(app.inventory.venueIDs.joined(separator: ", "))
              shows on sale:  \(app.inventory.upcomingShowIDs.joined(separator: ", "))
              operators: \(app.api.operatorNames.joined(separator: ", "))
              personal data: sealed with keys \(app.inventory.personalData.origin)
              admin key: \(key == nil ? options.adminKey + " (generated; set --admin-key or SEATKIT_ADMIN_KEY)" : "from \(adminKey != nil ? "--admin-key" : "SEATKIT_ADMIN_KEY")")
              try: curl http://127.0.0.1:\(app.port)/v1/shows
            """
        FileHandle.standardOutput.write(Data((banner + "\n").utf8))
        var signalNumber: Int32 = 0
        sigwait(&set, &signalNumber)
        // SIGHUP: the shards file read again, its new shards added (a shard is added to a running
        // deployment by listing it and signalling every instance); a bad file changes nothing.
        while signalNumber == SIGHUP {
            Self.reloadShards(app, path: shards, logger: options.logger)
            sigwait(&set, &signalNumber)
        }
        FileHandle.standardOutput.write(Data("seatkit: signal \(signalNumber), shutting down\n".utf8))
        app.stop()
        return ExitCode.success
    }

    static func reloadShards(_ app: SeatServerApp, path: String?, logger: Logger) {
        guard let path else {
            logger.warning("SIGHUP: no --shards file to read again (shards given with --store are fixed until a restart)")
            return
        }
        do {
            guard let data = FileManager.default.contents(atPath: path) else { throw UsageError(message: "cannot read \(path)") }
            let added = try app.addShards(try ShardList(file: String(decoding: data, as: UTF8.self), path: path))
            logger.notice("shards read again", metadata: ["added": .string(added.isEmpty ? "none" : added.joined(separator: ", "))])
        } catch {
            logger.error("shards not changed", metadata: ["cause": .string(String(describing: error))])
        }
    }

    static func randomKey() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &rng)) }.joined()
    }

    /// The sample venues and a few shows, for `make demo`.
    /// The store URL without its password, for the banner and logs.
    static func redacted(_ store: String) -> String {
        guard var parts = URLComponents(string: store), parts.password != nil else { return store }
        parts.password = "***"
        return parts.string ?? store
    }

    static let sampleVenueIDs: Set<String> = ["cinema-hall-3", "imax-1", "arena-20000"]

    /// Tomorrow's date by the inventory's clock, `2026-12-01`.
    static func tomorrow(_ inventory: Inventory) -> Substring {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(inventory.clock()) / 1000 + 86400)).prefix(10)
    }

    static func seed(_ inventory: Inventory) throws {
        let cinema = SampleVenues.cinemaHall(), imax = SampleVenues.imaxHall(), arena = SampleVenues.arena(seats: 20_000)
        // Instances starting together on one shared store may seed at once: what another made is fine.
        for venue in [cinema, imax, arena] {
            do { try inventory.addVenue(venue) } catch  where error.reason == .venueExists {
                // Another instance seeded it first; the follower catches up anyway if this read fails.
                try? inventory.followStore(venues: true)
            } catch { throw InputFailure(message: error.detail) }
        }
        try seedShows(inventory, idSuffix: "")
    }

    /// The sample shows, tomorrow evening (venue time, +08:00).
    static func seedShows(_ inventory: Inventory, idSuffix: String) throws {
        let cinema = "cinema-hall-3", imax = "imax-1", arena = "arena-20000"
        let day = tomorrow(inventory)
        let cinemaPrices = PriceTable(
            categoryPrices: ["standard": Decimal(string: "38.00")!, "vip": Decimal(string: "58.00")!, "couple": Decimal(string: "99.90")!],
            adjustments: [PriceAdjustment(target: .row("1"), change: .amount(Decimal(-5)))])
        let imaxPrices = PriceTable(categoryPrices: ["standard": Decimal(string: "68.00")!, "premium": Decimal(string: "88.00")!])
        let arenaPrices = PriceTable(categoryPrices: ["lower": Decimal(string: "580.00")!, "upper": Decimal(string: "380.00")!])
        // What a buyer is told about each (invented titles).
        // Posters: made locally by scripts/make-posters.py, served with the page's files.
        let film =
            #"{"title":{"en":"Homeward Among the Stars","zh":"星际归途"},"format":"2D","language":{"en":"Mandarin, English subtitles","zh":"国语，英文字幕"},"hall":{"en":"Hall 3","zh":"3号厅"},"poster":"/web/poster-homeward.svg","duration":120}"#
        let deepSea =
            #"{"title":{"en":"The Deep Sea","zh":"深海"},"format":"IMAX 3D","language":{"en":"Mandarin","zh":"国语"},"hall":"IMAX","poster":"/web/poster-deep-sea.svg","duration":112}"#
        let concert =
            #"{"title":{"en":"Year-End Concert","zh":"年终演唱会"},"hall":{"en":"Arena","zh":"体育馆"},"poster":"/web/poster-concert.svg","duration":150}"#
        let shows = [
            Inventory.NewShow(id: "hall3-1930" + idSuffix, venueID: cinema, startsAt: "\(day)T19:30:00+08:00", prices: cinemaPrices, detailsJSON: film),
            Inventory.NewShow(id: "hall3-2145" + idSuffix, venueID: cinema, startsAt: "\(day)T21:45:00+08:00", prices: cinemaPrices, detailsJSON: film),
            Inventory.NewShow(id: "imax-2000" + idSuffix, venueID: imax, startsAt: "\(day)T20:00:00+08:00", prices: imaxPrices, detailsJSON: deepSea),
            Inventory.NewShow(
                id: "arena-concert" + idSuffix, venueID: arena, startsAt: "\(day)T19:00:00+08:00", prices: arenaPrices,
                policy: SelectionPolicy(maxSeats: 4), detailsJSON: concert),
        ]
        for show in shows {
            do { try inventory.addShow(show) } catch  where error.reason == .showExists {
                // As above: the follower catches up anyway.
                try? inventory.followStore()
            } catch { throw InputFailure(message: error.detail) }
        }
    }
}
