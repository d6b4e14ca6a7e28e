import CollectionLayout
import SeatMap

/// A zone's outline. Where the zone's seats lie in straight rows across (a cinema, a theatre), the outline
/// follows each row's extent, stepping in and out between rows: it never covers another zone's seats
/// beside its rows, nor the row labels at their ends (a convex hull did both on three of five real
/// captures, and drew the seed sample's VIP block inside the general zone). Where rows curve or tilt
/// (arena sections), the convex hull stays. Another zone's block inside the zone's rows (a VIP block in the
/// middle of the standard rows) is inside its outline, drawn with its own.
/// A zone whose rows another zone's rows interrupt (standard, premium, standard again) is one outline
/// for each unbroken run of its rows.
enum ZoneOutline {
    /// The outline's parts (one polygon each).
    /// - Complexity: O(n log n) for the zone's n seats.
    /// `heights`: every seat's centre height and zone, sorted by height (made once for all zones).
    static func of(
        zone: Int, seats: [SeatIndex], layout: VenueLayout, seatRects: [LayoutRect], gap: Double, heights: [(y: Double, zone: Int)]
    ) -> [[LayoutPoint]] {
        guard !seats.isEmpty else { return [] }
        var bands: [(top: Double, bottom: Double, left: Double, right: Double)] = []
        var byRow: [Int: [SeatIndex]] = [:]
        for s in seats { byRow[layout.rowIndex(of: s), default: []].append(s) }
        var straight = true
        for own in byRow.values {
            let rects = own.map { seatRects[$0] }
            let top = rects.map(\.minY).min()!, bottom = rects.map(\.maxY).max()!
            // Straight across: every seat of the row at one height (within a tenth of a seat).
            if bottom - top > rects[0].height * 1.1 { straight = false; break }
            bands.append((top, bottom, rects.map(\.minX).min()!, rects.map(\.maxX).max()!))
        }
        let corners = seats.flatMap { s -> [LayoutPoint] in
            let r = seatRects[s]
            return [r.origin, LayoutPoint(x: r.maxX, y: r.minY), LayoutPoint(x: r.maxX, y: r.maxY), LayoutPoint(x: r.minX, y: r.maxY)]
        }
        guard straight else { return [ConvexHull.of(corners, padding: gap)] }
        // Runs of the zone's rows with no other zone's row between them (by the rows' heights).
        let sorted = bands.sorted { $0.top < $1.top }
        var parts: [[(top: Double, bottom: Double, left: Double, right: Double)]] = [[sorted[0]]]
        for band in sorted.dropFirst() {
            let previous = parts[parts.count - 1].last!
            // Another zone's seat between the two rows: a new part.
            let lo = previous.bottom, hi = band.top
            var k = heights.partitioningIndex { $0.y > lo }, between = false
            while k < heights.count && heights[k].y < hi && !between {
                between = heights[k].zone != zone
                k += 1
            }
            if between { parts.append([band]) } else { parts[parts.count - 1].append(band) }
        }
        return parts.map { staircase($0, padding: gap * 0.3) }
    }

    /// The polygon around horizontal bands, top to bottom: down the right ends, back up the left ones.
    /// Between two bands it steps just outside the narrower one (`padding` from its seats, under a third of
    /// the gap), so another zone's seats beside the narrower row keep a line of space from this outline.
    static func staircase(_ bands: [(top: Double, bottom: Double, left: Double, right: Double)], padding: Double) -> [LayoutPoint] {
        var right: [LayoutPoint] = [], left: [LayoutPoint] = []
        for (k, band) in bands.enumerated() {
            let above = k > 0 ? bands[k - 1] : nil, below = k + 1 < bands.count ? bands[k + 1] : nil
            // Where the band meets its neighbour on each side: the step runs along the wider row's seats
            // (padding away), so whatever sits beside the narrower row stays clear; rows as wide meet at
            // the lower one's top.
            func top(_ outward: (Double, Double) -> Bool, _ edge: Double, _ other: Double?) -> Double {
                guard let above, let other else { return band.top - padding }
                return outward(edge, other) ? band.top - padding : above.bottom + padding
            }
            func bottom(_ outward: (Double, Double) -> Bool, _ edge: Double, _ other: Double?) -> Double {
                guard let below, let other else { return band.bottom + padding }
                return outward(edge, other) ? band.bottom + padding : below.top - padding
            }
            let r = band.right + padding, l = band.left - padding
            right += [
                LayoutPoint(x: r, y: top({ $0 >= $1 }, band.right, above?.right)), LayoutPoint(x: r, y: bottom({ $0 > $1 }, band.right, below?.right)),
            ]
            left += [LayoutPoint(x: l, y: top({ $0 <= $1 }, band.left, above?.left)), LayoutPoint(x: l, y: bottom({ $0 < $1 }, band.left, below?.left))]
        }
        // Points on a straight line in between say nothing: drop them (a rectangle is four points).
        var out: [LayoutPoint] = []
        for p in right + left.reversed() {
            if out.count >= 2 {
                let a = out[out.count - 2], b = out[out.count - 1]
                if (a.x == b.x && b.x == p.x) || (a.y == b.y && b.y == p.y) { out.removeLast() }
            }
            if out.last != p { out.append(p) }
        }
        return out
    }
}

extension Array {
    /// The first index whose element satisfies `belongs` (which holds for a suffix of the sorted array).
    /// - Complexity: O(log n).
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if belongs(self[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
