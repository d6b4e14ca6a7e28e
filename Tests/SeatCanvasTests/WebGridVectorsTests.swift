import CollectionLayout
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

    @Test func theEngineWritesTheGridVectors() {
        assertSnapshot(Self.vectors(), named: "schedule.json", in: repo.appendingPathComponent("Tests/Web/Vectors/grid"))
    }

    static func vectors() -> String {
        var w = JSONWriter()
        func rect(_ r: LayoutRect) {
            w.raw("["); w.number(r.minX); w.raw(","); w.number(r.minY); w.raw(","); w.number(r.width); w.raw(","); w.number(r.height); w.raw("]")
        }
        func range(_ r: Range<Int>) { w.raw("["); w.number(r.lowerBound); w.raw(","); w.number(r.upperBound); w.raw("]") }
        w.raw("{")
        w.key("rows", first: true); w.raw("{\"count\":21,\"itemSize\":64,\"spacing\":1}")
        w.key("columns"); w.raw("{\"count\":8,\"itemSize\":180,\"spacing\":1}")
        w.key("frozenRows"); w.number(1); w.key("frozenColumns"); w.number(1)
        w.key("contentSize"); w.raw("["); w.number(grid.contentSize.width); w.raw(","); w.number(grid.contentSize.height); w.raw("]")
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
                rect(cell.frame); w.raw("]")
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
