extension CompositionalLayout {
    /// How far an orthogonal section can scroll sideways.
    public func orthogonalRange(_ s: Int) -> ClosedRange<Double> {
        let width = containerSize.width
        let content = sections[s].contentInsets.left + groupAxes[s].contentLength + sections[s].contentInsets.right
        var lower = 0.0, upper = max(content - width, 0)
        if sections[s].orthogonalScrolling == .groupPagingCentered, sections[s].groupCount > 0 {
            // Centring the first and last groups may need room past the ends.
            lower = min(lower, centredOffset(s, group: 0))
            upper = max(upper, centredOffset(s, group: sections[s].groupCount - 1))
        }
        return lower...upper
    }

    func centredOffset(_ s: Int, group g: Int) -> Double {
        sections[s].contentInsets.left + groupAxes[s].offset(of: g) + groupAxes[s].size(of: g) / 2 - containerSize.width / 2
    }

    func leadingOffset(_ s: Int, group g: Int) -> Double { groupAxes[s].offset(of: g) }

    /// Where an orthogonal section comes to rest when the finger lifts at `offset` with `velocity`
    /// (points a second, positive = towards later items), per the section's behaviour:
    /// - continuous: the deceleration projection;
    /// - continuousGroupLeadingBoundary: the projection, snapped to the nearest group's leading edge;
    /// - paging: one container width at a time (a flick moves one page; the last page ends at the content end);
    /// - groupPaging: one group at a time; groupPagingCentered: one group at a time, centred.
    /// - Complexity: O(log groups).
    public func orthogonalTarget(
        section s: Int, offset: Double, velocity: Double, decelerationRate: Double = 0.998,
        flickThreshold: Double = 300
    ) -> Double {
        let range = orthogonalRange(s)
        let clamp = { (v: Double) in min(max(v, range.lowerBound), range.upperBound) }
        let direction = velocity > flickThreshold ? 1 : velocity < -flickThreshold ? -1 : 0
        let axis = groupAxes[s]
        guard axis.count > 0 else { return 0 }
        switch sections[s].orthogonalScrolling {
        case .none:
            return offset
        case .continuous:
            return clamp(offset + velocity * decelerationRate / (1 - decelerationRate) / 1000)
        case .continuousGroupLeadingBoundary:
            let projected = clamp(offset + velocity * decelerationRate / (1 - decelerationRate) / 1000)
            guard projected < range.upperBound else { return projected }
            let g = nearestGroup(s, to: projected, by: leadingOffset)
            return clamp(leadingOffset(s, group: g))
        case .paging:
            let page = containerSize.width
            let current = offset / page
            let target = direction > 0 ? current.rounded(.down) + 1 : direction < 0 ? current.rounded(.up) - 1 : current.rounded()
            return clamp(target * page)
        case .groupPaging, .groupPagingCentered:
            let place = sections[s].orthogonalScrolling == .groupPaging ? leadingOffset : centredOffset
            let g = nearestGroup(s, to: offset, by: place)
            let next = min(max(g + direction, 0), axis.count - 1)
            return clamp(place(s, next))
        }
    }

    /// The group whose resting offset (by `place`) is nearest `offset`.
    func nearestGroup(_ s: Int, to offset: Double, by place: (Int, Int) -> Double) -> Int {
        let axis = groupAxes[s]
        let probe = offset - place(s, 0) + leadingOffset(s, group: 0)
        let g = axis.slot(at: probe) ?? 0
        let candidates = [g - 1, g, g + 1].filter { $0 >= 0 && $0 < axis.count }
        return candidates.min { abs(place(s, $0) - offset) < abs(place(s, $1) - offset) }!
    }
}

/// Ready-made sections, switchable at run time with `CompositionalLayout.replaceSection`.
public enum SectionPreset: String, Sendable, CaseIterable {
    /// Cards 80% of the width, one at a time, centred: a show-time or recommendation strip.
    case cardCarousel
    /// Full-width rows of estimated height 44.
    case list
    /// Two square columns.
    case twoColumnGrid

    public func section(itemCount: Int, header: SectionHeader? = nil) -> LayoutSection {
        switch self {
        case .cardCarousel:
            return LayoutSection(
                itemCount: itemCount,
                group: LayoutGroup(
                    axis: .horizontal, size: LayoutSize2D(width: .fractionalWidth(0.8), height: .absolute(120)),
                    itemSize: LayoutSize2D(width: .fractionalWidth(1), height: .fractionalHeight(1))),
                interGroupSpacing: 12, contentInsets: EdgeInsets(top: 8, left: 16, bottom: 8, right: 16),
                orthogonalScrolling: .groupPagingCentered, header: header)
        case .list:
            return LayoutSection(
                itemCount: itemCount,
                group: LayoutGroup(
                    axis: .horizontal, size: LayoutSize2D(width: .fractionalWidth(1), height: .estimated(44)),
                    itemSize: LayoutSize2D(width: .fractionalWidth(1), height: .estimated(44))),
                interGroupSpacing: 1, header: header)
        case .twoColumnGrid:
            return LayoutSection(
                itemCount: itemCount,
                group: LayoutGroup(
                    axis: .horizontal, size: LayoutSize2D(width: .fractionalWidth(1), height: .fractionalWidth(0.5)),
                    itemSize: LayoutSize2D(width: .fractionalWidth(0.5), height: .fractionalHeight(1)), count: 2),
                contentInsets: EdgeInsets(all: 8), header: header)
        }
    }
}
