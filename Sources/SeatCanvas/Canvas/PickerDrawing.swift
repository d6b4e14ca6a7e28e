import SeatJSON
import SeatMap

extension SeatCanvas {
    /// The proportions the engine draws with, besides the rules: written once here, used by the display
    /// list and sent to the page's canvas in the geometry document (`drawing`), so the two draw alike.
    public enum Drawing {
        /// A seat's number: this share of the seat's size, its baseline this share below the centre.
        public static let numberSize = 0.45
        public static let numberBaseline = 0.16
        /// At the rows level a block says how many of its seats are free once its bar is this thick and
        /// long on screen (points): thinner bars have no room for a digit.
        public static let rowCountThickness = 8.0
        public static let rowCountLength = 24.0
        public static let rowCountSize = 0.7
        public static let rowCountBaseline = 0.25
        /// A zone's caption at the zones level is about this many points on screen.
        public static let zoneCaptionPoints = 12.0
        /// The share of a zone's width its caption may take, and a Latin character's width in ems (a
        /// CJK one counts twice).
        public static let zoneCaptionFill = 0.9
        public static let characterWidth = 0.55
        /// The fill opacity of a zone at the zones level, and of its outline at the seats level.
        public static let zoneOpacity = 0.55
        public static let zoneOutlineOpacity = 0.6
        /// A row bar with one free seat is this opaque, a wholly free one fully (sold out: the sold grey).
        public static let rowOpacityFloor = 0.35
        /// The stage's label is this many points on screen (or what fits the stage's width); a screen's
        /// arc bows this far and is drawn this thick; a surrounded stage's corners are this round.
        public static let stageLabelPoints = 13.0
        public static let stageBow = 12.0
        public static let stageLine = 4.0
        public static let stageCorner = 6.0
        /// A long table's corners are this round.
        public static let tableCorner = 4.0
        /// A dashed line's dash and gap (the centre line).
        public static let dash = (on: 6, off: 4)

        /// Two lines, "{name}" over "{price}{free} free" / "{price}{free}个空座": `{price}` is the zone's
        /// price and " · " (`SeatPrices.zonePriceText`), or nothing when the picture has no prices. Two
        /// lines, so an arena's narrow sections keep a readable size (one line of 40 characters fell to 5 points).
        public static func zoneCaption(_ language: Language) -> String {
            language == .chinese ? "{name}\n{price}{free}个空座" : "{name}\n{price}{free} free"
        }

        /// The caption's lines, and each line's baseline below the zone's centre as a share of the size:
        /// the lines 1.2 sizes apart, centred together.
        public static func zoneCaptionLines(_ caption: String) -> [(text: String, baseline: Double)] {
            let lines = caption.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return lines.enumerated().map { k, line in (line, 0.35 + (Double(k) - Double(lines.count - 1) / 2) * 1.2) }
        }

        /// The caption's size in content units: `zoneCaptionPoints` on screen, smaller when the zone is
        /// too narrow for it.
        public static func zoneCaptionSize(_ caption: String, zoom: Double, zoneWidth: Double) -> Double {
            let widest = caption.split(separator: "\n").map { line in line.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x2E80 ? 2 : 1) } }.max() ?? 1
            return min(zoneCaptionPoints / zoom, zoneWidth * zoneCaptionFill / (Double(max(widest, 1)) * characterWidth))
        }

        /// As JSON, for the geometry document.
        static func json(cornerRadius: Double, language: Language) -> String {
            var w = JSONWriter()
            w.raw("{")
            w.key("cornerRadius", first: true); w.number(cornerRadius)
            w.key("numberSize"); w.number(numberSize)
            w.key("numberBaseline"); w.number(numberBaseline)
            w.key("rowCountThickness"); w.number(rowCountThickness)
            w.key("rowCountLength"); w.number(rowCountLength)
            w.key("rowCountSize"); w.number(rowCountSize)
            w.key("rowCountBaseline"); w.number(rowCountBaseline)
            w.key("zoneCaption"); w.string(zoneCaption(language))
            w.key("zoneCaptionPoints"); w.number(zoneCaptionPoints)
            w.key("zoneCaptionFill"); w.number(zoneCaptionFill)
            w.key("characterWidth"); w.number(characterWidth)
            w.key("zoneOpacity"); w.number(zoneOpacity)
            w.key("zoneOutlineOpacity"); w.number(zoneOutlineOpacity)
            w.key("rowOpacityFloor"); w.number(rowOpacityFloor)
            w.key("stageLabelPoints"); w.number(stageLabelPoints)
            w.key("stageBow"); w.number(stageBow)
            w.key("stageLine"); w.number(stageLine)
            w.key("stageCorner"); w.number(stageCorner)
            w.key("tableCorner"); w.number(tableCorner)
            w.key("dash"); w.raw("[\(dash.on),\(dash.off)]")
            w.raw("}")
            return w.text
        }
    }
}

extension String {
    /// The template with each placeholder replaced (each appears at most once in SeatKit's templates).
    func filling(_ values: [String: String]) -> String {
        var out = self
        for (placeholder, value) in values {
            guard let range = out.range(of: placeholder) else { continue }
            out.replaceSubrange(range, with: value)
        }
        return out
    }
}
