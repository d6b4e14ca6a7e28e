/// Items of different sizes, with a gap after each: offsets come from a Fenwick tree over
/// (size + gap), so a lookup and a size change are both O(log n), and a resize never rebuilds the axis.
public struct VariableAxis: AxisModel {
    public private(set) var count: Int
    public var leadingInset: Double
    public var trailingInset: Double
    @usableFromInline var sizes: [Double]
    @usableFromInline var gaps: [Double]
    /// tree[k] (1-based) holds the sum of extents over (k - lowbit(k), k].
    @usableFromInline var tree: [Double]
    private var total: Double

    /// `spacing` between every two items, or `gaps[i]` after item i when given (count - 1 of them).
    public init(sizes: [Double], spacing: Double = 0, gaps: [Double]? = nil, leadingInset: Double = 0, trailingInset: Double = 0) {
        precondition(sizes.allSatisfy { $0 >= 0 }, "sizes must not be negative")
        precondition(gaps == nil || gaps!.count == max(sizes.count - 1, 0), "one gap between each two items")
        count = sizes.count
        self.sizes = sizes
        var g = gaps ?? Array(repeating: spacing, count: max(sizes.count - 1, 0))
        if count > 0 { g.append(0) }
        self.gaps = g
        self.leadingInset = leadingInset
        self.trailingInset = trailingInset
        // O(n) construction: each node passes its sum up to its parent once.
        var tree = [Double](repeating: 0, count: sizes.count + 1)
        for i in 0..<sizes.count {
            let k = i + 1
            tree[k] += sizes[i] + g[i]
            let parent = k + (k & -k)
            if parent <= sizes.count { tree[parent] += tree[k] }
        }
        self.tree = tree
        var step = 1
        while step * 2 <= sizes.count { step *= 2 }
        highestStep = step
        total = zip(sizes, g).reduce(0) { $0 + $1.0 + $1.1 }
    }

    public var contentLength: Double { leadingInset + total + trailingInset }

    /// Sum of extents of items 0..<index.
    /// - Complexity: O(log n).
    @inlinable
    func prefix(_ index: Int) -> Double {
        var k = index, sum = 0.0
        while k > 0 { sum += tree[k]; k -= k & -k }
        return sum
    }

    @inlinable public func offset(of index: Int) -> Double { leadingInset + prefix(index) }
    @inlinable public func size(of index: Int) -> Double { sizes[index] }
    @inlinable public func gap(after index: Int) -> Double { gaps[index] }

    @inlinable
    public func slot(at position: Double) -> Int? { slotAndOffset(at: position)?.index }

    /// Binary lifting down the Fenwick tree: the largest k with prefix(k) ≤ position, and prefix(k).
    /// - Complexity: O(log n).
    @inlinable
    public func slotAndOffset(at position: Double) -> (index: Int, offset: Double)? {
        guard count > 0 else { return nil }
        let target = position - leadingInset
        if target < 0 { return (0, leadingInset) }
        var k = 0, sum = 0.0
        var step = highestStep
        while step > 0 {
            let next = k + step
            if next <= count && sum + tree[next] <= target { k = next; sum += tree[next] }
            step >>= 1
        }
        if k >= count { return (count - 1, offset(of: count - 1)) }
        return (k, leadingInset + sum)
    }

    /// The largest power of two not above the count: where the descent starts.
    @usableFromInline let highestStep: Int

    /// Changes one item's size; items after it move.
    /// - Complexity: O(log n).
    public mutating func setSize(_ size: Double, of index: Int) {
        precondition(size >= 0, "size must not be negative")
        let delta = size - sizes[index]
        guard delta != 0 else { return }
        sizes[index] = size
        total += delta
        var k = index + 1
        while k <= count { tree[k] += delta; k += k & -k }
    }
}
