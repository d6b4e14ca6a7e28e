import CollectionLayout
import SeatMap

/// The whole venue at thumbnail scale, with the viewport's rectangle on it; a tap on it pans the map.
public struct Minimap: Sendable, Hashable {
    public let size: LayoutSize
    /// Content → minimap: scale, then centre in `size`.
    public let transform: ScaleTranslate

    public init(contentSize: LayoutSize, fitting size: LayoutSize) {
        self.size = size
        let scale = min(size.width / contentSize.width, size.height / contentSize.height)
        transform = ScaleTranslate(
            scale: scale,
            translation: LayoutPoint(
                x: (size.width - contentSize.width * scale) / 2,
                y: (size.height - contentSize.height * scale) / 2))
    }

    /// Where the viewport is, in minimap coordinates.
    public func viewportRect(_ viewport: Viewport) -> LayoutRect {
        transform.apply(viewport.visibleContentRect)
    }

    /// A tap at `point` on the minimap centres the map there (as far as panning allows).
    public func pan(_ viewport: Viewport, tappedAt point: LayoutPoint) -> Viewport {
        var v = viewport
        v.centre(on: transform.inverted.apply(point))
        return v
    }
}

extension SeatCanvas {
    public func minimap(fitting size: LayoutSize) -> Minimap { Minimap(contentSize: contentSize, fitting: size) }

    /// The minimap's picture: every aisle-separated run as a bar coloured by how free it is, the
    /// stage, and the viewport rectangle; in minimap coordinates.
    /// - Complexity: O(blocks).
    public func minimapDisplayList(_ minimap: Minimap, viewport: Viewport, content: FrameContent) -> DisplayList {
        let counts = content.counts ?? FreeSeatCounts(layout: layout, availability: content.availability)
        var items: [DisplayItem] = []
        for b in layout.blocks.indices {
            let seats = layout.blocks[b]
            let free = counts.perBlock[b]
            let color = free > 0 ? layout.zone(of: seats.lowerBound).color : Palette.sold
            items.append(
                DisplayItem(
                    id: "block-\(b)", layer: .rows,
                    command: .roundedRect(minimap.transform.apply(geometry.blockRects[b]), radius: 1, DrawStyle(fill: color, opacity: free > 0 ? 0.9 : 1))))
        }
        if let stage = geometry.stage {
            let r = LayoutRect(x: stage.center.x - stage.width / 2, y: stage.center.y - 3, width: stage.width, height: 6)
            items.append(
                DisplayItem(id: "stage", layer: .background, command: .roundedRect(minimap.transform.apply(r), radius: 1, DrawStyle(fill: Palette.stage))))
        }
        items.append(
            DisplayItem(
                id: "viewport", layer: .overlay,
                command: .roundedRect(minimap.viewportRect(viewport), radius: 2, DrawStyle(stroke: "#D93025", strokeWidth: 1.5))))
        return DisplayList(items: items, transform: ScaleTranslate(), viewSize: minimap.size, level: .rows)
    }
}
