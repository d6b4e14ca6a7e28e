extension WaitingRoom {
    /// Why a buyer cannot join, each its own problem at the API.
    public enum JoinRefusal: Error, Sendable, Equatable {
        /// Before the early window: come back at `from` (Unix ms).
        case tooEarly(from: Int64)
        /// The address holds `limit` places already.
        case tooManyEntries(limit: Int)
        /// The address's network (an IPv4 /24, an IPv6 /64) holds `limit` places already.
        case tooManyFromNetwork(limit: Int)
        /// The line took `limit` arrivals in the last second: try again in a moment.
        case busy(limit: Int)
        case soldOut
        /// The document already holds a place in this line (early, waiting or let in).
        case identityInLine
        /// The proof-of-work challenge was spent by another join.
        case proofUsed
        /// The draw was made: registration is closed; the public line opens at `opensAt` (Unix ms).
        case registrationClosed(opensAt: Int64)
        /// The lane pass was spent by another join.
        case passUsed
    }

    /// A new place for a buyer from `address`: early (before opening) or at the back of the line.
    /// `identity`: the keyed hash of the buyer's document (a real-name show: one place a document);
    /// `proof`: the digest of the proof-of-work challenge the join spends (each once).
    /// - Complexity: O(log n) amortized.
    /// `lane`: the priority lane a pass put the buyer in (0: the public line); `pass`: that pass's digest (each once).
    public mutating func join(
        address: String, now: Int64, id: String, identity: String? = nil, proof: String? = nil, lane: Int = 0, pass: String? = nil
    ) throws(JoinRefusal) -> Entry {
        openIfDue(now)
        if isSoldOut { throw .soldOut }
        if now < settings.joinsFrom { throw .tooEarly(from: settings.joinsFrom) }
        if isOpen && settings.drawAt != nil && now < settings.opensAt { throw .registrationClosed(opensAt: settings.opensAt) }
        if let identity, perIdentity[identity, default: 0] > 0 { throw .identityInLine }
        if let proof, proofs.contains(proof) { throw .proofUsed }
        if let pass, passes.contains(pass) { throw .passUsed }
        let held = perAddress[address, default: 0]
        if held >= settings.maxEntriesPerAddress { throw .tooManyEntries(limit: settings.maxEntriesPerAddress) }
        if perNetwork[Self.network(ofKey: address), default: 0] >= settings.maxEntriesPerNetwork {
            throw .tooManyFromNetwork(limit: settings.maxEntriesPerNetwork)
        }
        if arrivals(since: now - 1_000) >= settings.maxJoinsPerSecond { throw .busy(limit: settings.maxJoinsPerSecond) }
        let k = entries.count
        entries.append(
            Entry(
                id: id, address: address, arrivedAt: now, state: .left, lastSeen: now, identity: identity, proof: proof,
                lane: lane <= settings.lanes.count ? lane : 0, pass: pass))
        index[id] = k
        if let proof { proofs.insert(proof) }
        if let pass { passes.insert(pass) }
        if isOpen { enqueue(k) } else { update(k) { $0.state = .early } }
        return entries[k]
    }

    /// The network part of an address key (`QueueDesk.addressKey`: network digest, `.`, address digest);
    /// a key stored before networks were counted is its own network.
    static func network(ofKey key: String) -> Substring {
        let utf8 = key.utf8
        guard utf8.count == 41, let dot = utf8.firstIndex(of: UInt8(ascii: ".")), utf8.distance(from: utf8.startIndex, to: dot) == 16 else { return key[...] }
        return key[..<dot]
    }

    /// Arrivals after `instant`, every instance's (entries arrive in about time order, so the count
    /// reads back from the newest and stops at the first older one).
    /// - Complexity: O(arrivals after `instant`), at most `maxJoinsPerSecond`.
    func arrivals(since instant: Int64) -> Int {
        var n = 0
        for e in entries.reversed() {
            if e.arrivedAt <= instant { break }
            n += 1
        }
        return n
    }

    /// What the buyer's page is told now; asking keeps the place (`abandonMilliseconds`).
    /// - Complexity: O(log n).
    public mutating func poll(_ id: String, now: Int64) -> Status? {
        guard let k = index[id] else { return nil }
        if entries[k].state == .early || entries[k].state == .waiting { entries[k].lastSeen = now }
        return status(k, now: now)
    }

    /// The status without counting as a sign of life (what an event stream pushes).
    public func status(of id: String, now: Int64) -> Status? { index[id].map { status($0, now: now) } }

    func status(_ k: Int, now: Int64) -> Status {
        let e = entries[k]
        var s = Status(state: e.state, admittedUntil: e.admittedUntil)
        let perSecond = Double(settings.admitPerMinute) / 60
        switch e.state {
        case .early:
            // Everyone early gets a random place at opening: the wait is the time to opening, then a share of them.
            let untilOpening = max(0, Double(settings.opensAt - now) / 1000)
            s.etaSeconds = Int((untilOpening + Double(entries.count) / 2 / perSecond).rounded(.up))
        case .waiting where isDrawWinner(e):
            let slot = slotAt(e.place!)
            s.position = e.place! + 1
            s.ahead = waiting.before(e.place!)
            s.slotAt = slot
            s.etaSeconds = Int((max(0, Double(slot - now)) / 1000).rounded(.up))
        case .waiting where e.lane < laneWaiting.count:
            // In a lane: the place among the lane's buyers, at the lane's share of the rate (the public
            // line with no share waits for every lane's buyers too).
            let ahead = laneWaiting[e.lane].before(e.place!), share = settings.shares[e.lane]
            s.ahead = ahead
            s.position = ahead + 1
            if share > 0 {
                s.etaSeconds = Int((Double(ahead + 1) / (perSecond * Double(share) / 100)).rounded(.up))
            } else {
                let lanes = laneWaiting.indices.dropFirst().reduce(0) { $0 + laneWaiting[$1].total }
                s.etaSeconds = Int((Double(ahead + 1 + lanes) / perSecond).rounded(.up))
            }
        case .waiting:
            let ahead = waiting.before(e.place!)
            s.ahead = ahead
            s.position = ahead + 1
            s.etaSeconds = Int((Double(ahead + 1) / perSecond).rounded(.up))
        default: break
        }
        return s
    }

    /// Whether `e` won the room's draw and waits for its slot (it need not keep its page open).
    func isDrawWinner(_ e: Entry) -> Bool {
        guard settings.drawAt != nil, let drawn = shuffle?.order.count, let place = e.place else { return false }
        return place < min(drawn, settings.drawWinners)
    }

    /// When the draw's winner at `place` may start buying: the opening, then one slot a buyer at the
    /// admission rate (a winner knows the minute from the draw on).
    public func slotAt(_ place: Int) -> Int64 {
        settings.opensAt + Int64((Double(place) * 60_000 / Double(settings.admitPerMinute)).rounded(.down))
    }

    mutating func enqueue(_ k: Int) {
        let place = line.count
        seat(k, at: place)
        update(k) {
            $0.place = place
            $0.state = .waiting
        }
    }

    /// Takes entry `k` out of the line (admitted, sold out or gone): its place stops counting ahead of
    /// anyone, and its address may join again.
    mutating func leave(_ k: Int, as state: State) { update(k) { $0.state = state } }
}
