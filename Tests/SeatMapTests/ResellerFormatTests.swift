import SeatJSON
import Testing

@testable import SeatMap

/// Flat seat lists as reseller and cinema-system APIs answer them (fixtures in Fixtures/reseller): a
/// reseller's camelCase with couple groups by piece number and `seatState`, a cinema system's PascalCase
/// hall (XML made JSON: every value a string) whose pieces are priced areas, a platform's top-level
/// array with status and type words.
@Suite struct ResellerFormatTests {
    static func fixture(_ name: String) throws -> [UInt8] { try sampleBytes("Tests/SeatMapTests/Fixtures/reseller/\(name)") }

    @Test func aResellersListImportsWithCouplesByPieceNumberAndItsOwnStates() throws {
        let v = try ImportedVenue(format: nil, json: Self.fixture("reseller-hall-6.json"), fallbackID: "x")
        let l = v.layout
        #expect(l.id == "6" && l.name == "6号厅 激光厅" && l.seatCount == 63 && l.rows.count == 6)
        #expect(l.rows.map(\.label) == ["1", "2", "3", "4", "5", "6"])
        // Printed numbers as printed, ids the list's own, the aisle after seat 2 keeps its width.
        let s2 = try #require(l.index(ofSeatID: "00060102")), s3 = try #require(l.index(ofSeatID: "00060103"))
        #expect(l.seatLabel(s3) == "3" && l.blockIndex(of: s2) != l.blockIndex(of: s3) && l.position(s3).x - l.position(s2).x == 2)
        // The empty grid row after printed row 3 keeps its gap.
        #expect(l.position(l.rows[3].seats.lowerBound).y - l.position(l.rows[2].seats.lowerBound).y == 2)
        // Row 6: four couples (pieces 06c1…06c4), each half naming the other.
        let back = l.rows[5].seats
        #expect(back.allSatisfy { l.type(of: $0).isCouple } && l.partner(of: back.lowerBound) == back.lowerBound + 1)
        // seatState -1 is sold; the unknown code 2 is ignored and said; the triple is three single seats, said.
        let a = try #require(v.availability)
        #expect(try a.counts.sold == 4 && a[try #require(l.index(ofSeatID: "00060205"))] == .sold)
        #expect(a[try #require(l.index(ofSeatID: "00060401"))] == .available)
        #expect(v.notes.count == 2, "\(v.notes)")
        #expect(v.notes.contains { $0.contains("seatState 2 ×1") })
        #expect(v.notes.contains { $0.hasPrefix("data.seats[52]: seats 00060507, 00060508, 00060509 are sold together as 3") })
        #expect(l.type(of: try #require(l.index(ofSeatID: "00060508"))) == .standard)
        // best and check work on it.
        let best = try #require(l.bestAvailable(BestAvailableRequest(count: 2), availability: a))
        #expect(SelectionPolicy.standard.violations(for: best, in: l, availability: a, context: SelectionContext()).isEmpty)
        let half = try #require(l.index(ofSeatID: "00060601"))
        #expect(!SelectionPolicy.standard.violations(for: [half], in: l, availability: a, context: SelectionContext()).isEmpty)
    }

    @Test func aMappedCodeApplies() throws {
        let v = try ImportedVenue(format: .reseller, json: Self.fixture("reseller-hall-6.json"), options: ImportOptions(statusMap: ["2": .blocked]))
        #expect(v.availability?.counts.blocked == 1 && v.notes.count == 1)
    }

    @Test func aCinemaSystemsHallMakesItsPiecesPricedAreas() throws {
        let v = try ImportedVenue(format: nil, json: Self.fixture("ctms-hall-5.json"))
        let l = v.layout
        #expect(l.id == "05" && l.name == "5号厅" && l.seatCount == 5 * 14 + 4 * 16)
        #expect(l.zones.map(\.id) == ["01", "02"] && l.zones.map(\.name) == ["普通区", "VIP区"] && l.zones.map(\.category) == ["01", "02"])
        #expect(l.rows[5].seats.allSatisfy { l.zones[l.zoneIndex(of: $0)].id == "02" })
        #expect(l.blocks.count == 9 * 3, "two aisles in every row")
        #expect(v.availability?.counts.available == l.seatCount)
        #expect(v.notes == ["piece numbers are areas (2 zones, one price category each): 01, 02"])
    }

    @Test func aPlatformsArrayWithStatusAndTypeWordsImports() throws {
        let v = try ImportedVenue(format: nil, json: Self.fixture("platform-hall-2.json"), fallbackID: "platform-hall-2")
        let l = v.layout
        #expect(l.id == "platform-hall-2" && l.seatCount == 39, "the DELETE seat is not a seat")
        #expect(l.index(ofSeatID: "2-8") == nil)
        let a = try #require(v.availability)
        #expect(try a[#require(l.index(ofSeatID: "1-1"))] == .sold && a[try #require(l.index(ofSeatID: "3-4"))] == .blocked)
        #expect(l.rows[4].seats.allSatisfy { l.type(of: $0).isCouple })
        // The couple whose halves disagree: both not for sale, and said.
        #expect(a[try #require(l.index(ofSeatID: "5-2"))] == .sold)
        #expect(v.notes == ["[32]: couple 5-1, 5-2 has halves sold and available; both kept sold"])
    }

    @Test func mistakesNameTheSeat() throws {
        let doc = #"{"seats":[{"seatNo":"a","seatRow":"1","graphRow":1,"graphCol":1,"seatType":"Q"},{"seatNo":"b","graphRow":1,"graphCol":"x"}]}"#
        #expect(ImportFormat.detect(try JSONParser.parse(Array(doc.utf8))) == .reseller)
        #expect(throws: LayoutError.self) { try ImportedVenue(format: nil, json: Array(doc.utf8)) }
        do { _ = try ImportedVenue(format: nil, json: Array(doc.utf8)) } catch {
            #expect(
                error.problems.map(\.description) == [
                    #"seats[0].seatType: unknown seat type "Q" (expected N, L, M, R, NORMAL, LOVE1 or LOVE2)"#,
                    "seats[1].seatRow: missing (expected a string)",
                    #"seats[1].graphCol: expected a number, got "x""#,
                ])
        }
        let none = #"{"data":{"list":[{"id":1}]}}"#
        #expect(ImportFormat.detect(try JSONParser.parse(Array(none.utf8))) == nil)
    }
}
