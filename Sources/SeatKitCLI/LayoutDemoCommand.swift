import ArgumentParser
import CollectionLayout
import Foundation

/// `seatkit layout-demo grid|carousel`: a scripted scroll through the engine, printed as text (and the
/// last frame drawn as SVG), so a reader can watch frozen headers follow the body.
struct LayoutDemoCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout-demo", abstract: "A scripted scroll through the layout engine: panes and visible cells.")

    enum What: String, CaseIterable, ExpressibleByArgument { case grid, carousel }

    @Argument(help: "grid (1000 × 1000 cells, row and column 0 frozen) or carousel.")
    var what: What

    @Option(help: "How many frames to print (1 to 1000).")
    var frames = 5

    @Option(help: "Draw the last frame as SVG here.", completion: .file())
    var svg: String?

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        guard frames >= 1 && frames <= 1000 else { throw UsageError(message: "--frames must be 1 to 1000") }
        let sketch: SVGSketch
        switch what {
        case .grid: sketch = Self.grid(frames: frames, &output)
        case .carousel: sketch = Self.carousel(frames: frames, &output)
        }
        if let path = svg {
            try Files.write(Array(sketch.text.utf8), to: path)
            output.line("wrote \(path)")
        }
        return ExitCode.success
    }

    /// 1000 × 1000 cells of varied sizes, row 0 and column 0 frozen, scrolled diagonally.
    static func grid(frames: Int, _ output: inout CommandOutput) -> SVGSketch {
        let rowSizes: [Double] = (0..<1000).map { (i: Int) -> Double in i == 0 ? 28 : Double(24 + i % 3 * 8) }
        let columnSizes: [Double] = (0..<1000).map { (i: Int) -> Double in i == 0 ? 56 : Double(60 + i % 4 * 15) }
        let grid = FrozenGridLayout(
            rows: VariableAxis(sizes: rowSizes), columns: VariableAxis(sizes: columnSizes),
            frozenRows: 1, frozenColumns: 1)
        let view = LayoutSize(width: 360, height: 240)
        output.line("grid 1000×1000, row 0 and column 0 frozen, view \(view), content \(grid.contentSize)")
        var offset = LayoutPoint.zero
        var last: [PlacedCell] = []
        for f in 0..<frames {
            offset = grid.clamped(LayoutPoint(x: Double(f) * 97, y: Double(f) * 61), viewSize: view)
            output.line("frame \(f) offset \(offset)")
            for p in grid.panes(offset: offset, viewSize: view) {
                output.line("  \(p.pane.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) rows \(p.rows) columns \(p.columns)")
            }
            last = grid.visibleCells(offset: offset, viewSize: view)
            let headerRow = last.filter { $0.pane == .headerRow }.prefix(3).map { "\($0.cell)@x\(Int($0.frame.minX))" }
            let headerColumn = last.filter { $0.pane == .headerColumn }.prefix(3).map { "\($0.cell)@y\(Int($0.frame.minY))" }
            output.line("  header row follows x: \(headerRow.joined(separator: " "))   header column follows y: \(headerColumn.joined(separator: " "))")
        }
        var svg = SVGSketch(width: view.width, height: view.height)
        let fills: [GridPane: String] = [.corner: "#444", .headerRow: "#4A90D9", .headerColumn: "#E5A000", .body: "#f4f4f4"]
        for pane in [GridPane.body, .headerRow, .headerColumn, .corner] {
            for c in last where c.pane == pane {
                svg.rect(c.frame, fill: fills[pane]!, label: "\(c.cell.row),\(c.cell.column)", light: pane != .body)
            }
        }
        return svg
    }

    /// The show-times screen: a card carousel (group paging, centred) over a two-column grid and a list.
    static func carousel(frames: Int, _ output: inout CommandOutput) -> SVGSketch {
        var layout = CompositionalLayout(
            sections: [
                SectionPreset.cardCarousel.section(itemCount: 14, header: SectionHeader(height: 28, pinned: true)),
                SectionPreset.twoColumnGrid.section(itemCount: 8, header: SectionHeader(height: 28, pinned: true)),
                SectionPreset.list.section(itemCount: 40, header: SectionHeader(height: 28)),
            ], containerSize: LayoutSize(width: 390, height: 700))
        output.line("show-times screen 390×700: card carousel (groupPagingCentered), two-column grid, list; content \(layout.contentSize)")
        var scrollY = 0.0
        for f in 0..<frames {
            // Flick the carousel one card on each frame, and scroll the page down.
            let target = layout.orthogonalTarget(section: 0, offset: layout.orthogonalOffsets[0], velocity: 900)
            layout.orthogonalOffsets[0] = target
            scrollY = min(Double(f) * 120, layout.contentSize.height - 700)
            let window = LayoutRect(x: 0, y: scrollY, width: 390, height: 700)
            let visible = layout.attributes(in: window, pinningOffset: scrollY)
            let items = visible.filter { $0.kind == .item }
            let headers = visible.filter { $0.kind == .header }.map { "§\($0.path.section)@y\(Int($0.frame.minY - scrollY))" }
            output.line(
                "frame \(f) scroll y \(Int(scrollY)), carousel x \(fmt1(target)): \(items.count) items "
                    + "(\(items.first.map { "\($0.path)" } ?? "-")…\(items.last.map { "\($0.path)" } ?? "-")), headers \(headers.joined(separator: " "))")
        }
        var svg = SVGSketch(width: 390, height: 700)
        let shown = layout.attributes(in: LayoutRect(x: 0, y: scrollY, width: 390, height: 700), pinningOffset: scrollY)
        // Pinned headers float over the items: draw them last.
        for a in shown.filter({ $0.kind == .item }) + shown.filter({ $0.kind == .header }) {
            let f = a.frame.offsetBy(dx: 0, dy: -scrollY)
            svg.rect(
                f, fill: a.kind == .header ? "#333" : ["#4A90D9", "#E5A000", "#2BB673"][a.path.section % 3],
                label: a.kind == .header ? "section \(a.path.section)" : "\(a.path)", light: true)
        }
        return svg
    }

    static func fmt1(_ v: Double) -> String { String(format: "%.1f", v) }
}

/// Just enough SVG to look at a layout frame.
struct SVGSketch {
    var width: Double
    var height: Double
    var body = ""

    mutating func rect(_ r: LayoutRect, fill: String, label: String, light: Bool) {
        body += String(
            format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%@\" stroke=\"#999\" stroke-width=\"0.5\"/>", r.minX, r.minY, r.width,
            r.height, fill)
        body += String(
            format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" font-family=\"sans-serif\" text-anchor=\"middle\" fill=\"%@\">%@</text>\n",
            r.midX, r.midY + 3, light ? "#fff" : "#333", label)
    }

    var text: String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n" + body + "</svg>\n"
    }
}
