import SeatSecrets
import Foundation
import SeatHTTP
import SeatInventory
import SeatJSON
import SeatQueue
import SeatWire

/// The on-sale waiting room (docs/API.md, Waiting room): a manager sets it up, buyers join and ask for
/// their place, and while it is on a hold needs the admission it gives.
extension SeatAPI {
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    func desk() throws -> QueueDesk {
        guard let queues else { throw Problem(503, "queue-unavailable", "No waiting rooms here", detail: "this server's store keeps no waiting rooms") }
        return queues
    }

    /// `PUT /v1/shows/{id}/queue` (a manager): sets the room up or changes it.
    func putQueue(_ show: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator) throws -> HTTPResponse {
        try RequestBody.nonEmpty(r)
        let body: QueueSettingsRequest
        do { body = try QueueSettingsRequest(json: r.body) } catch { throw RequestBody.problem(error) }
        let summary = try openShow(show)
        let opensAt = Timestamp.milliseconds(body.opensAt)!
        if let starts = Timestamp.milliseconds(summary.record.startsAt), opensAt >= starts {
            throw Refusal.invalid(path: "opensAt", "the sale must open before the show starts (\(summary.record.startsAt)), got \(body.opensAt)").problem
        }
        let drawAt = body.drawAt.flatMap(Timestamp.milliseconds)
        if let drawAt, drawAt <= Self.now() {
            throw Refusal.invalid(path: "drawAt", "the draw must be in the future, got \(body.drawAt!)").problem
        }
        let settings = QueueSettings(
            opensAt: opensAt, admitPerMinute: body.admitPerMinute, earlyMinutes: body.earlyMinutes, admissionMinutes: body.admissionMinutes,
            maxEntriesPerAddress: body.maxEntriesPerAddress, maxEntriesPerNetwork: body.maxEntriesPerNetwork, maxJoinsPerSecond: body.maxJoinsPerSecond,
            proofOfWorkBits: body.proofOfWorkBits, drawAt: drawAt, drawWinners: body.drawWinners,
            lanes: body.lanes.map { QueueLane(name: $0.name, share: $0.share) })
        let room = try queueCall { try desk().configure(show: show, settings: settings, now: Self.now()) }
        var what =
            "opens \(body.opensAt), \(body.admitPerMinute) a minute, early \(body.earlyMinutes) min, admission \(body.admissionMinutes) min, "
            + "\(body.maxEntriesPerAddress) an address, \(body.maxEntriesPerNetwork) a network, \(body.maxJoinsPerSecond) arrivals a second"
        if body.proofOfWorkBits > 0 { what += ", proof of work \(body.proofOfWorkBits) bits" }
        if let at = body.drawAt { what += ", draw of \(body.drawWinners) at \(at)" }
        if !body.lanes.isEmpty { what += ", lanes " + body.lanes.map { "\($0.name) \($0.share) %" }.joined(separator: ", ") }
        let ticket = try inventory.beginLogAct(show: show, action: "queue", what: what, by: who.name)
        return afterCommit(ticket, trace: trace) { .json(200, Self.queueResource(room)) }
    }

    /// `GET /v1/shows/{id}/queue` (an operator): length, admitted, the rate now, the wait at the back.
    func getQueue(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        // A room set up on another instance a moment ago is read from the store (it was a 404 until this
        // instance's next tick).
        let desk = try desk()
        if !desk.knows(show: show) { _ = try desk.load(show: show, now: Self.now()) }
        return .json(200, Self.queueResource(try queueCall { try desk.summary(show: show, now: Self.now()) }))
    }

    /// `DELETE /v1/shows/{id}/queue` (a manager): the room off, everyone waiting let in at once.
    func deleteQueue(_ show: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator) throws -> HTTPResponse {
        let room = try queueCall { try desk().switchOff(show: show, now: Self.now()) }
        let ticket = try inventory.beginLogAct(show: show, action: "queue-off", what: "waiting room off: \(room.length) let in", by: who.name)
        return afterCommit(ticket, trace: trace) { .json(200, Self.queueResource(room)) }
    }

    /// `POST /v1/shows/{id}/queue` (a buyer): a place in the line. The body (optional) brings the proof
    /// of work the room asks and, on a real-name show, the buyer's document.
    func joinQueue(_ show: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        _ = try openShow(show)
        let desk = try desk()
        let now = Self.now()
        // Not known here: a room set up on another instance this second is read from the store, at most 20
        // times a second in all (pages of shows without a room cost no store reads beyond that).
        if !desk.knows(show: show) {
            guard unknownEntryLimiter.check("rooms") == nil, try desk.load(show: show, now: now) else {
                return try queueCall { throw QueueError.noQueue(show) }
            }
        }
        let body: QueueJoinRequest
        do { body = r.body.isEmpty ? QueueJoinRequest() : try QueueJoinRequest(json: r.body) } catch { throw RequestBody.problem(error) }
        // The proof first: one HMAC and one hash, before anything costs more.
        let proof = try queueCall { try desk.checkProof(show: show, challenge: body.challenge, solution: body.solution, now: now) }
        let identity = try joinIdentity(show, body)
        let lane = try body.lanePass.map { pass in try queueCall { try desk.checkPass(show: show, pass: pass) } }
        // Decided with the joins that arrive meanwhile; the connection waits suspended, not a thread.
        let deferred = DeferredResponse()
        let log = requestLog
        desk.join(show: show, address: r.clientAddress, now: now, identity: identity, proof: proof, lane: lane) { result in
            deferred.complete {
                let response: HTTPResponse
                do {
                    let (entry, place) = try Self.queueCall { try result.get() }
                    var body = Self.queuePlace(place)
                    body.entry = entry
                    response = .json(201, body, headers: [("Location", "/v1/queue/\(entry)"), ("Cache-Control", "no-store")])
                } catch {
                    let problem = Problem.from(error)
                    if problem.status >= 500 { log.failed(trace, status: problem.status, cause: error) }
                    response = problem.response
                }
                log.finished(trace, status: response.status)
                return response
            }
        }
        return HTTPResponse(status: 0, deferred: deferred)
    }

    /// The keyed hash of the joining buyer's document: required on a real-name show, refused on another.
    func joinIdentity(_ show: String, _ body: QueueJoinRequest) throws -> String? {
        guard inventory.sellsByRealName(show: show) else {
            if body.idNumber != nil {
                throw Refusal.invalid(path: "idNumber", "show \(show) does not sell by real name: join without a document").problem
            }
            return nil
        }
        guard let idType = body.idType, let idNumber = body.idNumber else {
            throw Problem(
                422, "identity-required", "Document required",
                detail: "show \(show) sells by real name: join with your document (idType, idNumber); one place in the line a document")
        }
        do { return try inventory.queueIdentity(show: show, idType: idType, idNumber: idNumber) } catch { throw error.problem }
    }

    /// `POST /v1/shows/{id}/queue/lanes/{lane}/passes` (a manager): passes into a priority lane to hand out.
    func lanePasses(_ show: String, lane: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator) throws -> HTTPResponse {
        let body = try RequestBody.decode(r, QueueLanePassesRequest.init(json:))
        let desk = try desk()
        if !desk.knows(show: show) { _ = try desk.load(show: show, now: Self.now()) }
        let passes = try queueCall { try desk.passes(show: show, lane: lane, count: body.count) }
        let ticket = try inventory.beginLogAct(show: show, action: "queue-passes", what: "\(body.count) passes into lane \(lane)", by: who.name)
        return afterCommit(ticket, trace: trace) { .json(201, QueueLanePasses(lane: lane, passes: passes), headers: [("Cache-Control", "no-store")]) }
    }

    /// `GET /v1/shows/{id}/queue/challenge`: a proof-of-work challenge at the bits the room asks now.
    func queueChallenge(_ show: String, _ r: HTTPRequest) throws -> HTTPResponse {
        _ = try openShow(show)
        let desk = try desk(), now = Self.now()
        if !desk.knows(show: show) {
            guard unknownEntryLimiter.check("rooms") == nil, try desk.load(show: show, now: now) else {
                return try queueCall { throw QueueError.noQueue(show) }
            }
        }
        let (challenge, token) = try queueCall { try desk.challenge(show: show, now: now) }
        return .json(
            200, QueueChallengeResource(challenge: token, bits: challenge.bits, expiresAt: Render.iso(challenge.expiresAt)),
            headers: [("Cache-Control", "no-store")])
    }

    /// `GET /v1/shows/{id}/queue/draw`: the shuffle or the draw, for anyone to check.
    func queueDraw(_ show: String) throws -> HTTPResponse {
        let desk = try desk()
        if !desk.knows(show: show) { _ = try desk.load(show: show, now: Self.now()) }
        let s = try queueCall { try desk.summary(show: show, now: Self.now()) }
        return .json(
            200,
            QueueDrawResource(
                showID: show, seedCommitment: s.seedCommitment, seed: s.seed, drawnAt: s.openedAt.map(Render.iso), order: s.shuffleOrder ?? [],
                winners: s.settings.drawAt != nil && s.openedAt != nil ? min(s.settings.drawWinners, s.shuffleOrder?.count ?? 0) : nil))
    }

    /// `GET /v1/queue/{entry}[?after=REVISION]`: the place now, from memory (at most a second behind the
    /// other instances); never older than the revision the page was last told (`after`, caught up first).
    func queuePlace(_ entry: String, _ r: HTTPRequest) throws -> HTTPResponse {
        guard let place = try placeOf(entry, asking: true, after: try Self.revision(r)) else { throw Self.unknownEntry(entry) }
        return .json(200, Self.queuePlace(place), headers: [("Cache-Control", "no-store")])
    }

    /// `?after=`: a room revision the page was told, or nil.
    static func revision(_ r: HTTPRequest) throws -> Int64? {
        guard let text = r.query["after"] else { return nil }
        guard let v = Int64(text), v >= 0, v <= 9_007_199_254_740_991 else {
            throw Problem(
                400, "bad-request", "Bad request", detail: "after: a room revision as the last answer gave it (a whole number), got \"\(text.prefix(40))\"")
        }
        return v
    }

    func placeOf(_ entry: String, asking: Bool, after: Int64? = nil) throws -> QueueDesk.Place? {
        guard entry.utf8.count == 33, entry.hasPrefix("q"), entry.utf8.dropFirst().allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return nil }
        let desk = try desk(), arrived = QueueDesk.clock()
        if let place = desk.poll(entry: entry, now: Self.now(), asking: asking) {
            guard let after, place.revision < after else { return place }
            // Another instance told this page more than this one knows: catch up, then answer.
            try desk.catchUp(show: place.showID, to: after, arrived: arrived)
            return desk.poll(entry: entry, now: Self.now(), asking: false) ?? place
        }
        // Joined on another instance since this one's last tick (a load balancer alternating a buyer's
        // requests): read what the rooms wrote, at most 20 times a second in all, so made-up entries
        // cannot turn into a stream of store reads.
        guard unknownEntryLimiter.check("all") == nil else { return nil }
        try desk.refresh()
        return desk.poll(entry: entry, now: Self.now(), asking: asking)
    }

    static func unknownEntry(_ entry: String) -> Problem {
        Problem.notFound("no place \(entry.prefix(40)) in any waiting room (entries are given by POST /v1/shows/{id}/queue)")
    }

    /// `GET /v1/queue/{entry}/events`: the place as Server-Sent Events (`event: place`), sent when it
    /// changes (checked every second); an open stream keeps the place as polling does.
    func queueEvents(_ entry: String, _ r: HTTPRequest) throws -> HTTPResponse {
        guard let place = try placeOf(entry, asking: true, after: try Self.revision(r)) else { throw Self.unknownEntry(entry) }
        let stream = EventStream()
        let text = Self.placeEvent(place)
        _ = stream.send(text)
        queueStreams.withLock { $0.append(QueueStreamEntry(entry: entry, stream: stream, last: text)) }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")], stream: stream)
    }

    static func placeEvent(_ place: QueueDesk.Place) -> String {
        "event: place\ndata: " + String(decoding: queuePlace(place).jsonBytes, as: UTF8.self) + "\n\n"
    }

    /// Once a second (the app's queue thread): the rooms moved on, then every open place stream sent its
    /// place if it changed; streams whose clients left are dropped.
    public func tickQueues() throws {
        guard let queues else { return }
        let now = Self.now()
        _ = try queues.tick(now: now) { [inventory] show in
            guard let s = inventory.showSummary(show) else { return nil }
            return s.open ? (s.counts.available, s.counts.held) : (0, s.counts.held + s.counts.available)
        }
        let streams = queueStreams.withLock { list in
            list.removeAll { $0.stream.isClosed }
            return list
        }
        var changed: [(Int, String)] = []
        for (k, s) in streams.enumerated() {
            guard let place = queues.poll(entry: s.entry, now: now, asking: true) else { continue }
            let text = Self.placeEvent(place)
            if text != s.last {
                _ = s.stream.send(text)
                changed.append((k, text))
            }
        }
        queueStreams.withLock { list in
            for (k, text) in changed where k < list.count && list[k].stream === streams[k].stream { list[k].last = text }
        }
    }

    /// The hold's admission while the show's room is on: nil when none is needed, the admission
    /// otherwise; a 403 saying what is wrong with it.
    func admission(for show: String, _ r: HTTPRequest) throws -> Admission? {
        guard let queues, let check = queues.checkAdmission(show: show, token: r.header("seat-admission"), now: Self.now()) else { return nil }
        switch check {
        case .success(let admission): return admission
        case .failure(let problem):
            let slug: String
            switch problem {
            case .missing: slug = "admission-required"
            case .malformed: slug = "admission-malformed"
            case .forged: slug = "admission-forged"
            case .expired: slug = "admission-expired"
            case .otherShow: slug = "admission-other-show"
            }
            var w = JSONWriter()
            w.string("/v1/shows/\(show)/queue")
            throw Problem(403, slug, "Admission required", detail: problem.description, extensions: [("queue", w.text)])
        }
    }

    /// The show, when it may still sell (a room on a cancelled or started show is a 409).
    func openShow(_ show: String) throws -> ShowSummary {
        guard let s = inventory.showSummary(show) else { throw inventory.noSuchShow(show) }
        if s.record.cancelledAt != nil { throw Problem(409, "show-cancelled", "Show cancelled", detail: "show \(show) was cancelled: no waiting room") }
        // Parsed when the show was loaded: an ISO8601DateFormatter a join was a tenth of a join's time.
        if let starts = s.startsAtMilliseconds, starts <= Self.now() {
            throw Problem(409, "show-started", "Show started", detail: "show \(show) started at \(s.record.startsAt): nothing more is sold")
        }
        return s
    }

    /// The desk's refusals as problems.
    func queueCall<T>(_ body: () throws -> T) throws -> T { try Self.queueCall(body) }

    static func queueCall<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as QueueError {
            switch error {
            case .noQueue(let show): throw Problem(404, "no-queue", "No waiting room", detail: "show \(show) has no waiting room: buy directly")
            case .off(let show):
                throw Problem(409, "queue-off", "Waiting room off", detail: "show \(show)'s waiting room was switched off: buy directly")
            case .alreadyOpen(let at):
                throw Refusal.invalid(path: "opensAt", "the sale opened at \(Timestamp.text(at)) and its early arrivals were shuffled: it cannot move")
                    .problem
            case .join(.tooEarly(let from)):
                throw Problem(
                    409, "queue-not-yet", "Too early", detail: "the waiting room takes arrivals from \(Timestamp.text(from)); come back then",
                    extensions: [("joinsFrom", "\"\(Timestamp.text(from))\"")])
            case .join(.tooManyEntries(let limit)):
                throw Problem(429, "too-many-entries", "Too many places", detail: "this address already holds \(limit) places in this line")
            case .join(.tooManyFromNetwork(let limit)):
                throw Problem(
                    429, "too-many-from-network", "Too many places",
                    detail: "this address's network (its /24, or /64 for IPv6) already holds \(limit) places in this line")
            case .join(.busy(let limit)):
                throw Problem(
                    429, "queue-busy", "Waiting room busy", detail: "the line takes \(limit) arrivals a second: try again in a moment",
                    headers: [("Retry-After", "1")])
            case .join(.soldOut):
                throw Problem(410, "sold-out", "Sold out", detail: "every seat is sold: the waiting room is closed")
            case .alreadyDrawn(let at):
                throw Refusal.invalid(path: "drawAt", "the draw was made at \(Timestamp.text(at)): its time and its winners cannot change").problem
            case .join(.identityInLine):
                throw Problem(409, "id-in-line", "Document already in line", detail: "this document already has a place in this waiting room (one a document)")
            case .join(.proofUsed):
                throw Problem(409, "proof-of-work-used", "Challenge already used", detail: "this challenge was spent by another join: ask for a new one")
            case .join(.registrationClosed(let opens)):
                throw Problem(
                    409, "registration-closed", "Registration closed",
                    detail: "the draw was made; what the winners leave goes on sale in the line from \(Timestamp.text(opens))",
                    extensions: [("opensAt", "\"\(Timestamp.text(opens))\"")])
            case .proofRequired(let bits):
                throw Problem(
                    403, "proof-of-work-required", "Proof of work required",
                    detail: "this waiting room asks a proof of work (\(bits) bits): GET its challenge, solve it, join with challenge and solution",
                    extensions: [("challenge", "\"/v1/shows/{id}/queue/challenge\""), ("bits", String(bits))])
            case .join(.passUsed):
                throw Problem(409, "lane-pass-used", "Pass already used", detail: "this lane pass has joined the line already (each joins once)")
            case .pass(.noLane(let lane)):
                throw Problem(404, "no-lane", "No such lane", detail: "the waiting room has no lane \(lane)")
            case .pass(.otherShow(let other)):
                throw Problem(403, "lane-pass-invalid", "Pass not accepted", detail: "lanePass: issued for show \(other)")
            case .pass:
                throw Problem(403, "lane-pass-invalid", "Pass not accepted", detail: "lanePass: not a pass of this server")
            case .proof(let problem):
                let (slug, detail): (String, String)
                switch problem {
                case .malformed: (slug, detail) = ("proof-of-work-invalid", "challenge: not a challenge of this server")
                case .forged: (slug, detail) = ("proof-of-work-invalid", "challenge: its signature is not this server's")
                case .otherShow(let other): (slug, detail) = ("proof-of-work-invalid", "challenge: issued for show \(other)")
                case .unsolved: (slug, detail) = ("proof-of-work-invalid", "solution: SHA-256(challenge \".\" solution) has too few leading zero bits")
                case .expired: (slug, detail) = ("proof-of-work-expired", "challenge: expired (5 minutes): ask for a new one")
                case .tooEasy(let asked): (slug, detail) = ("proof-of-work-expired", "challenge: the room asks \(asked) bits now: ask for a new one")
                }
                throw Problem(403, slug, "Proof of work not accepted", detail: detail)
            }
        }
    }

    static func queueResource(_ s: QueueDesk.Summary) -> QueueResource {
        let state: QueueResource.State = s.offAt != nil ? .off : s.soldOut ? .soldOut : s.openedAt != nil ? .open : .before
        var resource = QueueResource(
            showID: s.showID, state: state,
            settings: QueueSettingsRequest(
                opensAt: Render.iso(s.settings.opensAt), admitPerMinute: s.settings.admitPerMinute, earlyMinutes: s.settings.earlyMinutes,
                admissionMinutes: s.settings.admissionMinutes, maxEntriesPerAddress: s.settings.maxEntriesPerAddress,
                maxEntriesPerNetwork: s.settings.maxEntriesPerNetwork, maxJoinsPerSecond: s.settings.maxJoinsPerSecond,
                proofOfWorkBits: s.settings.proofOfWorkBits, drawAt: s.settings.drawAt.map(Render.iso), drawWinners: s.settings.drawWinners,
                lanes: s.settings.lanes.map { QueueLaneSetting(name: $0.name, share: $0.share) }),
            length: s.length, admitted: s.admitted, admittedLastMinute: s.admittedLastMinute, waitAtBackSeconds: s.waitAtBack,
            openedAt: s.openedAt.map(Render.iso), seedCommitment: s.seedCommitment, seed: s.seed, shuffled: s.shuffleOrder?.count ?? 0,
            registered: s.settings.drawAt != nil ? s.registered : nil)
        resource.laneCounts = s.lanes.map { QueueLaneCount(name: $0.lane.name, share: $0.lane.share, waiting: $0.waiting, admitted: $0.admitted) }
        return resource
    }

    static func queuePlace(_ p: QueueDesk.Place) -> QueuePlace {
        var place = QueuePlace(
            showID: p.showID, state: QueuePlace.State(rawValue: p.status.state.rawValue) ?? .left, position: p.status.position, ahead: p.status.ahead,
            etaSeconds: p.status.etaSeconds, admission: p.admission, admittedUntil: p.status.admittedUntil.map(Render.iso), queueOff: p.queueOff,
            opensAt: Render.iso(p.opensAt), revision: Int(p.revision), slotAt: p.status.slotAt.map(Render.iso), drawAt: p.drawAt.map(Render.iso))
        place.lane = p.lane
        return place
    }
}

/// An open place stream and what it was last sent.
struct QueueStreamEntry: Sendable {
    var entry: String
    var stream: EventStream
    var last: String
}
