import SeatDomain

/// A show's waiting room, as a manager sets it (`PUT /v1/shows/{id}/queue`).
public struct QueueSettings: Sendable, Hashable {
    /// When the sale opens (Unix milliseconds): arrivals before it are shuffled at this instant.
    public var opensAt: Int64
    /// Buyers let in a minute.
    public var admitPerMinute: Int
    /// How long before `opensAt` arrivals are taken (and shuffled at opening); earlier ones are told when to come back.
    public var earlyMinutes: Int
    /// How long an admitted buyer has to start holding seats before the place goes to the next.
    public var admissionMinutes: Int
    /// Places one address may hold at once (a household, an office behind one address: more than one; a bot farm: not thousands).
    public var maxEntriesPerAddress: Int
    /// Places one network may hold at once: an IPv4 /24 or an IPv6 /64, where one machine has many
    /// addresses (250 addresses of one /24 once took 2,000 places past the per-address limit). 64: a
    /// campus or an office behind one network queues, a bot farm on one does not fill the line.
    public var maxEntriesPerNetwork: Int
    /// Arrivals the line takes a second, from everyone; more are told to try again in a second (429).
    /// 1,000: a million buyers joining over a 30-minute early window are 556 a second.
    public var maxJoinsPerSecond: Int
    /// Leading zero bits of SHA-256(challenge "." solution) a joining buyer must find (0: none). Each bit
    /// doubles the buyer's work and leaves the server's (one HMAC and one hash a join) alone: 20 bits are
    /// about a million hashes, a second on a phone's browser, 17 minutes for a farm's million joins.
    public var proofOfWorkBits: Int
    /// Registration and draw: arrivals from `joinsFrom` until `drawAt` register; at `drawAt` they are
    /// drawn by the room's committed seed, the first `drawWinners` given purchase slots from `opensAt`
    /// at the admission rate (no page need stay open), the rest told they were not drawn. Arrivals
    /// after `opensAt` queue behind the winners. Nil: no draw (the early arrivals are shuffled at opening).
    public var drawAt: Int64?
    public var drawWinners: Int
    /// Priority lanes, in order (empty: one public line).
    public var lanes: [QueueLane]

    public init(
        opensAt: Int64, admitPerMinute: Int, earlyMinutes: Int = 30, admissionMinutes: Int = 10, maxEntriesPerAddress: Int = 8,
        maxEntriesPerNetwork: Int = 64, maxJoinsPerSecond: Int = 1_000, proofOfWorkBits: Int = 0, drawAt: Int64? = nil, drawWinners: Int = 0,
        lanes: [QueueLane] = []
    ) {
        self.proofOfWorkBits = proofOfWorkBits; self.drawAt = drawAt; self.drawWinners = drawWinners; self.lanes = lanes
        self.opensAt = opensAt; self.admitPerMinute = admitPerMinute; self.earlyMinutes = earlyMinutes
        self.admissionMinutes = admissionMinutes; self.maxEntriesPerAddress = maxEntriesPerAddress
        self.maxEntriesPerNetwork = maxEntriesPerNetwork; self.maxJoinsPerSecond = maxJoinsPerSecond
    }

    /// The settings a stored room has.
    public init(_ r: QueueRecord) {
        self.init(
            opensAt: r.opensAt, admitPerMinute: r.admitPerMinute, earlyMinutes: r.earlyMinutes, admissionMinutes: r.admissionMinutes,
            maxEntriesPerAddress: r.maxEntriesPerAddress, maxEntriesPerNetwork: r.maxEntriesPerNetwork, maxJoinsPerSecond: r.maxJoinsPerSecond,
            proofOfWorkBits: r.proofOfWorkBits, drawAt: r.drawAt, drawWinners: r.drawWinners, lanes: QueueLane.parse(r.lanes))
    }

    /// The bounds, each a member's: checked so a bad setting is refused naming the member and changes nothing.
    public static let admitPerMinuteRange = 1...100_000
    public static let earlyMinutesRange = 0...20_160
    public static let admissionMinutesRange = 1...60
    public static let maxEntriesPerAddressRange = 1...1_000
    public static let maxEntriesPerNetworkRange = 1...100_000
    public static let maxJoinsPerSecondRange = 1...1_000_000
    /// 28 bits: some 270 million hashes, minutes on a phone; more would shut real fans out.
    public static let proofOfWorkBitsRange = 0...28
    public static let drawWinnersRange = 1...10_000_000

    /// Every member out of its bounds, with its path and why (empty when the settings are good).
    public var problems: [(path: String, message: String)] {
        var out: [(String, String)] = []
        func check(_ path: String, _ value: Int, _ range: ClosedRange<Int>, _ what: String) {
            if !range.contains(value) { out.append((path, "\(what) from \(range.lowerBound) to \(range.upperBound), got \(value)")) }
        }
        check("admitPerMinute", admitPerMinute, Self.admitPerMinuteRange, "buyers a minute")
        check("earlyMinutes", earlyMinutes, Self.earlyMinutesRange, "minutes")
        check("admissionMinutes", admissionMinutes, Self.admissionMinutesRange, "minutes")
        check("maxEntriesPerAddress", maxEntriesPerAddress, Self.maxEntriesPerAddressRange, "places")
        check("maxEntriesPerNetwork", maxEntriesPerNetwork, Self.maxEntriesPerNetworkRange, "places")
        check("maxJoinsPerSecond", maxJoinsPerSecond, Self.maxJoinsPerSecondRange, "arrivals a second")
        check("proofOfWorkBits", proofOfWorkBits, Self.proofOfWorkBitsRange, "bits")
        if let drawAt {
            check("drawWinners", drawWinners, Self.drawWinnersRange, "winners")
            if drawAt <= joinsFrom || drawAt > opensAt {
                out.append(("drawAt", "after registration opens (earlyMinutes before opensAt) and no later than opensAt"))
            }
        } else if drawWinners != 0 {
            out.append(("drawWinners", "only with drawAt: the instant registration closes and the draw is made"))
        }
        out += QueueLane.problems(lanes)
        if maxEntriesPerNetwork < maxEntriesPerAddress {
            out.append(("maxEntriesPerNetwork", "at least maxEntriesPerAddress (\(maxEntriesPerAddress)): a network holds its addresses' places"))
        }
        return out
    }

    /// The first instant a buyer may join.
    public var joinsFrom: Int64 { opensAt - Int64(earlyMinutes) * 60_000 }

    /// Each lane's share of the admissions, the public line's first (what the lanes leave).
    var shares: [Int] { [100 - lanes.reduce(0) { $0 + $1.share }] + lanes.map(\.share) }

    /// The lane `name` is (0: the public line; an unknown name waits in it too).
    func laneIndex(_ name: String?) -> Int { name.flatMap { n in lanes.firstIndex { $0.name == n }.map { $0 + 1 } } ?? 0 }

    /// When the early arrivals are put in order: the draw, or else the opening.
    public var shuffleAt: Int64 { drawAt ?? opensAt }
}

extension QueueRecord {
    /// The room's settings replaced by `s` (its shared state kept).
    public mutating func set(_ s: QueueSettings) {
        opensAt = s.opensAt; admitPerMinute = s.admitPerMinute; earlyMinutes = s.earlyMinutes; admissionMinutes = s.admissionMinutes
        maxEntriesPerAddress = s.maxEntriesPerAddress; maxEntriesPerNetwork = s.maxEntriesPerNetwork; maxJoinsPerSecond = s.maxJoinsPerSecond
        proofOfWorkBits = s.proofOfWorkBits; drawAt = s.drawAt; drawWinners = s.drawWinners; lanes = QueueLane.text(s.lanes)
    }
}
