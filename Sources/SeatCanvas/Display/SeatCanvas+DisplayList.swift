import CollectionLayout
import SeatMap

/// What a frame shows besides the geometry.
public struct FrameContent: Sendable {
    public var availability: SeatAvailability
    public var selection: Set<SeatIndex>
    /// Draw the heat map instead of the statuses.
    public var heatmap: SeatHeatmap?
    /// Free counts for the zoomed-out levels; counted from the availability when not given.
    public var counts: FreeSeatCounts?
    public var prices: SeatPrices?
    public var language: Language
    /// Also give each seat `data-index` (its index in the availability), `data-row` (row index), `data-name` and `data-details` (the label's parts that
    /// do not change with status), so a live page can recolour and relabel seats by itself.
    public var labelParts: Bool
    /// Row labels at both ends of every row, at seat level (pictures for people; a page draws its own gutter).
    public var rowLabels: Bool

    public init(
        availability: SeatAvailability, selection: Set<SeatIndex> = [], heatmap: SeatHeatmap? = nil,
        counts: FreeSeatCounts? = nil, prices: SeatPrices? = nil, language: Language = .chinese, labelParts: Bool = false,
        rowLabels: Bool = false
    ) {
        self.availability = availability; self.selection = selection; self.heatmap = heatmap
        self.counts = counts; self.prices = prices; self.language = language; self.labelParts = labelParts
        self.rowLabels = rowLabels
    }
}

/// Where the level of detail switches, by a seat's size on screen in points.
public struct DetailPolicy: Sendable, Hashable {
    public var rowsBelow: Double
    public var zonesBelow: Double
    /// Seat numbers are drawn from this size up.
    public var labelsFrom: Double
    public init(rowsBelow: Double = 10, zonesBelow: Double = 4, labelsFrom: Double = 16) {
        self.rowsBelow = rowsBelow; self.zonesBelow = zonesBelow; self.labelsFrom = labelsFrom
    }
}

extension SeatCanvas {
    public func level(forZoom zoom: Double, policy: DetailPolicy = DetailPolicy()) -> DetailLevel {
        let onScreen = style.seatSize * zoom
        return onScreen < policy.zonesBelow ? .zones : onScreen < policy.rowsBelow ? .rows : .seats
    }

    /// The frame for `viewport` (nil: the whole venue at 1:1, every seat).
    /// - Complexity: O(visible seats) at seat level, O(visible blocks) at row level, O(zones) at zone
    ///   level; plus O(n) once if `content.counts` is nil at the coarse levels.
    public func displayList(viewport: Viewport?, content: FrameContent, policy: DetailPolicy = DetailPolicy()) -> DisplayList {
        let zoom = viewport?.zoom ?? 1
        let level = viewport == nil ? .seats : level(forZoom: zoom, policy: policy)
        let visible = viewport?.visibleContentRect ?? LayoutRect(origin: .zero, size: contentSize)
        var items = backgroundItems(level: level, language: content.language, zoom: zoom)
        items += floorItems(content: content, visible: visible, zoom: zoom)
        switch level {
        case .seats:
            let seats = viewport == nil ? Array(layout.seatIndices) : geometry.seatIndex.query(visible)
            let showLabels = style.seatSize * zoom >= policy.labelsFrom
            items.reserveCapacity(items.count + seats.count)
            var status = content.availability.reader()
            // An area's places are not drawn one by one (they all stand at its centre): the area is.
            for s in seats where !layout.isPlace(s) {
                items.append(seatItem(s, status: status(s), content: content, showLabel: showLabels))
                if layout.type(of: s) == .coupleLeft, let p = layout.partner(of: s) {
                    items.append(
                        DisplayItem(
                            id: "couple-" + Self.elementID(layout.seatID(s)), layer: .overlay,
                            command: .roundedRect(
                                geometry.rect(of: s).union(geometry.rect(of: p)).insetBy(dx: -1.5, dy: -1.5),
                                radius: style.cornerRadius + 1.5, DrawStyle(stroke: Palette.stroke, strokeWidth: 1.5))))
                }
            }
            if content.rowLabels { items.append(contentsOf: rowLabelItems(visible: visible)) }
        case .rows:
            let counts = content.counts ?? FreeSeatCounts(layout: layout, availability: content.availability)
            // An area's places are one block at its centre: the area is drawn instead.
            for b in geometry.blockIndex.query(visible) where !layout.isPlace(layout.blocks[b].lowerBound) {
                items.append(contentsOf: blockItems(b, counts: counts, content: content, zoom: zoom))
            }
        case .zones:
            let counts = content.counts ?? FreeSeatCounts(layout: layout, availability: content.availability)
            for z in layout.zones.indices where geometry.zoneRects[z].intersects(visible) {
                items.append(contentsOf: zoneItems(z, counts: counts, content: content, zoom: zoom))
            }
        }
        return DisplayList(
            items: items, transform: viewport?.transform ?? ScaleTranslate(),
            viewSize: viewport?.viewSize ?? contentSize, level: level)
    }

    /// Only the seats that changed, for a frame already on screen at seat level.
    /// - Complexity: O(changes), whatever the venue size.
    public func updates(after changes: [SeatChange], in viewport: Viewport?, content: FrameContent, policy: DetailPolicy = DetailPolicy()) -> RenderDiff {
        let zoom = viewport?.zoom ?? 1
        guard viewport == nil || level(forZoom: zoom, policy: policy) == .seats else { return RenderDiff() }
        let visible = viewport?.visibleContentRect
        let showLabels = style.seatSize * zoom >= policy.labelsFrom
        var updated: [DisplayItem] = []
        for change in changes where !layout.isPlace(change.seat) && (visible.map({ geometry.rect(of: change.seat).intersects($0) }) ?? true) {
            updated.append(seatItem(change.seat, status: change.status, content: content, showLabel: showLabels))
        }
        return RenderDiff(updated: updated)
    }

    /// A seat as a named group: its square (or its half of a couple shape), its number, markers.
    func seatItem(_ s: SeatIndex, status: SeatStatus, content: FrameContent, showLabel: Bool) -> DisplayItem {
        let zone = layout.zone(of: s)
        let selected = content.selection.contains(s)
        let fill =
            content.heatmap.map { SeatHeatmap.color($0.value(of: s)) }
            ?? Palette.fill(status: status, zoneColor: zone.color, selected: selected)
        let rect = geometry.rect(of: s)
        var children: [DrawCommand] = [.roundedRect(rect, radius: style.cornerRadius, DrawStyle(fill: fill))]
        let type = layout.type(of: s)
        // Not simply free: the status's glyph in place of the number (on a heat map, the number).
        if showLabel, content.heatmap == nil, let glyph = SeatGlyph.of(status, selected: selected) {
            children += glyph.commands(in: rect, ink: Palette.ink(on: fill))
        } else if showLabel {
            let text = type == .wheelchair ? "♿" : layout.seatLabel(s)
            let ink = Palette.ink(on: fill)
            children.append(
                .text(
                    text, at: LayoutPoint(x: rect.midX, y: rect.midY + style.seatSize * Drawing.numberBaseline),
                    size: style.seatSize * Drawing.numberSize, color: ink, anchor: .middle))
        }
        if layout.flags(of: s).contains(.restrictedView) {
            children.append(.circle(center: LayoutPoint(x: rect.maxX - 3, y: rect.minY + 3), radius: 2, DrawStyle(fill: Palette.text)))
        }
        let id = layout.seatID(s)
        var attributes = [
            "data-seat-id": id, "data-status": selected ? "selected" : status.name, "data-zone": zone.id,
            "aria-label": spokenLabel(s, status: status, selected: selected, prices: content.prices, language: content.language),
        ]
        if content.labelParts {
            let parts = spokenLabelParts(s, prices: content.prices, language: content.language)
            attributes["data-index"] = String(s)
            attributes["data-row"] = String(layout.rowIndex(of: s))
            attributes["data-name"] = parts.name
            attributes["data-details"] = parts.details.joined(separator: Self.labelSeparator(content.language))
        }
        return DisplayItem(
            id: "seat-" + Self.elementID(id), layer: .seats, command: .group(id: "seat-" + Self.elementID(id), attributes: attributes, children: children))
    }

    /// A run of seats between aisles as one thick stroke through five of its seats (so curved rows stay
    /// curved), shaded by how free it is, with its free count when there is room to read it.
    func blockItems(_ b: Int, counts: FreeSeatCounts, content: FrameContent, zoom: Double) -> [DisplayItem] {
        let seats = layout.blocks[b]
        let free = counts.perBlock[b]
        let zone = layout.zone(of: seats.lowerBound)
        let fill: String, opacity: Double
        if let heatmap = content.heatmap {
            fill = SeatHeatmap.color(heatmap.rowAverages[layout.rowIndex(of: seats.lowerBound)]); opacity = 1
        } else {
            fill = free > 0 ? zone.color : Palette.sold
            opacity = free > 0 ? Drawing.rowOpacityFloor + (1 - Drawing.rowOpacityFloor) * Double(free) / Double(seats.count) : 1
        }
        let last = seats.upperBound - 1
        let picks = [0.0, 0.25, 0.5, 0.75, 1.0].map { seats.lowerBound + Int((Double(last - seats.lowerBound) * $0).rounded()) }
        var points: [LayoutPoint] = []
        for p in picks where points.last != geometry.center(of: p) { points.append(geometry.center(of: p)) }
        if points.count == 1 { points.append(LayoutPoint(x: points[0].x + 0.01, y: points[0].y)) }
        var out = [
            DisplayItem(
                id: "block-\(b)", layer: .rows,
                command: .path(points, closed: false, DrawStyle(stroke: fill, strokeWidth: style.seatSize, opacity: opacity)))
        ]
        let length = geometry.blockRects[b].width * zoom, thickness = style.seatSize * zoom
        if thickness >= Drawing.rowCountThickness && length >= Drawing.rowCountLength {
            let mid = geometry.center(of: seats.lowerBound + (last - seats.lowerBound) / 2)
            out.append(
                DisplayItem(
                    id: "block-\(b)-count", layer: .overlay,
                    command: .text(
                        String(free), at: LayoutPoint(x: mid.x, y: mid.y + style.seatSize * Drawing.rowCountBaseline),
                        size: style.seatSize * Drawing.rowCountSize, color: Palette.text, anchor: .middle)))
        }
        return out
    }

    func zoneItems(_ z: Int, counts: FreeSeatCounts, content: FrameContent, zoom: Double) -> [DisplayItem] {
        let zone = layout.zones[z]
        let free = counts.perZone[z]
        let fill = content.heatmap.map { SeatHeatmap.color($0.zoneAverages[z]) } ?? (free > 0 ? zone.color : Palette.sold)
        let rect = geometry.zoneRects[z]
        let name = localizedName(zone.name, content.language)
        let price = content.prices?.zonePriceText(z).map { $0 + " · " } ?? ""
        let caption = Drawing.zoneCaption(content.language).filling(["{name}": name, "{price}": price, "{free}": String(free)])
        let size = Drawing.zoneCaptionSize(caption, zoom: zoom, zoneWidth: rect.width)
        let style = DrawStyle(fill: fill, stroke: fill, opacity: Drawing.zoneOpacity)
        return geometry.zoneOutlines[z].enumerated().map { k, part in
            DisplayItem(id: "zone-" + Self.elementID(zone.id) + (k == 0 ? "" : "-\(k + 1)"), layer: .zones, command: .path(part, closed: true, style))
        }
            + Drawing.zoneCaptionLines(caption).enumerated().map { k, line in
                DisplayItem(
                    id: "zone-" + Self.elementID(zone.id) + "-label" + (k == 0 ? "" : "-\(k + 1)"), layer: .overlay,
                    command: .text(
                        line.text, at: LayoutPoint(x: rect.midX, y: rect.midY + size * line.baseline), size: size, color: Palette.text, anchor: .middle))
            }
    }

    /// Stage or screen, centre line and (at seat and row level) thin zone outlines.
    func backgroundItems(level: DetailLevel, language: Language, zoom: Double) -> [DisplayItem] {
        var items: [DisplayItem] = []
        if let stage = geometry.stage {
            let name = localizedName(stage.label, language)
            // Readable at any zoom: 13 points on screen, or what fits the stage's width.
            // Never taller than a box stage is deep.
            let size = min(
                max(Drawing.stageLabelPoints, Drawing.stageLabelPoints / zoom), stage.width / Double(max(name.count, 2)),
                stage.surrounded ? stage.depth * 0.8 : .infinity)
            let label = DrawCommand.text(
                name, at: LayoutPoint(x: stage.center.x, y: stage.center.y + (stage.facesDown ? -8 : size + 4)),
                size: size, color: Palette.stage, anchor: .middle)
            if stage.surrounded {
                let r = LayoutRect(x: stage.center.x - stage.width / 2, y: stage.center.y - stage.depth / 2, width: stage.width, height: stage.depth)
                items.append(
                    DisplayItem(
                        id: "stage", layer: .background,
                        command: .roundedRect(r, radius: Drawing.stageCorner, DrawStyle(fill: Palette.stageFill, stroke: Palette.stage))))
                items.append(
                    DisplayItem(
                        id: "stage-label", layer: .overlay,
                        command: .text(
                            name, at: LayoutPoint(x: stage.center.x, y: stage.center.y + size * 0.35), size: size, color: Palette.stage, anchor: .middle)))
            } else {
                let bow = stage.facesDown ? Drawing.stageBow : -Drawing.stageBow
                let y = stage.center.y
                items.append(
                    DisplayItem(
                        id: "stage", layer: .background,
                        command: .curve(
                            from: LayoutPoint(x: stage.center.x - stage.width / 2, y: y), control: LayoutPoint(x: stage.center.x, y: y + bow),
                            to: LayoutPoint(x: stage.center.x + stage.width / 2, y: y), DrawStyle(stroke: Palette.stage, strokeWidth: Drawing.stageLine))))
                items.append(DisplayItem(id: "stage-label", layer: .background, command: label))
            }
        }
        if let area = bestView, level != .zones {
            items.append(
                DisplayItem(
                    id: "best-view", layer: .background,
                    command: .roundedRect(area, radius: style.cornerRadius + 3, DrawStyle(stroke: Palette.selected, strokeWidth: 1.5, dashed: true))))
        }
        if let (a, b) = geometry.centreLine, level != .zones {
            items.append(
                DisplayItem(
                    id: "centre-line", layer: .background,
                    command: .path([a, b], closed: false, DrawStyle(stroke: Palette.centreLine, strokeWidth: 1, dashed: true))))
        }
        if level == .seats {
            for (z, zone) in layout.zones.enumerated() {
                for (k, part) in geometry.zoneOutlines[z].enumerated() where part.count > 2 {
                    items.append(
                        DisplayItem(
                            id: "zone-outline-" + Self.elementID(zone.id) + (k == 0 ? "" : "-\(k + 1)"), layer: .zones,
                            command: .path(part, closed: true, DrawStyle(stroke: zone.color, strokeWidth: 1, opacity: Drawing.zoneOutlineOpacity))))
                }
            }
        }
        return items
    }

    /// A seat id made safe for an XML id: letters, digits, `-`, `.` kept, anything else as `_xx`.
    public static func elementID(_ id: String) -> String {
        var out = ""
        for b in id.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "_" + (b < 16 ? "0" : "") + String(b, radix: 16)
            }
        }
        return out
    }
}
