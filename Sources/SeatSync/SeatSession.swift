import Foundation
import SeatJSON
import SharedState
import SeatMap
import SeatWire

/// Why the session's last operation did not do what the buyer asked, ready to show.
public struct SessionMessage: Sendable, Hashable {
    public enum Kind: String, Sendable { case taken, rule, expired, failed }
    public var kind: Kind
    public var seats: [String]
    public var chinese: String
    public var english: String
    /// Which message of the session this is (1, 2, …): the same message seen in two states is one.
    public internal(set) var sequence: UInt64 = 0
}

/// What a UI draws for one buyer: the server's truth, this buyer's hold, what is still in flight.
public struct SessionState: Sendable {
    public var layout: VenueLayout
    /// The show's availability as the server last said (this buyer's held seats show as held).
    public var server: SeatAvailability
    public var hold: HoldResource?
    /// Seats shown as selected before the server has answered.
    public var pendingAdds: Set<SeatIndex>
    public var pendingRemovals: Set<SeatIndex>
    /// The last thing the session had to say, to show until the next operation. It stays in every state
    /// after it: a binding that announced it from here said it again on each live update. Announce
    /// from `SeatSession.messages()` instead, where each arrives once.
    public var message: SessionMessage?
    /// True while the picture is the one the cache kept (the map opened offline): draw it as not
    /// current; the first answer from the server makes it false.
    public var isStale = false
    /// The show as the server last described it (`GET /v1/shows/{id}`): its details, prices, whether
    /// it is on sale. A manager's change (new prices, sales paused, cancelled) arrives live.
    public var show: JSONObject = JSONObject(keys: [], values: [])

    /// Today's prices (nil if the show's description has none a client can read).
    public var prices: PriceTable? { show["prices"].flatMap { try? PriceTable(jsonValue: $0) } }
    /// Whether the show takes holds now (false once it started, while sales are paused, after a cancellation).
    public var isOnSale: Bool { show["onSale"] != .bool(false) }

    /// The buyer's selection as it should look now: held seats plus optimistic adds, minus removals.
    public var selection: Set<SeatIndex> {
        var s = Set((hold?.seats ?? []).compactMap { layout.index(ofSeatID: $0) })
        s.formUnion(pendingAdds)
        s.subtract(pendingRemovals)
        return s
    }
}

/// One buyer's session for one show: taps show at once (optimistic), the server decides, and the
/// picture is reconciled with what it says: a refused seat goes back to its true status (sold stays
/// sold) with a message naming it. Operations run one at a time, in the order they were asked for.
public actor SeatSession {
    let api: SeatAPIClient
    public let showID: String
    let policy: SelectionPolicy
    public internal(set) var state: SessionState
    private var continuations: [UUID: AsyncStream<SessionState>.Continuation] = [:]
    private var messageContinuations: [UUID: AsyncStream<SessionMessage>.Continuation] = [:]
    /// Messages said so far (the last one's `sequence`).
    private var said: UInt64 = 0
    /// The hold token the cache has for this show (kept so a relaunched app finds its hold).
    private var savedToken: String?
    /// A token the cache had when the session opened offline: asked for on the next `resume`.
    private var pendingToken: String?
    private var tail: Task<Void, Never>?
    var expiryTask: Task<Void, Never>?
    /// The hold a checkout is paying for, until `paymentResult` says how it ended (a resume may drop
    /// `state.hold` first, when the sale happened while the app slept).
    var payingHold: HoldResource?
    private var live: EventSource?
    private var liveConsumer: Task<Void, Never>?
    /// Whether the live event stream is connected (false while it reconnects).
    public private(set) var isLive = false

    /// Loads the show, its layout (cached by ETag) and availability. Offline, with an `api.cache`, it
    /// opens with what the cache kept, marked stale (`SessionState.isStale`), and catches up on the next
    /// `refresh` or `resume`. A hold this app made before it was closed (its token kept in the cache) is
    /// found again: live, it is the session's hold; gone, it is forgotten.
    public init(api: SeatAPIClient, show: String) async throws(APIError) {
        self.api = api
        showID = show
        var stale = false
        let summary: JSONObject
        do { summary = try await api.show(show) } catch {
            guard case .transport = error, let kept = api.keptShow(show) else { throw error }
            summary = kept
            stale = true
        }
        guard let venue = summary["venueId"]?.stringValue else { throw .unexpected(status: 200, detail: "show without venueId") }
        policy = (summary["policy"].flatMap { try? SelectionPolicy(jsonValue: $0) }) ?? .standard
        let layout = try await api.layout(venue: venue)
        var availability: SeatAvailability
        do throws(APIError) {
            if stale { throw APIError.transport("offline") }
            availability = try await api.availability(show: show, layout: layout)
            api.keep(availability, show: show)
        } catch {
            guard case .transport = error, let kept = api.keptAvailability(show: show, layout: layout) else { throw error }
            availability = kept
            stale = true
        }
        state = SessionState(
            layout: layout, server: availability, hold: nil, pendingAdds: [], pendingRemovals: [], message: nil, isStale: stale, show: summary)
        let token = api.cache?.data(for: CacheKey.hold(show)).map { String(decoding: $0, as: UTF8.self) }
        savedToken = token
        if let token { if stale { pendingToken = token } else { await adopt(token) } }
    }

    /// Takes up the hold `token` names if it is still live; forgets the token otherwise.
    func adopt(_ token: String) async {
        do throws(APIError) {
            let hold = try await api.hold(token: token)
            if hold.state.isLive {
                state.hold = hold
                scheduleExpiry(hold)
            }
        } catch {
            if case .transport = error { pendingToken = token; return }
        }
        pendingToken = nil
        keepHoldToken()
    }

    /// Keeps the live hold's token in the cache (or forgets it once there is none).
    private func keepHoldToken() {
        let token = state.hold?.token
        guard token != savedToken else { return }
        savedToken = token
        api.cache?.store(token.map { Data($0.utf8) }, for: CacheKey.hold(showID))
    }

    /// Every state from now on (starting with the current one).
    public func states() -> AsyncStream<SessionState> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<SessionState>.makeStream(bufferingPolicy: .bufferingNewest(16))
        continuation.yield(state)
        continuations[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.drop(id) } }
        return stream
    }

    /// Every message said from now on, each once (what a screen reader should announce).
    public func messages() -> AsyncStream<SessionMessage> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<SessionMessage>.makeStream(bufferingPolicy: .bufferingNewest(16))
        messageContinuations[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.drop(id) } }
        return stream
    }

    private func drop(_ id: UUID) {
        continuations[id] = nil
        messageContinuations[id] = nil
    }
    private func emit() {
        keepHoldToken()
        for c in continuations.values { c.yield(state) }
    }

    /// Puts `message` in the state (to show) and sends it once to every `messages()` stream (to announce).
    func say(_ message: SessionMessage) {
        said += 1
        var m = message
        m.sequence = said
        state.message = m
        for c in messageContinuations.values { c.yield(m) }
    }

    /// Runs `body` after every operation asked for before it (a quick second tap never races the first).
    @discardableResult
    func enqueue(_ body: @escaping @Sendable (isolated SeatSession) async -> Void) -> Task<Void, Never> {
        let previous = tail
        let task = Task {
            await previous?.value; await body(self)
        }
        tail = task
        return task
    }

    /// Waits for every queued operation (for tests and for "confirm after the last tap").
    public func settle() async { await tail?.value }

    // MARK: Operations

    /// Selects one seat (a tap).
    public func select(_ seatID: String) { select([seatID]) }

    /// Selects seats (a tap, a drag, best available): checked against the show's rules at once, shown
    /// as selected at once, then held on the server in one atomic request.
    public func select(_ seatIDs: [String]) {
        let layout = state.layout
        let seats = seatIDs.compactMap { layout.index(ofSeatID: $0) }
        let proposed = Array(state.selection.union(seats))
        let own = Set((state.hold?.seats ?? []).compactMap { layout.index(ofSeatID: $0) })
        let violations = policy.violations(for: proposed, in: layout, availability: state.server, context: SelectionContext(ownHeld: own))
        if let v = violations.first {
            say(
                SessionMessage(
                    kind: v.rule == .notAvailable ? .taken : .rule, seats: v.seats.map { layout.seatID($0) },
                    chinese: v.chinese, english: v.english))
            emit()
            return
        }
        state.pendingAdds.formUnion(seats)
        state.message = nil
        emit()
        let key = UUID().uuidString
        enqueue { session in await session.sendAdd(seatIDs, idempotencyKey: key) }
    }

    /// Deselects seats of this buyer's hold.
    public func deselect(_ seatIDs: [String]) {
        let seats = seatIDs.compactMap { state.layout.index(ofSeatID: $0) }
        state.pendingRemovals.formUnion(seats)
        emit()
        enqueue { session in await session.sendRemove(seatIDs) }
    }

    public func releaseAll() {
        enqueue { session in
            guard let hold = session.state.hold else { return }
            do throws(APIError) { try await session.api.releaseHold(token: hold.token) } catch { session.fail(error, seats: hold.seats) }
            session.state.hold = nil
            session.expiryTask?.cancel()
            await session.refreshNow()
        }
    }

    /// Buys the held seats; returns the confirmed hold, or nil with `state.message` saying why.
    public func confirm(orderRef: String) async -> HoldResource? {
        let key = UUID().uuidString
        let result = Locked<HoldResource?>(nil)
        await enqueue { session in
            guard let hold = session.state.hold else { return }
            do throws(APIError) {
                let sold = try await session.retrying { () async throws(APIError) -> HoldResource in
                    try await session.api.confirmHold(token: hold.token, orderRef: orderRef, idempotencyKey: key)
                }
                session.state.hold = nil
                session.expiryTask?.cancel()
                result.withLock { $0 = sold }
                await session.refreshNow()
            } catch {
                session.fail(error, seats: hold.seats)
                await session.refreshNow()
            }
        }.value
        return result.current
    }

    /// Makes the picture true again (after the app returns to the foreground, or the network is back):
    /// the delta since the known version, or the whole availability when the server no longer has it.
    public func refresh() { enqueue { session in await session.refreshNow() } }

    /// Back from the background: the hold asked for by its token, then the picture by delta or
    /// snapshot. A hold that expired, was released or was bought (on another device) while the app
    /// slept is dropped with a message, also when someone else has held its seats since, which the
    /// picture alone cannot tell (the seats still read held).
    public func resume() { enqueue { session in await session.resumeNow() } }

    func resumeNow() async {
        if state.hold == nil, let token = pendingToken { await adopt(token) }
        if let hold = state.hold {
            do throws(APIError) {
                let fresh = try await api.hold(token: hold.token)
                state.hold = fresh
                scheduleExpiry(fresh)
            } catch  where ["hold-expired", "hold-released", "hold-confirmed", "not-found"].contains(error.slug ?? "") {
                state.hold = nil
                expiryTask?.cancel()
                say(SessionMessage(kind: .expired, seats: hold.seats, chinese: "选座已超时，座位已释放", english: "Your hold expired and the seats were released."))
            } catch {
                // Offline: keep the hold; the next resume or refresh asks again.
            }
        }
        await refreshNow()
    }

    // MARK: Live updates

    /// Follows the show's event stream: other buyers' changes are applied by version; a gap means a
    /// refresh; the stream reconnects by itself (with backoff and `Last-Event-ID`).
    public func startLiveUpdates() {
        guard live == nil else { return }
        let (events, continuation) = AsyncStream<ServerEvent>.makeStream()
        let (states, stateContinuation) = AsyncStream<Bool>.makeStream()
        let url = api.baseURL.appendingPathComponent("v1/shows/\(showID)/events")
        let source = EventSource(
            url: url, lastEventID: String(state.server.version),
            onState: { stateContinuation.yield($0) }, onEvent: { continuation.yield($0) })
        live = source
        // One consumer, so events are applied in the order they arrived.
        liveConsumer = Task { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await e in events { await self?.receive(e) } }
                group.addTask { for await up in states { await self?.setLive(up) } }
            }
        }
        source.start()
    }

    public func stopLiveUpdates() {
        live?.stop()
        live = nil
        liveConsumer?.cancel()
        liveConsumer = nil
        isLive = false
    }

    private func setLive(_ up: Bool) {
        isLive = up
        // Back online: whatever was missed while the stream was down is replayed or refreshed.
        emit()
    }

    func receive(_ e: ServerEvent) async {
        switch e.event {
        case "seats":
            guard let delta = try? AvailabilityDelta(encoded: e.data) else { return }
            if delta.fromVersion == state.server.version {
                try? state.server.apply(delta)
                checkHoldStillHeld()
                emit()
            } else if delta.toVersion > state.server.version {
                await refreshNow()  // a gap: fetch what was missed
            }
        case "show":
            // A manager changed the show: prices for new holds, the sales switch, its details.
            if let fresh = (try? JSONParser.parse(Array(e.data.utf8)))?.objectValue {
                state.show = fresh
                api.cache?.store(Data(e.data.utf8), for: CacheKey.show(showID))
                emit()
            }
        case "snapshot", "reset":
            if let fresh = try? SeatAvailability(encoded: e.data, layout: state.layout), fresh.version >= state.server.version {
                state.server = fresh
                state.isStale = false
                checkHoldStillHeld()
                emit()
            }
        default:
            break
        }
    }

    // MARK: Internals (run one at a time by `enqueue`)

    func sendAdd(_ seatIDs: [String], idempotencyKey: String) async {
        let api = self.api, show = showID
        do throws(APIError) {
            var updated: HoldResource? = nil
            if let hold = state.hold {
                do throws(APIError) {
                    updated = try await retrying { () async throws(APIError) -> HoldResource in
                        try await api.modifyHold(token: hold.token, ModifyHoldRequest(add: seatIDs))
                    }
                } catch  where error.slug == "hold-expired" || error.slug == "hold-released" {
                    // The old hold is gone: these seats start a new one.
                    state.hold = nil
                }
            }
            if updated == nil {
                updated = try await retrying { () async throws(APIError) -> HoldResource in
                    try await api.createHold(show: show, HoldRequest(seats: seatIDs), idempotencyKey: idempotencyKey)
                }
            }
            guard let updated else { return }
            state.hold = updated
            scheduleExpiry(updated)
        } catch {
            fail(error, seats: seatIDs)
        }
        state.pendingAdds.subtract(seatIDs.compactMap { state.layout.index(ofSeatID: $0) })
        await refreshNow()
    }

    func sendRemove(_ seatIDs: [String]) async {
        if let hold = state.hold {
            do throws(APIError) {
                let updated = try await api.modifyHold(token: hold.token, ModifyHoldRequest(remove: seatIDs))
                state.hold = updated.state == .active ? updated : nil
            } catch {
                fail(error, seats: seatIDs)
            }
        }
        state.pendingRemovals.subtract(seatIDs.compactMap { state.layout.index(ofSeatID: $0) })
        await refreshNow()
    }

    func refreshNow() async {
        do throws(APIError) {
            let delta = try await api.delta(show: showID, since: state.server.version)
            if delta.toVersion > state.server.version { try? state.server.apply(delta) }
            state.isStale = false
            api.keep(state.server, show: showID)
        } catch  where error.slug == "delta-gone" || error.slug == "version-ahead" {
            // Too far back for a delta, or a picture from another store (the cache of another server): the whole state.
            if let fresh = try? await api.availability(show: showID, layout: state.layout) {
                state.server = fresh
                state.isStale = false
                api.keep(fresh, show: showID)
            }
        } catch {
            // Offline: keep the picture; the next refresh repairs it.
        }
        checkHoldStillHeld()
        emit()
    }

    /// The server expired (or someone released) this buyer's hold: its seats are no longer held.
    func checkHoldStillHeld() {
        guard let hold = state.hold, state.server.version >= hold.version else { return }
        if hold.seats.contains(where: { id in state.layout.index(ofSeatID: id).map { state.server[$0] != .held } ?? true }) {
            state.hold = nil
            expiryTask?.cancel()
            say(SessionMessage(kind: .expired, seats: hold.seats, chinese: "选座已超时，座位已释放", english: "Your hold expired and the seats were released."))
        }
    }

    /// Transport failures are retried (the idempotency key makes a retry safe); answers are not.
    func retrying<T: Sendable>(_ body: @Sendable () async throws(APIError) -> T) async throws(APIError) -> T {
        var attempt = 0
        while true {
            do { return try await body() } catch {
                guard case .transport = error, attempt < 2 else { throw error }
                attempt += 1
                try? await Task.sleep(nanoseconds: UInt64(100_000_000 << attempt))
            }
        }
    }

    func fail(_ error: APIError, seats: [String]) {
        switch error {
        case .problem(let p) where !p.conflicts.isEmpty:
            let names = p.conflicts.map(\.seat)
            say(
                SessionMessage(
                    kind: .taken, seats: names, chinese: "座位已被他人选走：" + names.joined(separator: "、"),
                    english: "Taken by someone else: " + names.joined(separator: ", ")))
        case .problem(let p) where !p.violations.isEmpty:
            let v = p.violations[0]
            say(SessionMessage(kind: .rule, seats: v.seats, chinese: v.chinese, english: v.english))
        case .problem(let p) where p.slug == "area-full":
            // "floor: 3 of 100 places free, 4 asked": the area's own words, with its name.
            let area = p.detail.split(separator: ":").first.map(String.init) ?? ""
            let name = state.layout.area(id: area).map { $0.area.name } ?? area
            say(
                SessionMessage(
                    kind: .taken, seats: [], chinese: "\(localizedName(name, .chinese))余位不足（\(p.detail)）",
                    english: "Not so many places left in \(localizedName(name, .english)) (\(p.detail))."))
        case .problem(let p) where p.slug == "hold-expired":
            state.hold = nil
            say(SessionMessage(kind: .expired, seats: seats, chinese: "选座已超时，座位已释放", english: "Your hold expired and the seats were released."))
        default:
            say(SessionMessage(kind: .failed, seats: seats, chinese: "操作失败，请重试", english: "That did not work: \(error)"))
        }
    }

    /// At expiry the selection is dropped and the buyer told.
    func scheduleExpiry(_ hold: HoldResource) {
        expiryTask?.cancel()
        guard let at = Self.date(hold.expiresAt) else { return }
        let token = hold.token
        expiryTask = Task { [weak self] in
            let wait = max(at.timeIntervalSinceNow, 0)
            try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
            guard !Task.isCancelled else { return }
            await self?.expired(token)
        }
    }

    func expired(_ token: String) async {
        guard state.hold?.token == token else { return }
        state.hold = nil
        say(SessionMessage(kind: .expired, seats: [], chinese: "选座已超时，座位已释放", english: "Your hold expired and the seats were released."))
        await refreshNow()
    }

    /// The time left on the hold, for a countdown.
    public var secondsLeft: Double? {
        guard let hold = state.hold else { return nil }
        return Self.date(hold.expiresAt).map { max($0.timeIntervalSinceNow, 0) }
    }

    /// The API's timestamps: RFC 3339 with milliseconds.
    static func date(_ text: String) -> Date? { Timestamp.date(text) }
}
