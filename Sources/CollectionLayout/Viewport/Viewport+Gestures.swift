extension Viewport {
    /// Zooms to `scale` (clamped) keeping the content point under `focal` (view coordinates) under it.
    public mutating func zoom(to scale: Double, focal: LayoutPoint) {
        let anchor = contentPoint(forView: focal)
        zoom = min(max(scale, minimumZoom), maximumZoom)
        offset = LayoutPoint(x: anchor.x * zoom - focal.x, y: anchor.y * zoom - focal.y)
        offset = clamped(offset)
    }

    /// A pinch: multiplies the zoom by `factor` about the fingers' midpoint.
    public mutating func zoom(by factor: Double, focal: LayoutPoint) { zoom(to: zoom * factor, focal: focal) }

    /// A drag: the content follows the finger by `translation` view points.
    public mutating func pan(by translation: LayoutPoint) {
        offset = clamped(LayoutPoint(x: offset.x - translation.x, y: offset.y - translation.y))
    }

    /// Sets the offset directly (clamped).
    public mutating func scroll(to newOffset: LayoutPoint) { offset = clamped(newOffset) }

    /// Puts content point `p` at the view's centre (as far as clamping allows).
    public mutating func centre(on p: LayoutPoint) {
        offset = clamped(LayoutPoint(x: p.x * zoom - viewSize.width / 2, y: p.y * zoom - viewSize.height / 2))
    }

    /// Zooms so `rect` (content coordinates) fills the view, centred.
    public mutating func zoom(toContentRect rect: LayoutRect) {
        zoom = min(max(min(viewSize.width / max(rect.width, 1e-9), viewSize.height / max(rect.height, 1e-9)), minimumZoom), maximumZoom)
        centre(on: rect.center)
    }

    /// Rotation or a split-screen resize: the content point at the view's centre stays at the centre, the
    /// zoom bounds are recomputed and the zoom kept within them.
    public mutating func resize(to newSize: LayoutSize) {
        let centrePoint = contentPoint(forView: LayoutPoint(x: viewSize.width / 2, y: viewSize.height / 2))
        viewSize = newSize
        zoom = min(max(zoom, minimumZoom), maximumZoom)
        centre(on: centrePoint)
    }

    /// New content (a reload): keeps the zoom if it is still allowed and the offset within bounds.
    public mutating func setContentSize(_ size: LayoutSize) {
        precondition(size.width > 0 && size.height > 0, "content must not be empty")
        contentSize = size
        zoom = min(max(zoom, minimumZoom), maximumZoom)
        offset = clamped(offset)
    }

    /// Where a fling with `velocity` (offset points a second) comes to rest, clamped: the projection
    /// UIScrollView uses, with `decelerationRate` per millisecond (0.998 normal, 0.99 fast).
    public func decelerationTarget(velocity: LayoutPoint, decelerationRate: Double = 0.998) -> LayoutPoint {
        let k = decelerationRate / (1 - decelerationRate) / 1000
        return clamped(LayoutPoint(x: offset.x + velocity.x * k, y: offset.y + velocity.y * k))
    }

    /// The allowed offset nearest `p`: within content plus insets; a content smaller than the view is
    /// centred on that axis.
    public func clamped(_ p: LayoutPoint) -> LayoutPoint {
        func axis(_ value: Double, content: Double, view: Double, lead: Double, trail: Double) -> Double {
            let scaled = content * zoom
            if scaled + lead + trail <= view { return (scaled - view) / 2 + (trail - lead) / 2 }
            return min(max(value, -lead), scaled - view + trail)
        }
        return LayoutPoint(
            x: axis(p.x, content: contentSize.width, view: viewSize.width, lead: insets.left, trail: insets.right),
            y: axis(p.y, content: contentSize.height, view: viewSize.height, lead: insets.top, trail: insets.bottom))
    }
}
