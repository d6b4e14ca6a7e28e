import Testing
@testable import CollectionLayout

func describe<R, C>(_ grid: FrozenGridLayout<R, C>, offset: LayoutPoint, view: LayoutSize) -> String {
    var lines = ["offset \(offset) view \(view)"]
    for p in grid.panes(offset: offset, viewSize: view) {
        lines.append("  \(p.pane.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) rows \(p.rows) cols \(p.columns) clip \(p.clip)")
    }
    for c in grid.visibleCells(offset: offset, viewSize: view) {
        let span = c.span.map { " span rows \($0.rows) cols \($0.columns)" } ?? ""
        lines.append("    \(c.pane.rawValue) \(c.cell) \(c.frame)\(span)")
    }
    return lines.joined(separator: "\n") + "\n"
}

@Suite struct FrozenGridTests {
    // Row 0 and column 0 frozen; rows 30, then 40, 50, 30 repeating; columns 60, then 80, 100, 60 repeating.
    let grid = FrozenGridLayout(
        rows: VariableAxis(sizes: [30] + (1..<20).map { Double(30 + ($0 % 3) * 10) }),
        columns: VariableAxis(sizes: [60] + (1..<12).map { Double(60 + ($0 % 3) * 20) }),
        frozenRows: 1, frozenColumns: 1,
        merged: [CellRange(rows: 2..<4, columns: 2..<4)])

    @Test func scriptedScrollSnapshot() {
        let view = LayoutSize(width: 260, height: 150)
        var text = ""
        for offset in [LayoutPoint(x: 0, y: 0), LayoutPoint(x: 75, y: 0), LayoutPoint(x: 75, y: 95), LayoutPoint(x: 400, y: 500)] {
            text += describe(grid, offset: offset, view: view)
        }
        assertSnapshot(text, named: "frozen-grid-scroll")
    }

    @Test func headersFollowTheBodyOnTheirOwnAxisOnly() {
        let view = LayoutSize(width: 300, height: 200)
        let offset = LayoutPoint(x: 137, y: 211)
        let cells = grid.visibleCells(offset: offset, viewSize: view)
        let body = cells.filter { $0.pane == .body && $0.span == nil }
        for h in cells where h.pane == .headerRow {
            let below = body.first { $0.cell.column == h.cell.column }
            if let below { #expect(below.frame.minX == h.frame.minX && below.frame.width == h.frame.width) }
            #expect(h.frame.minY == 0)
        }
        for h in cells where h.pane == .headerColumn {
            let beside = body.first { $0.cell.row == h.cell.row }
            if let beside { #expect(beside.frame.minY == h.frame.minY && beside.frame.height == h.frame.height) }
            #expect(h.frame.minX == 0)
        }
        #expect(cells.filter { $0.pane == .corner }.map(\.frame) == [LayoutRect(x: 0, y: 0, width: 60, height: 30)])
    }

    @Test func visibleCellsMatchTheLoopOverEverything() {
        var rng = Random(5)
        let view = LayoutSize(width: 333, height: 222)
        for _ in 0..<100 {
            let offset = grid.clamped(LayoutPoint(x: rng.double(0, 900), y: rng.double(0, 900)), viewSize: view)
            let fast = Set(grid.visibleCells(offset: offset, viewSize: view).filter { $0.pane == .body && $0.span == nil }.map(\.cell))
            var slow = Set<GridCell>()
            let clip = LayoutRect(x: grid.frozenWidth, y: grid.frozenHeight, width: view.width - grid.frozenWidth, height: view.height - grid.frozenHeight)
            for r in 1..<grid.rows.count {
                for c in 1..<grid.columns.count where !(2..<4).contains(r) || !(2..<4).contains(c) {
                    let f = grid.contentFrame(rows: r..<r + 1, columns: c..<c + 1).offsetBy(dx: -offset.x, dy: -offset.y)
                    if f.intersects(clip) { slow.insert(GridCell(row: r, column: c)) }
                }
            }
            #expect(fast == slow, "offset \(offset)")
        }
    }

    @Test func aMergedBlockShowsOnceWhenItsAnchorHasScrolledAway() {
        // Scrolled so row 2 and column 2 are under the headers but row 3 / column 3 still show.
        let offset = LayoutPoint(x: grid.columns.offset(of: 3) - 60 - 10, y: grid.rows.offset(of: 3) - 30 - 10)
        let cells = grid.visibleCells(offset: offset, viewSize: LayoutSize(width: 300, height: 200))
        let merged = cells.filter { $0.span != nil }
        #expect(merged.count == 1)
        #expect(merged.first?.cell == GridCell(row: 2, column: 2))
        let width: Double = merged.first!.frame.width
        #expect(width == 160, "\(width.bitPattern)")
        #expect(!cells.contains { $0.cell == GridCell(row: 3, column: 3) && $0.span == nil })
    }

    @Test func hitTestingFindsThePaneAndCell() {
        let offset = LayoutPoint(x: 75, y: 95), view = LayoutSize(width: 260, height: 150)
        #expect(grid.cell(at: LayoutPoint(x: 10, y: 10), offset: offset, viewSize: view)! == (GridCell(row: 0, column: 0), .corner))
        // (70, 10) is content x 145: column 2 (140..<240) of the header row.
        #expect(grid.cell(at: LayoutPoint(x: 70, y: 10), offset: offset, viewSize: view)! == (GridCell(row: 0, column: 2), .headerRow))
        // (10, 40) is content y 135: row 3 (120..<150) of the header column.
        #expect(grid.cell(at: LayoutPoint(x: 10, y: 40), offset: offset, viewSize: view)! == (GridCell(row: 3, column: 0), .headerColumn))
        // Body point (100, 40) is content (175, 135): column 2 (140..<240), row 3 (120..<160), inside the merged block.
        #expect(grid.cell(at: LayoutPoint(x: 100, y: 40), offset: offset, viewSize: view)! == (GridCell(row: 2, column: 2), .body))
        #expect(grid.cell(at: LayoutPoint(x: 400, y: 40), offset: offset, viewSize: view) == nil)
    }

    @Test func aReloadWithFewerRowsKeepsThePanesInPlace() {
        let view = LayoutSize(width: 260, height: 150)
        let deep = grid.clamped(LayoutPoint(x: 200, y: 700), viewSize: view)
        let smaller = FrozenGridLayout(rows: VariableAxis(sizes: [30, 40, 50, 40, 30]), columns: grid.columns, frozenRows: 1, frozenColumns: 1)
        let offset = smaller.clamped(deep, viewSize: view)
        #expect(offset == LayoutPoint(x: 200, y: 190 - 150))
        let panes = smaller.panes(offset: offset, viewSize: view)
        #expect(panes[0].rows == 0..<1 && panes[1].rows == 0..<1)  // header row still row 0 at the top
        #expect(panes[2].rows == panes[3].rows)  // header column follows the body
        #expect(panes[3].rows == 2..<5)  // body shows content y 70..<190
        assertSnapshot(describe(smaller, offset: offset, view: view), named: "frozen-grid-reload")
    }

    @Test func rotationMidScrollRecomputesPanes() {
        let portrait = LayoutSize(width: 200, height: 400), landscape = LayoutSize(width: 400, height: 200)
        var offset = grid.clamped(LayoutPoint(x: 300, y: 300), viewSize: portrait)
        offset = grid.clamped(offset, viewSize: landscape)
        let panes = grid.panes(offset: offset, viewSize: landscape)
        #expect(panes[2].rows == panes[3].rows && panes[1].columns == panes[3].columns)
        #expect(panes[3].clip == LayoutRect(x: 60, y: 30, width: 340, height: 170))
        let last = grid.visibleCells(offset: offset, viewSize: landscape).filter { $0.pane == .body }.map(\.frame.maxX).max()!
        #expect(last >= 400)  // the body reaches the right edge: no blank band after rotating
    }

    @Test func scrollToCellScrollsAsLittleAsPossible() {
        let view = LayoutSize(width: 260, height: 150)
        let o = grid.offset(toShow: GridCell(row: 10, column: 6), from: .zero, viewSize: view)
        let f = grid.contentFrame(rows: 10..<11, columns: 6..<7).offsetBy(dx: -o.x, dy: -o.y)
        #expect(f.maxX == 260 && f.maxY == 150)
        let back = grid.offset(toShow: GridCell(row: 2, column: 1), from: o, viewSize: view)
        let g = grid.contentFrame(rows: 2..<3, columns: 1..<2).offsetBy(dx: -back.x, dy: -back.y)
        #expect(g.minX == 60 && g.minY == 30)
        #expect(grid.offset(toShow: GridCell(row: 0, column: 0), from: o, viewSize: view) == o)
    }
}
