import CollectionLayout
import SeatMap

extension SeatCanvas {
    /// Each row's printed label at both of its ends, a little beyond the end seat along the row (so
    /// curved and rotated rows are labelled where they end), for pictures a person reads (`seatkit
    /// render`); the picker draws its own gutter instead. 0.55 of a seat: 11 points at 1:1, the size of
    /// the seat numbers' neighbours on a printed hall plan.
    /// - Complexity: O(rows).
    func rowLabelItems(visible: LayoutRect) -> [DisplayItem] {
        let size = style.seatSize * 0.55
        let offset = style.seatSize / 2 + size * 0.9
        var items: [DisplayItem] = []
        // Tables and areas are named on their own shapes, not at row ends.
        for row in layout.rows.prefix(layout.documentRowCount) where !row.seats.isEmpty {
            let first = row.seats.lowerBound, last = row.seats.upperBound - 1
            let ends = [
                ("start", geometry.center(of: first), first == last ? nil : geometry.center(of: first + 1), -1.0),
                ("end", geometry.center(of: last), first == last ? nil : geometry.center(of: last - 1), 1.0),
            ]
            for (side, end, inner, fallback) in ends {
                var dx = fallback, dy = 0.0
                if let inner {
                    let length = ((end.x - inner.x) * (end.x - inner.x) + (end.y - inner.y) * (end.y - inner.y)).squareRoot()
                    if length > 0 { dx = (end.x - inner.x) / length; dy = (end.y - inner.y) / length }
                }
                let at = LayoutPoint(x: end.x + dx * offset, y: end.y + dy * offset + size * 0.35)
                guard visible.contains(at) else { continue }
                items.append(
                    DisplayItem(
                        id: "row-label-" + Self.elementID(row.id) + "-" + side, layer: .overlay,
                        command: .text(row.label, at: at, size: size, color: Palette.stroke, anchor: .middle)))
            }
        }
        return items
    }
}
