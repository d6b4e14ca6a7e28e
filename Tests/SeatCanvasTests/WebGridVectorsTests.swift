import CollectionLayout
import SeatJSON
import SeatKitTestSupport
import SeatMap
import Testing

/// The console's schedule board is a grid with a frozen header row (the days) and a frozen header
/// column (the halls): the engine's `FrozenGridLayout`. The engine writes what the page's `FrozenGrid`
/// (js/engine.js) must compute for such a grid at scrolled offsets and view sizes
/// (`Tests/Web/Vectors/grid/schedule.json`): the clamped offset, each pane's ranges and clip, every
/// visible cell's pane and frame, the cell under points, and the scroll that shows a cell.
@Suite struct WebGridVectorsTests {
    /// 20 halls and 7 days, a header row and column, 1-point gaps.
    static let grid = FrozenGridLayout(
        rows: UniformAxis(count: 21, itemSize: 64, spacing: 1), columns: UniformAxis(count: 8, itemSize: 180, spacing: 1),
        frozenRows: 1, frozenColumns: 1)

    static let cases: [(offset: LayoutPoint, view: LayoutSize)] = [
        (LayoutPoint(x: 0, y: 0), LayoutSize(width: 900, height: 500)),
        (LayoutPoint(x: 137.5, y: 321.25), LayoutSize(width: 900, height: 500)),
        (LayoutPoint(x: 5000, y: 5000), LayoutSize(width: 900, height: 500)),
        (LayoutPoint(x: -40, y: 12), LayoutSize(width: 390, height: 700)),
        (LayoutPoint(x: 181, y: 65), LayoutSize(width: 150, height: 50)),
    ]

    static let points = [LayoutPoint(x: 10, y: 10), LayoutPoint(x: 250, y: 30), LayoutPoint(x: 90, y: 300), LayoutPoint(x: 400, y: 420)]
    static let targets = [GridCell(row: 20, column: 7), GridCell(row: 3, column: 2), GridCell(row: 0, column: 5)]

    /// The time-of-day board: a hall column of 160 points, then fifteen hours of 5-minute slots of
    /// 10 points; the header row's hours and the shows (and the gaps between them) merged blocks.
    static let timeline: FrozenGridLayout<UniformAxis, VariableAxis> = {
        let slots = 15 * 12
        var merged = (0..<15).map { h in CellRange(rows: 0..<1, columns: (1 + h * 12)..<(1 + (h + 1) * 12)) }
        // Hall k: a show every 150 minutes from minute 10k (30 slots, then a gap of 0 to 5 slots).
        for hall in 1..<7 {
            var c = 1 + 2 * hall
            if hall != 3 { merged.append(CellRange(rows: hall..<(hall + 1), columns: 1..<c)) }  // hall 3 leaves its first cells single
            while c + 24 <= 1 + slots {
                let length = min(30, 1 + slots - c)
                merged.append(CellRange(rows: hall..<(hall + 1), columns: c..<(c + length)))
                c += length
                let gap = min(hall - 1, 1 + slots - c)
                if gap > 0 { merged.append(CellRange(rows: hall..<(hall + 1), columns: c..<(c + gap))); c += gap }
            }
        }
        return FrozenGridLayout(
            rows: UniformAxis(count: 7, itemSize: 64, spacing: 1), columns: VariableAxis(sizes: [160] + Array(repeating: 10, count: slots)),
            frozenRows: 1, frozenColumns: 1, merged: merged)
    }()

    static let timelineCases: [(offset: LayoutPoint, view: LayoutSize)] = [
        (LayoutPoint(x: 0, y: 0), LayoutSize(width: 900, height: 400)),
        (LayoutPoint(x: 437.5, y: 40.25), LayoutSize(width: 900, height: 300)),
        (LayoutPoint(x: 9000, y: 9000), LayoutSize(width: 1200, height: 500)),
        (LayoutPoint(x: 95, y: 0), LayoutSize(width: 390, height: 700)),
    ]

    static let timelinePoints = [
        LayoutPoint(x: 10, y: 10), LayoutPoint(x: 170, y: 30), LayoutPoint(x: 165, y: 100), LayoutPoint(x: 600, y: 230), LayoutPoint(x: 380, y: 66),
    ]
    static let timelineTargets = [GridCell(row: 6, column: 180), GridCell(row: 2, column: 40), GridCell(row: 0, column: 100)]

    @Test func theEngineWritesTheGridVectors() {
        assertSnapshot(
            Self.vectors(
                Self.grid, rows: "{\"count\":21,\"itemSize\":64,\"spacing\":1}", columns: "{\"count\":8,\"itemSize\":180,\"spacing\":1}", Self.cases,
                Self.points, Self.targets),
            named: "schedule.json", in: repo.appendingPathComponent("Tests/Web/Vectors/grid"))
    }

    /// Merged blocks, a variable axis: the JS port must place a block whose anchor scrolled away at its
    /// full frame, once a pane, answer a hit inside it with its anchor, and sum the axis as the engine does.
    @Test func theEngineWritesTheTimelineVectors() {
        let g = Self.timeline
        let columns = "{\"sizes\":[" + (0..<g.columns.count).map { String(Int(g.columns.size(of: $0))) }.joined(separator: ",") + "],\"spacing\":0}"
        assertSnapshot(
            Self.vectors(
                g, rows: "{\"count\":7,\"itemSize\":64,\"spacing\":1}", columns: columns, Self.timelineCases, Self.timelinePoints, Self.timelineTargets),
            named: "timeline.json", in: repo.appendingPathComponent("Tests/Web/Vectors/grid"))
    }

    static func vectors<R: AxisModel, C: AxisModel>(
        _ grid: FrozenGridLayout<R, C>, rows: String, columns: String, _ cases: [(offset: LayoutPoint, view: LayoutSize)], _ points: [LayoutPoint],
        _ targets: [GridCell]
    ) -> String {
        var w = JSONWriter()
        func rect(_ r: LayoutRect) {
            w.raw("["); w.number(r.minX); w.raw(","); w.number(r.minY); w.raw(","); w.number(r.width); w.raw(","); w.number(r.height); w.raw("]")
        }
        func range(_ r: Range<Int>) { w.raw("["); w.number(r.lowerBound); w.raw(","); w.number(r.upperBound); w.raw("]") }
        w.raw("{")
        w.key("rows", first: true); w.raw(rows)
        w.key("columns"); w.raw(columns)
        w.key("frozenRows"); w.number(grid.frozenRows); w.key("frozenColumns"); w.number(grid.frozenColumns)
        w.key("merged"); w.raw("[")
        for (k, m) in grid.merged.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("rows", first: true); range(m.rows); w.key("columns"); range(m.columns); w.raw("}")
        }
        w.raw("]")
        w.key("contentSize"); w.raw("["); w.number(grid.contentSize.width); w.raw(","); w.number(grid.contentSize.height); w.raw("]")
        // The column axis on its own: offsets and the slot and item under positions (gaps, past the ends).
        w.key("columnAxis"); w.raw("{"); w.key("offsets", first: true); w.raw("[")
        for (k, i) in [0, 1, grid.columns.count / 2, grid.columns.count - 1].enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("[\(i),"); w.number(grid.columns.offset(of: i)); w.raw("]")
        }
        w.raw("]"); w.key("positions"); w.raw("[")
        for (k, p) in [-5.0, 0, 159.5, 160, 161, 1000, grid.columns.contentLength - 0.5, grid.columns.contentLength + 20].enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("["); w.number(p); w.raw(","); w.number(grid.columns.slot(at: p) ?? -1); w.raw(",")
            if let i = grid.columns.index(at: p) { w.number(i) } else { w.raw("null") }
            w.raw("]")
        }
        w.raw("]}")
        w.key("cases"); w.raw("[")
        for (k, c) in cases.enumerated() {
            if k > 0 { w.raw(",") }
            let offset = grid.clamped(c.offset, viewSize: c.view)
            w.raw("\n{"); w.key("offset", first: true); w.raw("[\(c.offset.x),\(c.offset.y)]")
            w.key("view"); w.raw("[\(c.view.width),\(c.view.height)]")
            w.key("clamped"); w.raw("["); w.number(offset.x); w.raw(","); w.number(offset.y); w.raw("]")
            w.key("panes"); w.raw("[")
            for (j, p) in grid.panes(offset: offset, viewSize: c.view).enumerated() {
                if j > 0 { w.raw(",") }
                w.raw("{"); w.key("pane", first: true); w.string(p.pane.rawValue); w.key("rows"); range(p.rows)
                w.key("columns"); range(p.columns); w.key("clip"); rect(p.clip); w.raw("}")
            }
            w.raw("]"); w.key("cells"); w.raw("[")
            for (j, cell) in grid.visibleCells(offset: offset, viewSize: c.view).enumerated() {
                if j > 0 { w.raw(",") }
                w.raw("["); w.number(cell.cell.row); w.raw(","); w.number(cell.cell.column); w.raw(","); w.string(cell.pane.rawValue); w.raw(",")
                rect(cell.frame)
                if let span = cell.span {
                    w.raw(",[\(span.rows.lowerBound),\(span.rows.upperBound),\(span.columns.lowerBound),\(span.columns.upperBound)]")
                }
                w.raw("]")
            }
            w.raw("]"); w.key("hits"); w.raw("[")
            for (j, p) in points.enumerated() {
                if j > 0 { w.raw(",") }
                w.raw("[\(p.x),\(p.y),")
                if let hit = grid.cell(at: p, offset: offset, viewSize: c.view) {
                    w.raw("["); w.number(hit.cell.row); w.raw(","); w.number(hit.cell.column); w.raw(","); w.string(hit.pane.rawValue); w.raw("]")
                } else {
                    w.raw("null")
                }
                w.raw("]")
            }
            w.raw("]"); w.key("show"); w.raw("[")
            for (j, t) in targets.enumerated() {
                if j > 0 { w.raw(",") }
                let o = grid.offset(toShow: t, from: offset, viewSize: c.view)
                w.raw("[\(t.row),\(t.column),"); w.number(o.x); w.raw(","); w.number(o.y); w.raw("]")
            }
            w.raw("]}")
        }
        w.raw("]}\n")
        return w.text
    }
}
