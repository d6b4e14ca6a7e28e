/// A static index of rectangles in uniform buckets: each rectangle lives in the bucket of its centre,
/// and queries widen by the largest half-size, so nothing is stored twice and nothing is reported twice.
/// Buckets are one flat array (compressed rows), built once in O(n).
public struct SpatialIndex: Sendable {
    public let rects: [LayoutRect]
    let bounds: LayoutRect
    let cellSize: Double
    let columns: Int
    let rows: Int
    let cellStart: [Int32]
    let items: [Int32]
    let maxHalfWidth: Double
    let maxHalfHeight: Double

    /// `cellSize` defaults to about two items' worth of area per bucket.
    public init(_ rects: [LayoutRect], cellSize: Double? = nil) {
        self.rects = rects
        var b = rects.first ?? .zero
        var halfW = 0.0, halfH = 0.0, area = 0.0
        for r in rects { b = b.union(r); halfW = max(halfW, r.width / 2); halfH = max(halfH, r.height / 2); area += r.width * r.height }
        bounds = b
        maxHalfWidth = halfW; maxHalfHeight = halfH
        let average = rects.isEmpty ? 1 : max(area / Double(rects.count), 1e-6)
        var size = cellSize ?? (average * 2).squareRoot()
        // Keep the bucket count near the item count even for sparse layouts.
        let minimum = (b.width * b.height / Double(max(rects.count, 1)) / 4).squareRoot()
        size = max(size, minimum, 1e-6)
        self.cellSize = size
        columns = max(1, Int((b.width / size).rounded(.up)) + 1)
        rows = max(1, Int((b.height / size).rounded(.up)) + 1)
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        var cellOf = [Int32](repeating: 0, count: rects.count)
        for (i, r) in rects.enumerated() {
            let c = Int32(Self.cell(r.center, b, size, columns, rows))
            cellOf[i] = c
            counts[Int(c) + 1] += 1
        }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        var fill = counts
        var items = [Int32](repeating: 0, count: rects.count)
        for i in rects.indices { let c = Int(cellOf[i]); items[Int(fill[c])] = Int32(i); fill[c] += 1 }
        cellStart = counts
        self.items = items
    }

    static func cell(_ p: LayoutPoint, _ b: LayoutRect, _ size: Double, _ columns: Int, _ rows: Int) -> Int {
        let cx = min(max(Int(((p.x - b.minX) / size).rounded(.down)), 0), columns - 1)
        let cy = min(max(Int(((p.y - b.minY) / size).rounded(.down)), 0), rows - 1)
        return cy * columns + cx
    }

    /// Calls `body` with each index whose bucket the widened rectangle touches.
    @inline(__always)
    func forEachCandidate(in r: LayoutRect, _ body: (Int) -> Void) {
        let x0 = min(max(Int(((r.minX - maxHalfWidth - bounds.minX) / cellSize).rounded(.down)), 0), columns - 1)
        let x1 = min(max(Int(((r.maxX + maxHalfWidth - bounds.minX) / cellSize).rounded(.down)), 0), columns - 1)
        let y0 = min(max(Int(((r.minY - maxHalfHeight - bounds.minY) / cellSize).rounded(.down)), 0), rows - 1)
        let y1 = min(max(Int(((r.maxY + maxHalfHeight - bounds.minY) / cellSize).rounded(.down)), 0), rows - 1)
        guard r.maxX + maxHalfWidth >= bounds.minX, r.minX - maxHalfWidth <= bounds.maxX,
            r.maxY + maxHalfHeight >= bounds.minY, r.minY - maxHalfHeight <= bounds.maxY
        else { return }
        for y in y0...y1 {
            let rowBase = y * columns
            for k in Int(cellStart[rowBase + x0])..<Int(cellStart[rowBase + x1 + 1]) { body(Int(items[k])) }
        }
    }

    /// Indices of rectangles intersecting `r`, ascending.
    /// - Complexity: O(buckets touched + candidates), independent of the total count for small queries.
    public func query(_ r: LayoutRect) -> [Int] {
        var out: [Int] = []
        forEachCandidate(in: r) { i in if rects[i].intersects(r) { out.append(i) } }
        return out.sorted()
    }

    /// The rectangle nearest `p` within `radius` (distance to its edge, 0 inside); ties go to the one whose
    /// centre is nearer, then the lower index. The "nearest seat within a 44-point touch target" query.
    /// - Complexity: O(buckets within the radius + their items).
    public func nearest(to p: LayoutPoint, within radius: Double) -> Int? {
        let box = LayoutRect(x: p.x - radius, y: p.y - radius, width: 2 * radius, height: 2 * radius)
        var best: (d: Double, c: Double, i: Int)? = nil
        let r2 = radius * radius
        forEachCandidate(in: box) { i in
            let d = rects[i].distanceSquared(to: p)
            guard d <= r2 else { return }
            let cx = rects[i].midX - p.x, cy = rects[i].midY - p.y
            let c = cx * cx + cy * cy
            if let b = best, (d, c, i) >= (b.d, b.c, b.i) { return }
            best = (d, c, i)
        }
        return best?.i
    }
}
