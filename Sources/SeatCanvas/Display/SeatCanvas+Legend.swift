import CollectionLayout
import SeatMap

public struct LegendEntry: Sendable, Hashable {
    public enum Swatch: Sendable, Hashable {
        case color(String)
        /// A seat kind drawn as an outline (couple seats).
        case outline(String)
        /// A glyph on a colour (the wheelchair sign).
        case symbol(String, String)
        /// The restricted-view dot.
        case dot(String)
        /// A dashed outline (the best-view area).
        case dashed(String)
        /// A status: its fill and its glyph (`SeatGlyph`), as the seats show them.
        case status(String, SeatGlyph)
        case ramp
    }
    public var swatch: Swatch
    public var label: String
    public init(_ swatch: Swatch, _ label: String) { self.swatch = swatch; self.label = label }
}

extension SeatCanvas {
    /// What the picture shows, and only that: the statuses present (selected, sold, held, not for sale),
    /// each zone's colour for its free seats (with its price when prices are given), then the seat
    /// kinds present (couple outline, wheelchair sign, restricted-view dot); or the heat-map ramp.
    /// - Complexity: O(n) for the seat kinds.
    public func legend(content: FrameContent) -> [LegendEntry] {
        let zh = content.language == .chinese
        if content.heatmap != nil {
            return [LegendEntry(.ramp, zh ? "售出比例 0% → 100%" : "sold share 0% → 100%"), LegendEntry(.color(SeatHeatmap.missing), zh ? "无数据" : "no data")]
        }
        let counts = content.availability.counts
        var entries: [LegendEntry] = []
        if !content.selection.isEmpty { entries.append(LegendEntry(.status(Palette.selected, .tick), zh ? "已选" : "selected")) }
        for (status, count, color) in [
            (SeatStatus.sold, counts.sold, Palette.sold), (.held, counts.held, Palette.held), (.blocked, counts.blocked, Palette.blocked),
        ]
        where count > 0 {
            entries.append(
                LegendEntry(SeatGlyph.of(status, selected: false).map { .status(color, $0) } ?? .color(color), status.localizedName(content.language)))
        }
        // One entry a colour and category; a category shared by several zones is named, not its first zone.
        // A zone's colour is its free seats: said so ("available" was nowhere in the legend), in one language.
        var seen = Set<String>()
        let colours = Set(layout.zones.map { $0.color + $0.category }).count
        for zone in layout.zones where seen.insert(zone.color + zone.category).inserted && seen.count <= 6 {
            let shared = layout.zones.filter { $0.category == zone.category && $0.color == zone.color }.count > 1
            let name = shared ? zone.category : localizedName(zone.name, content.language)
            var label =
                colours == 1 ? (zh ? "可选" : "available") : zh ? "\(name) 可选" : "\(name), available"
            if let prices = content.prices, let p = prices.table.categoryPrices[zone.category] { label += " " + prices.format(p) }
            entries.append(LegendEntry(.color(zone.color), label))
        }
        var couple = false, wheelchair = false, restricted = false
        for s in layout.seatIndices {
            let t = layout.type(of: s)
            couple = couple || t == .coupleLeft
            wheelchair = wheelchair || t == .wheelchair
            restricted = restricted || layout.flags(of: s).contains(.restrictedView)
        }
        if couple { entries.append(LegendEntry(.outline(Palette.stroke), zh ? "情侣座（成对出售）" : "couple seat (sold as a pair)")) }
        if wheelchair { entries.append(LegendEntry(.symbol("♿", layout.zones.first?.color ?? Palette.stroke), zh ? "轮椅位" : "wheelchair space")) }
        if restricted { entries.append(LegendEntry(.dot(Palette.text), zh ? "视野受限" : "restricted view")) }
        if bestView != nil { entries.append(LegendEntry(.dashed(Palette.selected), zh ? "最佳观影区" : "best view")) }
        return entries
    }

    /// The SVG of one frame (`viewport` nil: the whole venue), with its legend.
    public func svg(viewport: Viewport?, content: FrameContent, title: String? = nil) -> String {
        let list = displayList(viewport: viewport, content: content)
        return SVGWriter(title: title ?? localizedName(layout.name, content.language), legend: legend(content: content)).document(list)
    }
}
