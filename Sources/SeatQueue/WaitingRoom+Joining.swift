extension WaitingRoom {
    /// Why a buyer cannot join, each its own problem at the API.
    public enum JoinRefusal: Error, Sendable, Equatable {
        /// Before the early window: come back at `from` (Unix ms).
        case tooEarly(from: Int64)
        /// The address holds `limit` places already.
        case tooManyEntries(limit: Int)
        case soldOut
    }

    /// A new place for a buyer from `address`: early (before opening) or at the back of the line.
    /// - Complexity: O(log n) amortized.
    public mutating func join(address: String, now: Int64, id: String) throws(JoinRefusal) -> Entry {
        openIfDue(now)
        if isSoldOut { throw .soldOut }
        if now < settings.joinsFrom { throw .tooEarly(from: settings.joinsFrom) }
        let held = perAddress[address, default: 0]
        if held >= settings.maxEntriesPerAddress { throw .tooManyEntries(limit: settings.maxEntriesPerAddress) }
        let k = entries.count
        entries.append(Entry(id: id, address: address, arrivedAt: now, state: .left, lastSeen: now))
        index[id] = k
        if isOpen { enqueue(k) } else { update(k) { $0.state = .early } }
        return entries[k]
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
        case .waiting:
            let ahead = waiting.before(e.place!)
            s.ahead = ahead
            s.position = ahead + 1
            s.etaSeconds = Int((Double(ahead + 1) / perSecond).rounded(.up))
        default: break
        }
        return s
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
