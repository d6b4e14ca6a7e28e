import SeatJSON
import SeatMap

extension SeatHeatmap {
    /// Levels in the overlay document: a seat's value in hundredths (the ramp's colours are 101).
    public static let overlayLevels = 100

    /// The heat map as a page that draws the map itself lays it over the seats (the console's heat-map
    /// overlay): per seat a level from 0 to 100 (−1: no value), the ramp's colour for each level and the
    /// ink a seat number takes on it, and the averages by row and zone with their colours — every colour
    /// the engine's (`color`, `Palette.ink`), so the page only looks them up.
    /// - Complexity: O(seats).
    public func overlayDocument(layout: VenueLayout, shows: Int, days: Int) -> String {
        var w = JSONWriter(reservingCapacity: layout.seatCount * 4 + 8_192)
        w.raw("{")
        w.key("venue", first: true); w.string(layout.id)
        w.key("days"); w.number(days)
        w.key("shows"); w.number(shows)
        let colors = (0...Self.overlayLevels).map { Self.color(Double($0) / Double(Self.overlayLevels)) }
        w.key("palette"); w.raw("[")
        for (k, c) in colors.enumerated() {
            if k > 0 { w.raw(",") }
            w.string(c)
        }
        w.raw("]"); w.key("inks"); w.raw("[")
        for (k, c) in colors.enumerated() {
            if k > 0 { w.raw(",") }
            w.string(Palette.ink(on: c))
        }
        w.raw("]")
        w.key("missing"); w.string(Self.missing)
        w.key("missingInk"); w.string(Palette.ink(on: Self.missing))
        w.key("levels"); w.raw("[")
        for s in layout.seatIndices {
            if s > 0 { w.raw(",") }
            w.number(Self.level(value(of: s)))
        }
        w.raw("]")
        func averages(_ name: String, _ values: [Double?], id: (Int) -> String) {
            w.key(name); w.raw("[")
            for (k, v) in values.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("id", first: true); w.string(id(k))
                w.key("average")
                if let v { w.number((v * 1000).rounded() / 1000) } else { w.raw("null") }
                w.key("level"); w.number(Self.level(v))
                w.raw("}")
            }
            w.raw("]")
        }
        averages("rows", rowAverages) { layout.rows[$0].label }
        averages("zones", zoneAverages) { layout.zones[$0].id }
        w.raw("}")
        return w.text
    }

    /// A value's level: hundredths, rounded; −1 for none.
    public static func level(_ value: Double?) -> Int {
        guard let value else { return -1 }
        return Int((min(max(value, 0), 1) * Double(overlayLevels)).rounded())
    }
}
