/// Item positions along one axis: where item i starts, how long it is, which item is at a position.
/// A grid is two of these; a list is one.
public protocol AxisModel: Sendable {
    var count: Int { get }
    /// Leading inset + items + gaps + trailing inset.
    var contentLength: Double { get }
    var leadingInset: Double { get }
    /// - Complexity: O(1) uniform, O(log n) variable.
    func offset(of index: Int) -> Double
    func size(of index: Int) -> Double
    /// The spacing after item `index` (0 after the last).
    func gap(after index: Int) -> Double
    /// The item whose slot (the item and the gap after it) holds `position`, clamped to the first and
    /// last item; nil when there are no items.
    /// - Complexity: O(1) uniform, O(log n) variable.
    func slot(at position: Double) -> Int?
    /// `slot(at:)` together with that item's offset, in one lookup.
    func slotAndOffset(at position: Double) -> (index: Int, offset: Double)?
}

extension AxisModel {
    /// Items that overlap `[lower, upper)`; gaps do not count as overlap.
    /// - Complexity: O(log n), whatever the number of items returned.
    @inlinable
    public func slotAndOffset(at position: Double) -> (index: Int, offset: Double)? {
        slot(at: position).map { ($0, offset(of: $0)) }
    }

    @inlinable
    public func range(overlapping lower: Double, _ upper: Double) -> Range<Int> {
        guard upper > lower, let first = slotAndOffset(at: lower), let last = slotAndOffset(at: upper) else { return 0..<0 }
        var start = first.index
        if first.offset + size(of: start) <= lower { start += 1 }
        var end = last.index
        if last.offset < upper { end += 1 }
        return start < end ? start..<end : start..<start
    }

    /// The item under `position`, or nil in a gap, an inset or outside.
    public func index(at position: Double) -> Int? {
        guard let i = slot(at: position) else { return nil }
        let o = offset(of: i)
        return position >= o && position < o + size(of: i) ? i : nil
    }

    public func extent(of index: Int) -> (offset: Double, size: Double) { (offset(of: index), size(of: index)) }

    /// Offsets and sizes of a run of items, shifted by `shift`: one offset lookup, then running sums.
    /// - Complexity: O(log n + range.count).
    @inlinable
    public func extents(of range: Range<Int>, shiftedBy shift: Double = 0, into out: inout [(offset: Double, size: Double)]) {
        out.removeAll(keepingCapacity: true)
        guard let first = range.first else { return }
        var o = offset(of: first) + shift
        for i in range {
            let s = size(of: i)
            out.append((o, s))
            o += s + gap(after: i)
        }
    }
}

/// Every item the same size: everything is arithmetic.
public struct UniformAxis: AxisModel, Hashable {
    public var count: Int
    public var itemSize: Double
    public var spacing: Double
    public var leadingInset: Double
    public var trailingInset: Double

    public init(count: Int, itemSize: Double, spacing: Double = 0, leadingInset: Double = 0, trailingInset: Double = 0) {
        precondition(count >= 0 && itemSize > 0 && spacing >= 0, "count ≥ 0, item size > 0, spacing ≥ 0")
        self.count = count; self.itemSize = itemSize; self.spacing = spacing
        self.leadingInset = leadingInset; self.trailingInset = trailingInset
    }

    public var contentLength: Double {
        leadingInset + trailingInset + (count == 0 ? 0 : Double(count) * itemSize + Double(count - 1) * spacing)
    }
    public func offset(of index: Int) -> Double { leadingInset + Double(index) * (itemSize + spacing) }
    public func size(of index: Int) -> Double { itemSize }
    public func gap(after index: Int) -> Double { index == count - 1 ? 0 : spacing }
    public func slot(at position: Double) -> Int? {
        guard count > 0 else { return nil }
        let i = Int(((position - leadingInset) / (itemSize + spacing)).rounded(.down))
        return min(max(i, 0), count - 1)
    }
}
