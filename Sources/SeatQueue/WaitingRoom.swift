/// One show's waiting room, headless: who is in the line, in what order, who is let in and when. The
/// server keeps one a show under its lock and calls `advance` about once a second; every answer a
/// buyer polls for is read from here (no store read). A value: the store keeps a copy, a test drives one
/// with a fixed clock and seed.
///
/// The rules (docs/API.md, Waiting room): arrivals in the `earlyMinutes` before opening wait in a
/// pre-queue and are shuffled once at `opensAt` by a keyed permutation of a secret seed (refreshing
/// early or joining first by bot gains nothing), recorded so it can be checked afterwards; later
/// arrivals join the back in order. Buyers are let in at `admitPerMinute`, never more waiting to buy
/// than seats are free; a page that stops asking for 30 s, or an admission not used in
/// `admissionMinutes`, gives its place up. A place never moves back for someone still waiting.
public struct WaitingRoom: Sendable {
    public enum State: String, Sendable {
        /// Arrived before opening: in the pre-queue, shuffled at opening.
        case early
        case waiting
        /// Let in: may hold seats with its admission until it expires.
        case admitted
        /// Nothing left to sell: said to everyone still waiting at once.
        case soldOut
        /// Gave the place up: stopped asking, or did not use the admission in time.
        case left
        /// Registered for a draw and not drawn (its place is its rank in the draw).
        case notDrawn
    }

    public struct Entry: Sendable {
        public let id: String
        public let address: String
        public let arrivedAt: Int64
        public internal(set) var state: State
        /// Unix milliseconds the admission expires, once admitted.
        public internal(set) var admittedUntil: Int64?
        /// Whether the buyer held seats with the admission (it no longer lapses).
        public internal(set) var used = false
        var lastSeen: Int64
        /// The index in `line`, once in it.
        var place: Int?
        /// Arrival order as the store numbers it (the room's revision the buyer joined at; 0 until written).
        public internal(set) var seq: Int64 = 0
        /// The last sign of life the store has (written back when ours is 10 s newer: `takeWrites`).
        var storedSeen: Int64 = 0
        /// The keyed hash of the document the buyer joined with, on a real-name show.
        public let identity: String?
        /// The digest of the proof-of-work challenge the join spent.
        let proof: String?
        /// The lane it waits in (0: the public line; `settings.lanes[lane - 1]`), and the digest of its pass.
        public internal(set) var lane: Int
        let pass: String?

        init(
            id: String, address: String, arrivedAt: Int64, state: State, lastSeen: Int64, identity: String? = nil, proof: String? = nil, lane: Int = 0,
            pass: String? = nil
        ) {
            self.id = id; self.address = address; self.arrivedAt = arrivedAt; self.state = state; self.lastSeen = lastSeen
            self.identity = identity; self.proof = proof; self.lane = lane; self.pass = pass
        }
    }

    /// What a buyer's page is told.
    public struct Status: Sendable, Equatable {
        public var state: State
        /// 1 for the front of the line; nil before the opening shuffle gives places.
        public var position: Int?
        /// Buyers still waiting ahead.
        public var ahead: Int?
        /// An honest estimate: the buyers ahead at the admission rate, plus the time to opening.
        public var etaSeconds: Int?
        /// Until when the admission lets the buyer hold, once admitted.
        public var admittedUntil: Int64?
        /// A draw's winner: when the purchase slot starts (Unix ms).
        public var slotAt: Int64?
    }

    public let showID: String
    public internal(set) var settings: QueueSettings
    /// The secret the opening shuffle is keyed by: published in `shuffle` once it is done, its SHA-256
    /// (`seedCommitment`) beforehand, so it cannot be chosen afterwards.
    let seed: [UInt8]
    var entries: [Entry] = []
    var index: [String: Int] = [:]
    var perAddress: [String: Int] = [:]
    /// Places held by each network (the part of an address key before its `.`; see `QueueDesk.addressKey`).
    var perNetwork: [Substring: Int] = [:]
    /// Places held by each identity document (early, waiting or let in): one a document.
    var perIdentity: [String: Int] = [:]
    /// The proof-of-work challenges joins have spent (each joins once).
    var proofs: Set<String> = []
    /// The lane passes joins have spent (each joins once).
    var passes: Set<String> = []
    /// With lanes: 1 at each place still waiting in lane i (`laneWaiting[i]`), and each lane's admissions.
    var laneWaiting: [CountTree] = []
    var laneAdmitted: [Int] = []
    /// Entry positions (into `entries`) in the order they are let in; the shuffled early arrivals first.
    var line: [Int] = []
    /// 1 at each place of `line` still waiting: how many wait ahead of a place, in O(log n).
    var waiting = CountTree()
    /// The first place that may still be waiting.
    var front = 0
    var credit = 0.0
    var lastAdvance: Int64?
    public internal(set) var shuffle: ShuffleRecord?
    public internal(set) var isSoldOut = false
    public internal(set) var admittedCount = 0
    var waitingCount = 0
    /// Entries changed by this room's own decisions since `takeWrites` (what the store is to be told).
    var dirty: Set<Int> = []
    /// When the room was set up (the store's `createdAt`: a room set up again is a new one).
    public let createdAt: Int64

    /// A page that has not asked for this long has gone.
    public static let defaultAbandonMilliseconds: Int64 = 30_000
    /// 30 s by default (a page asks every 2 to 5 s: six missed questions is a closed tab, not a slow
    /// network); the tests shorten it.
    public var abandonMilliseconds: Int64 = WaitingRoom.defaultAbandonMilliseconds

    public init(showID: String, settings: QueueSettings, seed: [UInt8], createdAt: Int64 = 0) {
        self.showID = showID; self.settings = settings; self.seed = seed; self.createdAt = createdAt
        recountLanes()
    }

    /// The SHA-256 of the shuffle's seed, hex: published when the queue is set, so the seed is fixed before anyone arrives.
    public var seedCommitment: String { ShuffleRecord.commitment(of: seed) }

    public var isOpen: Bool { shuffle != nil }

    public func entry(_ id: String) -> Entry? { index[id].map { entries[$0] } }

    /// How many are waiting (early arrivals included).
    /// - Complexity: O(1).
    public var length: Int { waitingCount }

    /// Changes entry `k` by `body`, keeping the counts that follow from its state (who waits ahead of
    /// a place, each address's places, how many were let in) and marking it for the store.
    mutating func update(_ k: Int, _ body: (inout Entry) -> Void) {
        count(k, -1)
        body(&entries[k])
        count(k, 1)
        dirty.insert(k)
    }

    /// Adds (`sign` 1) or takes away (-1) entry `k`'s part in the counts.
    mutating func count(_ k: Int, _ sign: Int) {
        let e = entries[k]
        if e.state == .waiting, let place = e.place {
            waiting.add(sign, at: place)
            if e.lane < laneWaiting.count { laneWaiting[e.lane].add(sign, at: place) }
        }
        if e.admittedUntil != nil, e.lane < laneAdmitted.count { laneAdmitted[e.lane] += sign }
        if e.state == .early || e.state == .waiting {
            perAddress[e.address, default: 0] += sign
            perNetwork[Self.network(ofKey: e.address), default: 0] += sign
            waitingCount += sign
        }
        if e.admittedUntil != nil { admittedCount += sign }
        if let identity = e.identity, e.state == .early || e.state == .waiting || e.state == .admitted {
            perIdentity[identity, default: 0] += sign
        }
    }

    /// Puts entry `k` at `place` of the line (the line grows to reach it).
    mutating func seat(_ k: Int, at place: Int) {
        while line.count <= place { line.append(-1) }
        line[place] = k
        waiting.grow(to: line.count)
        for i in laneWaiting.indices { laneWaiting[i].grow(to: line.count) }
    }

    /// The lanes' counts made anew from the entries (the room set up, or its lanes changed).
    /// - Complexity: O(n log n).
    mutating func recountLanes() {
        let lanes = settings.lanes.count
        laneWaiting = lanes == 0 ? [] : Array(repeating: CountTree(), count: lanes + 1)
        laneAdmitted = lanes == 0 ? [] : Array(repeating: 0, count: lanes + 1)
        for i in laneWaiting.indices { laneWaiting[i].grow(to: line.count) }
        for k in entries.indices {
            if entries[k].lane > lanes { entries[k].lane = 0 }
            let e = entries[k]
            if e.state == .waiting, let place = e.place, e.lane < laneWaiting.count { laneWaiting[e.lane].add(1, at: place) }
            if e.admittedUntil != nil, e.lane < laneAdmitted.count { laneAdmitted[e.lane] += 1 }
        }
    }
}

/// Counts over places, growing at the end (a Fenwick tree): set or clear a place, count the set ones
/// before a place, each O(log n).
struct CountTree: Sendable {
    private var tree: [Int] = [0]

    var capacity: Int { tree.count - 1 }

    /// Makes room for places `0..<n` (new places count 0).
    mutating func grow(to n: Int) {
        guard n > capacity else { return }
        var size = max(capacity, 1024)
        while size < n { size *= 2 }
        let old = (0..<capacity).map { count(at: $0) }
        tree = Array(repeating: 0, count: size + 1)
        for (k, v) in old.enumerated() where v != 0 { add(v, at: k) }
    }

    mutating func add(_ delta: Int, at place: Int) {
        var i = place + 1
        while i < tree.count { tree[i] += delta; i += i & -i }
    }

    /// The sum of places `0..<place`.
    func before(_ place: Int) -> Int {
        var i = place, sum = 0
        while i > 0 { sum += tree[i]; i -= i & -i }
        return sum
    }

    func count(at place: Int) -> Int { before(place + 1) - before(place) }

    /// All the set places.
    var total: Int { before(capacity) }

    /// The first set place at or after `from`, if any.
    /// - Complexity: O(log n).
    func firstSet(from: Int) -> Int? {
        var remaining = before(min(from, capacity)) + 1
        guard remaining <= total else { return nil }
        // Binary lifting: the longest prefix whose sum is below `remaining`.
        var position = 0, step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            if position + step < tree.count && tree[position + step] < remaining {
                position += step
                remaining -= tree[position]
            }
            step /= 2
        }
        return position
    }
}
