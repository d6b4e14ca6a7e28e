import SeatJSON
import SeatMap

/// `GET /v1/venues/{id}/views/{seat}`: what the seat sees of the screen or stage (`SeatView`), and the
/// verdict in words (`?lang=zh|en`); `…/{seat}.svg` is the picture.
public struct SeatViewResource: Sendable {
    public var seat: String
    public var viewingAngle: Double
    public var distanceInWidths: Double
    public var offCentreAngle: Double
    public var across: Double
    public var verdict: String
    public var words: String

    public init(seat: String, viewingAngle: Double, distanceInWidths: Double, offCentreAngle: Double, across: Double, verdict: String, words: String) {
        self.seat = seat; self.viewingAngle = viewingAngle; self.distanceInWidths = distanceInWidths; self.offCentreAngle = offCentreAngle
        self.across = across; self.verdict = verdict; self.words = words
    }

    /// Angles to a tenth of a degree, distances to a hundredth of a width: what a person reads.
    public func write(into w: inout JSONWriter) {
        func round(_ v: Double, _ places: Double) -> Double { (v * places).rounded() / places }
        w.raw("{"); w.key("seat", first: true); w.string(seat); w.key("viewingAngle"); w.number(round(viewingAngle, 10))
        w.key("distanceInWidths"); w.number(round(distanceInWidths, 100)); w.key("offCentreAngle"); w.number(round(offCentreAngle, 10))
        w.key("across"); w.number(round(across, 100)); w.key("verdict"); w.string(verdict); w.key("words"); w.string(words); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            seat: o.text("seat"), viewingAngle: o["viewingAngle"]?.doubleValue ?? 0, distanceInWidths: o["distanceInWidths"]?.doubleValue ?? 0,
            offCentreAngle: o["offCentreAngle"]?.doubleValue ?? 0, across: o["across"]?.doubleValue ?? 0, verdict: o.text("verdict"),
            words: o.text("words"))
    }
}

extension SeatViewResource: WireBody, WireWritable {
    public static let schemaName = "SeatView"
    public static let schema: JSONSchema = .object(
        [
            "seat": .string(),
            "viewingAngle": .number.described(
                "degrees of the view the screen's width fills (SMPTE: 30 at least from the back, about 60 at most from the front)"),
            "distanceInWidths": .number.described("from the screen's plane, in screen widths"),
            "offCentreAngle": .number.described("degrees off the hall's centre line"),
            "across": .number.described("−1 in line with the screen's left edge (as the seat faces it), 1 its right"),
            "verdict": .oneOf(SeatView.Verdict.allCases.map(\.rawValue)),
            "words": .string().described("the verdict in a sentence, in the language asked"),
        ], required: ["seat", "viewingAngle", "distanceInWidths", "offCentreAngle", "across", "verdict", "words"])
}
