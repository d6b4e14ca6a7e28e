import SeatJSON
import SeatMap

/// Per-seat values from 0 to 1 (e.g. the share of past shows in which the seat sold), with averages by
/// row and zone, drawn as a colour ramp. Seats without a value are drawn neutral.
public struct SeatHeatmap: Sendable, Hashable {
    /// Dense, by seat index; NaN where the input gave no value.
    public let values: [Float]
    public let rowAverages: [Double?]
    public let zoneAverages: [Double?]

    public init(values: [Float], layout: VenueLayout) {
        precondition(values.count == layout.seatCount, "one value per seat")
        self.values = values
        func average(_ groups: Int, _ key: (SeatIndex) -> Int) -> [Double?] {
            var sum = [Double](repeating: 0, count: groups), n = [Int](repeating: 0, count: groups)
            for i in layout.seatIndices where !values[i].isNaN { sum[key(i)] += Double(values[i]); n[key(i)] += 1 }
            return (0..<groups).map { n[$0] == 0 ? nil : sum[$0] / Double(n[$0]) }
        }
        rowAverages = average(layout.rows.count) { layout.rowIndex(of: $0) }
        zoneAverages = average(layout.zones.count) { layout.zoneIndex(of: $0) }
    }

    /// Reads `{"<seat id>": 0.73, …}`: every problem named (unknown seat, not a number, outside 0…1).
    public init(json bytes: [UInt8], layout: VenueLayout) throws(LayoutError) {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw LayoutError(error) }
        var log = ProblemLog()
        guard let object = root.object(at: "", into: &log) else { throw log.error }
        var values = [Float](repeating: .nan, count: layout.seatCount)
        for (k, key) in object.keys.enumerated() {
            guard let seat = layout.index(ofSeatID: key) else { log.add(key, "no seat with this id in venue \(layout.id)"); continue }
            guard let v = object.values[k].doubleValue else {
                log.add(key, "expected a number from 0 to 1, got \(object.values[k].shortDescription)"); continue
            }
            guard v >= 0 && v <= 1 else { log.add(key, "expected a number from 0 to 1, got \(v)"); continue }
            values[seat] = Float(v)
        }
        try log.check()
        self.init(values: values, layout: layout)
    }

    public func value(of seat: SeatIndex) -> Double? { values[seat].isNaN ? nil : Double(values[seat]) }

    /// Stops of the ramp: cold blue, through yellow, to hot red.
    public static let ramp: [(Double, (Double, Double, Double))] = [
        (0.0, (49, 54, 149)), (0.25, (69, 117, 180)), (0.5, (254, 224, 144)), (0.75, (244, 109, 67)), (1.0, (165, 0, 38)),
    ]
    public static let missing = "#EEEEEE"

    /// The ramp's colour for `value` (clamped to 0…1).
    public static func color(_ value: Double?) -> String {
        guard let value else { return missing }
        let v = min(max(value, 0), 1)
        var k = 0
        while k < ramp.count - 2 && v > ramp[k + 1].0 { k += 1 }
        let (a, ca) = ramp[k], (b, cb) = ramp[k + 1]
        let t = (v - a) / (b - a)
        func channel(_ x: Double, _ y: Double) -> Int { Int((x + (y - x) * t).rounded()) }
        return hex(channel(ca.0, cb.0), channel(ca.1, cb.1), channel(ca.2, cb.2))
    }

    static func hex(_ r: Int, _ g: Int, _ b: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        return "#" + [r, g, b].map { String([digits[$0 / 16], digits[$0 % 16]]) }.joined()
    }
}
