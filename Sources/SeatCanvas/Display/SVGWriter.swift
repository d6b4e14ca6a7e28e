import CollectionLayout
import Foundation
import SeatMap

/// Writes a display list as SVG: every seat a `<g>` with a stable id, `data-seat-id`, `data-status`,
/// `data-zone`, an `aria-label` and a `<title>`, so the web page can use the picture as it is.
public struct SVGWriter: Sendable {
    public var title: String
    /// Extra height below the map for the legend (0: none).
    public var legend: [LegendEntry]
    /// Extra attributes on the root element (e.g. `data-*` a page reads), written in this order.
    public var rootAttributes: [(name: String, value: String)]
    /// A `<title>` (the hover tooltip) in every seat beside its `aria-label`; a page that labels seats
    /// itself leaves them out (a fifth of an arena's SVG).
    public var seatTooltips: Bool

    public init(title: String, legend: [LegendEntry] = [], rootAttributes: [(name: String, value: String)] = [], seatTooltips: Bool = true) {
        self.title = title; self.legend = legend; self.rootAttributes = rootAttributes; self.seatTooltips = seatTooltips
    }

    public func document(_ list: DisplayList) -> String {
        let width = list.viewSize.width
        let placed = legendLayout(width: width)
        // 36 points for one line of entries, 22 more for each further line.
        let legendHeight = legend.isEmpty ? 0.0 : 14 + 22 * Double((placed.last?.line ?? 0) + 1)
        let height = list.viewSize.height + legendHeight
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" aria-label=\"\(escape(title))\" font-family=\"Noto Sans CJK SC, PingFang SC, Microsoft YaHei, sans-serif\""
        for (name, value) in rootAttributes { out += " \(name)=\"\(escape(value))\"" }
        out += ">\n"
        out += "<title>\(escape(title))</title>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"\(Palette.background)\"/>\n"
        let t = list.transform
        out += "<g id=\"map\" transform=\"translate(\(n(t.translation.x)) \(n(t.translation.y))) scale(\(n(t.scale)))\">\n"
        for item in list.items { out += element(item.command, id: item.id) }
        out += "</g>\n"
        if !legend.isEmpty { out += legendSVG(y: list.viewSize.height, placed: placed) }
        out += "</svg>\n"
        return out
    }

    func element(_ command: DrawCommand, id: String? = nil) -> String {
        let idAttribute = id.map { " id=\"\(escape($0))\"" } ?? ""
        switch command {
        case .roundedRect(let r, let radius, let style):
            return
                "<rect\(idAttribute) x=\"\(n(r.minX))\" y=\"\(n(r.minY))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" rx=\"\(n(radius))\"\(paint(style))/>\n"
        case .circle(let c, let radius, let style):
            return "<circle\(idAttribute) cx=\"\(n(c.x))\" cy=\"\(n(c.y))\" r=\"\(n(radius))\"\(paint(style))/>\n"
        case .path(let points, let closed, let style):
            guard let first = points.first else { return "" }
            var d = "M\(n(first.x)) \(n(first.y))"
            for p in points.dropFirst() { d += "L\(n(p.x)) \(n(p.y))" }
            if closed { d += "Z" }
            return "<path\(idAttribute) d=\"\(d)\"\(paint(style))/>\n"
        case .curve(let a, let c, let b, let style):
            return "<path\(idAttribute) d=\"M\(n(a.x)) \(n(a.y))Q\(n(c.x)) \(n(c.y)) \(n(b.x)) \(n(b.y))\"\(paint(style))/>\n"
        case .text(let s, let p, let size, let color, let anchor):
            return
                "<text\(idAttribute) x=\"\(n(p.x))\" y=\"\(n(p.y))\" font-size=\"\(n(size))\" fill=\"\(color)\" text-anchor=\"\(anchor.rawValue)\" aria-hidden=\"true\">\(escape(s))</text>\n"
        case .group(let gid, let attributes, let children):
            var g = "<g id=\"\(escape(gid))\" class=\"seat\""
            for key in attributes.keys.sorted() { g += " \(key)=\"\(escape(attributes[key]!))\"" }
            g += ">"
            if seatTooltips, let label = attributes["aria-label"] { g += "<title>\(escape(label))</title>" }
            for child in children { g += element(child).trimmingCharacters(in: .newlines) }
            return g + "</g>\n"
        }
    }

    /// A shape without a fill is an outline (SVG would otherwise fill it black).
    func paint(_ style: DrawStyle) -> String {
        var s = " fill=\"\(style.fill ?? "none")\""
        if let stroke = style.stroke { s += " stroke=\"\(stroke)\" stroke-width=\"\(n(style.strokeWidth))\"" }
        if style.opacity < 1 { s += " opacity=\"\(n(style.opacity))\"" }
        if style.dashed { s += " stroke-dasharray=\"\(SeatCanvas.Drawing.dash.on) \(SeatCanvas.Drawing.dash.off)\"" }
        return s
    }

    /// Where each legend entry goes: left to right, wrapping onto a new line before the right edge.
    func legendLayout(width: Double) -> [(entry: LegendEntry, x: Double, line: Int)] {
        var out: [(entry: LegendEntry, x: Double, line: Int)] = []
        var x = 0.0, line = 0
        for entry in legend {
            let swatch = entry.swatch == .ramp ? 64.0 : 18.0
            let w = swatch + 8 + Double(entry.label.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x2E80 ? 12 : 7) })
            if x > 0 && 12 + x + w > width - 12 { x = 0; line += 1 }
            out.append((entry, x, line))
            x += w
        }
        return out
    }

    func legendSVG(y: Double, placed: [(entry: LegendEntry, x: Double, line: Int)]) -> String {
        var out = "<g id=\"legend\" transform=\"translate(12 \(n(y + 10)))\" font-size=\"12\">\n"
        for (entry, x, line) in placed {
            let top = Double(line) * 22
            var textX = x + 18
            switch entry.swatch {
            case .color(let c): out += "<rect x=\"\(n(x))\" y=\"\(n(top))\" width=\"14\" height=\"14\" rx=\"3\" fill=\"\(c)\"/>"
            case .outline(let c):
                out += "<rect x=\"\(n(x))\" y=\"\(n(top))\" width=\"14\" height=\"14\" rx=\"4\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"1.5\"/>"
            case .symbol(let glyph, let c):
                out += "<rect x=\"\(n(x))\" y=\"\(n(top))\" width=\"14\" height=\"14\" rx=\"3\" fill=\"\(c)\"/>"
                out += "<text x=\"\(n(x + 7))\" y=\"\(n(top + 11))\" font-size=\"10\" fill=\"#FFFFFF\" text-anchor=\"middle\">\(escape(glyph))</text>"
            case .dashed(let c):
                out +=
                    "<rect x=\"\(n(x + 0.75))\" y=\"\(n(top + 0.75))\" width=\"12.5\" height=\"12.5\" rx=\"3\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/>"
            case .status(let c, let glyph):
                out += "<rect x=\"\(n(x))\" y=\"\(n(top))\" width=\"14\" height=\"14\" rx=\"3\" fill=\"\(c)\"/>"
                for command in glyph.commands(in: LayoutRect(x: x, y: top, width: 14, height: 14), ink: Palette.ink(on: c)) {
                    out += element(command, id: nil)
                }
            case .dot(let c):
                out +=
                    "<rect x=\"\(n(x))\" y=\"\(n(top))\" width=\"14\" height=\"14\" rx=\"3\" fill=\"none\" stroke=\"\(Palette.stroke)\" stroke-width=\"0.5\"/>"
                out += "<circle cx=\"\(n(x + 11))\" cy=\"\(n(top + 3))\" r=\"2\" fill=\"\(c)\"/>"
            case .ramp:
                out += "<defs><linearGradient id=\"heat\">"
                for (stop, rgb) in SeatHeatmap.ramp {
                    out += "<stop offset=\"\(n(stop))\" stop-color=\"\(SeatHeatmap.hex(Int(rgb.0), Int(rgb.1), Int(rgb.2)))\"/>"
                }
                out += "</linearGradient></defs><rect x=\"\(n(x))\" y=\"\(n(top))\" width=\"60\" height=\"14\" fill=\"url(#heat)\"/>"
                textX += 46
            }
            out += "<text x=\"\(n(textX))\" y=\"\(n(top + 11))\" fill=\"\(Palette.text)\">\(escape(entry.label))</text>\n"
        }
        return out + "</g>\n"
    }

    func n(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        if r == r.rounded(), abs(r) < 1e12 { return String(Int64(r)) }
        return String(r)
    }

    func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: if ch.value >= 0x20 || ch == "\n" { out.unicodeScalars.append(ch) }
            }
        }
        return out
    }
}
