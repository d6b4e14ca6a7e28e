import Foundation
import Logging
import SeatDomain
import SeatMap
import SeatSecrets
import SeatStorage
import SeatWebhooks
import SharedState
import SeatHTTP
import SeatInventory
import SeatPayments
import SeatQueue
import SeatTickets

/// The server: store, inventory, API and HTTP daemon, plus the background work (hold expiry every half
/// second, event-stream heartbeats every 15 seconds).
public final class SeatServerApp: Sendable {
    public struct Options: Sendable {
        public var port: UInt16 = 8080
        public var anyAddress = false
        /// `sqlite:PATH` (or a plain path): the embedded store, one instance. `postgres://…` (or
        /// `postgresql://…`, any libpq URI, `?schema=NAME` to use a schema): the shared store, any
        /// number of instances.
        public var store = "sqlite:seatkit.db"
        /// Several PostgreSQL databases, each show kept on one (`ShardedStore`); `store` is then unused.
        public var shards: ShardList?
        public var adminKey: String
        /// Request threads. Handlers never wait for a commit (the connection is suspended and resumed
        /// by the writer), so a few per core are enough; measured flat from 2 to 32 on 2 cores.
        public var threads = max(ProcessInfo.processInfo.activeProcessorCount * 2, 4)
        /// Hold creations a second per client address (0: unlimited).
        public var holdsPerSecond: Double = 20
        /// The venues' clock, in minutes east of UTC (`--local-offset`): a show's start written in another
        /// offset (`…T06:33:00Z`) is kept as the same instant on this clock (`…T14:33:00+08:00`), so every
        /// page shows it as the hall's clock reads (a start in UTC once showed 06:33 beside deadlines at
        /// 13:33). nil: as written. China keeps +08:00 all year.
        public var localOffsetMinutes: Int? = 480
        public var maximumBodyBytes = 1 << 20
        /// An admin's venue upload (`POST /v1/venues` with the admin key): a 100k-seat arena is 5.5 MB
        /// of layout JSON and a 60k pretix plan 6.7 MB, so 64 MiB leaves room; everyone else keeps
        /// `maximumBodyBytes`.
        public var maximumVenueBytes = 64 << 20
        public var heartbeatSeconds: Double = 15
        /// A waiting page silent this long gives its place up (tests shorten it).
        public var queueAbandonSeconds: Double = 30
        /// Confirmations share fsyncs of the log (false: each commits with synchronous=FULL).
        public var groupCommit = true
        /// How long a shared store's writer lane may wait for its batch to grow to the size of its last
        /// (`WriterLane`); nil: 1 ms on a shared store, never on SQLite. 0 turns it off (the benchmark's
        /// comparison).
        public var commitGatherSeconds: Double?
        /// Connection budgets (see `ConnectionGuard`): request connections per address and in all,
        /// event streams per address and in all, the deadline for a request's headers, and the
        /// addresses (a load balancer's) exempt from the per-address limits.
        public var connectionsPerAddress = 64
        public var maximumConnections = 4096
        public var streamsPerAddress = 256
        public var maximumStreams = 12_000
        public var headerTimeoutSeconds = 15.0
        public var trustedAddresses: Set<String> = []

        /// The operators file (`--operators`): `name role sha256:HEX` a line, besides the admin key.
        public var operatorsFile: String?

        /// The payment providers (`--payments FILE`, read and checked by the caller): with any online
        /// provider, a buyer's confirm is refused until the hold is paid.
        public var payments = PaymentSettings()
        /// How long a checkout keeps the hold's seats for its payment (`--payment-minutes`: 15, at most 120).
        public var paymentMinutes = 15
        /// How long a console sign-in lasts (`--session-minutes`: 480, a shift).
        public var sessionMinutes: Double = 480

        /// The secret each show's ticket key is drawn from (`--ticket-secret`); nil: the admin key. Set it
        /// so the admin key can change without voiding every ticket sold.
        public var ticketSecret: String?

        /// What seals buyers' personal data and keys its lookups (`--personal-data-keys FILE`); nil: keys
        /// drawn from the admin key (every instance given the same key reads the same data; rotating the
        /// admin key then loses it, so a deployment gives a file: docs/REALNAME.md).
        public var personalData: PersonalDataKeys?

        /// Where the server's lines go: a line a request at `info`, failures with their cause at
        /// `warning`/`error`, starts and stops at `notice`. The default says nothing (tests, benchmarks).
        public var logger: Logger = RequestLog.silent

        public init(adminKey: String) { self.adminKey = adminKey }
    }

    public let options: Options
    public let inventory: Inventory
    public let api: SeatAPI
    /// Sends the shows' events to the operators' webhook endpoints (`sk-webhooks`, every second).
    let webhooks: WebhookDispatcher

    /// One webhooks round now (tests, rather than waiting for the next second); how many were sent.
    @discardableResult
    public func deliverWebhooks() -> Int { webhooks.round() }
    let http: HTTPServer
    /// Whether `stop` was called; the background threads wait on it between rounds. Lock: `stopped`.
    private let stopped = Locked(false)
    /// The shards, when the store is several databases (decided once, when the app is made): what the
    /// app runs for them (the coordinator's rounds, shards added on SIGHUP, outages logged).
    public let shards: ShardedStore?
    /// The parts of the shared store with a follower thread, by name. Lock: its own (a leaf).
    private let followed = Locked(Set<String>())

    public convenience init(options: Options) throws {
        // Checked before the store is opened: a bad key must not create or migrate a database.
        if let problem = AdminKey.problem(with: options.adminKey) { throw ServerError.invalidAdminKey(problem) }
        let operators = try Self.operators(options)
        try self.init(options: options, store: try Self.openStore(options), operators: operators)
    }

    /// The admin key and the operators file's operators; a file that cannot be read or has a bad line
    /// stops the start, naming the line.
    static func operators(_ options: Options) throws -> OperatorDirectory {
        guard let path = options.operatorsFile else { return try OperatorDirectory(adminKey: options.adminKey) }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw OperatorFileError(source: path, line: 0, message: "cannot read the operators file (it must exist and be UTF-8)")
        }
        return try OperatorDirectory(adminKey: options.adminKey, file: (text, path))
    }

    /// A server on a store made by the caller (`options.store` is then only shown in the banner).
    public convenience init(options: Options, store: SeatStore) throws {
        if let problem = AdminKey.problem(with: options.adminKey) { throw ServerError.invalidAdminKey(problem) }
        try self.init(options: options, store: store, operators: try Self.operators(options))
    }

    /// The operators file is read once, before the store is opened.
    private init(options: Options, store: SeatStore, operators: OperatorDirectory) throws {
        self.options = options
        shards = store as? ShardedStore
        inventory = try Inventory(
            store: store, logger: options.logger, commitGatherSeconds: options.commitGatherSeconds,
            personalData: options.personalData ?? PersonalDataKeys(derivedFrom: options.adminKey), describeShow: SeatAPI.showEventData)
        // Buyers' contacts kept in the clear by an older version: sealed now, before anyone reads them.
        let sealed = try inventory.sealPlainContacts()
        if sealed > 0 { options.logger.notice("sealed \(sealed) buyers' contacts kept in the clear before (docs/REALNAME.md)") }
        // The waiting rooms' key (admissions, shuffle seeds) from the admin key: every instance given the
        // same key signs and checks the same admissions; the store never holds it.
        let queueKey = HMACSHA256.code(key: Array(options.adminKey.utf8), message: Array("seatkit-queue-key".utf8))
        let queues = try store.waitingRooms.map {
            try QueueDesk(
                store: $0, key: queueKey, now: SeatAPI.now(), abandonMilliseconds: Int64(options.queueAbandonSeconds * 1000))
        }
        // Each show's ticket key from the ticket secret (or the admin key): every instance given it signs
        // a show's tickets alike; the store never holds it. A new secret makes every ticket sold before invalid.
        let ticketSecret = HMACSHA256.code(key: Array((options.ticketSecret ?? options.adminKey).utf8), message: Array("seatkit-ticket-secret".utf8))
        api = SeatAPI(
            inventory: inventory, operators: operators, tickets: TicketIssuer(secret: ticketSecret), holdsPerSecond: options.holdsPerSecond,
            logger: options.logger, queues: queues, localOffsetMinutes: options.localOffsetMinutes, payments: options.payments,
            paymentMinutes: options.paymentMinutes, webhookBox: SecretBox(serverKey: options.adminKey), sessionSeconds: options.sessionMinutes * 60)
        webhooks = WebhookDispatcher(inventory: inventory, box: SecretBox(serverKey: options.adminKey), logger: options.logger)
        let api = self.api
        // The operators file's lines not in the store yet (a first start, an upgrade): imported once.
        let imported = try api.staff.importFile(now: SeatAPI.now())
        if !imported.isEmpty {
            options.logger.notice("operators imported from the operators file into the store", metadata: ["names": .string(imported.joined(separator: ", "))])
        }
        // A paying hold past its window ends only once its provider says it was not paid.
        if options.payments.takesMoneyOnline {
            inventory.askPayments { [api] payment in api.paymentState(payment) }
            // Refunds the domain writes itself (a prepaid waitlist's) go to their providers at once.
            inventory.sendRefunds { [api] refunds in api.sendRefunds(refunds) }
        }
        var configuration = HTTPServer.Configuration(
            port: options.port, anyAddress: options.anyAddress, threads: options.threads, maximumBodyBytes: options.maximumBodyBytes,
            connectionsPerAddress: options.connectionsPerAddress, maximumConnections: options.maximumConnections,
            streamsPerAddress: options.streamsPerAddress, maximumStreams: options.maximumStreams,
            headerTimeoutSeconds: options.headerTimeoutSeconds, trustedAddresses: options.trustedAddresses)
        let (plain, venues) = (options.maximumBodyBytes, options.maximumVenueBytes)
        configuration.bodyLimit = { method, path, header in api.bodyLimit(method: method, path: path, header: header, plain: plain, venues: venues) }
        http = HTTPServer(configuration: configuration) { api.handle($0) }
        // Weak: the server holds the API (its handler), so the API holding the server back was a cycle
        // that kept every stopped app, its store and its database connections for ever.
        api.connectionGauges.withLock { $0 = { [weak http] in http?.connectionGauges ?? [] } }
    }

    public var port: UInt16 { http.port }

    /// Adds the shards a longer list names to a running deployment with shards (`seatkit serve` reads
    /// its `--shards` file again on SIGHUP); the names added. Throws, changing nothing, for a server
    /// with one store or a list that removes or moves a shard.
    public func addShards(_ list: ShardList) throws -> [String] {
        guard let sharded = shards else {
            throw ShardList.Problem(place: "--shards", message: "this server was started with one store; start it with --shards to add shards")
        }
        let added = try sharded.add(list)
        // Once started, each new shard is followed by a thread of its own (before: at `start`).
        if !followed.withLock({ $0.isEmpty }) { startFollowers(sharded) }
        return added
    }

    public static func openStore(_ options: Options) throws -> SeatStore {
        if let shards = options.shards { return try ShardedStore(shards) }
        if options.store.hasPrefix("postgres://") || options.store.hasPrefix("postgresql://") {
            return try PostgresStore(url: options.store)
        }
        let path = options.store.hasPrefix("sqlite:") ? String(options.store.dropFirst("sqlite:".count)) : options.store
        guard !path.isEmpty, !path.contains("://") else {
            throw ServerError.cannotListen("unsupported store \(options.store) (use sqlite:PATH or postgres://USER@HOST:PORT/DATABASE)")
        }
        // A query is a URL's, never a file's: `?schema=t_…` alone is what a PostgreSQL URL leaves without
        // its server, and two tests' servers once shared such a file in the working directory.
        guard !path.contains("?") else {
            throw ServerError.cannotListen(
                "store \(options.store): a SQLite path has no \"?\" (a query such as ?schema= belongs to a postgres:// URL; is the server's URL missing?)")
        }
        return try SQLiteStore(path: path, groupCommit: options.groupCommit)
    }

    /// Expires what ran out while the server was down, then serves.
    public func start() throws {
        // A show the expiry left stale (a commit the store refused: a sale the previous process made
        // just before it died) is reloaded, and what its reload found due expired too, before the first
        // request is served (at most a second). Expiring once and reloading left the reloaded show's
        // due holds held until the next pass (a test read them 9 seats held after a crash).
        for _ in 0..<20 {
            let expired = inventory.expireDue()
            if !inventory.hasStaleShows && expired == 0 { break }
            if inventory.hasStaleShows {
                inventory.reloadStaleShows()
                if inventory.hasStaleShows { Thread.sleep(forTimeInterval: 0.05) }
            }
        }
        try http.start()
        let (store, logger) = (inventory.store, options.logger)
        logger.notice(
            "started",
            metadata: [
                "port": .stringConvertible(Int(http.port)), "shows": .stringConvertible(inventory.upcomingShowIDs.count),
                "threads": .stringConvertible(options.threads),
            ])
        // The background threads: each ends by itself within one round once `stop` is called.
        _ = [
            repeating("sk-expiry", every: 0.5) { [inventory] in inventory.expireDue() },
            // Waitlists: offers settled and made every half second, at once when a refund or a join wakes it.
            repeating("sk-waitlist", every: 0.5, wake: inventory.waitlistWake) { [inventory] in inventory.offerWaitlists() },
            repeating("sk-heartbeat", every: options.heartbeatSeconds) { [inventory] in inventory.heartbeat() },
            // Staff changed on another instance (a key revoked, a role changed) known here within 250 ms.
            repeating("sk-staff", every: 0.25) { [api] in
                do { try api.staff.refresh() } catch {
                    logger.warning("staff could not be read again", metadata: ["cause": .string(String(describing: error))])
                }
            },
            repeating("sk-webhooks", every: 1) { [webhooks] in webhooks.round() },
            // Money: refunds the providers have not taken yet sent again, payments whose hold ended settled.
            repeating("sk-money", every: 30) { [api] in api.settleMoney() },
            // The waiting rooms: other instances' decisions read, pages' life signs written, buyers let in.
            repeating("sk-queues", every: 1) { [api] in
                do { try api.tickQueues() } catch {
                    logger.warning("waiting rooms' tick failed", metadata: ["cause": .string(String(describing: error))])
                }
            },
            // Idempotency answers are kept for a day; the show's log with the show (its history is
            // the box office's record; clients' deltas and resumes come from the last 1,024 in memory).
            // A failed prune is tried again in a minute; said, so a store that keeps failing is seen.
            repeating("sk-pruner", every: 60) {
                do { try store.prune(idempotencyMilliseconds: 86_400_000) } catch {
                    logger.warning("prune failed", metadata: ["cause": .string(String(describing: error))])
                }
            },
        ]
        if let shared = inventory.sharing { startFollowers(shared) }
        // A shard's outage is one warning and its return one notice, whatever the requests meanwhile.
        guard let sharded = shards else { return }
        // Moves a crash or an outage left unsettled, venues missing on a shard, shows moved unheard.
        _ = repeating("sk-shards", every: 2) { sharded.round() }
        sharded.watcher.watch { shard, outage in
            if let outage {
                logger.warning(
                    "shard cannot be reached: its shows answer 503 until it returns", metadata: ["shard": .string(shard), "cause": .string(outage.cause)])
            } else {
                logger.notice("shard answers again", metadata: ["shard": .string(shard)])
            }
        }
        sharded.watcher.watchRepairs { logger.warning("shard move repaired", metadata: ["what": .string($0)]) }
    }

    /// With the shared store, a follower for each part not followed yet (`SharedStore.followedParts`:
    /// the database, or a shard each; a shard added while running gets its own once added).
    private func startFollowers(_ store: any SharedStore) {
        let parts = followed.withLock { names -> [any FollowedPart] in
            let new = store.followedParts().filter { !names.contains($0.partName) }
            names.formUnion(new.map(\.partName))
            return new
        }
        for part in parts { _ = follow(part) }
    }

    /// A part of the shared store followed: LISTEN for its commits (other instances', with their
    /// changes) and apply them; look at each of its shows when a second passes without one (a
    /// notification lost while the database restarted); reconnects by itself (probing a shard that is
    /// down every 250 ms). A part that stalls stalls only its own thread.
    private func follow(_ part: any FollowedPart) -> Thread {
        let (inventory, logger) = (self.inventory, options.logger)
        let name = part.partName.isEmpty ? "sk-follower" : "sk-follow-" + part.partName
        return NamedThread.start(name) { [weak self] in
            var listener: (any CommitListener)?
            // Whether the failure now is one already said (an outage is one warning, not four a second).
            var quiet = false
            while let self, !self.isStopped {
                do {
                    if listener == nil {
                        listener = try part.commitListener()
                        try inventory.followStore(in: part)
                    }
                    let payloads = try listener?.notifications(waiting: 1000) ?? []
                    // Quiet for a second: look at every show anyway (a notification lost in a reconnect).
                    if payloads.isEmpty { try inventory.followStore(in: part) } else { try inventory.follow(notifications: payloads, in: part) }
                    if quiet { logger.notice("following the shared store again", metadata: ["part": .string(part.partName)]) }
                    quiet = false
                } catch {
                    // The database restarting or unreachable: said once per outage, then retried every 250 ms.
                    if listener != nil || !quiet {
                        logger.warning(
                            "following the shared store failed; retrying",
                            metadata: ["part": .string(part.partName), "cause": .string(String(describing: error))])
                    }
                    (listener, quiet) = (nil, true)
                    Thread.sleep(forTimeInterval: 0.25)
                    continue
                }
            }
        }
    }

    private var isStopped: Bool { stopped.current }

    /// Graceful: background work stops, event streams close, in-flight requests finish.
    public func stop() {
        stopped.withLockWakingWaiters { $0 = true }
        // The writer first: it commits what is queued and so answers (resumes) every connection waiting
        // on a commit; libmicrohttpd must not be stopped with suspended connections. Changes asked for
        // after this point are refused with 503.
        inventory.stop()
        // Rate-limited answers still waiting are sent now, for the same reason.
        api.tarpit.stop()
        http.stop()
        options.logger.notice("stopped")
    }

    private func repeating(_ name: String, every seconds: Double, _ body: @escaping @Sendable () -> Void) -> Thread {
        NamedThread.start(name) { [weak self] in
            while let self {
                let done = self.stopped.wait(until: { $0 }, deadline: Date().addingTimeInterval(seconds)) { stopped, _ in stopped }
                if done { return }
                body()
            }
        }
    }

    /// `body` every `seconds`, or sooner when `wake` is signalled; ends within `seconds` of `stop`.
    private func repeating(_ name: String, every seconds: Double, wake: DispatchSemaphore, _ body: @escaping @Sendable () -> Void) -> Thread {
        NamedThread.start(name) { [weak self] in
            while let self {
                _ = wake.wait(timeout: .now() + seconds)
                if self.stopped.withLock({ $0 }) { return }
                body()
            }
        }
    }
}
