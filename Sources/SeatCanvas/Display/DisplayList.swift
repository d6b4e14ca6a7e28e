import CollectionLayout

/// Fill and stroke of a primitive. Colours are `#RRGGBB`.
public struct DrawStyle: Sendable, Hashable {
    public var fill: String?
    public var stroke: String?
    public var strokeWidth: Double
    public var opacity: Double
    public var dashed: Bool

    public init(fill: String? = nil, stroke: String? = nil, strokeWidth: Double = 1, opacity: Double = 1, dashed: Bool = false) {
        self.fill = fill; self.stroke = stroke; self.strokeWidth = strokeWidth; self.opacity = opacity; self.dashed = dashed
    }
}

public enum TextAnchor: String, Sendable, Hashable { case start, middle, end }

/// A drawing primitive in content coordinates. What a UIKit layer, the SVG writer or a test reads.
public indirect enum DrawCommand: Sendable, Hashable {
    case roundedRect(LayoutRect, radius: Double, DrawStyle)
    case circle(center: LayoutPoint, radius: Double, DrawStyle)
    /// A polyline or polygon.
    case path([LayoutPoint], closed: Bool, DrawStyle)
    /// A quadratic curve (the screen arc).
    case curve(from: LayoutPoint, control: LayoutPoint, to: LayoutPoint, DrawStyle)
    case text(String, at: LayoutPoint, size: Double, color: String, anchor: TextAnchor)
    /// A named group: a seat, with its attributes (`data-status`, `aria-label`, …) and its shapes.
    case group(id: String, attributes: [String: String], children: [DrawCommand])
}

/// Layers in drawing order.
public enum DisplayLayer: Int, Sendable, Hashable, Comparable {
    case background, zones, rows, seats, overlay
    public static func < (a: DisplayLayer, b: DisplayLayer) -> Bool { a.rawValue < b.rawValue }
}

/// One keyed element of a frame; the key is stable across frames (a seat's is `seat-<id>`).
public struct DisplayItem: Sendable, Hashable {
    public var id: String
    public var layer: DisplayLayer
    public var command: DrawCommand
    public init(id: String, layer: DisplayLayer, command: DrawCommand) { self.id = id; self.layer = layer; self.command = command }
}

/// How much is drawn: chosen from the on-screen size of a seat.
public enum DetailLevel: String, Sendable, Hashable, CaseIterable {
    /// Zones as filled outlines with their free-seat counts.
    case zones
    /// Aisle-separated runs of each row as bars with free counts.
    case rows
    /// Single seats, with their numbers once they are large enough to read.
    case seats
}

/// A frame: items in content coordinates, sorted by layer then id, and the transform to the view.
public struct DisplayList: Sendable, Hashable {
    public var items: [DisplayItem]
    public var transform: ScaleTranslate
    public var viewSize: LayoutSize
    public var level: DetailLevel

    public init(items: [DisplayItem], transform: ScaleTranslate, viewSize: LayoutSize, level: DetailLevel) {
        self.items = items.sorted { ($0.layer, $0.id) < ($1.layer, $1.id) }
        self.transform = transform; self.viewSize = viewSize; self.level = level
    }

    public subscript(id: String) -> DisplayItem? { items.first { $0.id == id } }
}

/// What to change to go from one frame to the next: a UIKit layer or the web page applies this
/// instead of redrawing.
public struct RenderDiff: Sendable, Hashable {
    public var inserted: [DisplayItem]
    public var removed: [String]
    public var updated: [DisplayItem]
    public var transformChanged: Bool

    public init(inserted: [DisplayItem] = [], removed: [String] = [], updated: [DisplayItem] = [], transformChanged: Bool = false) {
        self.inserted = inserted; self.removed = removed; self.updated = updated; self.transformChanged = transformChanged
    }

    public var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && updated.isEmpty && !transformChanged }

    /// - Complexity: O(items in both frames).
    public init(from old: DisplayList, to new: DisplayList) {
        var before: [String: DisplayItem] = [:]
        before.reserveCapacity(old.items.count)
        for item in old.items { before[item.id] = item }
        var inserted: [DisplayItem] = [], updated: [DisplayItem] = []
        for item in new.items {
            if let previous = before.removeValue(forKey: item.id) {
                if previous != item { updated.append(item) }
            } else {
                inserted.append(item)
            }
        }
        self.init(
            inserted: inserted, removed: before.keys.sorted(), updated: updated,
            transformChanged: old.transform != new.transform || old.viewSize != new.viewSize)
    }
}
