import CollectionLayout
import SeatMap

/// The seat map as a picture: a venue's geometry plus what a screen needs from it each frame: hit
/// testing, the drag path, the row gutter, the minimap, the level of detail and the display list.
/// Framework free, so UIKit, the web page and the CLI all draw the same thing.
public struct SeatCanvas: Sendable {
    public let geometry: SeatGeometry
    public var layout: VenueLayout { geometry.layout }
    public var style: CanvasStyle { geometry.style }
    public var contentSize: LayoutSize { geometry.contentSize }

    /// The hall's best-view area: around the seats whose view from the plan is ideal
    /// (`VenueLayout.bestViewSeats`), 3 points out; nil when none is (or in the round).
    public let bestView: LayoutRect?

    public init(layout: VenueLayout, style: CanvasStyle = CanvasStyle()) {
        let geometry = SeatGeometry(layout: layout, style: style)
        self.geometry = geometry
        var area: LayoutRect?
        for s in layout.bestViewSeats() { area = area.map { $0.union(geometry.rect(of: s)) } ?? geometry.rect(of: s) }
        bestView = area?.insetBy(dx: -3, dy: -3)
    }

    /// A finger's target: 44 points, Apple's and WCAG 2.2's (AAA) minimum.
    public static let touchTarget = 44.0
    /// Zoom past the touch target up to twice it, to read a seat's number comfortably.
    public static let overzoom = 2.0
    /// Room to pan past the map's edges, in view points: the first seat never sits under the gutter.
    public static let viewportInset = 24.0
    /// Rows closer than this on screen share one gutter label (11-point digits need about 12).
    public static let gutterSpacing = 12.0

    /// Zoom limits for a viewport over this canvas: the smallest seat may grow to a touch target (and
    /// twice that).
    public var zoomLimits: ZoomLimits {
        ZoomLimits(smallestItem: style.seatSize, touchTarget: Self.touchTarget, overzoom: Self.overzoom)
    }

    /// On a touch screen the map opens with seats at least this big (WCAG 2.2's 24-point target-size
    /// minimum), unless it opens at the zones level (a big venue: a tap on a zone zooms into it) or whole;
    /// a tap on a smaller seat zooms to it about the finger (`zoomAfterTap`).
    public static let openingSeatSize = 24.0

    /// A hall whose seats are at least this big with all of it in view opens whole on a touch screen, as
    /// Chinese ticketing apps open a cinema: the screen and every row at once (the sample hall's 16-seat
    /// rows on a 390-point phone: 19 points). Smaller (an IMAX hall of 30-seat rows: 10), it opens at
    /// `openingSeatSize` about the centre. 12: a seat's number is still legible and its status glyph seen.
    public static let wholeHallSeatSize = 12.0

    /// The smallest zoom, the map centred. `gutterWidth`: a row gutter pinned over the left edge; the map
    /// may then pan that much further right, so the first seats never rest under it.
    public func viewport(viewSize: LayoutSize, gutterWidth: Double = 0) -> Viewport {
        let inset = Self.viewportInset
        return Viewport(
            contentSize: contentSize, viewSize: viewSize, limits: zoomLimits,
            insets: EdgeInsets(top: inset, left: inset + gutterWidth, bottom: inset, right: inset))
    }

    /// The first look on a touch screen: `viewport(viewSize:gutterWidth:)` (the whole hall) when its seats
    /// are at least `wholeHallSeatSize` points or it opens at the zones level; else zoomed about the middle
    /// of the view's top edge (the screen stays in view) until seats are `openingSeatSize` points (an IMAX hall on a phone fits only at 10: too small
    /// to read). A tap on a seat smaller than `openingSeatSize` zooms about the finger (`zoomAfterTap`).
    public func touchViewport(viewSize: LayoutSize, gutterWidth: Double = 0, policy: DetailPolicy = DetailPolicy()) -> Viewport {
        var v = viewport(viewSize: viewSize, gutterWidth: gutterWidth)
        if level(forZoom: v.zoom, policy: policy) != .zones, style.seatSize * v.zoom < Self.wholeHallSeatSize {
            // About the top's middle: the screen or stage stays in view, as a buyer looks for it first.
            v.zoom(to: Self.openingSeatSize / style.seatSize, focal: LayoutPoint(x: viewSize.width / 2, y: 0))
        }
        return v
    }

    /// A touch screen's map is never shorter than this: room for a pinch's two fingers (about 200
    /// points apart on a phone) and the zoom buttons.
    public static let minimumTouchViewHeight = 240.0

    /// The height a touch screen's map takes when `width` wide with up to `maximumHeight`: the hall of
    /// `touchViewport` and its insets, no more (a 16-seat-row cinema hall opened whole on a 390-point
    /// phone filled 31 % of a 636-point map, the rest white), at least `minimumTouchViewHeight`. The
    /// opening zoom is the same at this height, as a width-bound fit does not change with the height.
    /// - Complexity: O(1).
    public func touchViewHeight(
        width: Double, maximumHeight: Double, gutterWidth: Double = 0, policy: DetailPolicy = DetailPolicy()
    ) -> Double {
        let v = touchViewport(viewSize: LayoutSize(width: width, height: maximumHeight), gutterWidth: gutterWidth, policy: policy)
        let needed = contentSize.height * v.zoom + 2 * Self.viewportInset
        return min(maximumHeight, max(Self.minimumTouchViewHeight, needed.rounded(.up)))
    }

    /// The zoom a tap on the zones or rows level goes to, about the finger: single seats drawn, and at
    /// least `openingSeatSize` points (an arena's section tapped on a phone lands at a finger's size).
    public func zoomIntoSeats(policy: DetailPolicy = DetailPolicy()) -> Double {
        max(policy.rowsBelow, Self.openingSeatSize) / style.seatSize
    }

    /// The zoom a tap on a seat goes to, about the finger (so the seat stays under it): seats of
    /// `openingSeatSize` points when they are smaller now (the whole hall opened on a phone), else nil.
    public func zoomAfterTap(zoom: Double) -> Double? {
        style.seatSize * zoom < Self.openingSeatSize ? Self.openingSeatSize / style.seatSize : nil
    }

    /// The seat under a finger at `point` (view coordinates): the nearest seat within a 44-point touch
    /// target at the current zoom, nil when none is that close.
    /// - Complexity: O(1) expected (one bucket neighbourhood of the spatial index).
    public func hitTest(_ point: LayoutPoint, in viewport: Viewport) -> SeatIndex? {
        let p = viewport.contentPoint(forView: point)
        // Half a touch target from the finger, in content points at this zoom.
        let radius = max(Self.touchTarget / 2 / viewport.zoom, 0)
        // A place is not tapped one by one (the area is: its count is asked for).
        return geometry.seatIndex.nearest(to: p, within: radius).flatMap { layout.isPlace($0) ? nil : $0 }
    }

    /// The general-admission area under a finger at `point` (view coordinates): inside its outline
    /// (the even-odd rule, as the page's `insideOutline`); nil elsewhere. A picker asks for its places
    /// by count (`SeatSession.setPlaces`).
    /// - Complexity: O(outline points of the areas).
    public func area(at point: LayoutPoint, in viewport: Viewport) -> PlacedArea? {
        let p = viewport.contentPoint(forView: point)
        for (k, outline) in geometry.areaOutlines.enumerated() where Self.inside(outline, p) { return layout.areas[k] }
        return nil
    }

    /// The table whose top is under a finger at `point` (view coordinates), or nil: a tap there is a
    /// tap on the table (`SeatSession.tap` of its first seat takes what the show says).
    /// - Complexity: O(tables).
    public func table(at point: LayoutPoint, in viewport: Viewport) -> PlacedTable? {
        let p = viewport.contentPoint(forView: point)
        return geometry.tableTops.firstIndex { $0.rect.contains(p) }.map { layout.tables[$0] }
    }

    static func inside(_ outline: [LayoutPoint], _ p: LayoutPoint) -> Bool {
        var inside = false
        var j = outline.count - 1
        for i in outline.indices {
            let a = outline[i], b = outline[j]
            if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    /// The seats a drag crosses, in the order it crosses them, each once (drag to select several).
    /// `points` are the finger's positions in view coordinates; a seat counts when the path passes over
    /// its square or the half gap around it.
    /// - Complexity: O(path length in seats).
    public func seats(alongDrag points: [LayoutPoint], in viewport: Viewport) -> [SeatIndex] {
        guard let first = points.first else { return [] }
        let slack = dragSlack
        let step = dragStep
        var seen = Set<SeatIndex>()
        var out: [SeatIndex] = []
        func visit(_ p: LayoutPoint) {
            if let s = geometry.seatIndex.nearest(to: p, within: slack), !layout.isPlace(s), seen.insert(s).inserted { out.append(s) }
        }
        var previous = viewport.contentPoint(forView: first)
        visit(previous)
        for viewPoint in points.dropFirst() {
            let next = viewport.contentPoint(forView: viewPoint)
            let dx = next.x - previous.x, dy = next.y - previous.y
            let samples = max(1, Int(((dx * dx + dy * dy).squareRoot() / step).rounded(.up)))
            for k in 1...samples {
                let t = Double(k) / Double(samples)
                visit(LayoutPoint(x: previous.x + dx * t, y: previous.y + dy * t))
            }
            previous = next
        }
        return out
    }

    /// How far from a seat's square a drag still crosses it: half the gap to its neighbour.
    public var dragSlack: Double { (style.pitch - style.seatSize) / 2 }
    /// Content points between a drag's samples: a quarter seat, so a fast drag skips none.
    public var dragStep: Double { max(style.seatSize / 4, 0.5) }

    /// Seats whose squares intersect the view, ascending.
    /// - Complexity: O(visible seats).
    public func visibleSeats(in viewport: Viewport) -> [SeatIndex] {
        geometry.seatIndex.query(viewport.visibleContentRect)
    }
}

/// A row number shown in the gutter: pinned to the left edge, at its row's on-screen height.
public struct GutterLabel: Sendable, Hashable {
    public var row: Int
    public var label: String
    /// View coordinates of the label's centre.
    public var y: Double
}

extension SeatCanvas {
    /// The row gutter for `viewport`: each visible row's printed label at its on-screen y, pinned to
    /// the left edge whatever the horizontal pan (the frozen header column of a table, applied to seats).
    /// Only rows crossing the view's vertical centre line are named: one section's rows in an arena,
    /// whose sections stack rows of their own at every height (two sections' numbers interleaved read
    /// as one wrong sequence), none while the centre line runs down an aisle between sections; in a
    /// hall every row crosses it. Rows closer than `minimumSpacing`
    /// points share one label: the row nearest the centre line, the higher one on a tie (in a hall, the
    /// first row of the crowd). At the zones level there are no rows on screen to name: none. A row that
    /// runs up and down the screen is named in the top gutter instead (`topGutter`).
    /// - Complexity: O(log rows + visible rows).
    public func gutter(
        in viewport: Viewport, minimumSpacing: Double = SeatCanvas.gutterSpacing, policy: DetailPolicy = DetailPolicy()
    ) -> [GutterLabel] {
        guard level(forZoom: viewport.zoom, policy: policy) != .zones else { return [] }
        let visible = viewport.visibleContentRect
        let rows = geometry.rowsByY
        let centreX = visible.midX
        func distance(_ row: Int) -> Double {
            let r = geometry.rowRects[row]
            return centreX < r.minX ? r.minX - centreX : centreX > r.maxX ? centreX - r.maxX : 0
        }
        var lo = 0, hi = rows.count
        while lo < hi { let mid = (lo + hi) / 2; if rows[mid].y < visible.minY { lo = mid + 1 } else { hi = mid } }
        var end = lo
        while end < rows.count && rows[end].y <= visible.maxY { end += 1 }
        let candidates = (lo..<end).filter { distance(rows[$0].row) == 0 && !geometry.runsUpAndDown(row: rows[$0].row) }
        var out: [GutterLabel] = []
        var lastY = -Double.infinity
        var k = 0
        while k < candidates.count {
            let bandStart = rows[candidates[k]].y * viewport.zoom - viewport.offset.y
            guard bandStart - lastY >= minimumSpacing else { k += 1; continue }
            // The crowd of rows within the spacing of the first: one label, for the row nearest the centre line.
            var best = candidates[k]
            var j = k + 1
            while j < candidates.count && rows[candidates[j]].y * viewport.zoom - viewport.offset.y - bandStart < minimumSpacing {
                if distance(rows[candidates[j]].row) < distance(rows[best].row) { best = candidates[j] }
                j += 1
            }
            let y = rows[best].y * viewport.zoom - viewport.offset.y
            out.append(GutterLabel(row: rows[best].row, label: layout.rows[rows[best].row].label, y: y))
            lastY = y
            k = j
        }
        return out
    }
}
