import Testing

@testable import SeatMap

/// The cinema-grid family as found in the wild (fixtures in Fixtures/cinema-grid): Maoyan-style app
/// captures (top-level `seats`, camelCase, `st` only), a cinema system's answer with its own numeric
/// status codes, and a gateway's camelCase with the `data` wrapper kept.
@Suite struct CinemaGridCaptureTests {
    static func fixture(_ name: String) throws -> [UInt8] { try sampleBytes("Tests/SeatMapTests/Fixtures/cinema-grid/\(name)") }

    @Test func maoyanCapturesImportWithTheirLabelsAislesAndEmptyRows() throws {
        // Detected without --from, as validate does.
        let v = try ImportedVenue(format: nil, json: Self.fixture("maoyan-hall-3.json"), fallbackID: "maoyan-hall-3")
        let l = v.layout
        #expect(l.id == "maoyan-hall-3" && l.seatCount == 76 && l.rows.count == 7)
        #expect(l.rows.map(\.label) == ["1", "2", "3", "4", "5", "6", "7"])
        // Printed numbers as printed; the seat ids are the capture's own ("1,3").
        #expect(l.rows[0].seats.map { l.seatLabel($0) } == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"])
        let s2 = try #require(l.index(ofSeatID: "1,2")), s3 = try #require(l.index(ofSeatID: "1,3"))
        #expect(l.blockIndex(of: s2) != l.blockIndex(of: s3), "the E cell is an aisle")
        #expect(l.position(s3).x - l.position(s2).x == 2, "the aisle keeps its width")
        // The empty grid row 4 keeps its gap: printed row 4 sits at grid row 5.
        #expect(l.position(l.rows[3].seats.lowerBound).y == 4)
        #expect(l.rows[6].seats.allSatisfy { l.type(of: $0).isCouple })
        let sold = try #require(l.index(ofSeatID: "2,5"))
        #expect(v.availability?.counts.sold == 3 && v.availability?[sold] == .sold)
        #expect(v.notes.isEmpty, "\(v.notes)")
        // best, check and render work on it.
        let a = try #require(v.availability)
        let best = try #require(l.bestAvailable(BestAvailableRequest(count: 2), availability: a))
        #expect(SelectionPolicy.standard.violations(for: best, in: l, availability: a, context: SelectionContext()).isEmpty)
    }

    @Test func aBiggerCaptureWithTwoAislesImports() throws {
        let v = try ImportedVenue(format: nil, json: Self.fixture("maoyan-hall-8.json"), fallbackID: "maoyan-hall-8")
        #expect(v.layout.seatCount == 4 * 14 + 8 * 18 && v.layout.rows.count == 12)
        #expect(v.layout.blocks.count == 4 * 2 + 8 * 3, "the 14-seat rows end at the second aisle cell")
        #expect(v.availability?.counts.sold == 7)
    }

    /// This vendor's `seat_status` 1 means available and 4 locked: read with the usual meaning it sold
    /// the whole hall or refused it. Unmapped, the codes are ignored and said; mapped, they apply.
    @Test func vendorStatusCodesAreIgnoredUnlessMapped() throws {
        let bytes = try Self.fixture("vendor-status-codes-hall-2.json")
        let plain = try ImportedVenue(format: nil, json: bytes)
        #expect(plain.layout.id == "hall-2" && plain.layout.name == "2号厅 Hall 2" && plain.layout.seatCount == 168)
        #expect(plain.availability?.counts.sold == 1, "only the LK cell is sold")
        #expect(plain.availability?.counts.blocked == 0)
        #expect(plain.notes.count == 1 && plain.notes[0].contains("seat_status 1 ×164, seat_status 4 ×4"), "\(plain.notes)")
        #expect(plain.layout.rows[0].seats.map { plain.layout.seatLabel($0) }.prefix(3) == ["01", "02", "03"])

        let mapped = try ImportedVenue(format: .cinemaGrid, json: bytes, options: ImportOptions(statusMap: ["1": .available, "4": .blocked]))
        #expect(mapped.availability?.counts.blocked == 3 && mapped.availability?.counts.sold == 1, "the LK cell stays sold")
        #expect(mapped.notes == ["data.seats[2].columns[3]: st LK (sold) but seat_status 4 maps to blocked; kept sold"])
    }

    @Test func aGatewaysCamelCaseWithTheWrapperImports() throws {
        let v = try ImportedVenue(format: nil, json: Self.fixture("camel-wrapped-hall-5.json"))
        #expect(v.layout.id == "hall-5" && v.layout.name == "5号厅 IMAX" && v.layout.seatCount == 76)
        #expect(v.availability?.counts.sold == 3)
        #expect(v.notes.count == 1 && v.notes[0].contains("seatStatus 0 ×73, seatStatus 1 ×3"), "\(v.notes)")
        let mapped = try ImportedVenue(
            format: nil, json: Self.fixture("camel-wrapped-hall-5.json"), options: ImportOptions(statusMap: ["0": .available, "1": .sold]))
        #expect(mapped.availability?.counts.sold == 3 && mapped.notes.isEmpty)
    }

    /// A status that contradicts `st` is a note naming the cell, not a silent merge nor a refusal.
    @Test func contradictionsAreNotesNamingTheCell() throws {
        let json = #"{"seats":[{"rowId":"A","rowNum":1,"columns":[{"columnId":"1","st":"LK","seatStatus":0},{"columnId":"2","st":"N","seatStatus":3}]}]}"#
        let v = try ImportedVenue(format: nil, json: Array(json.utf8), options: ImportOptions(statusMap: ["0": .available, "3": .blocked]))
        #expect(v.notes == ["seats[0].columns[0]: st LK (sold) but seatStatus 0 maps to available; kept sold"])
        #expect(v.availability?.counts.sold == 1 && v.availability?.counts.blocked == 1)
        // And the other way: a code mapped to sold on a cell st offers for sale.
        let forSale = #"{"seats":[{"rowId":"A","rowNum":1,"columns":[{"columnId":"1","st":"N","seatStatus":4}]}]}"#
        let w = try ImportedVenue(format: nil, json: Array(forSale.utf8), options: ImportOptions(statusMap: ["4": .sold]))
        #expect(w.notes == ["seats[0].columns[0]: st N (available) but seatStatus 4 maps to sold; kept available"])
        #expect(w.availability?.counts.sold == 0)
    }

    @Test func statusMapsAreParsedStrictly() {
        #expect((try? ImportOptions.statusMap(parsing: "1=available,4=blocked").get()) == ["1": .available, "4": .blocked])
        #expect((try? ImportOptions.statusMap(parsing: "-1=sold, 0 = available").get()) == ["-1": .sold, "0": .available])
        guard case .failure(let e) = ImportOptions.statusMap(parsing: "1=available,4=gone") else {
            Issue.record("an unknown status must be refused")
            return
        }
        #expect(e.problems.map(\.description) == [#"--status-map item 2: "4=gone": expected CODE=available, held, sold or blocked"#])
    }

    /// Wrapped or not, a missing member is named as the format documents it.
    @Test func errorsNameTheCellInEitherShape() {
        let json = #"{"seats":[{"rowId":"1","columns":[{"columnId":"1","st":"N"},{"st":"N"},{"columnId":"3","st":"Q"}]}]}"#
        #expect {
            try ImportedVenue(format: nil, json: Array(json.utf8))
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "seats[0].columns[1].column_id: missing (expected a string)",
                "seats[0].columns[2].st: unknown cell code \"Q\" (expected E, N, LK, L or R)",
            ]
        }
    }
}
