#if canImport(SwiftUI) && canImport(UIKit)
import CollectionLayout
import Foundation
import SwiftUI

/// A two-dimensional grid with frozen header rows and columns for SwiftUI (a timetable of halls ×
/// times, a price matrix), the counterpart of the UIKit `GridView`: one scroll offset drives all four
/// panes through the engine's `FrozenGridLayout`, so the headers never drift from the body, and only
/// the visible cells exist as views (a week of a 20-hall multiplex is a few dozen views, not thousands).
///
/// ```swift
/// SeatGrid(rowHeights: heights, columnWidths: widths, frozenRows: 1, frozenColumns: 1) { cell in
///     Text(title(cell)).frame(maxWidth: .infinity, maxHeight: .infinity)
/// }
/// .onSelect { cell in open(cell) }
/// ```
///
/// Drag to scroll (locked to one axis when the drag starts mostly along it); a fling glides on to the
/// engine-clamped end; VoiceOver reads each cell's own view and scrolls with three fingers.
public struct SeatGrid<Cell: View>: View {
    public let layout: FrozenGridLayout<VariableAxis, VariableAxis>
    let cell: (GridCell) -> Cell
    var selectAction: ((GridCell) -> Void)?

    /// Where the body is scrolled to (content coordinates of the body's top-left corner).
    @State var offset = LayoutPoint.zero
    @State var dragOrigin: LayoutPoint?
    @State var dragAxis: DragAxis?
    @State var glide: ScrollGlide?

    enum DragAxis { case horizontal, vertical, free }

    /// A grid over a layout the app keeps (rebuild it when the counts or sizes change).
    public init(layout: FrozenGridLayout<VariableAxis, VariableAxis>, @ViewBuilder cell: @escaping (GridCell) -> Cell) {
        self.layout = layout
        self.cell = cell
    }

    /// A grid of rows and columns of these sizes in points.
    /// - Complexity: O(rows + columns) to build the layout; a frame is O(log n + visible cells).
    public init(
        rowHeights: [Double], columnWidths: [Double], frozenRows: Int = 1, frozenColumns: Int = 1,
        @ViewBuilder cell: @escaping (GridCell) -> Cell
    ) {
        let layout = FrozenGridLayout(
            rows: VariableAxis(sizes: rowHeights), columns: VariableAxis(sizes: columnWidths),
            frozenRows: min(frozenRows, rowHeights.count), frozenColumns: min(frozenColumns, columnWidths.count))
        self.init(layout: layout, cell: cell)
    }

    /// Heard when a cell is tapped (a merged block answers with its anchor cell).
    public func onSelect(_ action: @escaping (GridCell) -> Void) -> Self {
        var copy = self
        copy.selectAction = action
        return copy
    }

    /// The offset on screen now: mid-glide, where the glide is.
    func displayedOffset(_ size: LayoutSize, at date: Date = Date()) -> LayoutPoint {
        layout.clamped(glide?.offset(at: date) ?? offset, viewSize: size)
    }

    public var body: some View {
        GeometryReader { proxy in
            let size = LayoutSize(proxy.size)
            TimelineView(.animation(minimumInterval: nil, paused: glide == nil)) { timeline in
                cells(at: displayedOffset(size, at: timeline.date), size: size)
            }
            .frame(width: proxy.size.width, height: proxy.size.height, alignment: .topLeading)
            .contentShape(Rectangle())
            .gesture(scroll(size))
            .simultaneousGesture(
                SpatialTapGesture().onEnded { value in
                    let hit = layout.cell(at: LayoutPoint(value.location), offset: displayedOffset(size), viewSize: size)
                    if let hit { selectAction?(hit.cell) }
                }
            )
            .accessibilityElement(children: .contain)
            .accessibilityScrollAction { edge in scrolled(toward: edge, size: size) }
        }
        .clipped()
        .clearingGlide($glide)
    }

    /// The visible cells where the engine puts them; frozen panes above the body.
    /// - Complexity: O(log n + visible cells).
    func cells(at offset: LayoutPoint, size: LayoutSize) -> some View {
        ZStack(alignment: .topLeading) {
            ForEach(layout.visibleCells(offset: offset, viewSize: size), id: \.cell) { placed in
                cell(placed.cell)
                    .frame(width: CGFloat(placed.frame.width), height: CGFloat(placed.frame.height))
                    .position(x: CGFloat(placed.frame.midX), y: CGFloat(placed.frame.midY))
                    .zIndex(placed.pane == .body ? 0 : placed.pane == .corner ? 3 : 2)
            }
        }
    }

    func scroll(_ size: LayoutSize) -> some Gesture {
        DragGesture(minimumDistance: 4)
            .onChanged { value in
                let origin = dragOrigin ?? displayedOffset(size)
                if dragOrigin == nil {
                    dragOrigin = origin
                    glide = nil
                    let dx = abs(value.translation.width), dy = abs(value.translation.height)
                    dragAxis = dx > 2 * dy ? .horizontal : dy > 2 * dx ? .vertical : .free
                }
                offset = layout.clamped(moved(origin, by: value.translation), viewSize: size)
            }
            .onEnded { value in
                let origin = dragOrigin ?? offset
                let end = layout.clamped(moved(origin, by: value.predictedEndTranslation), viewSize: size)
                glide = ScrollGlide(from: offset, to: end, start: Date())
                offset = end
                dragOrigin = nil
                dragAxis = nil
            }
    }

    /// The offset a finger's translation gives, along the axis the drag locked to.
    func moved(_ origin: LayoutPoint, by translation: CGSize) -> LayoutPoint {
        let dx = dragAxis == .vertical ? 0 : Double(translation.width)
        let dy = dragAxis == .horizontal ? 0 : Double(translation.height)
        return LayoutPoint(x: origin.x - dx, y: origin.y - dy)
    }

    /// VoiceOver's three-finger scroll: a page of the body that way.
    func scrolled(toward edge: Edge, size: LayoutSize) {
        let page = LayoutSize(width: max(size.width - layout.frozenWidth, 0) * 0.8, height: max(size.height - layout.frozenHeight, 0) * 0.8)
        var next = displayedOffset(size)
        switch edge {
        case .top: next.y -= page.height
        case .bottom: next.y += page.height
        case .leading: next.x -= page.width
        case .trailing: next.x += page.width
        }
        glide = nil
        offset = layout.clamped(next, viewSize: size)
    }
}
#endif
