import Foundation
import SeatJSON
import SeatKitTestSupport
import SeatMap
import SeatSamples
import Testing

/// The compact encodings the page decodes (`js/availability.js`): the engine writes availabilities and
/// deltas with every seat's status and every change (`Tests/Web/Vectors/codec/availability.json`), and
/// the encodings it refuses; `node --test Tests/Web` decodes them with the page's codec, which must give
/// the same statuses and changes, refuse what the engine refuses, and name the statuses in the engine's
/// order. Re-record with SEATKIT_RECORD=1, on purpose.
@Suite struct WebCodecVectorsTests {
    static let refused = [
        "ska1;7eef68f6c6a56904;1;3;2a", "ska1;7eef68f6c6a56904;1;3;4a", "ska1;7eef68f6c6a56904;1;3;2a1x", "skx1;0;1;1;a", "ska1;1;3;a",
        "skd1;1;2;5q", "skd1;1;2;xa", "skd1;1;2", "ska2;7eef68f6c6a56904;1;1;a",
    ]

    @Test func theEngineWritesTheCodecVectors() {
        let venues = [SampleVenues.cinemaHall(), SampleVenues.arena(seats: 3000)]
        var w = JSONWriter()
        w.raw("{"); w.key("statusNames", first: true); w.raw("[")
        for (k, s) in SeatStatus.allCases.enumerated() {
            if k > 0 { w.raw(",") }
            w.string(s.name)
        }
        w.raw("]"); w.key("availabilities"); w.raw("[")
        var first = true
        for layout in venues {
            for (sold, held, seed) in [(0.0, 0.0, UInt64(1)), (0.3, 0.1, 2), (0.9, 0.05, 3), (1.0, 0.0, 4)] {
                let before = SampleVenues.randomAvailability(for: layout, sold: sold, held: held, seed: seed, version: seed)
                var after = before
                var rng = SplitMix64(seed: seed &+ 99)
                for _ in 0..<12 {
                    let seat = Int(rng.next() % UInt64(layout.seatCount))
                    _ = after.setStatus(SeatStatus(rawValue: UInt8(rng.next() % 4))!, for: seat)
                }
                after.commit(version: before.version + 1)
                let delta = after.delta(since: before)
                if !first { w.raw(",") }
                first = false
                w.raw("{"); w.key("encoded", first: true); w.string(before.encoded()); w.key("version"); w.number(Int(before.version))
                w.key("statuses"); w.raw("[" + before.statuses.map { String($0.rawValue) }.joined(separator: ",") + "]")
                w.key("delta"); w.string(delta.encoded()); w.key("from"); w.number(Int(delta.fromVersion)); w.key("to"); w.number(Int(delta.toVersion))
                w.key("changes"); w.raw("[" + delta.changes.map { "[\($0.seat),\($0.status.rawValue)]" }.joined(separator: ",") + "]")
                w.raw("}")
            }
        }
        w.raw("]"); w.key("refused"); w.raw("[")
        for (k, text) in Self.refused.enumerated() {
            let refusedBySwift = text.hasPrefix("skd") ? (try? AvailabilityDelta(encoded: text)) == nil : (try? SeatAvailability(encoded: text)) == nil
            #expect(refusedBySwift, "the engine refuses \(text)")
            if k > 0 { w.raw(",") }
            w.string(text)
        }
        w.raw("]}")
        assertSnapshot(w.text + "\n", named: "availability.json", in: repo.appendingPathComponent("Tests/Web/Vectors/codec"))
    }
}
