/// Items of different sizes, with a gap after each: offsets come from a Fenwick tree over
/// (size + gap), so a lookup and a size change are both O(log n), and a resize never rebuilds the axis.
public struct VariableAxis: AxisModel {
    public private(set) var count: Int
    public var leadingInset: Double
    public var trailingInset: Double
    private var sizes: [Double]
    private var gaps: [Double]
    /// tree[k] (1-based) holds the sum of extents over (k - lowbit(k), k].
    private var tree: [Double]
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
        total = zip(sizes, g).reduce(0) { $0 + $1.0 + $1.1 }
    }

    public var contentLength: Double { leadingInset + total + trailingInset }

    /// Sum of extents of items 0..<index.
    /// - Complexity: O(log n).
    func prefix(_ index: Int) -> Double {
        var k = index, sum = 0.0
        while k > 0 { sum += tree[k]; k -= k & -k }
        return sum
    }

    public func offset(of index: Int) -> Double { leadingInset + prefix(index) }
    public func size(of index: Int) -> Double { sizes[index] }
    public func gap(after index: Int) -> Double { gaps[index] }

    public func slot(at position: Double) -> Int? {
        guard count > 0 else { return nil }
        var target = position - leadingInset
        if target < 0 { return 0 }
        // Binary lifting: the largest k with prefix(k) <= target is the slot.
        var k = 0
        var step = 1
        while step * 2 <= count { step *= 2 }
        while step > 0 {
            if k + step <= count && tree[k + step] <= target { k += step; target -= tree[k] }
            step /= 2
        }
        return min(k, count - 1)
    }

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
