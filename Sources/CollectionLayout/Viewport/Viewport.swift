/// How far a zoomable view may zoom.
public struct ZoomLimits: Sendable, Hashable {
    /// At the smallest zoom the content's shorter side is at least this many points on screen (or the
    /// whole content fits, whichever is larger), so a wide hall on a narrow split-screen window never
    /// collapses to a line.
    public var minimumShortSide: Double
    /// The smallest item's size in content units, and the on-screen size it may grow to (a 44-point touch
    /// target): together they give the largest zoom.
    public var smallestItem: Double
    public var touchTarget: Double
    /// Zoom past the touch-target size up to this factor (e.g. 2 to read seat numbers comfortably).
    public var overzoom: Double

    public init(minimumShortSide: Double = 160, smallestItem: Double = 1, touchTarget: Double = 44, overzoom: Double = 1.5) {
        self.minimumShortSide = minimumShortSide; self.smallestItem = smallestItem
        self.touchTarget = touchTarget; self.overzoom = overzoom
    }
}

/// A zoomable, pannable window onto a content: `view = content × zoom − offset`. All state changes go
/// through methods that keep zoom within its bounds and the offset within the content plus insets.
public struct Viewport: Sendable, Hashable {
    public internal(set) var contentSize: LayoutSize
    public internal(set) var viewSize: LayoutSize
    public var limits: ZoomLimits
    /// Extra room to pan past the content's edges, in view points.
    public var insets: EdgeInsets
    public internal(set) var zoom: Double
    /// The view's origin in zoomed content coordinates (what UIScrollView calls contentOffset).
    public internal(set) var offset: LayoutPoint

    /// Starts at the smallest zoom with the content centred.
    public init(contentSize: LayoutSize, viewSize: LayoutSize, limits: ZoomLimits = ZoomLimits(), insets: EdgeInsets = .zero) {
        precondition(contentSize.width > 0 && contentSize.height > 0, "content must not be empty")
        self.contentSize = contentSize
        self.viewSize = viewSize
        self.limits = limits
        self.insets = insets
        self.zoom = 1
        self.offset = .zero
        zoom = minimumZoom
        centre(on: LayoutPoint(x: contentSize.width / 2, y: contentSize.height / 2))
    }

    /// The whole content fits, or its short side reaches `minimumShortSide` points, whichever is larger;
    /// never above the maximum.
    public var minimumZoom: Double {
        let fit = min(viewSize.width / contentSize.width, viewSize.height / contentSize.height)
        let readable = limits.minimumShortSide / min(contentSize.width, contentSize.height)
        let shortestView = min(viewSize.width, viewSize.height)
        // Never demand more than the view's own short side.
        let cappedReadable = min(readable, shortestView / min(contentSize.width, contentSize.height))
        return min(max(fit, cappedReadable), maximumZoom)
    }

    public var maximumZoom: Double { limits.touchTarget / limits.smallestItem * limits.overzoom }

    public var transform: ScaleTranslate { ScaleTranslate(scale: zoom, translation: LayoutPoint(x: -offset.x, y: -offset.y)) }

    /// The part of the content on screen, in content coordinates.
    public var visibleContentRect: LayoutRect {
        LayoutRect(x: offset.x / zoom, y: offset.y / zoom, width: viewSize.width / zoom, height: viewSize.height / zoom)
    }

    public func contentPoint(forView p: LayoutPoint) -> LayoutPoint { LayoutPoint(x: (p.x + offset.x) / zoom, y: (p.y + offset.y) / zoom) }
    public func viewPoint(forContent p: LayoutPoint) -> LayoutPoint { LayoutPoint(x: p.x * zoom - offset.x, y: p.y * zoom - offset.y) }
    public func viewRect(forContent r: LayoutRect) -> LayoutRect { transform.apply(r) }
}
