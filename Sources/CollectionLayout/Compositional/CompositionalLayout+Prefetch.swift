/// What a view needs to drive `PrefetchPlanner` over a section: the section's groups as an axis, the
/// window a view shows of it, and the items of a group (prefetch keys are group indices).
extension CompositionalLayout {
    /// The section's groups along its scrolling direction: sideways for orthogonal sections, down the
    /// page otherwise. Positions start at the section's first group.
    public func groupAxis(_ s: Int) -> VariableAxis { groupAxes[s] }

    /// The items of group `g` of section `s`.
    public func items(inGroup g: Int, section s: Int) -> Range<Int> {
        let perGroup = sections[s].group.count
        return min(g * perGroup, sections[s].itemCount)..<min((g + 1) * perGroup, sections[s].itemCount)
    }

    /// The part of `groupAxis(s)` that `visible` (content coordinates; for an orthogonal section, the
    /// section's own view at its current sideways offset) shows: what `PrefetchPlanner.update` takes.
    public func groupWindow(section s: Int, visible: LayoutRect) -> (offset: Double, length: Double) {
        let origin = bodyOrigin(s)
        if sections[s].orthogonalScrolling != .none {
            return (visible.minX - origin.x + orthogonalOffsets[s], visible.width)
        }
        return (visible.minY - origin.y, visible.height)
    }
}
