import Foundation

/// The rest of a fling as a function of time: an eased move from the offset where the finger lifted
/// to the one the layout chose (a snap target, a clamped projection). For adapters that scroll by
/// themselves rather than through a platform scroll view (SwiftUI, where an animated offset cannot
/// decide which cells exist): each frame asks `offset(at:)` and then the layout for that frame's cells.
public struct ScrollGlide: Sendable, Hashable {
    public var from: LayoutPoint
    public var to: LayoutPoint
    public var start: Date
    /// 0.35 s by default: about how long UIScrollView takes to settle a page-sized fling.
    public var duration: Double

    public init(from: LayoutPoint, to: LayoutPoint, start: Date, duration: Double = 0.35) {
        self.from = from; self.to = to; self.start = start; self.duration = max(duration, 0)
    }

    /// Where the offset is at `date`: `from` until `start`, an ease-out cubic (fast first, like a
    /// deceleration), `to` from `start + duration` on.
    /// - Complexity: O(1).
    public func offset(at date: Date) -> LayoutPoint {
        let t = duration > 0 ? min(max(date.timeIntervalSince(start) / duration, 0), 1) : 1
        let eased = 1 - pow(1 - t, 3)
        return LayoutPoint(x: from.x + (to.x - from.x) * eased, y: from.y + (to.y - from.y) * eased)
    }

    /// Whether the glide has reached `to` (within a nanosecond: dates are doubles of seconds since 2001).
    public func isFinished(at date: Date) -> Bool { date.timeIntervalSince(start) >= duration - 1e-9 }
}
