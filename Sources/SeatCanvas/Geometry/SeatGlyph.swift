import CollectionLayout
import SeatJSON
import SeatMap

/// The mark a seat shows in place of its number when it is not simply free, so a status reads by
/// shape as well as colour (WCAG 1.4.1; the greys of held, blocked and sold are told apart by it):
/// the conventions of Chinese cinema apps — a tick on a seat you chose, a cross on a sold one — and
/// three dots (someone is paying) on a held one, a slash (not for sale) on a blocked one.
///
/// Strokes are drawn in the seat's ink (`Palette.ink(on:)`: at least 3 : 1 against its fill, the
/// graphics threshold). Every adapter draws them from here: the display list's commands (SVG, UIKit,
/// SwiftUI) and the geometry document's `palette.glyphs` (the browser's canvas).
public enum SeatGlyph: String, Sendable, CaseIterable {
    case tick, cross, dots, slash

    /// The glyph of a seat (nil: its number).
    public static func of(_ status: SeatStatus, selected: Bool) -> SeatGlyph? {
        if selected { return .tick }
        switch status {
        case .available: return nil
        case .held: return .dots
        case .sold: return .cross
        case .blocked: return .slash
        }
    }

    /// Stroke width, as a share of the seat's size.
    public static let strokeWidth = 0.12

    /// Polylines in the seat's unit square (−0.5…0.5 across and down, y down).
    public var lines: [[(x: Double, y: Double)]] {
        switch self {
        case .tick: return [[(-0.26, 0.02), (-0.08, 0.2), (0.26, -0.18)]]
        case .cross: return [[(-0.22, -0.22), (0.22, 0.22)], [(0.22, -0.22), (-0.22, 0.22)]]
        case .dots: return []
        case .slash: return [[(-0.24, 0.24), (0.24, -0.24)]]
        }
    }

    /// Filled dots in the unit square: centre and radius.
    public var dots: [(x: Double, y: Double, r: Double)] {
        self == .dots ? [(-0.24, 0, 0.08), (0, 0, 0.08), (0.24, 0, 0.08)] : []
    }

    /// The glyph drawn over `rect` in `ink`.
    /// - Complexity: O(1).
    public func commands(in rect: LayoutRect, ink: String) -> [DrawCommand] {
        let size = min(rect.width, rect.height), cx = rect.midX, cy = rect.midY
        let style = DrawStyle(stroke: ink, strokeWidth: size * Self.strokeWidth)
        return lines.map { line in .path(line.map { LayoutPoint(x: cx + $0.x * size, y: cy + $0.y * size) }, closed: false, style) }
            + dots.map { .circle(center: LayoutPoint(x: cx + $0.x * size, y: cy + $0.y * size), radius: $0.r * size, DrawStyle(fill: ink)) }
    }

    /// `{"of":{"selected":"tick","held":"dots","sold":"cross","blocked":"slash"},"width":0.12,"shapes":{"tick":{"lines":[[x,y,…]],"dots":[[x,y,r]]},…}}`.
    static var json: String {
        var w = JSONWriter()
        w.raw("{"); w.key("of", first: true); w.raw("{")
        let of: [(String, SeatGlyph)] = [("selected", .tick), ("held", .dots), ("sold", .cross), ("blocked", .slash)]
        for (k, (status, glyph)) in of.enumerated() { w.key(status, first: k == 0); w.string(glyph.rawValue) }
        w.raw("}"); w.key("width"); w.number(strokeWidth); w.key("shapes"); w.raw("{")
        for (k, glyph) in allCases.enumerated() {
            w.key(glyph.rawValue, first: k == 0); w.raw("{"); w.key("lines", first: true); w.raw("[")
            for (j, line) in glyph.lines.enumerated() {
                if j > 0 { w.raw(",") }
                w.raw("[" + line.map { "\(JSONWriter.format($0.x)),\(JSONWriter.format($0.y))" }.joined(separator: ",") + "]")
            }
            w.raw("]"); w.key("dots"); w.raw("[")
            for (j, d) in glyph.dots.enumerated() {
                if j > 0 { w.raw(",") }
                w.raw("[\(JSONWriter.format(d.x)),\(JSONWriter.format(d.y)),\(JSONWriter.format(d.r))]")
            }
            w.raw("]}")
        }
        w.raw("}}")
        return w.text
    }
}
