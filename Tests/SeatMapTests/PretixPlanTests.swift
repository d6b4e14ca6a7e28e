import SeatJSON
import Testing

@testable import SeatMap

/// pretix plans as the seating editor saves them (Fixtures/pretix), and stages sized from the plan.
@Suite struct PretixPlanTests {
    /// The editor writes areas with a shape, a nested size and `text` as an object (the published schema
    /// has `text` a string): the plan was refused ("expected string, got an object"); the stage takes the
    /// area's own size and place, in front of the rows.
    @Test func theEditorsAreasImportWithTheStageAtItsOwnSize() throws {
        let v = try ImportedVenue(format: nil, json: sampleBytes("Tests/SeatMapTests/Fixtures/pretix/editor-plan.json"), fallbackID: "editor")
        let l = v.layout
        #expect(l.seatCount == 160 && l.rows.map(\.label) == ["A", "B", "C", "D", "E", "F", "G", "H"] && l.zones.map(\.id) == ["Standard", "Premium"])
        let stage = try #require(l.stage)
        // 560 px wide at a 32 px seat pitch; centred on the rectangle; in front of (above) the first row.
        #expect(stage.label == "Stage" && stage.width == 17.5)
        #expect(stage.center.x == ((100.0 + 60 + 280) / 32 * 100).rounded() / 100)
        #expect(stage.center.y < l.bounds.minY, "in front of the rows, not over them")
        #expect(l.blocks.count == 16, "the 40 px gap after seat 10 is an aisle")
    }

    /// A plan without a stage area gets a screen in front of its rows, like the other importers, and a
    /// width that prints as it reads (a 25-seat row: 14.4, not 14.399999999999999).
    @Test func aDefaultScreenHasATidyWidth() throws {
        let row = (1...25).map { #"{"column_id":"\#($0)","st":"N"}"# }.joined(separator: ",")
        let doc = #"{"data":{"hall_id":"h","seats":[{"row_id":"1","row_num":1,"columns":[\#(row)]}]}}"#
        let v = try ImportedVenue(format: nil, json: Array(doc.utf8))
        #expect(v.layout.stage?.width == 14.4)
        #expect(JSONWriter.format(try #require(v.layout.stage).width) == "14.4")
    }
}
