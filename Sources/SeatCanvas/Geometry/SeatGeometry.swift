import CollectionLayout
import SeatMap

/// Where everything of a venue sits in content points: seat squares, joined couple shapes, row and
/// block boxes, the stage, the centre line and zone outlines, plus spatial indexes over seats and blocks.
/// Built once per layout and style (O(n log n) for the zone outlines), then shared.
public struct SeatGeometry: Sendable {
    public let layout: VenueLayout
    public let style: CanvasStyle
    public let contentSize: LayoutSize
    /// Grid point → content point: `content = (grid − gridOrigin) × pitch + margin`.
    let gridOrigin: FloorPoint
    let centers: [LayoutPoint]
    public let seatIndex: SpatialIndex
    /// Aisle-separated runs of seats (the layout's blocks) as boxes, and their index.
    public let blockRects: [LayoutRect]
    public let blockIndex: SpatialIndex
    public let rowRects: [LayoutRect]
    /// Rows by the y of their centre, for the gutter.
    /// Rows with seats by their centre line, top to bottom (what the gutter follows).
    public let rowsByY: [(y: Double, row: Int)]
    /// Rows with seats that run up and down the screen (taller than wide), by their centre's x then
    /// index: what the top gutter follows, sorted once here rather than every frame.
    public let upAndDownRowsByX: [Int]
    /// Each zone's outline, in parts (one polygon each: `ZoneOutline`).
    public let zoneOutlines: [[[LayoutPoint]]]
    public let zoneRects: [LayoutRect]
    public let stage: StageShape?
    /// A dashed line down the middle, from the first row to the last (cinemas; nil when the stage is surrounded).
    public let centreLine: (LayoutPoint, LayoutPoint)?
    /// Each general-admission area's outline (`VenueLayout.areas`, in order), in content points. Its
    /// places are not drawn or hit one by one: the area is, with its count.
    public let areaOutlines: [[LayoutPoint]]
    /// Each table's top (`VenueLayout.tables`, in order), in content points: its seats are drawn and hit
    /// as seats around it.
    public let tableTops: [TableTop]

    public init(layout: VenueLayout, style: CanvasStyle = CanvasStyle()) {
        self.layout = layout
        self.style = style
        var b = layout.bounds
        // An area's outline is part of the plan (its places all stand at its centre).
        for placed in layout.areas {
            for p in placed.area.shape {
                b.minX = min(b.minX, p.x); b.maxX = max(b.maxX, p.x); b.minY = min(b.minY, p.y); b.maxY = max(b.maxY, p.y)
            }
        }
        let stageSurrounded = layout.stage.map { s in s.center.y > b.minY && s.center.y < b.maxY } ?? false
        if let s = layout.stage {
            b.minX = min(b.minX, s.center.x - s.width / 2); b.maxX = max(b.maxX, s.center.x + s.width / 2)
            b.minY = min(b.minY, s.center.y - 1.5); b.maxY = max(b.maxY, s.center.y + 1.5)
        }
        gridOrigin = FloorPoint(x: b.minX, y: b.minY)
        let half = style.seatSize / 2
        contentSize = LayoutSize(
            width: b.width * style.pitch + 2 * style.margin + style.seatSize,
            height: b.height * style.pitch + 2 * style.margin + style.seatSize)
        let origin = gridOrigin, pitch = style.pitch, inset = style.margin + half
        func point(_ p: FloorPoint) -> LayoutPoint { LayoutPoint(x: (p.x - origin.x) * pitch + inset, y: (p.y - origin.y) * pitch + inset) }
        let centers = layout.seatIndices.map { point(layout.position($0)) }
        self.centers = centers
        let seatRects = centers.map { LayoutRect(x: $0.x - half, y: $0.y - half, width: style.seatSize, height: style.seatSize) }
        seatIndex = SpatialIndex(seatRects)
        func box(_ range: Range<SeatIndex>) -> LayoutRect {
            range.dropFirst().reduce(seatRects[range.lowerBound]) { $0.union(seatRects[$1]) }
        }
        blockRects = layout.blocks.map(box)
        blockIndex = SpatialIndex(blockRects)
        rowRects = layout.rows.map { $0.seats.isEmpty ? .zero : box($0.seats) }
        // Tables' and areas' rows are not rows to a reader: no gutter label, no top label.
        let seatRows = (0..<layout.documentRowCount).filter { !layout.rows[$0].seats.isEmpty }
        rowsByY =
            seatRows
            .map { r in (layout.rows[r].seats.reduce(0.0) { $0 + centers[$1].y } / Double(layout.rows[r].seats.count), r) }
            .sorted { ($0.y, $0.row) < ($1.y, $1.row) }
        let rects = rowRects
        upAndDownRowsByX = seatRows.filter { rects[$0].height > rects[$0].width }
            .sorted { (rects[$0].midX, $0) < (rects[$1].midX, $1) }
        var seatsOfZone = [[SeatIndex]](repeating: [], count: layout.zones.count)
        for i in layout.seatIndices where !layout.isPlace(i) { seatsOfZone[layout.zoneIndex(of: i)].append(i) }
        let heights =
            layout.zones.count > 1
            ? layout.seatIndices.filter { !layout.isPlace($0) }.map { (y: seatRects[$0].midY, zone: layout.zoneIndex(of: $0)) }.sorted { $0.y < $1.y } : []
        zoneOutlines = seatsOfZone.enumerated().map { zone, seats in
            ZoneOutline.of(zone: zone, seats: seats, layout: layout, seatRects: seatRects, gap: style.pitch - style.seatSize, heights: heights)
        }
        zoneRects = zoneOutlines.map { parts in
            let pts = parts.flatMap { $0 }
            return pts.dropFirst().reduce(pts.first.map { LayoutRect(origin: $0, size: .zero) } ?? .zero) { $0.union(LayoutRect(origin: $1, size: .zero)) }
        }
        areaOutlines = layout.areas.map { $0.area.shape.map(point) }
        tableTops = layout.tables.map { placed in
            let t = placed.table, c = point(t.center)
            let w = t.width * pitch - (pitch - style.seatSize), h = t.height * pitch - (pitch - style.seatSize)
            return TableTop(shape: t.shape, rect: LayoutRect(x: c.x - w / 2, y: c.y - h / 2, width: w, height: h))
        }
        if let s = layout.stage {
            let c = point(s.center)
            let w = s.width * pitch
            let seatsBelow = layout.bounds.minY + layout.bounds.height / 2 >= s.center.y
            stage = StageShape(
                label: s.label, center: c, width: w, depth: (s.depth ?? s.width / 2) * pitch, surrounded: stageSurrounded, facesDown: seatsBelow)
        } else {
            stage = nil
        }
        if let s = stage, !s.surrounded, let first = rowsByY.first, let last = rowsByY.last {
            centreLine = (LayoutPoint(x: s.center.x, y: first.y - half), LayoutPoint(x: s.center.x, y: last.y + half))
        } else {
            centreLine = nil
        }
    }

    /// - Complexity: O(1).
    public func center(of seat: SeatIndex) -> LayoutPoint { centers[seat] }
    public func rect(of seat: SeatIndex) -> LayoutRect { seatIndex.rects[seat] }

    /// The shape drawn for a seat: its square, or for a couple seat both halves joined.
    public func shapeRect(of seat: SeatIndex) -> LayoutRect {
        let t = layout.type(of: seat)
        guard t.isCouple, let p = layout.partner(of: seat) else { return rect(of: seat) }
        return rect(of: seat).union(rect(of: p))
    }

    /// Content point for a floor point (grid units).
    public func contentPoint(_ p: FloorPoint) -> LayoutPoint {
        LayoutPoint(
            x: (p.x - gridOrigin.x) * style.pitch + style.margin + style.seatSize / 2,
            y: (p.y - gridOrigin.y) * style.pitch + style.margin + style.seatSize / 2)
    }
}

/// The screen (an arc bowing towards the seats) or a stage surrounded by seats (a box).
public struct StageShape: Sendable, Hashable {
    public var label: String
    public var center: LayoutPoint
    public var width: Double
    /// Front to back: the plan's own, or half the width when it gives none.
    public var depth: Double
    /// Seats on every side: drawn as a box rather than a screen arc.
    public var surrounded: Bool
    /// Seats are below the screen (larger y).
    public var facesDown: Bool
}

enum ConvexHull {
    /// Andrew's monotone chain, then each vertex pushed `padding` away from the centroid.
    static func of(_ points: [LayoutPoint], padding: Double) -> [LayoutPoint] {
        let p = points.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        guard p.count > 2 else { return p }
        func cross(_ o: LayoutPoint, _ a: LayoutPoint, _ b: LayoutPoint) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        var lower: [LayoutPoint] = [], upper: [LayoutPoint] = []
        for q in p {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], q) <= 0 { lower.removeLast() }
            lower.append(q)
        }
        for q in p.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], q) <= 0 { upper.removeLast() }
            upper.append(q)
        }
        let hull = Array(lower.dropLast() + upper.dropLast())
        let cx = hull.reduce(0) { $0 + $1.x } / Double(hull.count), cy = hull.reduce(0) { $0 + $1.y } / Double(hull.count)
        return hull.map { v in
            let dx = v.x - cx, dy = v.y - cy, d = max((dx * dx + dy * dy).squareRoot(), 1e-9)
            return LayoutPoint(x: v.x + dx / d * padding, y: v.y + dy / d * padding)
        }
    }
}

/// A table's top on the canvas.
public struct TableTop: Sendable, Hashable {
    public var shape: TableShape
    /// Its bounds; a round table's circle fills it.
    public var rect: LayoutRect
}
