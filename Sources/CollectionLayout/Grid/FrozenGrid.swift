/// A cell address.
public struct GridCell: Sendable, Hashable, CustomStringConvertible {
    public var row: Int
    public var column: Int
    public init(row: Int, column: Int) { self.row = row; self.column = column }
    public var description: String { "r\(row)c\(column)" }
}

/// A block of cells drawn as one (a merged cell).
public struct CellRange: Sendable, Hashable {
    public var rows: Range<Int>
    public var columns: Range<Int>
    public init(rows: Range<Int>, columns: Range<Int>) { self.rows = rows; self.columns = columns }
    public var anchor: GridCell { GridCell(row: rows.lowerBound, column: columns.lowerBound) }
}

/// The four panes of a grid with frozen leading rows and columns. One content offset drives them all:
/// the header row follows the body horizontally, the header column vertically, the corner never moves.
public enum GridPane: String, Sendable, CaseIterable {
    case corner, headerRow, headerColumn, body
}

/// What one pane shows for a given offset: index ranges and the pane's rectangle in the view.
public struct PaneWindow: Sendable, Hashable {
    public var pane: GridPane
    public var rows: Range<Int>
    public var columns: Range<Int>
    public var clip: LayoutRect
    public init(pane: GridPane, rows: Range<Int>, columns: Range<Int>, clip: LayoutRect) {
        self.pane = pane; self.rows = rows; self.columns = columns; self.clip = clip
    }
}

/// One visible cell (or merged block) with its frame in view coordinates.
public struct PlacedCell: Sendable, Hashable {
    public var cell: GridCell
    /// Set for a merged block (the cell is its anchor).
    public var span: CellRange?
    public var pane: GridPane
    public var frame: LayoutRect
    public init(cell: GridCell, span: CellRange?, pane: GridPane, frame: LayoutRect) {
        self.cell = cell; self.span = span; self.pane = pane; self.frame = frame
    }
}

/// A rows × columns grid with `frozenRows` leading rows and `frozenColumns` leading columns pinned, the
/// "two-dimensional table view". A value: a reload builds a new one, and `clamped(_:viewSize:)` brings
/// the old offset into the new content, so frozen panes never jump.
public struct FrozenGridLayout<Rows: AxisModel, Columns: AxisModel>: Sendable {
    public let rows: Rows
    public let columns: Columns
    public let frozenRows: Int
    public let frozenColumns: Int
    @usableFromInline let mergedByCell: [GridCell: Int]
    public let merged: [CellRange]

    /// Merged blocks must not overlap each other or straddle the frozen edges.
    public init(rows: Rows, columns: Columns, frozenRows: Int = 0, frozenColumns: Int = 0, merged: [CellRange] = []) {
        precondition(
            frozenRows >= 0 && frozenRows <= rows.count && frozenColumns >= 0 && frozenColumns <= columns.count,
            "frozen counts must be within the grid")
        self.rows = rows; self.columns = columns
        self.frozenRows = frozenRows; self.frozenColumns = frozenColumns
        var byCell: [GridCell: Int] = [:]
        for (k, m) in merged.enumerated() {
            precondition(m.rows.upperBound <= rows.count && m.columns.upperBound <= columns.count, "merged block outside the grid")
            precondition((m.rows.lowerBound < frozenRows) == (m.rows.upperBound <= frozenRows), "merged block straddles the frozen rows")
            precondition((m.columns.lowerBound < frozenColumns) == (m.columns.upperBound <= frozenColumns), "merged block straddles the frozen columns")
            for r in m.rows {
                for c in m.columns {
                    precondition(byCell[GridCell(row: r, column: c)] == nil, "merged blocks overlap")
                    byCell[GridCell(row: r, column: c)] = k
                }
            }
        }
        self.merged = merged
        self.mergedByCell = byCell
    }

    public var contentSize: LayoutSize { LayoutSize(width: columns.contentLength, height: rows.contentLength) }

    /// The pinned strip sizes: through the end of the last frozen row / column.
    @inlinable public var frozenHeight: Double { frozenRows == 0 ? 0 : rows.offset(of: frozenRows - 1) + rows.size(of: frozenRows - 1) }
    @inlinable public var frozenWidth: Double { frozenColumns == 0 ? 0 : columns.offset(of: frozenColumns - 1) + columns.size(of: frozenColumns - 1) }

    /// The nearest offset that keeps the body within the content.
    public func clamped(_ offset: LayoutPoint, viewSize: LayoutSize) -> LayoutPoint {
        LayoutPoint(
            x: min(max(offset.x, 0), max(contentSize.width - viewSize.width, 0)),
            y: min(max(offset.y, 0), max(contentSize.height - viewSize.height, 0)))
    }

    /// Visible index ranges of every pane.
    /// - Complexity: O(log rows + log columns).
    @inlinable
    public func panes(offset: LayoutPoint, viewSize: LayoutSize) -> [PaneWindow] {
        let w = paneWindows(offset: offset, viewSize: viewSize)
        return [w.corner, w.headerRow, w.headerColumn, w.body]
    }

    @inlinable
    func paneWindows(offset: LayoutPoint, viewSize: LayoutSize)
        -> (corner: PaneWindow, headerRow: PaneWindow, headerColumn: PaneWindow, body: PaneWindow)
    {
        let fh = min(frozenHeight, viewSize.height), fw = min(frozenWidth, viewSize.width)
        var bodyRows = rows.range(overlapping: offset.y + fh, offset.y + viewSize.height)
        bodyRows = max(bodyRows.lowerBound, frozenRows)..<max(bodyRows.upperBound, frozenRows)
        var bodyColumns = columns.range(overlapping: offset.x + fw, offset.x + viewSize.width)
        bodyColumns = max(bodyColumns.lowerBound, frozenColumns)..<max(bodyColumns.upperBound, frozenColumns)
        let headRows = rows.range(overlapping: 0, fh).clamped(to: 0..<frozenRows)
        let headColumns = columns.range(overlapping: 0, fw).clamped(to: 0..<frozenColumns)
        return (
            PaneWindow(pane: .corner, rows: headRows, columns: headColumns, clip: LayoutRect(x: 0, y: 0, width: fw, height: fh)),
            PaneWindow(pane: .headerRow, rows: headRows, columns: bodyColumns, clip: LayoutRect(x: fw, y: 0, width: viewSize.width - fw, height: fh)),
            PaneWindow(pane: .headerColumn, rows: bodyRows, columns: headColumns, clip: LayoutRect(x: 0, y: fh, width: fw, height: viewSize.height - fh)),
            PaneWindow(
                pane: .body, rows: bodyRows, columns: bodyColumns, clip: LayoutRect(x: fw, y: fh, width: viewSize.width - fw, height: viewSize.height - fh))
        )
    }

    /// How a pane moves with the offset: the header row only sideways, the header column only up and down.
    @inlinable
    func shift(_ pane: GridPane, _ offset: LayoutPoint) -> (dx: Double, dy: Double) {
        switch pane {
        case .corner: return (0, 0)
        case .headerRow: return (-offset.x, 0)
        case .headerColumn: return (0, -offset.y)
        case .body: return (-offset.x, -offset.y)
        }
    }

    /// The content frame of a cell or merged block.
    @inlinable
    public func contentFrame(rows r: Range<Int>, columns c: Range<Int>) -> LayoutRect {
        let x = columns.offset(of: c.lowerBound), y = rows.offset(of: r.lowerBound)
        let lastC = c.upperBound - 1, lastR = r.upperBound - 1
        return LayoutRect(
            x: x, y: y, width: columns.offset(of: lastC) + columns.size(of: lastC) - x,
            height: rows.offset(of: lastR) + rows.size(of: lastR) - y)
    }

    /// Every visible cell with its view frame, pane by pane (corner last, so it draws on top).
    /// A merged block appears once, at its full size, even when its anchor has scrolled away.
    /// - Complexity: O(log n + visible cells).
    @inlinable
    public func visibleCells(offset: LayoutPoint, viewSize: LayoutSize) -> [PlacedCell] {
        var out: [PlacedCell] = []
        out.reserveCapacity(256)
        forEachVisibleCell(offset: offset, viewSize: viewSize) { out.append($0) }
        return out
    }

    /// The same cells as `visibleCells`, without building an array.
    /// - Complexity: O(log n) to find the ranges and the first offsets, then O(1) a cell (running sums).
    @inlinable
    public func forEachVisibleCell(offset: LayoutPoint, viewSize: LayoutSize, _ body: (PlacedCell) -> Void) {
        let w = paneWindows(offset: offset, viewSize: viewSize)
        forEachCell(in: w.body, offset: offset, body)
        forEachCell(in: w.headerRow, offset: offset, body)
        forEachCell(in: w.headerColumn, offset: offset, body)
        forEachCell(in: w.corner, offset: offset, body)
    }

    @inlinable
    func forEachCell(in window: PaneWindow, offset: LayoutPoint, _ body: (PlacedCell) -> Void) {
        guard let firstRow = window.rows.first, let firstColumn = window.columns.first else { return }
        let (dx, dy) = shift(window.pane, offset)
        let x0 = columns.offset(of: firstColumn) + dx
        var y = rows.offset(of: firstRow) + dy
        var emitted: Set<Int> = []
        for r in window.rows {
            let h = rows.size(of: r)
            var x = x0
            for c in window.columns {
                let w = columns.size(of: c)
                let cell = GridCell(row: r, column: c)
                if !mergedByCell.isEmpty, let m = mergedByCell[cell] {
                    if emitted.insert(m).inserted {
                        let block = merged[m]
                        body(
                            PlacedCell(
                                cell: block.anchor, span: block, pane: window.pane,
                                frame: contentFrame(rows: block.rows, columns: block.columns).offsetBy(dx: dx, dy: dy)))
                    }
                } else {
                    body(PlacedCell(cell: cell, span: nil, pane: window.pane, frame: LayoutRect(x: x, y: y, width: w, height: h)))
                }
                x += w + columns.gap(after: c)
            }
            y += h + rows.gap(after: r)
        }
    }

    /// The cell under a view point, in whichever pane the point falls (a merged block answers with its
    /// anchor); nil in a gap or past the content.
    /// - Complexity: O(log n).
    public func cell(at point: LayoutPoint, offset: LayoutPoint, viewSize: LayoutSize) -> (cell: GridCell, pane: GridPane)? {
        guard point.x >= 0, point.y >= 0, point.x < viewSize.width, point.y < viewSize.height else { return nil }
        let inFrozenRows = point.y < min(frozenHeight, viewSize.height), inFrozenColumns = point.x < min(frozenWidth, viewSize.width)
        let pane: GridPane = inFrozenRows ? (inFrozenColumns ? .corner : .headerRow) : (inFrozenColumns ? .headerColumn : .body)
        let (dx, dy) = shift(pane, offset)
        guard let r = rows.index(at: point.y - dy), let c = columns.index(at: point.x - dx) else { return nil }
        let cell = GridCell(row: r, column: c)
        if let m = mergedByCell[cell] { return (merged[m].anchor, pane) }
        return (cell, pane)
    }

    /// The smallest scroll that shows `cell` whole in the body (frozen cells are always shown).
    public func offset(toShow cell: GridCell, from offset: LayoutPoint, viewSize: LayoutSize) -> LayoutPoint {
        var o = offset
        if cell.column >= frozenColumns {
            let x = columns.offset(of: cell.column), w = columns.size(of: cell.column)
            let visibleWidth = viewSize.width - frozenWidth
            if x - o.x < frozenWidth { o.x = x - frozenWidth } else if x + w - o.x > viewSize.width { o.x = x + min(w, visibleWidth) - viewSize.width }
        }
        if cell.row >= frozenRows {
            let y = rows.offset(of: cell.row), h = rows.size(of: cell.row)
            let visibleHeight = viewSize.height - frozenHeight
            if y - o.y < frozenHeight { o.y = y - frozenHeight } else if y + h - o.y > viewSize.height { o.y = y + min(h, visibleHeight) - viewSize.height }
        }
        return clamped(o, viewSize: viewSize)
    }
}
