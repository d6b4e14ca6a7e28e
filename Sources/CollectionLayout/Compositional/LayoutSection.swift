/// A length in a compositional layout.
public enum LayoutDimension: Sendable, Hashable {
    case absolute(Double)
    /// A fraction of the container's (for a group: the section's; for an item: the group's) width.
    case fractionalWidth(Double)
    case fractionalHeight(Double)
    /// A first guess, replaced by the measured value (`CompositionalLayout.measure`).
    case estimated(Double)

    func resolve(width: Double, height: Double) -> Double {
        switch self {
        case .absolute(let v), .estimated(let v): return v
        case .fractionalWidth(let f): return f * width
        case .fractionalHeight(let f): return f * height
        }
    }

    var isEstimated: Bool { if case .estimated = self { return true } else { return false } }
}

public struct LayoutSize2D: Sendable, Hashable {
    public var width: LayoutDimension
    public var height: LayoutDimension
    public init(width: LayoutDimension, height: LayoutDimension) { self.width = width; self.height = height }
}

/// A group: `count` items side by side (horizontal) or stacked (vertical), repeated along the section.
public struct LayoutGroup: Sendable, Hashable {
    public enum Axis: Sendable, Hashable { case horizontal, vertical }
    public var axis: Axis
    public var size: LayoutSize2D
    public var itemSize: LayoutSize2D
    public var count: Int
    public var interItemSpacing: Double

    public init(axis: Axis, size: LayoutSize2D, itemSize: LayoutSize2D, count: Int = 1, interItemSpacing: Double = 0) {
        precondition(count >= 1, "a group holds at least one item")
        precondition(axis == .horizontal || !itemSize.height.isEstimated, "estimated heights are for horizontal groups")
        self.axis = axis; self.size = size; self.itemSize = itemSize; self.count = count; self.interItemSpacing = interItemSpacing
    }
}

/// How a section scrolls across the main (vertical) direction.
public enum OrthogonalScrolling: String, Sendable, Hashable, CaseIterable {
    case none, continuous, continuousGroupLeadingBoundary, paging, groupPaging, groupPagingCentered
}

public struct SectionHeader: Sendable, Hashable {
    public var height: Double
    /// Stays at the top while its section scrolls under it, until the next section pushes it up.
    public var pinned: Bool
    public init(height: Double, pinned: Bool = false) { self.height = height; self.pinned = pinned }
}

public struct LayoutSection: Sendable, Hashable {
    public var itemCount: Int
    public var group: LayoutGroup
    public var interGroupSpacing: Double
    public var contentInsets: EdgeInsets
    public var orthogonalScrolling: OrthogonalScrolling
    public var header: SectionHeader?

    public init(
        itemCount: Int, group: LayoutGroup, interGroupSpacing: Double = 0, contentInsets: EdgeInsets = .zero,
        orthogonalScrolling: OrthogonalScrolling = .none, header: SectionHeader? = nil
    ) {
        precondition(itemCount >= 0, "item count must not be negative")
        precondition(orthogonalScrolling == .none || !group.itemSize.height.isEstimated, "orthogonal sections need known heights")
        self.itemCount = itemCount; self.group = group; self.interGroupSpacing = interGroupSpacing
        self.contentInsets = contentInsets; self.orthogonalScrolling = orthogonalScrolling; self.header = header
    }

    public var groupCount: Int { (itemCount + group.count - 1) / group.count }
}

/// An item's address.
public struct ItemPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var section: Int
    public var item: Int
    public init(section: Int, item: Int) { self.section = section; self.item = item }
    public static func < (a: ItemPath, b: ItemPath) -> Bool { (a.section, a.item) < (b.section, b.item) }
    public var description: String { "\(section).\(item)" }
}

/// A laid-out element: an item or a section header, with its frame in content coordinates.
public struct LayoutAttributes: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case item, header }
    public var kind: Kind
    public var path: ItemPath
    public var frame: LayoutRect
    public init(kind: Kind, path: ItemPath, frame: LayoutRect) { self.kind = kind; self.path = path; self.frame = frame }
}
