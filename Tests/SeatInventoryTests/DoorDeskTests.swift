import Foundation
import SeatDomain
import SeatJSON
import SeatMap
import SeatSamples
import SeatTickets
import Testing

@testable import SeatInventory

/// The door's rules as the domain keeps them (`DoorDesk`), on the in-memory store in milliseconds: what
/// a code is, whose gate, a cancelled show, doors not open yet, a ticket refunded or sold again, in and
/// out once each, a retried scan. The HTTP tests (CheckInTests) keep keys, roles and the wire's form.
@Suite struct DoorDeskTests {
    /// The sample hall's show (19:30 on 1 Dec 2099, +08:00) and its ticket keys.
    let starts = Timestamp.milliseconds("2099-12-01T19:30:00+08:00")!
    let issuer = TicketIssuer(secret: Array("door-desk-test-secret".utf8))

    func desk() throws -> (DoorDesk, Inventory, InMemoryStore) {
        let (inventory, store) = try BoxOfficeRulesTests.inventory()
        return (DoorDesk(inventory: inventory, tickets: issuer), inventory, store)
    }

    /// The ticket code of `seat` as the counter sold it (its sale: the hold that has it sold).
    func ticket(_ inventory: Inventory, _ store: InMemoryStore, _ seat: String) throws -> String {
        let layout = SampleVenues.cinemaHall()
        let index = try #require(layout.index(ofSeatID: seat))
        let sale = try #require(try store.claims(show: "show").first { $0.seat == index && $0.status == .sold }?.holdID)
        return issuer.code(show: "show", seat: index, seatName: seat, sale: sale)
    }

    func scan(
        _ desk: DoorDesk, _ code: String, _ direction: CheckInScan.Direction = .in, gate: String = "A", nonce: String, shows: [String] = [],
        at: Int64? = nil
    ) throws -> DoorVerdict {
        try desk.decide(code: code, direction: direction, gate: gate, nonce: nonce, shows: shows, operatorName: "wang", now: at ?? starts - 3_600_000)
    }

    func refused(_ v: DoorVerdict) -> DoorVerdict.Refused? { if case .refused(let why, _) = v.outcome { why } else { nil } }

    @Test func aTicketGoesInOnceAndOutOnceAndARetryIsTheSameScan() throws {
        let (desk, inventory, store) = try desk()
        defer { inventory.stop() }
        _ = try BoxOfficeRulesTests.committed(inventory.beginSell(show: "show", BoxOfficeRulesTests.sale(["7-1"], "BOX-1"), by: "li"))
        let code = try ticket(inventory, store, "7-1")
        let first = try scan(desk, code, nonce: "n1")
        guard case .passed(let entered, replay: false) = first.outcome else { Issue.record("in: \(first)"); return }
        #expect(first.seat?.rowLabel == "7" && first.seat?.seatLabel == "1" && first.showID == "show" && entered.gate == "A")
        guard case .passed(_, replay: true) = try scan(desk, code, nonce: "n1").outcome else { Issue.record("a retry is the scan it made"); return }
        #expect(try scan(desk, code, gate: "B", nonce: "n2").outcome == .alreadyIn(entered), "in again at another gate: the first scan")
        guard case .passed(let left, replay: false) = try scan(desk, code, .out, gate: "B", nonce: "n3").outcome else { Issue.record("out"); return }
        #expect(try scan(desk, code, .out, nonce: "n4").outcome == .notInside(left))
        // A nonce is one scan: the same nonce for another ticket is a bad request, not a scan.
        _ = try BoxOfficeRulesTests.committed(inventory.beginSell(show: "show", BoxOfficeRulesTests.sale(["7-2"], "BOX-2"), by: "li"))
        let other = try ticket(inventory, store, "7-2")
        let reused = BoxOfficeRulesTests.refusal { _ = try scan(desk, other, nonce: "n1") }
        #expect(reused?.reason == .invalidBody && reused?.detail.contains("n1") == true)
        #expect(try inventory.checkInCounts(show: "show") == CheckInCounts(gates: [("A", 1, 0), ("B", 0, 1)], inside: 0, came: 1))
    }

    @Test func aCodeThatIsNoTicketOfThisCinemasIsInvalid() throws {
        let (desk, inventory, store) = try desk()
        defer { inventory.stop() }
        _ = try BoxOfficeRulesTests.committed(inventory.beginSell(show: "show", BoxOfficeRulesTests.sale(["7-1"], "BOX-1"), by: "li"))
        let code = try ticket(inventory, store, "7-1")
        #expect(refused(try scan(desk, "hello", nonce: "a")) == .notATicket)
        #expect(refused(try scan(desk, String(code.prefix(TicketCode.prefix.count + 16)), nonce: "b")) == .truncated, "10 bytes of 76")
        // Signed by another cinema's secret: the signature is not the show's.
        let forged = TicketIssuer(secret: Array("someone-else".utf8)).code(show: "show", seat: 0, seatName: "1-1", sale: "h")
        let v = try scan(desk, forged, nonce: "c")
        #expect(refused(v) == .signature && v.showID == nil && v.seat == nil, "nothing of a forged code is believed")
        let elsewhere = issuer.code(show: "other-show", seat: 0, seatName: "1-1", sale: "h")
        #expect(refused(try scan(desk, elsewhere, nonce: "d")) == .unknownShow)
        let families = ["invalid", "wrong_show", "revoked", "too_early", "id_required", "wrong_person", "unbound"]
        #expect(DoorVerdict.Refused.allCases.allSatisfy { families.contains($0.result) })
    }

    @Test func theGatesShowsCancellationAndTheDoorsOpeningComeBeforeTheSeat() throws {
        let (desk, inventory, store) = try desk()
        defer { inventory.stop() }
        _ = try BoxOfficeRulesTests.committed(inventory.beginSell(show: "show", BoxOfficeRulesTests.sale(["7-1"], "BOX-1"), by: "li"))
        let code = try ticket(inventory, store, "7-1")
        let wrong = try scan(desk, code, nonce: "a", shows: ["another"])
        #expect(refused(wrong) == .wrongShow && wrong.seat?.seatID == "7-1", "the seat is said with a wrong show")
        let early = try scan(desk, code, nonce: "b", at: starts - 121 * 60_000)
        #expect(refused(early) == .tooEarly && early.opensAt == starts - 120 * 60_000)
        #expect(refused(try scan(desk, code, .out, nonce: "c", at: starts - 121 * 60_000)) == nil, "going out is never too early")
        _ = try inventory.beginCancelShow(show: "show", reason: "projector", by: "manager")
        #expect(refused(try scan(desk, code, nonce: "d", at: starts - 121 * 60_000)) == .cancelled, "cancelled before too early")
    }

    @Test func aRefundedTicketIsRevokedAndOneSoldAgainToo() throws {
        let (desk, inventory, store) = try desk()
        defer { inventory.stop() }
        _ = try BoxOfficeRulesTests.committed(inventory.beginSell(show: "show", BoxOfficeRulesTests.sale(["7-1", "7-2"], "BOX-1"), by: "li"))
        let old = try ticket(inventory, store, "7-1")
        _ = try inventory.refund(orderRef: "BOX-1", seatIDs: ["7-1"], reason: "could not come", by: "wang")
        #expect(refused(try scan(desk, old, nonce: "a")) == .refunded)
        _ = try BoxOfficeRulesTests.committed(inventory.beginSell(show: "show", BoxOfficeRulesTests.sale(["7-1"], "BOX-2"), by: "li"))
        #expect(refused(try scan(desk, old, nonce: "b")) == .refunded, "the old ticket stays refunded when the seat sells again")
        let new = try ticket(inventory, store, "7-1")
        guard case .passed = try scan(desk, new, nonce: "c").outcome else { Issue.record("the new ticket lets in"); return }
    }
}
