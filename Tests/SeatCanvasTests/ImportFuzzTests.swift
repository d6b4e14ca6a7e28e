import CollectionLayout
import Foundation
import SeatMap
import Testing
import SeatKitTestSupport
@testable import SeatCanvas

/// Every importer fed extreme numbers and strings (seeded, bounded): an import either builds a venue whose
/// every position and stage is finite and in range, and which draws, or refuses with at least one problem
/// naming where. A trap anywhere (Double → Int, Int arithmetic, array sizes) ends the test process: the run fails.
/// `SEATKIT_FUZZ_SEED=N` replays or varies the cases; CI runs the fixed seed.
@Suite struct ImportFuzzTests {
    static let documents = [
        "Samples/cinema-hall.json", "Samples/imax-hall.json", "Samples/imports/cinema-grid.json", "Samples/imports/pretix-plan.json",
        "Samples/imports/reseller-hall.json", "Samples/imports/seed-screening.json",
        "Tests/SeatMapTests/Fixtures/cinema-grid/camel-wrapped-hall-5.json",
        "Tests/SeatMapTests/Fixtures/cinema-grid/vendor-status-codes-hall-2.json",
        "Tests/SeatMapTests/Fixtures/pretix/editor-plan.json", "Tests/SeatMapTests/Fixtures/reseller/ctms-hall-5.json",
        "Tests/SeatMapTests/Fixtures/reseller/platform-hall-2.json",
    ]

    @Test(arguments: documents) func importersNeverTrapAndAcceptOnlyWhatTheyCanDraw(_ path: String) throws {
        let fuzz = JSONFuzz([UInt8](try Data(contentsOf: repo.appendingPathComponent(path))))
        var rng = TestRandom(seed: JSONFuzz.seed(20_261_202) &+ UInt64(path.utf8.count))
        var accepted = 0, refused = 0
        for _ in 0..<150 {
            let (bytes, what) = fuzz.mutation(&rng)
            do {
                let venue = try ImportedVenue(format: nil, json: bytes)
                try Self.checkDrawable(venue.layout, what: "\(path): \(what)")
                accepted += 1
            } catch let error as LayoutError {
                #expect(!error.problems.isEmpty, "\(path): \(what): a refusal names no problem")
                refused += 1
            }
        }
        #expect(accepted + refused == 150)
    }

    /// The coordinate that once trapped (SIGILL) in every importer: beyond 9.2·10^16 units.
    @Test func aCoordinateOf1e17IsAProblemNamingTheSeatAndField() throws {
        let native = """
            {"format":"seatkit-layout","version":1,"id":"v","name":"V","zones":[{"id":"z","name":"Z","category":"z","color":"#112233"}],
             "rows":[{"label":"A","zone":"z","seats":[{"id":"A1","label":"1","x":0,"y":0},{"id":"A2","label":"2","x":1e17,"y":0}]}]}
            """
        let seed = #"{"screeningId":"s","seats":[{"id":"A1","row":"A","col":1},{"id":"A2","row":"A","col":100000000000000000}]}"#
        let grid = #"{"seats":[{"rowId":"A","rowNum":-9223372036854775808,"columns":[{"columnId":"1","st":"N"}]}]}"#
        let reseller = #"[{"seatNo":"1","seatRow":"1","graphRow":"1","graphCol":"1e17"},{"seatNo":"2","seatRow":"1","graphRow":1,"graphCol":"nan"}]"#
        for (text, field) in [(native, "rows[0].seats[1].x"), (seed, "seats[1].col"), (grid, "seats[0].rowNum"), (reseller, "[0].graphCol")] {
            #expect(throws: LayoutError.self) { _ = try ImportedVenue(format: nil, json: Array(text.utf8)) }
            do {
                _ = try ImportedVenue(format: nil, json: Array(text.utf8))
            } catch {
                #expect(error.problems.contains { $0.path.hasSuffix(field) }, "\(field) not named in: \(error)")
            }
        }
    }

    /// What an accepted venue must be for the engine: finite positions within ±10^6, a stage of finite,
    /// positive size; and it draws (SVG and the picker's geometry) without trapping.
    static func checkDrawable(_ layout: VenueLayout, what: String) throws {
        for i in 0..<layout.seatCount {
            let p = layout.position(i)
            #expect(p.x.isFinite && p.y.isFinite && abs(p.x) <= 1e6 && abs(p.y) <= 1e6, "\(what): seat \(layout.seatID(i)) at \(p)")
        }
        if let stage = layout.stage {
            #expect(stage.center.x.isFinite && stage.center.y.isFinite && stage.width.isFinite && stage.width >= 0, "\(what): stage \(stage)")
        }
        let canvas = SeatCanvas(layout: layout)
        let svg = canvas.svg(viewport: nil, content: FrameContent(availability: SeatAvailability(layout: layout), language: .english, rowLabels: true))
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"), "\(what): no SVG")
        #expect(!canvas.pickerGeometry(language: .chinese).isEmpty)
        let round = try VenueLayout(json: layout.jsonBytes())
        #expect(round.seatCount == layout.seatCount, "\(what): the layout does not survive its own JSON")
    }
}
