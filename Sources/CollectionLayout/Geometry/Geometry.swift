/// A point in layout space (points, not pixels).
public struct LayoutPoint: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = LayoutPoint(x: 0, y: 0)
    public var description: String { "(\(fmt(x)), \(fmt(y)))" }
    public static func + (a: LayoutPoint, b: LayoutPoint) -> LayoutPoint { LayoutPoint(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: LayoutPoint, b: LayoutPoint) -> LayoutPoint { LayoutPoint(x: a.x - b.x, y: a.y - b.y) }
}

public struct LayoutSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = LayoutSize(width: 0, height: 0)
    public var description: String { "\(fmt(width))×\(fmt(height))" }
}

/// An axis-aligned rectangle; `origin` is its minimum corner.
public struct LayoutRect: Sendable, Hashable, CustomStringConvertible {
    public var origin: LayoutPoint
    public var size: LayoutSize

    public init(origin: LayoutPoint, size: LayoutSize) { self.origin = origin; self.size = size }
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: LayoutPoint(x: x, y: y), size: LayoutSize(width: width, height: height))
    }
    public static let zero = LayoutRect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var center: LayoutPoint { LayoutPoint(x: midX, y: midY) }
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// Half-open on the far edges, so a point on a shared edge belongs to exactly one of two neighbours.
    public func contains(_ p: LayoutPoint) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }
    public func intersects(_ r: LayoutRect) -> Bool { minX < r.maxX && r.minX < maxX && minY < r.maxY && r.minY < maxY }

    public func intersection(_ r: LayoutRect) -> LayoutRect {
        let x0 = max(minX, r.minX), y0 = max(minY, r.minY), x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        return x1 > x0 && y1 > y0 ? LayoutRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .zero
    }

    public func union(_ r: LayoutRect) -> LayoutRect {
        let x0 = min(minX, r.minX), y0 = min(minY, r.minY)
        return LayoutRect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }

    public func offsetBy(dx: Double, dy: Double) -> LayoutRect { LayoutRect(x: minX + dx, y: minY + dy, width: width, height: height) }
    public func insetBy(dx: Double, dy: Double) -> LayoutRect { LayoutRect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy) }

    /// Squared distance from `p` to the nearest point of the rectangle (0 inside).
    public func distanceSquared(to p: LayoutPoint) -> Double {
        let dx = max(minX - p.x, 0, p.x - maxX), dy = max(minY - p.y, 0, p.y - maxY)
        return dx * dx + dy * dy
    }

    public var description: String { "[\(fmt(minX)), \(fmt(minY)), \(fmt(width))×\(fmt(height))]" }
}

public struct EdgeInsets: Sendable, Hashable {
    public var top: Double, left: Double, bottom: Double, right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public init(all: Double) { self.init(top: all, left: all, bottom: all, right: all) }
    public static let zero = EdgeInsets()
}

/// Scale then translate: `view = content × scale + translation`. The only transform a zoomable map needs.
public struct ScaleTranslate: Sendable, Hashable {
    public var scale: Double
    public var translation: LayoutPoint
    public init(scale: Double = 1, translation: LayoutPoint = .zero) { self.scale = scale; self.translation = translation }

    public func apply(_ p: LayoutPoint) -> LayoutPoint { LayoutPoint(x: p.x * scale + translation.x, y: p.y * scale + translation.y) }
    public func apply(_ r: LayoutRect) -> LayoutRect {
        LayoutRect(origin: apply(r.origin), size: LayoutSize(width: r.width * scale, height: r.height * scale))
    }
    public var inverted: ScaleTranslate {
        ScaleTranslate(scale: 1 / scale, translation: LayoutPoint(x: -translation.x / scale, y: -translation.y / scale))
    }
}

/// Shortest text for a coordinate in snapshots: `12`, `12.5`, `0.333`.
func fmt(_ v: Double) -> String {
    let r = (v * 1000).rounded() / 1000
    if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
    return String(r)
}
