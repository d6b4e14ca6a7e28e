#if canImport(UIKit)
import CollectionLayout
import SeatCanvas
import UIKit

/// One display-list item as a layer in content coordinates: shapes become `CAShapeLayer`s, text
/// `CATextLayer`s, a seat group its shapes. Pure translation of `DrawCommand`; nothing is decided here.
final class DisplayItemLayer: CALayer {
    func configure(_ command: DrawCommand, scale: CGFloat) {
        sublayers?.forEach { $0.removeFromSuperlayer() }
        contentsScale = scale
        add(command, scale: scale)
    }

    private func add(_ command: DrawCommand, scale: CGFloat) {
        switch command {
        case .roundedRect(let rect, let radius, let style):
            addShape(UIBezierPath(roundedRect: rect.cgRect, cornerRadius: CGFloat(radius)), style)
        case .circle(let center, let radius, let style):
            addShape(UIBezierPath(arcCenter: center.cgPoint, radius: CGFloat(radius), startAngle: 0, endAngle: 2 * .pi, clockwise: true), style)
        case .path(let points, let closed, let style):
            let path = UIBezierPath()
            if let first = points.first {
                path.move(to: first.cgPoint)
                for p in points.dropFirst() { path.addLine(to: p.cgPoint) }
                if closed { path.close() }
            }
            addShape(path, style)
        case .curve(let from, let control, let to, let style):
            let path = UIBezierPath()
            path.move(to: from.cgPoint)
            path.addQuadCurve(to: to.cgPoint, controlPoint: control.cgPoint)
            addShape(path, style)
        case .text(let string, let at, let size, let color, let anchor):
            let text = CATextLayer()
            text.string = string
            text.fontSize = CGFloat(size)
            text.foregroundColor = Self.color(color)
            text.contentsScale = scale
            // The display list gives the baseline point; the layer needs a box around it.
            let width = CGFloat(size) * CGFloat(max(string.count, 1)) + CGFloat(size)
            let x: CGFloat
            switch anchor {
            case .start: text.alignmentMode = .left; x = CGFloat(at.x)
            case .middle: text.alignmentMode = .center; x = CGFloat(at.x) - width / 2
            case .end: text.alignmentMode = .right; x = CGFloat(at.x) - width
            }
            text.frame = CGRect(x: x, y: CGFloat(at.y - size * 0.9), width: width, height: CGFloat(size * 1.25))
            addSublayer(text)
        case .group(_, _, let children):
            for child in children { add(child, scale: scale) }
        }
    }

    private func addShape(_ path: UIBezierPath, _ style: DrawStyle) {
        let shape = CAShapeLayer()
        shape.path = path.cgPath
        shape.fillColor = style.fill.flatMap(Self.color)
        shape.strokeColor = style.stroke.flatMap(Self.color)
        shape.lineWidth = CGFloat(style.strokeWidth)
        shape.lineCap = .round
        shape.opacity = Float(style.opacity)
        if style.dashed { shape.lineDashPattern = [6, 4] }
        addSublayer(shape)
    }

    static func color(_ hex: String) -> CGColor? {
        DisplayColor(hex: hex).map { UIColor(red: CGFloat($0.red), green: CGFloat($0.green), blue: CGFloat($0.blue), alpha: CGFloat($0.alpha)).cgColor }
    }
}
#endif
