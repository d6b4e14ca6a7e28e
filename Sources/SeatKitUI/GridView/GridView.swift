#if canImport(UIKit)
import CollectionLayout
import UIKit

/// A cell of a `GridView`; subclass it, register the class, dequeue it in `cell(at:)`.
@MainActor open class GridViewCell: UIView {
    public internal(set) var reuseIdentifier = ""
    public required override init(frame: CGRect) { super.init(frame: frame) }
    public required init?(coder: NSCoder) { return nil }
    /// Called before a pooled cell is handed out again.
    open func prepareForReuse() {}
}

@MainActor public protocol GridViewDataSource: AnyObject {
    func numberOfRows(in gridView: GridView) -> Int
    func numberOfColumns(in gridView: GridView) -> Int
    func gridView(_ gridView: GridView, cellAt cell: GridCell) -> GridViewCell
    func gridView(_ gridView: GridView, heightOfRow row: Int) -> Double
    func gridView(_ gridView: GridView, widthOfColumn column: Int) -> Double
}

extension GridViewDataSource {
    public func gridView(_ gridView: GridView, heightOfRow row: Int) -> Double { 44 }
    public func gridView(_ gridView: GridView, widthOfColumn column: Int) -> Double { 88 }
}

@MainActor public protocol GridViewDelegate: AnyObject {
    func gridView(_ gridView: GridView, didSelect cell: GridCell)
}

/// A two-dimensional grid with frozen header rows and columns (a timetable, a price matrix): one
/// scroll offset drives all four panes through the engine's `FrozenGridLayout`, so headers never drift
/// from the body; only visible cells exist, reused by identifier through the engine's `ReusePool`.
///
/// ```swift
/// let grid = GridView(frozenRows: 1, frozenColumns: 1)
/// grid.register(PriceCell.self, forReuseIdentifier: "price")
/// grid.dataSource = self          // cell(at:) → grid.dequeueReusableCell(withIdentifier: "price")
/// ```
@MainActor public final class GridView: UIScrollView, UIScrollViewDelegate {
    public weak var dataSource: GridViewDataSource? { didSet { reloadData() } }
    public weak var gridDelegate: GridViewDelegate?
    public let frozenRows: Int
    public let frozenColumns: Int
    public private(set) var layout = FrozenGridLayout(rows: VariableAxis(sizes: []), columns: VariableAxis(sizes: []))
    private var classes: [String: GridViewCell.Type] = [:]
    private var pool = ReusePool<GridViewCell>(capacityPerIdentifier: 64)
    private var visible: [GridCell: GridViewCell] = [:]

    public init(frozenRows: Int = 1, frozenColumns: Int = 1) {
        self.frozenRows = frozenRows
        self.frozenColumns = frozenColumns
        super.init(frame: .zero)
        delegate = self
        isDirectionalLockEnabled = true
        addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(tapped(_:))))
    }

    public required init?(coder: NSCoder) { return nil }

    public func register(_ cellClass: GridViewCell.Type, forReuseIdentifier identifier: String) { classes[identifier] = cellClass }

    /// A pooled cell of that identifier, or a new one of the registered class.
    public func dequeueReusableCell(withIdentifier identifier: String) -> GridViewCell {
        if let cell = pool.dequeue(identifier) { cell.prepareForReuse(); return cell }
        let cell = (classes[identifier] ?? GridViewCell.self).init(frame: .zero)
        cell.reuseIdentifier = identifier
        return cell
    }

    /// Counts and sizes asked again (after a data change or a rotation that changes sizes).
    public func reloadData() {
        guard let dataSource else { return }
        let rows = (0..<dataSource.numberOfRows(in: self)).map { dataSource.gridView(self, heightOfRow: $0) }
        let columns = (0..<dataSource.numberOfColumns(in: self)).map { dataSource.gridView(self, widthOfColumn: $0) }
        layout = FrozenGridLayout(
            rows: VariableAxis(sizes: rows), columns: VariableAxis(sizes: columns),
            frozenRows: min(frozenRows, rows.count), frozenColumns: min(frozenColumns, columns.count))
        for cell in visible.values { cell.removeFromSuperview(); _ = pool.enqueue(cell, identifier: cell.reuseIdentifier) }
        visible = [:]
        contentSize = layout.contentSize.cgSize
        contentOffset = layout.clamped(LayoutPoint(contentOffset), viewSize: LayoutSize(bounds.size)).cgPoint
        setNeedsLayout()
    }

    /// Cells that left go back to the pool, cells that entered are asked for; every visible cell is
    /// placed where the engine says (frozen panes stay put because their frames ignore the offset).
    /// - Complexity: O(visible cells).
    public override func layoutSubviews() {
        super.layoutSubviews()
        guard let dataSource else { return }
        let offset = LayoutPoint(contentOffset), size = LayoutSize(bounds.size)
        let placed = layout.visibleCells(offset: offset, viewSize: size)
        let diff = VisibleSetDiff(from: Set(visible.keys), to: placed.map(\.cell))
        for key in diff.leaving {
            guard let cell = visible.removeValue(forKey: key) else { continue }
            cell.removeFromSuperview()
            _ = pool.enqueue(cell, identifier: cell.reuseIdentifier)
        }
        for p in placed {
            let cell = visible[p.cell] ?? dataSource.gridView(self, cellAt: p.cell)
            if visible[p.cell] == nil { visible[p.cell] = cell; addSubview(cell) }
            // View coordinates from the engine, moved into the scroll view's content space.
            cell.frame = p.frame.cgRect.offsetBy(dx: contentOffset.x, dy: contentOffset.y)
            cell.layer.zPosition = p.pane == .body ? 0 : p.pane == .corner ? 3 : 2
        }
    }

    public func scrollToCell(_ cell: GridCell, animated: Bool) {
        setContentOffset(layout.offset(toShow: cell, from: LayoutPoint(contentOffset), viewSize: LayoutSize(bounds.size)).cgPoint, animated: animated)
    }

    @objc private func tapped(_ g: UITapGestureRecognizer) {
        let p = g.location(in: self)
        let inView = LayoutPoint(x: Double(p.x - contentOffset.x), y: Double(p.y - contentOffset.y))
        if let hit = layout.cell(at: inView, offset: LayoutPoint(contentOffset), viewSize: LayoutSize(bounds.size)) {
            gridDelegate?.gridView(self, didSelect: hit.cell)
        }
    }
}
#endif
