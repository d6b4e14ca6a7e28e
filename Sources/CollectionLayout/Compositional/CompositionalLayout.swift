/// Sections of groups of items, laid out by template: one group is laid out once, and item i's frame
/// is the template slot i % count moved to group i / count. Group positions along a section come from a
/// `VariableAxis`, so measuring an estimated item moves later groups in O(log n) and rect queries are
/// O(log n + k) with no sorting. The main direction is vertical; orthogonal sections scroll sideways.
public struct CompositionalLayout: Sendable {
    public private(set) var sections: [LayoutSection]
    public private(set) var containerSize: LayoutSize
    /// Per section: the groups along the section's scrolling direction.
    var groupAxes: [VariableAxis]
    /// Per section: item slots within one group (relative frames), for the resolved container.
    var templates: [[LayoutRect]]
    var groupCrossSizes: [Double]
    /// Per section: measured heights of estimated items, by item.
    var measured: [[Int: Double]]
    /// Per section: top y and height (header and insets included).
    var sectionTops: [Double]
    var sectionHeights: [Double]
    /// Per orthogonal section: its sideways scroll offset.
    public var orthogonalOffsets: [Double]

    public init(sections: [LayoutSection], containerSize: LayoutSize) {
        self.sections = sections
        self.containerSize = containerSize
        groupAxes = []; templates = []; groupCrossSizes = []
        measured = Array(repeating: [:], count: sections.count)
        sectionTops = []; sectionHeights = []
        orthogonalOffsets = Array(repeating: 0, count: sections.count)
        rebuild()
    }

    /// Width and height available to a section's groups.
    func sectionContainer(_ s: Int) -> (width: Double, height: Double) {
        let i = sections[s].contentInsets
        return (max(containerSize.width - i.left - i.right, 0), containerSize.height)
    }

    /// Recomputes every template and axis: O(groups). Called on init, resize and section changes.
    mutating func rebuild() {
        groupAxes = []; templates = []; groupCrossSizes = []
        for s in sections.indices {
            let section = sections[s]
            let (cw, ch) = sectionContainer(s)
            let g = section.group
            let gw = g.size.width.resolve(width: cw, height: ch)
            let gh = g.size.height.resolve(width: cw, height: ch)
            var slots: [LayoutRect] = []
            var cursor = 0.0
            for _ in 0..<g.count {
                let w = g.itemSize.width.resolve(width: gw, height: gh)
                let h = g.itemSize.height.resolve(width: gw, height: gh)
                if g.axis == .horizontal {
                    slots.append(LayoutRect(x: cursor, y: 0, width: w, height: h)); cursor += w + g.interItemSpacing
                } else {
                    slots.append(LayoutRect(x: 0, y: cursor, width: w, height: h)); cursor += h + g.interItemSpacing
                }
            }
            templates.append(slots)
            let orthogonal = section.orthogonalScrolling != .none
            groupCrossSizes.append(orthogonal ? gh : gw)
            let extents = (0..<section.groupCount).map { groupExtent(section: s, group: $0, nominal: orthogonal ? gw : gh) }
            groupAxes.append(VariableAxis(sizes: extents, spacing: section.interGroupSpacing))
        }
        recomputeSectionTops()
    }

    /// A group's length along its section: the nominal size, or for estimated items the tallest
    /// (measured or estimated) item of the group.
    func groupExtent(section s: Int, group: Int, nominal: Double) -> Double {
        let section = sections[s]
        guard section.group.itemSize.height.isEstimated else { return nominal }
        let first = group * section.group.count, last = min(first + section.group.count, section.itemCount)
        var h = 0.0
        for i in first..<last { h = max(h, measured[s][i] ?? templates[s][i - first].height) }
        return h
    }

    mutating func recomputeSectionTops() {
        sectionTops = []; sectionHeights = []
        var y = 0.0
        for s in sections.indices {
            let section = sections[s]
            let body = section.orthogonalScrolling != .none ? (section.groupCount > 0 ? groupCrossSizes[s] : 0) : groupAxes[s].contentLength
            let h = (section.header?.height ?? 0) + section.contentInsets.top + body + section.contentInsets.bottom
            sectionTops.append(y); sectionHeights.append(h)
            y += h
        }
    }

    public var contentSize: LayoutSize { LayoutSize(width: containerSize.width, height: (sectionTops.last ?? 0) + (sectionHeights.last ?? 0)) }

    /// Where a section's groups start (below its header and top inset).
    func bodyOrigin(_ s: Int) -> LayoutPoint {
        LayoutPoint(x: sections[s].contentInsets.left, y: sectionTops[s] + (sections[s].header?.height ?? 0) + sections[s].contentInsets.top)
    }

    /// The item's frame in content coordinates (orthogonal sections: at their current sideways offset).
    /// - Complexity: O(log groups).
    public func frame(of path: ItemPath) -> LayoutRect {
        let s = path.section, section = sections[s]
        let group = path.item / section.group.count, slot = path.item % section.group.count
        var f = templates[s][slot]
        if let h = measured[s][path.item] { f.size.height = h }
        let origin = bodyOrigin(s)
        if section.orthogonalScrolling != .none {
            return f.offsetBy(dx: origin.x + groupAxes[s].offset(of: group) - orthogonalOffsets[s], dy: origin.y)
        }
        return f.offsetBy(dx: origin.x, dy: origin.y + groupAxes[s].offset(of: group))
    }

    public func sectionFrame(_ s: Int) -> LayoutRect { LayoutRect(x: 0, y: sectionTops[s], width: containerSize.width, height: sectionHeights[s]) }

    /// A new container size (rotation): templates are resolved again; measured heights are kept.
    public mutating func resize(to size: LayoutSize) {
        containerSize = size
        rebuild()
    }

    /// Replaces one section (a preset switch or a reload), dropping its measurements.
    public mutating func replaceSection(_ s: Int, with section: LayoutSection) {
        sections[s] = section
        measured[s] = [:]
        orthogonalOffsets[s] = 0
        rebuild()
    }
}
