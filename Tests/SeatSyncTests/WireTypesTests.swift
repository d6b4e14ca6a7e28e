import SeatMap
import SeatWire
import Testing

@Suite struct WireTypesTests {
    @Test func requestsRoundTripAndAreStrict() throws {
        let h = HoldRequest(seats: ["7-1", "座\"2"], wheelchair: true)
        #expect(try HoldRequest(json: h.jsonBytes()) == h)
        let m = ModifyHoldRequest(add: ["1-1"], remove: ["1-2"])
        #expect(try ModifyHoldRequest(json: m.jsonBytes()) == m)
        #expect(try ConfirmRequest(json: ConfirmRequest(orderRef: "A-1").jsonBytes()).orderRef == "A-1")
        #expect {
            try HoldRequest(json: Array(#"{"seats":["1",2],"wheelchair":"yes","x":1}"#.utf8))
        } throws: { error in
            guard case .invalid(let e) = error as! WireError else { return false }
            return e.problems.map(\.description) == [
                "x: unknown member (expected one of: seats, wheelchair, areas, attendees, book)",
                "seats[1]: expected a seat id string, got 2", "wheelchair: expected true or false, got \"yes\"",
            ]
        }
        #expect(throws: WireError.self) { try ConfirmRequest(json: Array(#"{"orderRef":""}"#.utf8)) }
        #expect(throws: WireError.self) { try HoldRequest(json: Array("[1]".utf8)) }
    }

    @Test func holdResourceRoundTrips() throws {
        let h = HoldResource(
            token: "ab", holdID: "h_1", showID: "s", state: .confirmed, seats: ["7-1"], total: "33.30", currency: "CNY",
            expiresAt: "2026-11-29T13:07:10.632Z", extended: true, version: 9, orderRef: "O")
        #expect(try HoldResource(json: h.jsonWriter().bytes) == h)
        #expect(throws: WireError.self) { try HoldResource(json: Array(#"{"token":"x"}"#.utf8)) }
    }

    @Test func problemDocumentsCarryConflictsAndViolations() throws {
        let json =
            #"{"type":"/problems/rule-violation","title":"t","status":422,"detail":"d","violations":[{"rule":"loneSeat","seats":["5-1"],"message":{"zh":"中","en":"en"}}],"conflicts":[{"seat":"7-1","status":"sold"}]}"#
        let p = try ProblemDocument(json: Array(json.utf8))
        #expect(p.slug == "rule-violation" && p.status == 422)
        #expect(p.violations.first?.seats == ["5-1"] && p.violations.first?.chinese == "中")
        #expect(p.conflicts.first?.status == "sold")
    }
}
