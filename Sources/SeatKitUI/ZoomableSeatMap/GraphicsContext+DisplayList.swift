#if canImport(SwiftUI) && canImport(UIKit)
import CollectionLayout
import Foundation
import SeatCanvas
import SwiftUI
import UIKit

/// Display-list commands drawn into a SwiftUI `Canvas`: the same pure translation as
/// `DisplayItemLayer` for UIKit; nothing is decided here.
extension GraphicsContext {
    /// Draws a frame: its items in their order (layer, then id), through the list's transform.
    /// - Complexity: O(items); the engine has already left out what is off screen.
    func draw(_ list: DisplayList) {
        var context = self
        let t = list.transform
        context.concatenate(
            CGAffineTransform(
                a: CGFloat(t.scale), b: 0, c: 0, d: CGFloat(t.scale), tx: CGFloat(t.translation.x), ty: CGFloat(t.translation.y)))
        for item in list.items { context.draw(item.command) }
    }

    func draw(_ command: DrawCommand) {
        switch command {
        case .roundedRect(let rect, let radius, let style):
            paint(Path(roundedRect: rect.cgRect, cornerRadius: CGFloat(radius), style: .circular), style)
        case .circle(let center, let radius, let style):
            let r = CGFloat(radius)
            paint(Path(ellipseIn: CGRect(x: CGFloat(center.x) - r, y: CGFloat(center.y) - r, width: 2 * r, height: 2 * r)), style)
        case .path(let points, let closed, let style):
            var path = Path()
            if let first = points.first {
                path.move(to: first.cgPoint)
                for p in points.dropFirst() { path.addLine(to: p.cgPoint) }
                if closed { path.closeSubpath() }
            }
            paint(path, style)
        case .curve(let from, let control, let to, let style):
            var path = Path()
            path.move(to: from.cgPoint)
            path.addQuadCurve(to: to.cgPoint, control: control.cgPoint)
            paint(path, style)
        case .text(let string, let at, let size, let color, let anchor):
            let x: CGFloat
            switch anchor {
            case .start: x = 0
            case .middle: x = 0.5
            case .end: x = 1
            }
            // The display list gives the baseline point; about 0.8 of a system font's line lies above it.
            let text = Text(verbatim: string).font(.system(size: CGFloat(size))).foregroundColor(Color(displayHex: color) ?? .black)
            draw(text, at: at.cgPoint, anchor: UnitPoint(x: x, y: 0.8))
        case .group(_, _, let children):
            for child in children { draw(child) }
        }
    }

    private func paint(_ path: Path, _ style: DrawStyle) {
        var context = self
        context.opacity *= style.opacity
        if let fill = style.fill.flatMap(Color.init(displayHex:)) { context.fill(path, with: .color(fill)) }
        if let stroke = style.stroke.flatMap(Color.init(displayHex:)) {
            context.stroke(
                path, with: .color(stroke), style: StrokeStyle(lineWidth: CGFloat(style.strokeWidth), lineCap: .round, dash: style.dashed ? [6, 4] : []))
        }
    }
}

extension Color {
    /// A display-list colour (`#RRGGBB`), nil when it is not one.
    init?(displayHex hex: String) {
        guard let c = DisplayColor(hex: hex) else { return nil }
        self.init(.sRGB, red: c.red, green: c.green, blue: c.blue, opacity: c.alpha)
    }
}
#endif
