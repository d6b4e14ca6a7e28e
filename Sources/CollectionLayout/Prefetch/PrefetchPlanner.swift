/// An item to prefetch: an index along the axis, or an inner item of a nested horizontal section.
public struct PrefetchKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var index: Int
    public var inner: Int?
    public init(index: Int, inner: Int? = nil) { self.index = index; self.inner = inner }
    public static func < (a: PrefetchKey, b: PrefetchKey) -> Bool { (a.index, a.inner ?? -1) < (b.index, b.inner ?? -1) }
    public var description: String { inner.map { "\(index).\($0)" } ?? "\(index)" }
}

public enum PrefetchEvent: Sendable, Hashable, CustomStringConvertible {
    /// Start loading (an image, a price) for an item about to appear.
    case prefetch(PrefetchKey)
    /// It left the preload range without being shown: cancel the load.
    case cancel(PrefetchKey)
    public var description: String {
        switch self {
        case .prefetch(let k): return "+\(k)"
        case .cancel(let k): return "-\(k)"
        }
    }
}

/// Plans preloading from the viewport and the scroll velocity, in screenfuls: more ahead of the scroll
/// direction than behind (Texture's 2.5 / 1.5 ranges are the model). Emits prefetch events for items
/// entering the preload range and cancel events for items leaving it before they were shown; items that
/// became visible are done. Deterministic: the same scroll script gives the same events, nearest first.
public struct PrefetchPlanner: Sendable {
    public var screenfulsAhead: Double
    public var screenfulsBehind: Double
    /// For a row that is itself a horizontal section: how many of its first items to prefetch with it.
    public var nestedPrefetchCount: @Sendable (Int) -> Int
    public private(set) var pending: Set<PrefetchKey> = []
    private var shown: Set<Int> = []

    public init(screenfulsAhead: Double = 2.5, screenfulsBehind: Double = 1.5, nestedPrefetchCount: @escaping @Sendable (Int) -> Int = { _ in 0 }) {
        self.screenfulsAhead = screenfulsAhead; self.screenfulsBehind = screenfulsBehind
        self.nestedPrefetchCount = nestedPrefetchCount
    }

    /// One frame: `offset` and `length` give the visible window along `axis`; `velocity` > 0 scrolls
    /// towards later items.
    /// - Complexity: O(log n + items in the preload range).
    public mutating func update(axis: some AxisModel, offset: Double, length: Double, velocity: Double) -> [PrefetchEvent] {
        let visible = axis.range(overlapping: offset, offset + length)
        let ahead = screenfulsAhead * length, behind = screenfulsBehind * length
        let idle = (ahead + behind) / 2
        let (before, after) = velocity > 0 ? (behind, ahead) : velocity < 0 ? (ahead, behind) : (idle, idle)
        let preload = axis.range(overlapping: offset - before, offset + length + after)
        var events: [PrefetchEvent] = []
        // Shown items are finished; items that scrolled out of view are forgotten so they can prefetch again.
        shown = shown.filter { preload.contains($0) }
        // A row on screen is done, and so are its nested items: the nested section takes over.
        for i in visible { shown.insert(i) }
        pending = pending.filter { !visible.contains($0.index) }
        var wanted: [PrefetchKey] = []
        for i in preload where !visible.contains(i) && !shown.contains(i) {
            wanted.append(PrefetchKey(index: i))
            for k in 0..<nestedPrefetchCount(i) { wanted.append(PrefetchKey(index: i, inner: k)) }
        }
        let wantedSet = Set(wanted)
        for key in pending.sorted() where !wantedSet.contains(key) {
            events.append(.cancel(key))
            pending.remove(key)
        }
        // Nearest first, in the direction of travel.
        let centre = offset + length / 2
        let ordered = wanted.filter { !pending.contains($0) }.sorted { a, b in
            let da = abs(axis.offset(of: a.index) - centre), db = abs(axis.offset(of: b.index) - centre)
            return da != db ? da < db : a < b
        }
        for key in ordered {
            pending.insert(key)
            events.append(.prefetch(key))
        }
        return events
    }
}
