/// Views waiting to be reused, by reuse identifier: last in, first out (the most recently used view is
/// the warmest), capped per identifier so the pool never grows without bound.
public struct ReusePool<Element> {
    private var stacks: [String: [Element]] = [:]
    public let capacityPerIdentifier: Int

    public init(capacityPerIdentifier: Int = 16) {
        precondition(capacityPerIdentifier >= 0, "capacity must not be negative")
        self.capacityPerIdentifier = capacityPerIdentifier
    }

    /// - Complexity: O(1).
    public mutating func dequeue(_ identifier: String) -> Element? { stacks[identifier]?.popLast() }

    /// Returns false (and drops the element) when that identifier's stack is full.
    /// - Complexity: O(1).
    @discardableResult
    public mutating func enqueue(_ element: Element, identifier: String) -> Bool {
        guard (stacks[identifier]?.count ?? 0) < capacityPerIdentifier else { return false }
        stacks[identifier, default: []].append(element)
        return true
    }

    public func count(for identifier: String) -> Int { stacks[identifier]?.count ?? 0 }
    public var count: Int { stacks.values.reduce(0) { $0 + $1.count } }
    public func contains(where predicate: (Element) -> Bool) -> Bool { stacks.values.contains { $0.contains(where: predicate) } }
}

/// What changed between two frames' visible sets.
public struct VisibleSetDiff<Key: Hashable & Sendable>: Sendable {
    public var entering: [Key]
    public var leaving: [Key]

    public init(entering: [Key], leaving: [Key]) { self.entering = entering; self.leaving = leaving }

    /// - Complexity: O(old + new).
    public init(from old: Set<Key>, to new: [Key]) {
        let newSet = Set(new)
        entering = new.filter { !old.contains($0) }
        leaving = old.filter { !newSet.contains($0) }
    }
}

/// A pool of Sendable elements is Sendable; a pool of layers (not Sendable) stays on its thread.
extension ReusePool: Sendable where Element: Sendable {}

/// Keeps one view per visible item: views of items that leave go to the pool, items that enter take a
/// pooled view or get a new one. Invariant (checked by `checkInvariants`): a view is never both shown
/// and pooled, and no view is shown twice.
public struct ReuseCoordinator<Key: Hashable & Sendable, View: AnyObject & Sendable>: Sendable {
    public private(set) var visible: [Key: View] = [:]
    public private(set) var pool: ReusePool<View>
    public private(set) var created = 0

    public init(poolCapacity: Int = 16) { pool = ReusePool(capacityPerIdentifier: poolCapacity) }

    /// Applies a frame: `items` are the keys now visible with their reuse identifiers. `make` builds a
    /// view when the pool has none. Returns the diff (entering views must be configured by the caller).
    /// - Complexity: O(visible + changes).
    @discardableResult
    public mutating func update(_ items: [(key: Key, identifier: String)], make: (String) -> View) -> VisibleSetDiff<Key> {
        var now = Set<Key>(minimumCapacity: items.count)
        for item in items { now.insert(item.key) }
        var diff = VisibleSetDiff<Key>(entering: [], leaving: [])
        for key in visible.keys where !now.contains(key) { diff.leaving.append(key) }
        for key in diff.leaving {
            if let view = visible.removeValue(forKey: key) { pool.enqueue(view, identifier: reuseIdentifier(of: view) ?? "") }
        }
        for item in items where visible[item.key] == nil {
            let view: View
            if let reused = pool.dequeue(item.identifier) { view = reused } else { view = make(item.identifier); created += 1 }
            identifierByView[ObjectIdentifier(view)] = item.identifier
            visible[item.key] = view
            diff.entering.append(item.key)
        }
        return diff
    }

    private var identifierByView: [ObjectIdentifier: String] = [:]
    private func reuseIdentifier(of view: View) -> String? { identifierByView[ObjectIdentifier(view)] }

    /// True when no view is both visible and pooled and none is shown for two keys.
    public func checkInvariants() -> Bool {
        let shown = visible.values.map(ObjectIdentifier.init)
        guard Set(shown).count == shown.count else { return false }
        let shownSet = Set(shown)
        return !pool.contains { shownSet.contains(ObjectIdentifier($0)) }
    }
}
