extension CompositionalLayout {
    /// Sections whose frames overlap `[top, bottom)`.
    /// - Complexity: O(log sections).
    func sections(overlapping top: Double, _ bottom: Double) -> Range<Int> {
        var lo = 0, hi = sections.count
        while lo < hi { let mid = (lo + hi) / 2; if sectionTops[mid] + sectionHeights[mid] <= top { lo = mid + 1 } else { hi = mid } }
        var end = lo
        while end < sections.count && sectionTops[end] < bottom { end += 1 }
        return lo..<end
    }

    /// Items and headers whose frames intersect `rect` (content coordinates), in section and item
    /// order. Headers are at their pinned position for a view whose top is at `pinningOffset`.
    /// - Complexity: O(log n + k): a binary search per touched section, then only the items returned.
    public func attributes(in rect: LayoutRect, pinningOffset: Double? = nil) -> [LayoutAttributes] {
        var out: [LayoutAttributes] = []
        for s in sections(overlapping: rect.minY, rect.maxY) {
            if let header = headerFrame(s, pinningOffset: pinningOffset), header.intersects(rect) {
                out.append(LayoutAttributes(kind: .header, path: ItemPath(section: s, item: 0), frame: header))
            }
            let section = sections[s], origin = bodyOrigin(s), perGroup = section.group.count
            let groups: Range<Int>
            if section.orthogonalScrolling != .none {
                guard rect.minY < origin.y + groupCrossSizes[s], rect.maxY > origin.y else { continue }
                let shift = origin.x - orthogonalOffsets[s]
                groups = groupAxes[s].range(overlapping: rect.minX - shift, rect.maxX - shift)
            } else {
                groups = groupAxes[s].range(overlapping: rect.minY - origin.y, rect.maxY - origin.y)
            }
            for g in groups {
                for item in (g * perGroup)..<min((g + 1) * perGroup, section.itemCount) {
                    let path = ItemPath(section: s, item: item)
                    let f = frame(of: path)
                    if f.intersects(rect) { out.append(LayoutAttributes(kind: .item, path: path, frame: f)) }
                }
            }
        }
        return out
    }

    /// The header's frame; pinned headers stick to `pinningOffset` until their section's end pushes them.
    public func headerFrame(_ s: Int, pinningOffset: Double? = nil) -> LayoutRect? {
        guard let header = sections[s].header else { return nil }
        var y = sectionTops[s]
        if header.pinned, let top = pinningOffset {
            y = min(max(top, y), sectionTops[s] + sectionHeights[s] - header.height)
        }
        return LayoutRect(x: 0, y: y, width: containerSize.width, height: header.height)
    }

    /// Records an estimated item's measured height. Later items move. Returns how far to move the
    /// scroll offset so that what is on screen stays put: non-zero only when the change lies wholly
    /// above `visibleTop` (content above the window changed size), as TanStack Virtual does.
    /// - Complexity: O(log groups + sections).
    @discardableResult
    public mutating func measure(_ path: ItemPath, height: Double, visibleTop: Double) -> Double {
        let s = path.section
        precondition(sections[s].group.itemSize.height.isEstimated, "only estimated items are measured")
        let group = path.item / sections[s].group.count
        let origin = bodyOrigin(s)
        let groupBottomBefore = origin.y + groupAxes[s].offset(of: group) + groupAxes[s].size(of: group)
        let before = groupAxes[s].size(of: group)
        measured[s][path.item] = height
        let after = groupExtent(section: s, group: group, nominal: before)
        guard after != before else { return 0 }
        groupAxes[s].setSize(after, of: group)
        recomputeSectionTops()
        return groupBottomBefore <= visibleTop ? after - before : 0
    }
}
