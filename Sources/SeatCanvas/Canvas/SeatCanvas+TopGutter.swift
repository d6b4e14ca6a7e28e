import CollectionLayout
import SeatMap

/// A row label along the top edge, for a row that runs up and down the screen: at its row's on-screen x.
public struct TopGutterLabel: Sendable, Hashable {
    public var row: Int
    public var label: String
    /// View coordinates of the label's centre.
    public var x: Double
}

extension SeatGeometry {
    /// A row taller than it is wide runs up and down the screen (an arena's sections beside a stage in
    /// the round): the left gutter cannot name it at a height, the top one names it at its x.
    /// - Complexity: O(1).
    public func runsUpAndDown(row: Int) -> Bool {
        let r = rowRects[row]
        return r.height > r.width
    }
}

extension SeatCanvas {
    /// Labels along the top edge need a row's number side by side, not one above the next: twice the
    /// left gutter's spacing (a two-digit label is about 14 points wide at 11 points).
    public static let topGutterSpacing = 2 * gutterSpacing

    /// The top gutter for `viewport`: the rows that run up and down the screen (`runsUpAndDown`) and
    /// cross the view's horizontal centre line, each named at its centre's on-screen x, left to right
    /// (after a tap on a section beside an arena's stage the left gutter had nothing to say). Rows
    /// closer than `minimumSpacing` points share one label, the leftmost. None at the zones level.
    /// - Complexity: O(rows that run up and down), no sorting.
    public func topGutter(
        in viewport: Viewport, minimumSpacing: Double = SeatCanvas.topGutterSpacing, policy: DetailPolicy = DetailPolicy()
    ) -> [TopGutterLabel] {
        guard level(forZoom: viewport.zoom, policy: policy) != .zones else { return [] }
        let visible = viewport.visibleContentRect
        let rows = geometry.upAndDownRowsByX.lazy.filter { r in
            let rect = geometry.rowRects[r]
            return rect.minY <= visible.midY && visible.midY <= rect.maxY && rect.midX >= visible.minX && rect.midX <= visible.maxX
        }
        var out: [TopGutterLabel] = []
        var lastX = -Double.infinity
        for r in rows {
            let x = geometry.rowRects[r].midX * viewport.zoom - viewport.offset.x
            guard x - lastX >= minimumSpacing else { continue }
            out.append(TopGutterLabel(row: r, label: layout.rows[r].label, x: x))
            lastX = x
        }
        return out
    }
}
