import Foundation
import SeatJSON
import Testing

@testable import SeatMap

/// Tables (#53): a table's seats are a row of the layout's own, round or long, sold by table, by seat or
/// by a minimum per show; a table may have its own price, shared among its seats.
@Suite struct TableLayoutTests {
    static let livehouse: [UInt8] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/livehouse.json")
        return [UInt8]((try? Data(contentsOf: url)) ?? Data())
    }()

    static func layout(_ replacing: [(String, String)] = []) throws -> VenueLayout {
        var text = String(decoding: livehouse, as: UTF8.self)
        for (find, replace) in replacing {
            #expect(text.contains(find), "\(find) not found")
            text = text.replacingOccurrences(of: find, with: replace)
        }
        return try VenueLayout(json: Array(text.utf8))
    }

    @Test func aTablesSeatsAreNumberedRoundIt() throws {
        let layout = try Self.layout()
        #expect(layout.tables.map(\.table.id) == ["T1", "T2", "L1"])
        let t1 = try #require(layout.table(id: "T1"))
        #expect(t1.seats.count == 4 && layout.rows[t1.row].id == "T1" && t1.table.mode == .byTable)
        let first = try #require(layout.index(ofSeatID: "T1-1"))
        let a1 = try #require(layout.index(ofSeatID: "A-1"))
        #expect(layout.table(of: first)?.table.id == "T1" && layout.table(of: a1) == nil)
        #expect(layout.printedName(first, language: .chinese) == "1号桌1座")
        #expect(layout.printedName(first, language: .english) == "Table 1, seat 1")
        // Four round a 2-wide table from twelve o'clock, clockwise, 1.6 from its centre.
        func stored(_ x: Double, _ y: Double) -> FloorPoint { FloorPoint(x: Double(Float(x)), y: Double(Float(y))) }
        #expect(layout.position(first) == stored(3, 15.4))
        #expect(layout.position(try #require(layout.index(ofSeatID: "T1-2"))) == stored(4.6, 17))
        // Six at a long table: three on the far side left to right, three on the near side back.
        let long = try #require(layout.table(id: "L1"))
        let ys = long.seats.map { layout.position($0).y }
        #expect(ys == [15.8, 15.8, 15.8, 18.2, 18.2, 18.2].map { Double(Float($0)) }, "\(ys)")
        #expect(layout.position(long.seats.lowerBound).x < layout.position(long.seats.lowerBound + 1).x)
        #expect(layout.position(long.seats.lowerBound + 3).x > layout.position(long.seats.lowerBound + 4).x)
        // Table seats are no row to a reader and never best-ranked.
        #expect(layout.documentRowCount == 2)
        let all = SeatAvailability(layout: layout)
        #expect(layout.bestAvailable(BestAvailableRequest(count: 1, zone: "tables"), availability: all) == nil)
    }

    @Test func itIsWrittenBackWithTheSameFingerprint() throws {
        let layout = try Self.layout()
        let text = String(decoding: layout.jsonBytes(), as: UTF8.self)
        // Seats where `Table.chairs` puts them are written as their count.
        #expect(
            text.contains(#""id":"T1","name":"1号桌 Table 1","zone":"tables","shape":"round","x":3,"y":17,"width":2,"height":2,"mode":"byTable","seats":4}"#),
            "\(text)")
        #expect(text.contains(#""mode":"minimum","min":2,"seats":6}"#))
        let again = try VenueLayout(json: layout.jsonBytes())
        #expect(again.fingerprint == layout.fingerprint)
        // A table's seats placed by hand are written out one by one, and read back the same.
        let handmade = try Self.layout([
            (
                #""mode":"bySeat","seats":4}"#,
                #""mode":"bySeat","seats":[{"id":"S1","label":"1","x":7.5,"y":15.5},{"id":"S2","label":"2","x":7.5,"y":18.5,"flags":["restrictedView"]}]}"#
            )
        ])
        let t2 = try #require(handmade.table(id: "T2"))
        #expect(t2.seats.count == 2 && handmade.seatID(t2.seats.lowerBound) == "S1")
        #expect(handmade.flags(of: t2.seats.lowerBound + 1).contains(.restrictedView))
        #expect(try VenueLayout(json: handmade.jsonBytes()).fingerprint == handmade.fingerprint)
        #expect(handmade.fingerprint != layout.fingerprint)
        // The mode is part of the layout.
        #expect(try Self.layout([(#""mode":"byTable","seats":4"#, #""mode":"bySeat","seats":4"#)]).fingerprint != layout.fingerprint)
    }

    @Test func aMistakeInATableNamesItsField() throws {
        let cases: [(String, String, String)] = [
            (#""mode":"byTable","seats":4"#, #""mode":"byTable","seats":0"#, "tables[0].seats: 0 is out of range (expected 1 to 60)"),
            (#""mode":"byTable","seats":4"#, #""mode":"byTable","seats":61"#, "tables[0].seats: 61 is out of range (expected 1 to 60)"),
            (
                #""mode":"byTable","seats":4"#, #""mode":"byTable","seats":"four""#,
                "tables[0].seats: expected a number of seats or a list of seats, got \"four\""
            ),
            (#""mode":"byTable","seats":4"#, #""mode":"byTable","seats":[]"#, "tables[0].seats: no seats (expected 1 to 60)"),
            (
                #""mode":"byTable","seats":4"#, #""mode":"together","seats":4"#,
                "tables[0].mode: unknown mode \"together\" (expected bySeat, byTable or minimum)"
            ),
            (#""mode":"byTable","seats":4"#, #""mode":"byTable","min":2,"seats":4"#, "tables[0].min: only a table sold by minimum has min"),
            (#""mode":"minimum","min":2,"seats":6"#, #""mode":"minimum","min":7,"seats":6"#, "tables[2].min: 7 is out of range (expected 1 to its 6 seats)"),
            (#""shape":"round","x":3"#, #""shape":"oval","x":3"#, "tables[0].shape: unknown shape \"oval\" (expected round or long)"),
            (#""id":"T2","name""#, #""id":"T1","name""#, "tables[1].id: duplicate table id \"T1\""),
            (#""id":"T2","name""#, #""id":"floor","name""#, "tables[1].id: \"floor\" is also a row's or an area's id"),
            (#""x":3,"y":17,"width":2"#, #""x":3,"y":17,"width":0"#, "tables[0].width: 0.0 is out of range (expected more than 0, at most 40)"),
            (#""zone":"tables","shape":"long""#, #""zone":"bar","shape":"long""#, "tables[2].zone: unknown zone \"bar\""),
            (
                #""mode":"bySeat","seats":4"#, #""mode":"bySeat","seats":[{"id":"S1","label":"1","x":7.5,"y":25}]"#,
                "tables[1].seats[0]: (7.5, 25.0) is 7.0 from the table's edge (a table's seats sit within 1.5 of it)"
            ),
            (
                #""mode":"bySeat","seats":4"#, #""mode":"bySeat","seats":[{"id":"S1","label":"1","x":7.5,"y":15.5,"partner":"A-1"}]"#,
                "tables[1].seats[0].partner: a table's seat has no partner"
            ),
            (
                #""mode":"bySeat","seats":4"#, #""mode":"bySeat","seats":[{"id":"A-1","label":"1","x":7.5,"y":15.5}]"#,
                "tables[1].seats[0].id: duplicate seat id \"A-1\" (first at rows[0].seats[0])"
            ),
        ]
        for (find, replace, expected) in cases {
            do {
                _ = try Self.layout([(find, replace)])
                Issue.record("accepted: \(replace)")
            } catch let error as LayoutError {
                #expect(error.problems.map(\.description).contains(expected), "\(replace): \(error.problems.map(\.description))")
            }
        }
    }

    @Test func aTableIsSoldAsItsShowSays() throws {
        let layout = try Self.layout()
        let all = SeatAvailability(layout: layout)
        func seats(_ ids: String...) throws -> [SeatIndex] { try ids.map { try #require(layout.index(ofSeatID: $0)) } }
        func rules(_ policy: SelectionPolicy, _ ids: [SeatIndex], _ availability: SeatAvailability? = nil) -> [SelectionRule] {
            policy.violations(for: ids, in: layout, availability: availability ?? all).map(\.rule)
        }
        let policy = SelectionPolicy(maxSeats: 2)
        // T1 by table: part of it refused naming the table, all of it one choice against a limit of 2.
        let part = policy.violations(for: try seats("T1-1", "T1-2"), in: layout, availability: all)
        let rest = try seats("T1-3", "T1-4")
        #expect(part.map(\.rule) == [.wholeTable] && part[0].seats == rest)
        #expect(part[0].chinese == "1号桌整桌出售，请选择全部4个座位")
        #expect(part[0].english == "Table 1 is sold as a whole table: choose all 4 of its seats.")
        #expect(rules(policy, try seats("T1-1", "T1-2", "T1-3", "T1-4")).isEmpty)
        #expect(rules(policy, try seats("T1-1", "T1-2", "T1-3", "T1-4", "A-1")).isEmpty)
        #expect(rules(policy, try seats("T1-1", "T1-2", "T1-3", "T1-4", "A-1", "A-2")) == [.seatLimit])
        // T2 by seat: one seat is fine; L1 at least 2 together.
        #expect(rules(policy, try seats("T2-1")).isEmpty)
        let one = policy.violations(for: try seats("L1-1"), in: layout, availability: all)
        #expect(one.map(\.rule) == [.tableMinimum] && one[0].english == "At Long table, choose at least 2 seats together.")
        #expect(rules(policy, try seats("L1-1", "L1-5")).isEmpty)
        // Fewer free than the minimum: the last seat alone may go.
        var five = all
        for id in ["L1-1", "L1-2", "L1-3", "L1-4", "L1-5"] { _ = five.setStatus(.sold, for: try #require(layout.index(ofSeatID: id))) }
        #expect(rules(policy, try seats("L1-6"), five).isEmpty)
        // The show sets every table (`*`) or one: T2 by table, T1 by seat.
        var show = SelectionPolicy(maxSeats: 4)
        show.tableModes = ["*": .byTable, "T1": .bySeat]
        #expect(rules(show, try seats("T1-1")).isEmpty)
        #expect(rules(show, try seats("T2-1")) == [.wholeTable])
        #expect(rules(show, try seats("L1-1", "L1-2")) == [.wholeTable])
    }

    @Test func aShowsTableModesAreCheckedAndKept() throws {
        let layout = try Self.layout()
        let policy = try SelectionPolicy(json: Array(#"{"tables":{"T1":"bySeat","L1":{"mode":"minimum","min":3},"*":"byTable"}}"#.utf8))
        #expect(policy.tableModes == ["T1": .bySeat, "L1": .minimum(3), "*": .byTable])
        #expect(try SelectionPolicy(json: policy.jsonBytes()) == policy)
        try policy.check(against: layout)
        // Policies without tables read and write as they did.
        #expect(!String(decoding: SelectionPolicy.standard.jsonBytes(), as: UTF8.self).contains("tables"))
        let bad: [(String, String)] = [
            (#"{"tables":{"T1":"whole"}}"#, "tables.T1.mode: unknown mode \"whole\" (expected byTable, bySeat or minimum)"),
            (#"{"tables":{"T1":"minimum"}}"#, "tables.T1: a minimum needs its number: {\"mode\":\"minimum\",\"min\":N}"),
            (#"{"tables":{"T1":{"mode":"minimum","min":0}}}"#, "tables.T1.min: 0 is out of range (expected 1 to 60)"),
            (#"{"tables":{"T1":{"mode":"byTable","min":2}}}"#, "tables.T1.min: only a table sold by minimum has min"),
            (#"{"tables":{"T1":4}}"#, "tables.T1: expected \"byTable\", \"bySeat\" or {\"mode\":\"minimum\",\"min\":N}, got 4"),
        ]
        for (json, expected) in bad {
            #expect(throws: LayoutError.self, "\(json)") { try SelectionPolicy(json: Array(json.utf8)) }
            do { _ = try SelectionPolicy(json: Array(json.utf8)) } catch {
                #expect(error.problems.map(\.description) == [expected], "\(json)")
            }
        }
        // Against the venue: a table it does not have, a minimum over the table's seats.
        var wrong = SelectionPolicy()
        wrong.tableModes = ["T9": .byTable, "T1": .minimum(5)]
        #expect(throws: LayoutError.self) { try wrong.check(against: layout) }
        do { try wrong.check(against: layout) } catch {
            #expect(error.problems.map(\.description) == ["tables.T1.min: 5 is more than the table's 4 seats", "tables.T9: the venue has no table \"T9\""])
        }
    }

    @Test func aTablesOwnPriceIsSharedAmongItsSeats() throws {
        let layout = try Self.layout()
        let table = try PriceTable(
            json: Array(#"{"categories":{"standard":"80.00","standing":"180.00","box":"300.00"},"tables":{"T1":"500.03"}}"#.utf8))
        #expect(try PriceTable(json: table.jsonBytes()) == table)
        let prices = try SeatPrices(table: table, layout: layout)
        let t1 = try #require(layout.table(id: "T1")).seats
        #expect(t1.map { prices.price(of: $0) } == ["125.01", "125.01", "125.01", "125.00"].map { Decimal(string: $0)! })
        #expect(prices.totalString(of: Array(t1)) == "500.03" && prices.total(of: Array(t1)) == Decimal(string: "500.03")!)
        // T2's seats keep their zone's price.
        #expect(prices.price(of: try #require(layout.table(id: "T2")).seats.lowerBound) == 80)
        let unknown = try PriceTable(json: Array(#"{"categories":{"standard":"80.00","standing":"1.00","box":"1.00"},"tables":{"T9":"10.00"}}"#.utf8))
        #expect(throws: LayoutError.self) { try SeatPrices(table: unknown, layout: layout) }
        #expect(throws: LayoutError.self) { try PriceTable(json: Array(#"{"categories":{},"tables":{"T1":"-1.00"}}"#.utf8)) }
        #expect(throws: LayoutError.self) { try PriceTable(json: Array(#"{"categories":{},"tables":{"T1":"1.001"}}"#.utf8)) }
    }
}
