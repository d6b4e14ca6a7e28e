import Foundation
import SeatJSON
import Testing
@testable import SeatMap

@Suite struct LayoutJSONTests {
    @Test(arguments: ["Samples/cinema-hall.json", "Samples/imax-hall.json", "Samples/arena-20k.json"])
    func samplesRoundTripByteForByte(sample: String) throws {
        let bytes = try sampleBytes(sample)
        let layout = try VenueLayout(json: bytes)
        #expect(layout.jsonBytes() == bytes)
        let again = try VenueLayout(json: layout.jsonBytes())
        #expect(again.fingerprint == layout.fingerprint)
    }

    @Test func problemsNameTheSeatAndField() {
        let json = """
            {"format":"seatkit-layout","version":1,"id":"h","zones":[{"id":"z","color":"#000000"}],
             "rows":[{"label":"1","zone":"z","y":0,"seats":[
               {"id":"1-1","label":"1","x":0},
               {"id":"1-2","label":"2","x":"one"},
               {"id":"1-3","label":"3","x":2,"type":"sofa","colour":"red"},
               {"id":"1-4","label":"4","x":3,"flags":["vip"]},
               17]}]}
            """
        #expect {
            try VenueLayout(json: Array(json.utf8))
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "rows[0].seats[1].x: expected number, got \"one\"",
                "rows[0].seats[2].type: unknown seat type \"sofa\" (expected one of: standard, wheelchair, companion, coupleLeft, coupleRight, emergencyExit)",
                "rows[0].seats[2].colour: unknown member (expected one of: id, label, x, y, type, flags, zone, partner)",
                "rows[0].seats[3].flags[0]: unknown flag \"vip\" (expected restrictedView or accessible)",
                "rows[0].seats[4]: expected object, got 17",
            ]
        }
    }

    @Test func syntaxErrorsGiveTheLine() {
        let json = "{\"format\":\"seatkit-layout\",\n\"rows\": [\n  {\"label\": 1,,}\n]}"
        #expect {
            try VenueLayout(json: Array(json.utf8))
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == ["line 3, column 15: expected a member name in double quotes, found ','"]
        }
    }

    @Test func wrongFormatOrVersionIsSaid() {
        #expect {
            try VenueLayout(json: Array(#"{"format":"other","version":2,"id":"x","zones":[],"rows":[]}"#.utf8))
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "format: expected \"seatkit-layout\", got \"other\"", "version: unsupported version 2 (this build reads 1)",
            ]
        }
    }

    @Test func fractionalAndCurvedPositionsSurvive() throws {
        let spec = VenueSpec(
            id: "c", name: "c", zones: [Zone(id: "z", name: "z", category: "z", color: "#abcdef")],
            rows: [
                RowSpec(
                    id: "1", label: "1", zone: "z", seats: [SeatSpec(id: "a", label: "1", x: 0.1, y: 0.35), SeatSpec(id: "b", label: "2", x: 1.05, y: 0.2)])
            ])
        let layout = try VenueLayout(validating: spec)
        let back = try VenueLayout(json: layout.jsonBytes())
        #expect(back.position(1) == layout.position(1))
        #expect(back.fingerprint == layout.fingerprint)
    }
}

@Suite struct ImporterTests {
    @Test func seedFormatImports() throws {
        let v = try ImportedVenue(format: .seed, json: sampleBytes("Samples/imports/seed-screening.json"))
        let l = v.layout
        #expect(l.id == "scr-20261129-1930")
        #expect(l.seatCount == 48)
        #expect(l.zones.map(\.id) == ["VIP", "Couple", "general"])
        let b7 = try #require(l.index(ofSeatID: "B7"))
        #expect(l.zone(of: b7).id == "VIP")
        #expect(v.availability?[b7] == .sold)
        // Column 5 is missing: an aisle between col 4 and col 6.
        let a4 = l.index(ofSeatID: "A4")!, a6 = l.index(ofSeatID: "A6")!
        #expect(l.blockIndex(of: a4) != l.blockIndex(of: a6))
        #expect(l.type(of: l.index(ofSeatID: "E1")!) == .coupleLeft && l.type(of: l.index(ofSeatID: "E2")!) == .coupleRight)
        #expect(l.partner(of: l.index(ofSeatID: "A2")!) == l.index(ofSeatID: "A1"))
        #expect(
            v.availability?.counts
                == {
                    var c = StatusCounts(); c.available = 42; c.held = 1; c.sold = 4; c.blocked = 1; return c
                }())
    }

    @Test func seedFormatErrorsPointIntoTheDocument() throws {
        var seats: [String] = (0..<140).map { #"{"id":"A\#($0)","row":"A","col":\#($0 + 1)}"# }
        seats[132] = #"{"id":"A132","row":"A","col":"12a"}"#
        seats[7] = #"{"id":"A6","row":"A","col":8}"#
        seats[9] = #"{"id":"A9","row":"A","col":9,"type":"couple","status":"gone"}"#
        let json = #"{"screeningId":"s","seats":[\#(seats.joined(separator: ","))],"groups":[{"name":"G","seatIds":["A1","Z9"]}]}"#
        #expect {
            try ImportedVenue(format: .seed, json: Array(json.utf8))
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "seats[9].status: unknown status \"gone\" (expected available, held, sold or blocked)",
                "seats[132].col: expected integer, got \"12a\"",
                "groups[0].seatIds[1]: unknown seat \"Z9\"",
                "seats[9]: couple seat \"A9\" has no partner beside it",
            ]
        }
        // With the column fixed, the builder's checks run too: the duplicate id.
        seats[132] = #"{"id":"A132","row":"A","col":133}"#
        seats[9] = #"{"id":"A9","row":"A","col":10,"type":"couple"}"#
        seats[9] = #"{"id":"A9","row":"A","col":10}"#
        let json2 = #"{"screeningId":"s","seats":[\#(seats.joined(separator: ","))]}"#
        #expect {
            try ImportedVenue(format: .seed, json: Array(json2.utf8))
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "seats[7].id: duplicate seat id \"A6\" (first at seats[6])"
            ]
        }
    }

    @Test func seedDuplicateIdsAndPositions() {
        let json = #"{"screeningId":"s","seats":[{"id":"A1","row":1,"col":1},{"id":"A1","row":1,"col":2},{"id":"A3","row":1,"col":2}]}"#
        #expect {
            try ImportedVenue(format: .seed, json: Array(json.utf8))
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "seats[1].id: duplicate seat id \"A1\" (first at seats[0])",
                "seats[2]: same position (1, 0) as seat \"A1\" at seats[1]",
            ]
        }
    }

    @Test func cinemaGridKeepsAislesAndPrintedNumbers() throws {
        let v = try ImportedVenue(format: .cinemaGrid, json: sampleBytes("Samples/imports/cinema-grid.json"))
        let l = v.layout
        #expect(l.id == "hall-7" && l.name == "7号厅 Hall 7")
        #expect(l.seatCount == 70)
        let row1 = l.rows[0]
        #expect(row1.seats.map { l.seatLabel($0) } == ["11", "09", "07", "05", "03", "01", "02", "04", "06", "08", "10", "12"])
        // Grid column 3 is an aisle: seats 07 and 05 sit at x 2 and 4, in different blocks.
        let s07 = l.index(rowID: "1", seatLabel: "07")!, s05 = l.index(rowID: "1", seatLabel: "05")!
        #expect(l.position(s07).x == 2 && l.position(s05).x == 4)
        #expect(l.blockIndex(of: s07) != l.blockIndex(of: s05))
        // The empty grid row 4 keeps its gap: printed row 4 sits at grid row 5.
        #expect(l.rows[3].label == "4" && l.position(l.rows[3].seats.lowerBound).y == 4)
        // st decides: the two LK cells are sold; seat_status is this vendor's own and is ignored unmapped.
        #expect(v.availability?.counts.sold == 2 && v.availability?.counts.held == 0)
        #expect(v.availability?[l.index(ofSeatID: "00000002-3")!] == .sold)
        #expect(v.notes.count == 1 && v.notes[0].contains("seat_status 0 ×69, seat_status 2 ×1"), "\(v.notes)")
        let mapped = try ImportedVenue(
            format: .cinemaGrid, json: sampleBytes("Samples/imports/cinema-grid.json"),
            options: ImportOptions(statusMap: ["0": .available, "1": .sold, "2": .held, "3": .blocked]))
        #expect(mapped.availability?.counts.sold == 2 && mapped.availability?.counts.held == 1)
        let couple = l.rows[5]
        #expect(couple.seats.allSatisfy { l.type(of: $0).isCouple })
    }

    @Test func cinemaGridErrors() {
        // An unknown numeric status is no longer an error (it is this vendor's own code: ignored, and said).
        let json =
            #"{"data":{"seats":[{"row_id":"1","row_num":1,"columns":[{"column_id":"1","st":"N"},{"column_id":"2","st":"Q"},{"column_id":"3","st":"L"},{"st":"N"},{"column_id":"5","st":"N","seat_status":9},{"column_id":"6","st":"Z"}]}]}}"#
        #expect {
            try ImportedVenue(format: .cinemaGrid, json: Array(json.utf8))
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "data.seats[0].columns[1].st: unknown cell code \"Q\" (expected E, N, LK, L or R)",
                "data.seats[0].columns[3].column_id: missing (expected a string)",
                "data.seats[0].columns[5].st: unknown cell code \"Z\" (expected E, N, LK, L or R)",
                "data.seats[0].columns[2]: couple seat \"1-3\" has no partner beside it",
            ]
        }
    }

    @Test func pretixPlansImport() throws {
        let v = try ImportedVenue(format: .pretix, json: sampleBytes("Samples/imports/pretix-plan.json"), fallbackID: "theatre")
        let l = v.layout
        #expect(l.name == "Small theatre" && l.id == "theatre")
        #expect(l.seatCount == 96)
        #expect(l.zones.map(\.id) == ["Stalls", "Balcony"] && l.zones[0].color == "#3B7DDD")
        #expect(l.rows.map(\.id).prefix(2) == ["Stalls/1", "Stalls/2"])
        // 30 px seat spacing becomes one grid unit; the 60 px gap becomes an aisle.
        let s1 = l.index(ofSeatID: "S1-1")!, s2 = l.index(ofSeatID: "S1-2")!, s7 = l.index(ofSeatID: "S1-7")!
        #expect(abs(l.position(s2).x - l.position(s1).x - 1) < 1e-5)
        #expect(l.blockIndex(of: s7) != l.blockIndex(of: s1))
        #expect(l.stage?.label == "Stage")
        #expect(v.availability == nil)
    }

    @Test func pretixErrors() {
        let json =
            #"{"name":"x","categories":[{"name":"A"}],"zones":[{"position":{"x":0,"y":0},"rows":[{"row_number":"1","seats":[{"seat_guid":"g1","seat_number":"1","position":{"x":0,"y":"0"},"category":"A"},{"seat_guid":"g2","seat_number":"2","position":{"x":30,"y":0},"category":"B"}]}]}],"extra":1}"#
        #expect {
            try ImportedVenue(format: .pretix, json: Array(json.utf8))
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "extra: unknown member (expected one of: name, zones, categories, size)",
                "zones[0].rows[0].seats[0].position.y: expected number, got \"0\"",
                "zones[0].rows[0].seats[1].category: unknown category \"B\"",
            ]
        }
    }

    @Test(arguments: [
        "Samples/imports/seed-screening.json", "Samples/imports/cinema-grid.json", "Samples/imports/pretix-plan.json", "Samples/imports/reseller-hall.json",
    ])
    func importedVenuesRoundTripThroughSeatKitJSON(sample: String) throws {
        let v = try ImportedVenue(format: nil, json: sampleBytes(sample))
        let back = try VenueLayout(json: v.layout.jsonBytes())
        #expect(back.fingerprint == v.layout.fingerprint)
        #expect(back.jsonBytes() == v.layout.jsonBytes())
        if let a = v.availability {
            #expect(try SeatAvailability(encoded: a.encoded(), layout: back) == a)
        }
    }

    @Test func unknownFormatsAreSaid() {
        #expect {
            try ImportedVenue(format: nil, json: Array(#"{"hello":1}"#.utf8))
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "unrecognised format (expected seatkit, seed, cinema-grid, pretix, reseller or a seats.io chart report)"
            ]
        }
    }
}

/// Files as editors and vendors save them (#26 item 9): a UTF-8 byte order mark is read past; a file with
/// no seat is refused by every importer alike (an empty reseller list passed `validate` and failed `import`).
@Suite struct FileEdgeTests {
    @Test func aByteOrderMarkIsReadPast() throws {
        let plain = try sampleBytes("Samples/cinema-hall.json")
        let marked = try ImportedVenue(format: nil, json: [0xEF, 0xBB, 0xBF] + plain)
        #expect(marked.layout.fingerprint == (try VenueLayout(json: plain)).fingerprint)
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number(JSONNumber(double: 1, integer: 1))]))
    }

    @Test(arguments: [
        #"{"data":{"seats":[]}}"#, #"{"seats":[]}"#, #"{"screeningId":"s","seats":[],"groups":[]}"#,
        ##"{"format":"seatkit-layout","version":1,"id":"v","name":"V","zones":[{"id":"z","name":"Z","category":"z","color":"#112233"}],"rows":[]}"##,
    ])
    func aFileWithNoSeatIsRefused(text: String) {
        #expect {
            _ = try ImportedVenue(format: nil, json: Array(text.utf8))
        } throws: { error in
            (error as? LayoutError)?.problems.contains { $0.message.contains("no seat") } == true
        }
    }
}
