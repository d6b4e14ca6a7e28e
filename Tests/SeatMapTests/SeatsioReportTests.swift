import SeatJSON
import Testing

@testable import SeatMap

/// seats.io chart reports (Fixtures/seatsio, made by make-fixtures.py): a byLabel report (a map in no
/// order) and a byObjectType report with the renderer's spellings of the types give one plan: rows of
/// seats in their neighbours' order, tables sold as the chart says, a standing floor, a booth sold whole.
@Suite struct SeatsioReportTests {
    func imported(_ name: String) throws -> ImportedVenue {
        try ImportedVenue(format: nil, json: sampleBytes("Tests/SeatMapTests/Fixtures/seatsio/\(name)"), fallbackID: "club")
    }

    @Test func aByLabelReportBecomesRowsTablesAndAreas() throws {
        let bytes = try sampleBytes("Tests/SeatMapTests/Fixtures/seatsio/by-label.json")
        #expect(ImportFormat.detect(try JSONParser.parse(bytes)) == .seatsio)
        let v = try imported("by-label.json"), l = v.layout
        #expect(l.rows.prefix(l.documentRowCount).map(\.label) == ["A", "B"])
        #expect((0..<6).map { l.seatID($0) } == ["A-1", "A-2", "A-3", "A-4", "A-5", "A-6"], "along the row by its neighbours")
        #expect(l.flags(of: l.index(ofSeatID: "A-6")!).contains(.accessible))
        let tables = l.tables.map { ($0.table.id, $0.table.mode, $0.seats.count) }
        #expect(tables.map(\.0) == ["T1", "T2"] && tables[0].1 == .byTable && tables[1].1 == .bySeat && tables.map(\.2) == [4, 6])
        #expect(l.seatID(l.tables[1].seats.lowerBound) == "T2-1" && l.seatLabel(l.tables[1].seats.lowerBound) == "1")
        let areas = l.areas.map { ($0.area.id, $0.area.capacity, $0.area.mode) }
        #expect(areas.map(\.0) == ["B1", "Floor"] && areas.map(\.1) == [1, 100] && areas[0].2 == .whole && areas[1].2 == .places)
        #expect(Set(l.zones.map(\.id)) == ["Stalls", "Tables", "Standing", "Booths"])
        #expect(l.seatCount == 12 + 10 + 101)
        #expect(v.notes.first?.contains("no coordinates") == true)
    }

    @Test func theSameChartAsAnotherReportIsTheSamePlan() throws {
        let byLabel = try imported("by-label.json").layout, byType = try imported("by-object-type.json").layout
        #expect(byLabel.fingerprintHex == byType.fingerprintHex)
    }

    @Test func aBadReportIsRefusedByPath() throws {
        func problem(_ doc: String) -> String? {
            do {
                _ = try ImportedVenue(format: .seatsio, json: Array(doc.utf8))
                return nil
            } catch { return error.problems.first.map { "\($0.path): \($0.message)" } }
        }
        #expect(
            problem(#"{"A-1":[{"label":"A-1","objectType":"chair"}]}"#)
                == #"A-1[0].objectType: unknown object type "chair" (expected seat, table, generalAdmissionArea or booth)"#)
        #expect(
            problem(#"{"GA":[{"label":"GA","objectType":"generalAdmissionArea"}]}"#) == "GA[0].capacity: missing (a general-admission area needs its capacity)")
        #expect(problem(#"{"A-1":[{"objectType":"seat"}]}"#)?.hasPrefix("A-1[0].label") == true)
        #expect(problem("[]")?.contains("seats.io chart report") == true || problem("[]") != nil)
    }
}
