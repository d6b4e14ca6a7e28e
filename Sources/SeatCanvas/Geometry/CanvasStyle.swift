import CollectionLayout
import SeatJSON
import SeatMap

/// Sizes in points for turning grid units into a picture.
public struct CanvasStyle: Sendable, Hashable {
    /// Points per grid unit (one seat pitch).
    public var pitch: Double
    /// A seat's square, a little smaller than the pitch so neighbours do not touch.
    public var seatSize: Double
    /// Empty border around everything.
    public var margin: Double
    public var cornerRadius: Double

    public init(pitch: Double = 24, seatSize: Double = 20, margin: Double = 40, cornerRadius: Double = 4) {
        precondition(pitch > 0 && seatSize > 0 && seatSize <= pitch, "0 < seat size ≤ pitch")
        self.pitch = pitch; self.seatSize = seatSize; self.margin = margin; self.cornerRadius = cornerRadius
    }
}

/// Colours of the picture. Status colours are fixed; available seats take their zone's colour.
public enum Palette {
    public static let selected = "#22A06B"
    /// Three greys at least 3 : 1 against the map's white (WCAG 1.4.11: 3.9, 6.2 and 10.4), told apart
    /// from each other by their glyphs (`SeatGlyph`: dots, slash, cross) as well as by lightness; the
    /// greys they replace (#C9CCD1, #E3E5E8, #9AA0A6) were 1.3–2.6 : 1.
    public static let held = "#80868B"
    public static let sold = "#3C4043"
    public static let blocked = "#5F6368"
    public static let stroke = "#5F6368"
    public static let text = "#202124"
    public static let background = "#FFFFFF"
    public static let stage = "#7A7F87"
    /// A surrounded stage's floor, and the dashed centre line down a cinema.
    public static let stageFill = "#DADCE0"
    public static let centreLine = "#BDC1C6"
    /// A table's top: a light cloth its name reads on (16 : 1 with `text`), edged in its zone's colour.
    public static let tableFill = "#F1F3F4"

    /// The ink for a seat's number on `fill`: white or `text`, whichever contrasts more (a zone's
    /// blue takes dark numbers: 4.8:1 against white's 3.3:1); when neither reaches WCAG AA's 4.5:1 (a
    /// mid red or purple), white or black, one of which always does (the worst colour still gets 4.58).
    public static func ink(on fill: String) -> String {
        guard let f = DisplayColor(hex: fill) else { return text }
        let white = f.contrast(with: DisplayColor(red: 1, green: 1, blue: 1))
        let dark = f.contrast(with: DisplayColor(hex: text)!)
        if max(white, dark) >= 4.5 { return white > dark ? "#FFFFFF" : text }
        return white > f.contrast(with: DisplayColor(red: 0, green: 0, blue: 0)) ? "#FFFFFF" : "#000000"
    }

    /// The status fills and the ink of a number on each, as a page colours seats by itself:
    /// `{"selected":…,"held":…,"sold":…,"blocked":…,"stroke":…,"text":…,"ink":{…}}`.
    public static var json: String {
        let fills = [("selected", selected), ("held", held), ("sold", sold), ("blocked", blocked)]
        var w = JSONWriter()
        w.raw("{")
        for (k, (name, fill)) in fills.enumerated() { w.key(name, first: k == 0); w.string(fill) }
        w.key("stroke"); w.string(stroke)
        w.key("text"); w.string(text)
        w.key("stage"); w.string(stage)
        w.key("stageFill"); w.string(stageFill)
        w.key("centreLine"); w.string(centreLine)
        w.key("tableFill"); w.string(tableFill)
        w.key("ink"); w.raw("{")
        for (k, (name, fill)) in fills.enumerated() { w.key(name, first: k == 0); w.string(ink(on: fill)) }
        w.raw("}")
        w.key("glyphs"); w.raw(SeatGlyph.json)
        w.raw("}")
        return w.text
    }

    public static func fill(status: SeatStatus, zoneColor: String, selected: Bool) -> String {
        if selected { return Self.selected }
        switch status {
        case .available: return zoneColor
        case .held: return held
        case .sold: return sold
        case .blocked: return blocked
        }
    }
}
