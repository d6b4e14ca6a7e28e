import Foundation
import Logging
import SeatDomain
import SeatJSON
import SeatMap
import SeatSecrets
import SeatStorage
import SeatHTTP
import SeatInventory
import SeatPayments
import SeatQueue
import SeatTickets
import SeatWebhooks
import SeatWire
import SharedState

/// The `v1` JSON API over the inventory: routing, the admin key, the rate limit, metrics.
public final class SeatAPI: Sendable {
    public let inventory: Inventory
    /// Who may act: the admin key and the store's staff (`StaffDirectory`).
    let staff: StaffDirectory
    /// Console sign-ins: the guard against guessing, sessions read lately, codes used.
    let signIn: SignInDesk
    let holdLimiter: RateLimiter
    /// Deltas spanning more than `cheapDeltaSpan` versions are a merge of that many events: 10 a second
    /// per client address (bursts of 20), so a client looping on old versions cannot take the CPU the
    /// buyers need (four such clients cost a quarter of the hold throughput before).
    let deltaLimiter = RateLimiter(rate: 10, burst: 20)
    static let cheapDeltaSpan: UInt64 = 64
    /// Cards tried per payment (`POST /v1/holds/{token}/card-setup`, each a customer and a SetupIntent
    /// at Stripe): 5 at once, then one each 5 s, so a hold cannot fill the merchant's Stripe account.
    let cardLimiter = RateLimiter(rate: 0.2, burst: 5)
    /// Rate-limited clients get their 429 after the wait it names (see `Tarpit`).
    let tarpit = Tarpit()
    let startedAt = Date()
    /// The picker's files; their security policy lets the card form's provider in (`StripeSettings.pageOrigins`).
    let site: WebSite
    /// Seat-map pictures, drawn once per version (see `PictureCache`).
    let pictures = PictureCache()
    /// Each venue's JSON encodings and picture, made once.
    let venueViews = VenueViews()
    let seatPricesCache = SeatPricesCache()
    /// The transport's connection counters, shown in /metrics (set by the app once the server exists).
    /// Lock: `connectionGauges` (set once by the app, read by `/metrics`).
    let connectionGauges = Locked<@Sendable () -> [(String, String, Double)]>({ [] })
    /// Whether the web picker's files were found (`/` answers 503 otherwise).
    public var hasWebPage: Bool { site.root != nil }

    /// A line a request and every failure with its cause (see `RequestLog`).
    let requestLog: RequestLog
    /// The shows' waiting rooms (nil: a store that keeps none).
    public let queues: QueueDesk?
    /// Signs each show's tickets (`TicketIssuer`: its keys drawn from one secret).
    let tickets: TicketIssuer
    /// Wrong guesses at capability routes (unknown hold tokens, order codes, entries, tickets), per
    /// client address: 30 at once, then 2 a second. A buyer mistypes an order code a few times; a
    /// guesser sending 900 a second gets 429s, each after its wait (see `guarded`).
    let guessLimiter = RateLimiter(rate: 2, burst: 30)
    /// Store reads for entries not known here (see `placeOf`).
    let unknownEntryLimiter = RateLimiter(rate: 20, burst: 20)
    /// Open place streams (`GET /v1/queue/{entry}/events`). Lock: `queueStreams` (a leaf).
    let queueStreams = Locked([QueueStreamEntry]())

    /// The venues' clock in minutes east of UTC: shows' starts are kept on it (nil: as written).
    let localOffsetMinutes: Int?
    /// The deployment's payment providers (`--payments`): with any online one, a buyer pays before the
    /// seats are sold.
    let payments: PaymentSettings
    /// The online providers of `payments`, ready to call, by name.
    let providers: [String: any PaymentProvider]
    /// How long a checkout keeps the hold's seats for its payment (`--payment-minutes`, 1 to 120).
    let paymentMinutes: Int
    /// Seals webhook endpoints' secrets for the store (its key derives from the admin key).
    let webhookBox: SecretBox

    /// `holdsPerSecond` per client address (0: no limit), bursts of twice that. `logger`: where request
    /// and failure lines go (the default says nothing).
    public init(
        inventory: Inventory, operators: OperatorDirectory, tickets: TicketIssuer, holdsPerSecond: Double = 20, logger: Logger = RequestLog.silent,
        queues: QueueDesk? = nil, localOffsetMinutes: Int? = nil, payments: PaymentSettings = PaymentSettings(),
        paymentMinutes: Int = 15, webhookBox: SecretBox = SecretBox(serverKey: UUID().uuidString + UUID().uuidString),
        sessionSeconds: Double = 28_800
    ) {
        signIn = SignInDesk(sessionSeconds: sessionSeconds)
        self.paymentMinutes = paymentMinutes
        self.webhookBox = webhookBox
        self.localOffsetMinutes = localOffsetMinutes
        self.payments = payments
        self.providers = payments.providers()
        let cardForm = payments.stripe.flatMap { $0.publishableKey == nil ? nil : $0.pageOrigins }
        site = WebSite(root: WebSite.locate(), cardOrigins: cardForm ?? ([], [], []))
        self.inventory = inventory
        self.tickets = tickets
        self.queues = queues
        self.staff = StaffDirectory(fixed: operators, store: inventory.store.staff)
        requestLog = RequestLog(logger: logger, metrics: inventory.metrics)
        holdLimiter = RateLimiter(rate: holdsPerSecond, burst: max(holdsPerSecond * 2, 1))
        // The operators file's operators go into the store once (SeatServerApp imports again, throwing, so
        // a file that conflicts with the store stops the start); here so an API made alone knows them too.
        do { _ = try staff.importFile(now: Self.now()) } catch {
            logger.error("the operators could not be read from the store", metadata: ["cause": .string(String(describing: error))])
        }
    }

    /// Answers one request; never throws, never crashes on input.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        var trace = RequestTrace(request, logging: requestLog.wantsRequests, caller: { caller($0)?.name })
        let response: HTTPResponse
        do {
            response = try dispatch(request, trace: &trace)
        } catch {
            let problem = Problem.from(error)
            if problem.status >= 500 { requestLog.failed(trace, status: problem.status, cause: error) }
            response = problem.response
        }
        // A deferred answer is counted and logged when it is complete.
        if response.deferred == nil { requestLog.finished(trace, status: response.status) }
        return response
    }

    /// The answer once `ticket`'s change is committed (at once when there is nothing to commit); no
    /// thread waits meanwhile.
    func afterCommit(_ ticket: CommitTicket?, trace: RequestTrace, _ render: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        guard let ticket else { return render() }
        let deferred = DeferredResponse()
        let (metrics, log) = (inventory.metrics, requestLog)
        ticket.whenDone { error in
            // Rendered on the connection's thread once it is resumed, not on the writer's.
            deferred.complete {
                // A seat taken by a change the database committed first (another instance's): a conflict too.
                if let error, StoreError(error).isConflict { metrics.count("hold_conflicts") }
                let response = error.map { Inventory.refusal(forCommitError: $0).problem.response } ?? render()
                if let error, response.status >= 500 { log.failed(trace, status: response.status, cause: error) }
                log.finished(trace, status: response.status)
                return response
            }
        }
        return HTTPResponse(status: 0, deferred: deferred)
    }

    /// A 429 for `client`, sent after `wait` seconds (the wait it names), counted when sent.
    func rateLimited(_ detail: String, wait: Double, trace: RequestTrace) -> HTTPResponse {
        inventory.metrics.count("rate_limited")
        let response = Problem(429, "rate-limited", "Too many requests", detail: detail, headers: [("Retry-After", String(Int(wait.rounded(.up))))]).response
        let log = requestLog
        return tarpit.answer(after: wait) {
            log.finished(trace, status: 429)
            return response
        }
    }

    /// A request's body limit, decided on its headers: `venues` bytes for a manager's venue upload,
    /// `plain` for everything else (so nobody without a manager's key can make the server hold 64 MiB).
    public func bodyLimit(method: String, path: String, header: (String) -> String?, plain: Int, venues: Int) -> Int {
        guard method == "POST", path.split(separator: "/") == ["v1", "venues"] else { return plain }
        return caller(header)?.role.allows(.manager) == true ? venues : plain
    }

    /// The operators' names and roles, for the banner (never their keys).
    public var operatorNames: [String] { staff.operatorNames }

    /// The operator whose key the request carries (`X-Admin-Key` or `Authorization: Bearer`), else
    /// whose console session its cookie is, if any.
    func caller(_ header: (String) -> String?) -> Operator? {
        let given = header("x-admin-key") ?? header("authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        if let given { return given.isEmpty ? nil : staff.identify(key: given) }
        return sessionCaller(header)?.who
    }

    /// The operator signed in by the request's session cookie, and the session (nil without one, or
    /// when it ended, or its operator is disabled or removed).
    func sessionCaller(_ header: (String) -> String?) -> (who: Operator, session: StaffSession)? {
        guard let token = SignInDesk.token(cookie: header("cookie")), let store = staff.store,
            let session = signIn.session(token: token, store: store, now: Self.now()), let who = staff.operatorNamed(session.name)
        else { return nil }
        return (who, session)
    }

    /// `GET /v1/operators/me`: who the key is, and what their role may do (the console shows that and
    /// nothing else); 401 without a known key.
    func signedIn(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let powers: [(String, OperatorRole)] = [
            ("scan", .door), ("block", .boxoffice), ("keep", .boxoffice), ("sell", .boxoffice), ("refund", .boxoffice), ("reports", .boxoffice),
            ("prices", .manager), ("shows", .manager), ("venues", .manager), ("staff", .manager),
        ]
        return .json(
            200,
            OperatorIdentity(
                name: who.name, role: who.role.rawValue, may: powers.filter { who.role.allows($0.1) }.map(\.0), cinemas: CinemaScope(who.cinemas)))
    }

    /// The operator acting, when their role may do `action`: 401 without a known key, 403 naming the
    /// operator, their role and the one needed.
    @discardableResult
    func requireOperator(_ r: HTTPRequest, _ role: OperatorRole, to action: String) throws -> Operator {
        guard let who = caller({ r.header($0) }) else {
            throw Problem(
                401, "admin-key-required", "Operator key required",
                detail: "this operation needs an operator's key (X-Admin-Key or Authorization: Bearer)", headers: [("WWW-Authenticate", "Bearer")])
        }
        guard who.role.allows(role) else {
            throw Problem(
                403, "operator-role-forbidden", "Not allowed for this role",
                detail: "\(who.name) (\(who.role.rawValue)) cannot \(action): \(role.rawValue)s only")
        }
        return who
    }

    /// The request's `Idempotency-Key` kept in `scope`, with a fingerprint of what it asks (its scope and
    /// body); nil without the header, a 400 when it is malformed.
    static func idempotencyClaim(_ r: HTTPRequest, scope: String) throws -> IdempotencyClaim? {
        guard let key = r.header("idempotency-key") else { return nil }
        if let problem = Secrets.idempotencyKeyProblem(key) { throw Problem(400, "bad-idempotency-key", "Bad Idempotency-Key", detail: problem) }
        let fingerprint = String(FNV1a.hash(r.body.withUnsafeBufferPointer { FNV1a.hash($0, into: FNV1a.hash(scope)) }, into: 0), radix: 16)
        return IdempotencyClaim(scope: scope, key: key, fingerprint: fingerprint)
    }
}
