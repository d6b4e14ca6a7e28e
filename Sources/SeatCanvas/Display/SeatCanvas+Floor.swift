import CollectionLayout
import SeatMap

/// What stands on the floor besides seats: general-admission areas, drawn as their outline with how many
/// places are free, and tables' tops, with their names. At every level of detail: an area is one shape
/// whatever the zoom, and a table's top is what a buyer looks for.
extension SeatCanvas {
    func floorItems(content: FrameContent, visible: LayoutRect, zoom: Double) -> [DisplayItem] {
        var items: [DisplayItem] = []
        if !layout.areas.isEmpty {
            var status = content.availability.reader()
            for (k, placed) in layout.areas.enumerated() {
                let outline = geometry.areaOutlines[k]
                guard let box = Self.box(of: outline), box.intersects(visible) else { continue }
                // Counted from the frame's counts when given (O(1)); else from the statuses (O(capacity)).
                let free = content.counts?.perRow[placed.row] ?? placed.places.reduce(0) { $0 + (status($1) == .available ? 1 : 0) }
                let zone = layout.zone(of: placed.places.lowerBound)
                // A box or a party's room is open only while wholly free (as the page draws it).
                let open = placed.area.mode == .places ? free > 0 : free == placed.area.capacity
                let colour = open ? zone.color : Palette.sold
                let id = "area-" + Self.elementID(placed.area.id)
                items.append(
                    DisplayItem(
                        id: id, layer: .zones,
                        command: .path(outline, closed: true, DrawStyle(fill: colour, opacity: Drawing.zoneOpacity))))
                items.append(
                    DisplayItem(id: id + "-edge", layer: .zones, command: .path(outline, closed: true, DrawStyle(stroke: colour, strokeWidth: 2 / zoom))))
                let zh = content.language == .chinese
                let words = !open ? (zh ? "已满" : "full") : placed.area.mode == .places ? (zh ? "余 \(free) 位" : "\(free) left") : (zh ? "可预订" : "available")
                let lines = [localizedName(placed.area.name, content.language), words]
                let widest = lines.map { $0.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x2E80 ? 2 : 1) } }.max() ?? 1
                let size = min(
                    Drawing.zoneCaptionPoints / zoom, box.width * Drawing.zoneCaptionFill / (Double(widest) * Drawing.characterWidth), box.height / 3)
                for (n, line) in lines.enumerated() {
                    let at = LayoutPoint(x: box.midX, y: box.midY + size * (0.35 + (Double(n) - 0.5) * 1.2))
                    items.append(
                        DisplayItem(
                            id: id + (n == 0 ? "-name" : "-free"), layer: .overlay,
                            command: .text(line, at: at, size: size, color: Palette.text, anchor: .middle)))
                }
            }
        }
        for (k, placed) in layout.tables.enumerated() where geometry.tableTops[k].rect.intersects(visible) {
            let top = geometry.tableTops[k]
            let zone = layout.zone(of: placed.seats.lowerBound)
            let style = DrawStyle(fill: Palette.tableFill, stroke: zone.color, strokeWidth: 1.5)
            let id = "table-" + Self.elementID(placed.table.id)
            let r = top.rect
            items.append(
                DisplayItem(
                    id: id, layer: .zones,
                    command: top.shape == .round
                        ? .circle(center: LayoutPoint(x: r.midX, y: r.midY), radius: min(r.width, r.height) / 2, style)
                        : .roundedRect(r, radius: Drawing.tableCorner, style)))
            let name = localizedName(placed.table.name, content.language)
            let size = min(max(11 / zoom, 6), r.width / Double(max(name.count, 2)) * 1.5, r.height * 0.6)
            items.append(
                DisplayItem(
                    id: id + "-name", layer: .overlay,
                    command: .text(name, at: LayoutPoint(x: r.midX, y: r.midY + size * 0.35), size: size, color: Palette.text, anchor: .middle)))
        }
        return items
    }

    static func box(of points: [LayoutPoint]) -> LayoutRect? {
        guard let first = points.first else { return nil }
        return points.dropFirst().reduce(LayoutRect(origin: first, size: .zero)) { $0.union(LayoutRect(origin: $1, size: .zero)) }
    }
}
