import SeatSecrets

extension WaitingRoom {
    /// What one `advance` did.
    public struct Advance: Sendable, Equatable {
        public var admitted: [String] = []
        public var left: [String] = []
        /// The show sold out in this step: every page still waiting is told.
        public var soldOut = false
        public var opened = false
    }

    /// Moves the room to `now` with `freeSeats` still for sale: opens (shuffling the early arrivals)
    /// when due, lets go of pages that stopped asking and admissions not used in time, and lets in
    /// buyers at the admission rate while fewer are inside than seats are free.
    /// - Complexity: O(entries) for the pass over who stopped asking (the server calls it about once a second).
    /// `heldSeats`: seats in buyers' holds, which may yet come back; the room says sold out only when
    /// neither free nor held seats are left.
    public mutating func advance(now: Int64, freeSeats: Int, heldSeats: Int = 0) -> Advance {
        var out = Advance()
        out.opened = openIfDue(now)
        var inside = 0
        for k in entries.indices {
            let e = entries[k]
            switch e.state {
            // A draw's registrants and winners need not keep a page open: they come back for their slot.
            case .early where now - e.lastSeen > abandonMilliseconds && settings.drawAt == nil,
                .waiting where now - e.lastSeen > abandonMilliseconds && !isDrawWinner(e):
                leave(k, as: .left)
                out.left.append(e.id)
            case .admitted where !e.used && now >= e.admittedUntil!:
                leave(k, as: .left)
                out.left.append(e.id)
            case .admitted where !e.used:
                inside += 1
            default: break
            }
        }
        if freeSeats + heldSeats <= 0 {
            if !isSoldOut {
                isSoldOut = true
                out.soldOut = true
                for k in entries.indices where entries[k].state == .early || entries[k].state == .waiting { leave(k, as: .soldOut) }
            }
            lastAdvance = now
            return out
        }
        isSoldOut = false
        guard isOpen else { lastAdvance = now; return out }
        // A draw's winners come in at their slots, whatever the credit; the public line waits behind them.
        if settings.drawAt != nil {
            while let k = nextWaiting(), isDrawWinner(entries[k]) {
                let slot = slotAt(entries[k].place!)
                guard now >= slot else { break }
                admit(k, until: slot + Int64(settings.admissionMinutes) * 60_000)
                out.admitted.append(entries[k].id)
            }
            if let k = nextWaiting(), isDrawWinner(entries[k]) {
                credit = 0
                lastAdvance = now
                return out
            }
        }
        // The admission rate as credit: a minute's worth spread over the minute, at most five seconds' worth
        // saved up (a burst after a quiet spell would swamp the seats), at least one buyer.
        let perMillisecond = Double(settings.admitPerMinute) / 60_000
        let elapsed = Double(now - (lastAdvance ?? now))
        credit = min(credit + elapsed * perMillisecond, max(1, perMillisecond * 5_000))
        lastAdvance = now
        let until = now + Int64(settings.admissionMinutes) * 60_000
        while credit >= 1 && inside < freeSeats, let k = nextInLine() {
            admit(k, until: until)
            out.admitted.append(entries[k].id)
            credit -= 1
            inside += 1
        }
        return out
    }

    /// The buyer held seats with the admission: it no longer lapses.
    public mutating func used(_ id: String) {
        guard let k = index[id], entries[k].state == .admitted, !entries[k].used else { return }
        update(k) { $0.used = true }
    }

    /// The queue is switched off: everyone still waiting is let in at once (said on their pages).
    public mutating func admitEveryone(now: Int64) -> [String] {
        openIfDue(max(now, settings.opensAt))
        let until = now + Int64(settings.admissionMinutes) * 60_000
        var out: [String] = []
        while let k = nextWaiting() {
            admit(k, until: until)
            out.append(entries[k].id)
        }
        return out
    }

    mutating func admit(_ k: Int, until: Int64) {
        update(k) {
            $0.state = .admitted
            $0.admittedUntil = until
        }
    }

    /// The next buyer the admission rate lets in: the line's front, or with lanes the front of the lane
    /// furthest behind its share (admissions so far over share; the public line without a share only
    /// when no lane has anyone; ties to the lane listed first).
    /// - Complexity: O(lanes · log n).
    mutating func nextInLine() -> Int? {
        guard !laneWaiting.isEmpty else { return nextWaiting() }
        let shares = settings.shares
        var best: (lane: Int, score: Double)?
        for i in [Int](laneWaiting.indices.dropFirst()) + [0] where laneWaiting[i].total > 0 {
            let score = shares[i] == 0 ? Double.infinity : Double(laneAdmitted[i]) / Double(shares[i])
            if best == nil || score < best!.score { best = (i, score) }
        }
        guard let lane = best?.lane, let place = laneWaiting[lane].firstSet(from: 0) else { return nil }
        return line[place]
    }

    /// The entry at the front of the line still waiting, if any.
    mutating func nextWaiting() -> Int? {
        while front < line.count {
            let k = line[front]
            if k >= 0 && entries[k].state == .waiting { return k }
            front += 1
        }
        return nil
    }

    /// At `opensAt` (or `drawAt`), once: the early arrivals in the order of their keyed codes, then the
    /// line as it comes. A draw seats every registrant at its rank: the first `drawWinners` wait for
    /// their slots, the others are not drawn (their rank kept, so the draw can be checked).
    @discardableResult
    mutating func openIfDue(_ now: Int64) -> Bool {
        guard shuffle == nil, now >= settings.shuffleAt else { return false }
        let early = entries.indices.filter { entries[$0].state == .early }
        let order = ShuffleRecord.order(early.map { entries[$0].id }, seed: seed)
        if settings.drawAt != nil {
            let winners = settings.drawWinners
            for (rank, id) in order.enumerated() {
                let k = index[id]!
                seat(k, at: rank)
                update(k) {
                    $0.place = rank
                    $0.state = rank < winners ? .waiting : .notDrawn
                }
            }
        } else {
            for id in order { enqueue(index[id]!) }
        }
        shuffle = ShuffleRecord(openedAt: now, seed: seed, order: order)
        // Admissions accrue from the opening instant, not from whenever the room was last looked at.
        lastAdvance = settings.opensAt
        return true
    }
}

/// The opening shuffle, kept so anyone can check it afterwards: the seed (secret until opening, its
/// SHA-256 published before), and the order it gave. `ShuffleRecord.order(ids, seed:)` recomputes it.
public struct ShuffleRecord: Sendable, Equatable {
    public var openedAt: Int64
    public var seed: [UInt8]
    /// The early arrivals' entry ids, front of the line first.
    public var order: [String]

    /// Ids sorted by HMAC-SHA-256(seed, id): a permutation no arrival time or id choice can steer
    /// without the seed, the same for the same seed (audit).
    /// - Complexity: O(n log n).
    public static func order(_ ids: [String], seed: [UInt8]) -> [String] {
        ids.map { (key: HMACSHA256.code(key: seed, message: Array($0.utf8)), id: $0) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
            .map(\.id)
    }

    public static func commitment(of seed: [UInt8]) -> String {
        var h = SHA256()
        h.update(seed)
        return SHA256.hex(h.finalize())
    }

    /// Whether the recorded order is the one the seed gives for these arrivals.
    public func isFaithful(to arrivals: [String]) -> Bool { Self.order(arrivals, seed: seed) == order }
}
