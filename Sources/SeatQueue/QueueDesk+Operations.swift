import Foundation
import SeatDomain
import SeatSecrets

/// What the API asks of the desk: a manager's settings, a buyer's join and poll, the admission a hold
/// carries, and the tick.
extension QueueDesk {
    /// A room as a manager sees it (`GET /v1/shows/{id}/queue`).
    public struct Summary: Sendable {
        public var showID: String
        public var settings: QueueSettings
        public var length: Int
        public var admitted: Int
        /// Admissions in the last minute.
        public var admittedLastMinute: Int
        /// Seconds a buyer joining now would wait.
        public var waitAtBack: Int
        public var openedAt: Int64?
        public var offAt: Int64?
        public var soldOut: Bool
        public var seedCommitment: String
        /// The shuffle's seed, hex, once the shuffle is done (so anyone can check it).
        public var seed: String?
        /// The shuffled early arrivals' entry digests, front first, once done (a draw's registrants, winners first).
        public var shuffleOrder: [String]?
        /// Registered so far (a draw, before it is made) or drawn.
        public var registered: Int
        /// Each priority lane: its settings, buyers waiting in it and let in from it (empty: no lanes).
        public var lanes: [(lane: QueueLane, waiting: Int, admitted: Int)]
    }

    /// A buyer's place as the page is told (`GET /v1/queue/{entry}`).
    public struct Place: Sendable {
        public var showID: String
        public var status: WaitingRoom.Status
        /// The signed admission, once admitted.
        public var admission: String?
        /// The room was switched off: the buyer may buy without an admission.
        public var queueOff: Bool
        /// When the sale opens (Unix ms): an early arrival's page counts down to it.
        public var opensAt: Int64
        /// The store's revision of the room this answer reflects.
        public var revision: Int64
        /// When the draw is made (Unix ms), in a room with one.
        public var drawAt: Int64?
        /// The priority lane the buyer waits in (nil: the public line).
        public var lane: String?
    }

    /// Sets up `show`'s room, or changes its settings. A room switched off (or none) starts afresh:
    /// no entries, a new seed. The opening cannot move once the early arrivals are shuffled.
    public func configure(show: String, settings: QueueSettings, now: Int64) throws -> Summary {
        _ = try store.updateQueue(show: show, after: Int64.max) { changes, _ in
            if var room = changes.room, room.offAt == nil {
                if room.openedAt != nil && room.opensAt != settings.opensAt { throw QueueError.alreadyOpen(room.openedAt!) }
                if room.openedAt != nil && (room.drawAt != settings.drawAt || room.drawWinners != settings.drawWinners) {
                    throw QueueError.alreadyDrawn(room.openedAt!)
                }
                room.set(settings)
                return QueueWrite(room: room)
            }
            var fresh = QueueRecord(
                showID: show, createdAt: now, opensAt: settings.opensAt, admitPerMinute: settings.admitPerMinute, earlyMinutes: settings.earlyMinutes,
                admissionMinutes: settings.admissionMinutes, maxEntriesPerAddress: settings.maxEntriesPerAddress)
            fresh.set(settings)
            return QueueWrite(room: fresh, resetEntries: true)
        }
        try reload(show: show, now: now)
        return try summary(show: show, now: now)
    }

    /// Switches `show`'s room off: everyone waiting is let in at once (their pages say so).
    public func switchOff(show: String, now: Int64) throws -> Summary {
        guard try load(show: show, now: now) else { throw QueueError.noQueue(show) }
        _ = try decide(show: show, now: now) { m, _ in
            guard m.offAt == nil else { return [String]() }
            m.offAt = now
            return m.room.admitEveryone(now: now)
        }
        return try summary(show: show, now: now)
    }

    public func summary(show: String, now: Int64) throws -> Summary {
        try rooms.withLock { r in
            guard let m = r.byShow[show] else { throw QueueError.noQueue(show) }
            let room = m.room
            let since = now - 60_000, window = Int64(room.settings.admissionMinutes) * 60_000
            let lastMinute = room.entries.lazy.filter { $0.admittedUntil.map { $0 - window > since } ?? false }.count
            let perSecond = Double(room.settings.admitPerMinute) / 60
            let untilOpening = max(0, Double(room.settings.opensAt - now) / 1000)
            return Summary(
                showID: show, settings: room.settings, length: room.length, admitted: room.admittedCount, admittedLastMinute: lastMinute,
                waitAtBack: Int((untilOpening + Double(room.length + 1) / perSecond).rounded(.up)), openedAt: room.shuffle?.openedAt,
                offAt: m.offAt, soldOut: room.isSoldOut, seedCommitment: room.seedCommitment,
                seed: room.shuffle.map { SHA256.hex($0.seed) }, shuffleOrder: room.shuffle?.order,
                registered: room.shuffle?.order.count ?? room.entries.lazy.filter { $0.state == .early }.count,
                lanes: room.settings.lanes.enumerated().map { (k, lane) in (lane, room.laneWaiting[k + 1].total, room.laneAdmitted[k + 1]) })
        }
    }

    /// Buyers waiting in every room that is on (what `/metrics` shows).
    public var waitingCount: Int { rooms.withLock { r in r.byShow.values.reduce(0) { $0 + ($1.offAt == nil ? $1.room.length : 0) } } }

    /// Whether `show` has a room that is on (holds then need an admission).
    public func isOn(show: String) -> Bool { rooms.withLock { r in r.byShow[show].map { $0.offAt == nil } ?? false } }

    /// What the buyer's page is told now (from memory); asking keeps the place. Nil: no such entry.
    /// - Complexity: O(log n).
    public func poll(entry: String, now: Int64, asking: Bool = true) -> Place? {
        let key = Self.entryKey(entry)
        return rooms.withLock { r in
            guard let show = r.showOfEntry[key], var m = r.byShow[show] else { return nil }
            let out = place(m, key: key, now: now, asking: asking)
            if asking {
                // Only the entry's life sign changes: a copy-on-write of one element.
                r.byShow[show] = nil
                _ = m.room.poll(key, now: now)
                r.byShow[show] = m
            }
            return out
        }
    }

    func place(_ m: Mirror, key: String, now: Int64, asking: Bool) -> Place? {
        guard let status = m.room.status(of: key, now: now) else { return nil }
        let admission = status.admittedUntil.map { Admission(showID: m.room.showID, entryID: key, expiresAt: $0).token(key: self.key) }
        return Place(
            showID: m.room.showID, status: status, admission: status.state == .admitted ? admission : nil, queueOff: m.offAt != nil,
            opensAt: m.room.settings.opensAt, revision: m.revision, drawAt: m.room.settings.drawAt,
            lane: m.room.entry(key).flatMap { m.room.laneName($0.lane) })
    }

    /// `count` passes into `lane` of `show`'s room, to hand out (each joins that lane once).
    public func passes(show: String, lane: String, count: Int) throws -> [String] {
        let known = rooms.withLock { r in r.byShow[show].map { m in m.room.settings.lanes.contains { $0.name == lane } } }
        guard let known else { throw QueueError.noQueue(show) }
        guard known else { throw QueueError.pass(.noLane(lane)) }
        return LanePass.issue(show: show, lane: lane, count: count, key: key)
    }

    /// The lane a pass puts its buyer in and the key the room keeps of it, or why it is refused.
    public func checkPass(show: String, pass: String) throws -> (name: String, pass: String) {
        switch LanePass.verify(pass, show: show, key: key) {
        case .success(let p):
            let lanes = rooms.withLock { r in r.byShow[show]?.room.settings.lanes ?? [] }
            guard lanes.contains(where: { $0.name == p.lane }) else { throw QueueError.pass(.noLane(p.lane)) }
            return (p.lane, LanePass.spentKey(pass))
        case .failure(let problem): throw QueueError.pass(problem)
        }
    }

    /// The document hash `entry` (its key) joined `show`'s room with, if any: the admitted buyer's hold
    /// must carry that document.
    public func identity(show: String, entry key: String) -> String? {
        rooms.withLock { r in r.byShow[show]?.room.entry(key)?.identity }
    }

    /// The bits `show`'s room asks of a join's proof of work (nil: no room on; 0: none).
    public func proofOfWorkBits(show: String) -> Int? {
        rooms.withLock { r in r.byShow[show].flatMap { $0.offAt == nil ? $0.room.settings.proofOfWorkBits : nil } }
    }

    /// A new proof-of-work challenge for `show`'s room at the bits it asks now.
    public func challenge(show: String, now: Int64) throws -> (challenge: JoinChallenge, token: String) {
        guard let bits = proofOfWorkBits(show: show) else { throw QueueError.noQueue(show) }
        return JoinChallenge.issue(show: show, bits: bits, now: now, key: key)
    }

    /// Checks a join's proof of work for `show`: the key the room keeps of the spent challenge (nil when
    /// the room asks none and none was given), or why it is refused.
    public func checkProof(show: String, challenge: String?, solution: String?, now: Int64) throws -> String? {
        let bits = proofOfWorkBits(show: show) ?? 0
        guard let challenge else {
            if bits > 0 { throw QueueError.proofRequired(bits: bits) }
            return nil
        }
        switch JoinChallenge.verify(challenge, solution: solution ?? "", show: show, bits: bits, now: now, key: key) {
        case .success: return JoinChallenge.spentKey(challenge)
        case .failure(let problem): throw QueueError.proof(problem)
        }
    }

    /// What a hold's `Seat-Admission` header says, for `show`: nil when no room is on (no admission is
    /// needed); otherwise the admission or why it is refused (a missing header is `.malformed`'s cousin, `nil` token).
    public func checkAdmission(show: String, token: String?, now: Int64) -> Result<Admission, Admission.Problem>? {
        guard isOn(show: show) else { return nil }
        guard let token else { return .failure(.missing) }
        return Admission.verify(token, show: show, now: now, key: key)
    }

    /// The admission was used to hold seats: it no longer lapses (written with the next tick).
    public func used(_ admission: Admission) {
        rooms.withLock { r in
            guard var m = r.byShow[admission.showID] else { return }
            r.byShow[admission.showID] = nil
            m.room.used(admission.entryID)
            r.byShow[admission.showID] = m
        }
    }

    /// What the store says `show`'s room wrote, taken into its mirror (taken out of the dictionary while it
    /// changes, so the room's arrays are changed in place, not copied).
    func takeIn(_ changes: QueueChanges, show: String) {
        rooms.withLock { r in
            guard var m = r.byShow[show] else { return }
            r.byShow[show] = nil
            m.room.apply(changes)
            m.revision = max(m.revision, changes.revision)
            for e in changes.entries { r.showOfEntry[e.key] = show }
            r.byShow[show] = m
        }
    }

    /// Takes in what every room on has written since this instance last looked (an entry that joined on
    /// another instance a moment ago is then known here); one read a room.
    public func refresh() throws {
        let known = rooms.withLock { r in r.byShow.filter { $0.value.offAt == nil }.map { ($0.key, $0.value.revision) } }
        for (show, revision) in known {
            let changes = try store.queueChanges(show: show, after: revision)
            takeIn(changes, show: show)
        }
    }

    /// Brings `show`'s mirror up to `revision`, what another instance already told a page (positions
    /// rose by up to 2, and 4 of 70 pages read admitted → waiting → admitted, when a page's requests
    /// changed instance). One read of what the room wrote since, unless a read that began after this
    /// request arrived (`arrived`, Unix ms) has been taken in: the store only moves forward, so that
    /// read holds every revision an instance had told a page by then, and a revision still ahead of it
    /// was never told (a made-up one costs at most a read every 5 ms a show).
    /// - Complexity: one store read, O(changed rows · log n) to take them in.
    public func catchUp(show: String, to revision: Int64, arrived: Int64) throws {
        try catchUps.withLock { began in
            guard let since = rooms.withLock({ r in r.byShow[show].flatMap { $0.revision < revision ? $0.revision : nil } }) else { return }
            let last = began[show] ?? 0
            if last > arrived { return }
            let wait = last + 5 - Self.clock()
            if wait > 0 { Thread.sleep(forTimeInterval: Double(wait) / 1000) }
            began[show] = Self.clock()
            var changes = try store.queueChanges(show: show, after: since)
            // An instance tells a page the revision it is writing a moment before the write commits (the
            // room's decisions are taken in turns, so at most one is in flight): one revision ahead of the
            // store is that write, read again for up to 50 ms (a page read r35 on A, then r34 on B, under
            // TSan's slowness). Anything further ahead was never told.
            let deadline = Self.clock() + 50
            while changes.revision + 1 == revision && Self.clock() < deadline {
                Thread.sleep(forTimeInterval: 0.002)
                changes = try store.queueChanges(show: show, after: since)
            }
            takeIn(changes, show: show)
        }
    }

    /// The wall clock in Unix milliseconds (a catch-up's order against a request's arrival: real time,
    /// whatever clock the rooms' rules are given).
    public static func clock() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Reads `show`'s room from the store when this instance does not know it yet; whether it has one now.
    public func load(show: String, now: Int64) throws -> Bool {
        if rooms.withLock({ $0.byShow[show] == nil }) { try reload(show: show, now: now) }
        return rooms.withLock { $0.byShow[show] != nil }
    }

    /// About once a second: rooms set up or switched off elsewhere taken in, every room on brought up to
    /// date with the store, pages' life signs written back, buyers let in. `seats` says a show's free and
    /// held seats (nil: no such show). What each room did, by show.
    public func tick(now: Int64, seats: (String) -> (free: Int, held: Int)?) throws -> [String: WaitingRoom.Advance] {
        let stored = try store.rooms()
        for record in stored {
            let known = rooms.withLock { r in r.byShow[record.showID].map { ($0.room.createdAt, $0.offAt, $0.stale) } }
            if known == nil || known!.0 != record.createdAt || known!.1 != record.offAt || known!.2 { try reload(show: record.showID, now: now) }
        }
        var out: [String: WaitingRoom.Advance] = [:]
        for record in stored where record.offAt == nil {
            guard let (free, held) = seats(record.showID) else { continue }
            out[record.showID] = try decide(show: record.showID, now: now, lifeSigns: true) { m, _ in
                m.offAt == nil ? m.room.advance(now: now, freeSeats: free, heldSeats: held) : WaitingRoom.Advance()
            }
        }
        return out
    }
}
