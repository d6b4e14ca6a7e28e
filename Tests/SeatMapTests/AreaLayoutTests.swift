import Foundation
import SeatMap
import Testing

/// General-admission areas in the layout (#53): read, checked field by field, written back the same,
/// and their places counted, not placed, by the selling rules.
@Suite struct AreaLayoutTests {
    static let livehouse: [UInt8] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/livehouse.json")
        return [UInt8](try! Data(contentsOf: url))
    }()

    @Test func anAreasPlacesAreSeatsOfTheirOwnRow() throws {
        let layout = try VenueLayout(json: Self.livehouse)
        #expect(layout.areas.map(\.area.id) == ["floor", "box-a", "lounge"])
        #expect(layout.seatCount == 16 + 14 + 100 + 6 + 8 && layout.numberedSeatCount == 16 + 14)
        let floor = try #require(layout.area(id: "floor"))
        #expect(floor.places.count == 100 && layout.rows[floor.row].id == "floor")
        let first = try #require(layout.index(ofSeatID: "floor:1"))
        #expect(layout.isPlace(first) && layout.area(of: first)?.area.id == "floor" && layout.zone(of: first).id == "ga")
        #expect(layout.printedName(first, language: .chinese) == "内场站席" && layout.printedName(first, language: .english) == "Standing floor")
        #expect(layout.position(first) == FloorPoint(x: 6.5, y: 6.5))
        #expect(!layout.isPlace(try #require(layout.index(ofSeatID: "A-1"))))
        if case .party(let low, let high) = try #require(layout.area(id: "lounge")).area.mode {
            #expect(low == 4 && high == 8)
        } else {
            Issue.record("the lounge is a party's")
        }
    }

    @Test func itIsWrittenBackAsAreasWithTheSameFingerprint() throws {
        let layout = try VenueLayout(json: Self.livehouse)
        let written = layout.jsonBytes()
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains(#""areas":["#) && !text.contains("floor:1"), "places are made, not written")
        let again = try VenueLayout(json: written)
        #expect(again.fingerprint == layout.fingerprint && again.seatCount == layout.seatCount)
        // An area changed is another layout.
        let bigger = try VenueLayout(json: Array(text.replacingOccurrences(of: #""capacity":100"#, with: #""capacity":120"#).utf8))
        #expect(bigger.fingerprint != layout.fingerprint && bigger.seatCount == layout.seatCount + 20)
    }

    @Test func aMistakeInAnAreaNamesItsField() {
        let base = String(decoding: Self.livehouse, as: UTF8.self)
        let cases: [(String, String, String)] = [
            (#""capacity":100"#, #""capacity":0"#, "areas[0].capacity: 0 is out of range (expected 1 to 100000)"),
            (#""capacity":100"#, #""capacity":-5"#, "areas[0].capacity: -5 is out of range (expected 1 to 100000)"),
            (#""capacity":100"#, #""capacity":100001"#, "areas[0].capacity: 100001 is out of range (expected 1 to 100000)"),
            (#""zone":"ga""#, #""zone":"pit""#, "areas[0].zone: unknown zone \"pit\""),
            (#""mode":"places""#, #""mode":"crowd""#, "areas[0].mode: unknown mode \"crowd\" (expected places, whole or party)"),
            (#""id":"box-a""#, #""id":"floor""#, "areas[1].id: duplicate area id \"floor\""),
            (#""id":"box-a""#, #""id":"A""#, "areas[1].id: \"A\" is also a row's or a table's id"),
            (#""id":"box-a""#, #""id":"box:a""#, "areas[1].id: \"box:a\" has a \":\" (its places are named \"box:a:1\"…)"),
            (#""max":8"#, #""max":9"#, "areas[2].max: a party of 4 to 9 does not fit (expected 1 ≤ min ≤ max ≤ capacity 8)"),
            (#""shape":[[1,3],[12,3],[12,10],[1,10]]"#, #""shape":[[1,3],[12,3]]"#, "areas[0].shape: an outline of 2 points (expected at least 3)"),
            (
                #""shape":[[1,3],[12,3],[12,10],[1,10]]"#, #""shape":[[1,3],[12,3],[12],[1,10]]"#,
                "areas[0].shape[2]: expected a point [x, y] of two numbers, got 1 value"
            ),
            (#""mode":"whole""#, #""mode":"whole","min":2"#, "areas[1].min: only a party area has min"),
        ]
        for (find, replace, expected) in cases {
            let text = base.replacingOccurrences(of: find, with: replace)
            #expect(text != base, "\(find) not found")
            do {
                _ = try VenueLayout(json: Array(text.utf8))
                Issue.record("accepted: \(replace)")
            } catch {
                #expect(error.problems.map(\.description).contains(expected), "\(replace): \(error.problems.map(\.description))")
            }
        }
        // A row's seat may not pose as a place.
        let posing = base.replacingOccurrences(of: #"{"id":"A-1","label":"1","x":3}"#, with: #"{"id":"A-1","label":"1","x":3,"type":"place"}"#)
        #expect(posing != base)
        #expect(throws: LayoutError.self) { try VenueLayout(json: Array(posing.utf8)) }
    }

    @Test func placesAreNeverLoneAndNeverRankedAsBestSeats() throws {
        let layout = try VenueLayout(json: Self.livehouse)
        var availability = SeatAvailability(layout: layout)
        let floor = try #require(layout.area(id: "floor")).places
        // Every other place taken: no rule calls the ones between "lone".
        for i in stride(from: floor.lowerBound, to: floor.upperBound, by: 2) { _ = availability.setStatus(.sold, for: i) }
        let pick = [floor.lowerBound + 1, floor.lowerBound + 5]
        #expect(SelectionPolicy.standard.violations(for: pick, in: layout, availability: availability).isEmpty)
        let best = try #require(layout.bestAvailable(BestAvailableRequest(count: 2), availability: availability))
        #expect(best.allSatisfy { !layout.isPlace($0) })
        // A box sold whole is one choice against the limit of 6 a hold, its 6 places notwithstanding.
        let box = Array(try #require(layout.area(id: "box-a")).places)
        #expect(SelectionPolicy.standard.violations(for: box + pick, in: layout, availability: SeatAvailability(layout: layout)).isEmpty)
    }
}
