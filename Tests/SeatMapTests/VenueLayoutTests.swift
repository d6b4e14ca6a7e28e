import Testing
@testable import SeatMap

@Suite struct VenueLayoutTests {
    @Test func looksSeatsUpByIdAndByPrintedLabel() {
        let layout = venue(["SS_SS", "SSS"])
        #expect(layout.seatCount == 7)
        let i = try! #require(layout.index(ofSeatID: "1-3"))
        #expect(layout.seatID(i) == "1-3")
        #expect(layout.position(i) == FloorPoint(x: 3, y: 0))
        #expect(layout.index(rowID: "1", seatLabel: "3") == i)
        #expect(layout.index(rowID: "2", seatLabel: "3") == layout.index(ofSeatID: "2-3"))
        #expect(layout.index(ofSeatID: "9-9") == nil)
        #expect(layout.index(rowID: "1", seatLabel: "9") == nil)
        #expect(layout.index(rowID: "7", seatLabel: "1") == nil)
    }

    @Test func aislesSplitRowsIntoBlocks() {
        let layout = venue(["SS_SS__S", "SSS"])
        #expect(layout.blocks == [0..<2, 2..<4, 4..<5, 5..<8])
        #expect(layout.blockIndex(of: 3) == 1)
    }

    @Test func theSampleHallNumbersCentreOut() throws {
        let hall = try VenueLayout(json: sampleBytes("Samples/cinema-hall.json"))
        #expect(hall.seatCount == 172)
        // Floor order in row 7: 15 13 11 9 | 7 5 3 1 2 4 6 8 | 10 12 14 16
        let row = hall.rows[6]
        #expect(row.seats.map { hall.seatLabel($0) } == ["15", "13", "11", "9", "7", "5", "3", "1", "2", "4", "6", "8", "10", "12", "14", "16"])
        let seat1 = try #require(hall.index(rowID: "7", seatLabel: "1"))
        let seat2 = try #require(hall.index(rowID: "7", seatLabel: "2"))
        #expect(hall.position(seat1).x == 8 && hall.position(seat2).x == 9)
        #expect(hall.printedName(seat1, language: .chinese) == "7排1座")
        #expect(hall.printedName(seat2, language: .english) == "Row 7, seat 2")
        #expect(hall.type(of: hall.index(ofSeatID: "11-1")!) == .coupleLeft)
        #expect(hall.partner(of: hall.index(ofSeatID: "11-1")!) == hall.index(ofSeatID: "11-2"))
        #expect(hall.flags(of: hall.index(ofSeatID: "1-15")!).contains(.accessible))
    }

    @Test func reportsEveryProblemWithItsPath() {
        let spec = VenueSpec(
            id: "v", name: "v",
            zones: [
                Zone(id: "z", name: "z", category: "z", color: "#000000"),
                Zone(id: "z", name: "again", category: "z", color: "blue"),
            ],
            rows: [
                RowSpec(
                    id: "A", label: "A", zone: "z",
                    seats: [
                        SeatSpec(id: "A1", label: "1", x: 0, y: 0),
                        SeatSpec(id: "A1", label: "2", x: 1, y: 0),
                        SeatSpec(id: "A3", label: "3", x: 1, y: 0),
                        SeatSpec(id: "A4", label: "4", x: 2, y: 0, zone: "nowhere"),
                        SeatSpec(id: "A5", label: "5", x: 3, y: 0, type: .coupleLeft),
                        SeatSpec(id: "A6", label: "6", x: 4, y: 0, type: .companion, partner: "A1"),
                        SeatSpec(id: "A7", label: "", x: 5, y: 0, partner: "ghost"),
                    ]),
                RowSpec(id: "A", label: "A2", seats: []),
            ])
        #expect {
            try VenueLayout(validating: spec)
        } throws: { error in
            let problems = (error as! LayoutError).problems.map(\.description)
            return problems == [
                "zones[1].id: duplicate zone id \"z\"",
                "zones[1].color: expected a #RRGGBB colour, got \"blue\"",
                "rows[0].seats[1].id: duplicate seat id \"A1\" (first at rows[0].seats[0])",
                "rows[0].seats[2]: same position (1, 0) as seat \"A1\" at rows[0].seats[1]",
                "rows[0].seats[3].zone: unknown zone \"nowhere\"",
                "rows[0].seats[6].label: seat label is empty",
                "rows[1].id: duplicate row id \"A\" (first at rows[0])",
                "rows[0].seats[6].partner: partner \"ghost\" is not a seat in this venue",
                "rows[0].seats[4]: couple seat \"A5\" has no partner",
                "rows[0].seats[5].partner: partner \"A1\" of companion seat \"A6\" is not a wheelchair space",
            ]
        }
    }

    @Test func couplePartnersMustBeNeighboursInOneBlock() {
        let spec = VenueSpec(
            id: "v", name: "v", zones: [Zone(id: "z", name: "z", category: "z", color: "#000000")],
            rows: [
                RowSpec(
                    id: "A", label: "A", zone: "z",
                    seats: [
                        SeatSpec(id: "A1", label: "1", x: 0, y: 0, type: .coupleLeft, partner: "A2"),
                        SeatSpec(id: "A2", label: "2", x: 3, y: 0, type: .coupleRight, partner: "A1"),
                    ])
            ])
        #expect(throws: LayoutError.self) { try VenueLayout(validating: spec) }
        do { _ = try VenueLayout(validating: spec) } catch {
            #expect(error.problems.first?.message.contains("must be neighbours in one row") == true)
        }
    }

    @Test func problemsAreCappedWithACount() {
        let seats = (0..<150).map { SeatSpec(id: "S", label: "\($0)", x: Double($0), y: 0) }
        let spec = VenueSpec(
            id: "v", name: "v", zones: [Zone(id: "z", name: "z", category: "z", color: "#000000")],
            rows: [RowSpec(id: "A", label: "A", zone: "z", seats: seats)])
        do {
            _ = try VenueLayout(validating: spec)
            Issue.record("expected an error")
        } catch {
            #expect(error.problems.count == ProblemLog.limit)
            #expect(error.omitted == 149 - ProblemLog.limit)
        }
    }

    @Test func fingerprintsDifferWhenAnythingDiffers() {
        let a = venue(["SSS"]), b = venue(["SSS"]), c = venue(["S_SS"]), d = venue(["SLR"])
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.fingerprint != c.fingerprint)
        #expect(a.fingerprint != d.fingerprint)
    }

    @Test func layoutCostsFewerThan64BytesASeat() {
        let layout = venue(Array(repeating: String(repeating: "S", count: 100), count: 100))
        let perSeat = Double(layout.storageByteCount) / Double(layout.seatCount)
        #expect(perSeat < 64, "layout uses \(perSeat) bytes a seat")
    }
}
