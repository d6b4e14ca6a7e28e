import Testing
@testable import SeatMap

@Suite struct SelectionPolicyTests {
    func rules(
        _ layout: VenueLayout, _ statuses: [String], select: [String], policy: SelectionPolicy = .standard,
        context: SelectionContext = SelectionContext()
    ) -> [SelectionRule] {
        let a = availability(layout, statuses)
        return policy.violations(for: select.map { layout.index(ofSeatID: $0)! }, in: layout, availability: a, context: context).map(\.rule)
    }

    @Test func freeSeatsWithNoGapsPass() {
        let l = venue(["SSSSSS"])
        #expect(rules(l, ["aaaaaa"], select: ["1-1", "1-2"]) == [])
        #expect(rules(l, ["aaaaaa"], select: ["1-3", "1-4", "1-5", "1-6"]) == [])
    }

    @Test func takenSeatsAreNamedWithTheirStatus() {
        let l = venue(["SSSS"])
        let a = availability(l, ["asha"])
        let v = SelectionPolicy.standard.violations(for: seats(l, "1-2", "1-3"), in: l, availability: a)
        #expect(v.first?.rule == .notAvailable)
        #expect(v.first?.seats == seats(l, "1-2", "1-3"))
        #expect(v.first?.english == "Row 1, seat 2 is sold; Row 1, seat 3 is held. Please choose other seats.")
        #expect(v.first?.chinese == "1排2座已售，1排3座已锁定，请选择其他座位")
    }

    @Test func theSeatLimitCounts() {
        let l = venue(["SSSSSSSS"])
        #expect(rules(l, ["aaaaaaaa"], select: (1...7).map { "1-\($0)" }) == [.seatLimit])
        #expect(rules(l, ["aaaaaaaa"], select: (1...7).map { "1-\($0)" }, policy: SelectionPolicy(maxSeats: 8)) == [])
        // Duplicates do not count twice.
        #expect(rules(l, ["aaaaaaaa"], select: ["1-1", "1-1", "1-2", "1-2", "1-3", "1-3", "1-4"]) == [])
    }

    @Test func coupleSeatsGoInPairs() {
        let l = venue(["LRLR"])
        #expect(rules(l, ["aaaa"], select: ["1-1"]) == [.couplePair])
        // Two halves of different pairs: both pairs are broken, and the couple rule names all four. The
        // stranded halves 1-1 and 1-4 are not lone seats as well: nobody could buy half a couple.
        let a = availability(l, ["aaaa"])
        let v = SelectionPolicy.standard.violations(for: seats(l, "1-2", "1-3"), in: l, availability: a)
        #expect(v.map(\.rule) == [.couplePair])
        #expect(v[0].seats == seats(l, "1-2", "1-1", "1-3", "1-4"))
        #expect(rules(l, ["aaaa"], select: ["1-1", "1-2"]) == [])
        #expect(rules(l, ["aaaa"], select: ["1-1"], policy: SelectionPolicy(couplesTogether: false, noLoneSeat: false)) == [])
    }

    @Test func loneSeatAtARowEnd() {
        let l = venue(["SSSSS"])
        #expect(rules(l, ["aaaaa"], select: ["1-2", "1-3"]) == [.loneSeat])
        #expect(rules(l, ["aaaaa"], select: ["1-1", "1-2"]) == [])
        #expect(rules(l, ["aaaaa"], select: ["1-3", "1-4"]) == [.loneSeat])
    }

    @Test func loneSeatNextToATakenSeat() {
        let l = venue(["SSSSSS"])
        let a = availability(l, ["saaaaa"])
        let v = SelectionPolicy.standard.violations(for: seats(l, "1-3", "1-4"), in: l, availability: a)
        #expect(v.map(\.rule) == [.loneSeat])
        #expect(v[0].seats == seats(l, "1-2"))
        #expect(v[0].english == "Please don't leave a single empty seat: Row 1, seat 2.")
        #expect(v[0].chinese == "请不要留下单个空座：1排2座")
        #expect(rules(l, ["haaaaa"], select: ["1-2", "1-3"]) == [])
        #expect(rules(l, ["baaaaa"], select: ["1-3"]) == [.loneSeat])
    }

    /// The lone-seat rule protects only seats someone could still buy: a companion seat whose wheelchair
    /// space is sold, or a couple half whose other half is, is no loss to leave (before, 1-2 below was a
    /// "lone seat" and the selection was refused).
    @Test func seatsNobodyCanBuyAreNotProtected() {
        let l = venue(["WPSSSS"])
        #expect(rules(l, ["saaaaa"], select: ["1-3", "1-4"]) == [], "1-2's wheelchair space is sold")
        #expect(rules(venue(["SSSSSS"]), ["saaaaa"], select: ["1-3", "1-4"]) == [.loneSeat], "a seat anyone can buy is protected")
        #expect(rules(l, ["baaaaa"], select: ["1-3", "1-4"]) == [], "a blocked wheelchair space too")
        // A couple half whose other half is sold.
        let c = venue(["LRSSSS"])
        #expect(rules(c, ["saaaaa"], select: ["1-3", "1-4"]) == [])
        #expect(rules(c, ["aaaaaa"], select: ["1-3", "1-4"]) == [])
        // Best available leaves them too, and prefers the window nearest the focal point.
        let a = availability(l, ["saaaaa"])
        let best = l.bestAvailable(BestAvailableRequest(count: 2, focalPoint: FloorPoint(x: 2.5, y: 0)), availability: a)
        #expect(ids(l, best) == ["1-3", "1-4"])
        #expect(
            ids(
                l,
                ReferenceAlgorithms.bestAvailableTryingEveryWindow(
                    BestAvailableRequest(count: 2, focalPoint: FloorPoint(x: 2.5, y: 0)), layout: l, availability: a)) == ["1-3", "1-4"])
        let plain = venue(["SSSSSS"])
        let protected = plain.bestAvailable(BestAvailableRequest(count: 2, focalPoint: FloorPoint(x: 2.5, y: 0)), availability: availability(plain, ["saaaaa"]))
        #expect(ids(plain, protected) != ["1-3", "1-4"])
    }

    @Test func loneSeatNextToAnAisle() {
        let l = venue(["SSSSS_SSSSS"])
        #expect(rules(l, ["aaaaaaaaaa"], select: ["1-2", "1-3", "1-4"]) == [.loneSeat])
        #expect(rules(l, ["aaaaaaaaaa"], select: ["1-1", "1-2", "1-3"]) == [])
        // Seats across the aisle are another block: 1-6 is not left alone by taking 1-7, 1-8.
        #expect(rules(l, ["aaaaaaaaaa"], select: ["1-4", "1-5"]) == [])
        #expect(rules(l, ["aaaaaaaaaa"], select: ["1-7", "1-8"]) == [.loneSeat])
    }

    @Test func aGapInsideTheSelectionIsALoneSeat() {
        let l = venue(["SSSSSS"])
        #expect(rules(l, ["aaaaaa"], select: ["1-1", "1-3"]) == [.loneSeat])
        #expect(rules(l, ["aaaaaa"], select: ["1-1", "1-4"]) == [])
    }

    @Test func anUnavoidableLoneSeatIsAllowed() {
        // Three free seats between sold ones: any two of them leave one.
        let l = venue(["SSSSS"])
        #expect(rules(l, ["saaas"], select: ["1-2", "1-3"]) == [])
        #expect(rules(l, ["saaas"], select: ["1-3", "1-4"]) == [])
        // Four of a five-seat block likewise.
        let m = venue(["SSSSS_SS"])
        #expect(rules(m, ["aaaaaaa"], select: ["1-1", "1-2", "1-3", "1-4"]) == [])
        // But one of three, leaving one on each side, has a better placement.
        #expect(rules(l, ["saaas"], select: ["1-3"]) == [.loneSeat])
    }

    /// A selection with a sold seat in it is judged for lone seats on the seats the buyer could have
    /// (docs/formats/prices-and-policy.md): the sold seat is not theirs, so the free seat between it and
    /// a held one is no lone seat of their making (#26 item 9: it was named as one).
    @Test func aSoldSeatInTheSelectionNamesNoExtraLoneSeat() {
        let l = venue(["SSSSSS"])
        #expect(rules(l, ["aasaha"], select: ["1-3"]) == [.notAvailable])
        let m = venue(["SSSSSSS"])
        #expect(rules(m, ["aaaaasa"], select: ["1-2", "1-6"]) == [.notAvailable, .loneSeat], "1-1 is left lone by 1-2, which is free")
        #expect(rules(l, ["aaasaa"], select: ["1-4", "1-5", "1-6"]) == [.notAvailable])
    }

    @Test func ownHeldSeatsCountAsTheBuyers() {
        let l = venue(["SSSSS"])
        let own = Set(seats(l, "1-1", "1-2"))
        #expect(rules(l, ["hhaaa"], select: ["1-1", "1-2", "1-3"], context: SelectionContext(ownHeld: own)) == [])
        #expect(rules(l, ["hhaaa"], select: ["1-1", "1-2", "1-3"]) == [.notAvailable])
        // Dropping 1-2 from the hold would leave it between 1-1 and 1-3.
        #expect(rules(l, ["hhaaa"], select: ["1-1", "1-3"], context: SelectionContext(ownHeld: own)) == [.loneSeat])
    }

    @Test func wheelchairSpacesAndCompanions() {
        let l = venue(["WPSSS"])
        #expect(rules(l, ["aaaaa"], select: ["1-1", "1-2"]) == [.wheelchairOnRequest])
        #expect(rules(l, ["aaaaa"], select: ["1-1", "1-2"], context: SelectionContext(wheelchairRequested: true)) == [])
        #expect(rules(l, ["saaaa"], select: ["1-2"]) == [.companionWithWheelchair])
        #expect(rules(l, ["saaaa"], select: ["1-2"], policy: SelectionPolicy(companionWithWheelchair: false)) == [])
    }

    @Test func policyJSONRoundTripsAndRejectsNonsense() throws {
        let p = SelectionPolicy(maxSeats: 4, couplesTogether: false)
        #expect(try SelectionPolicy(json: p.jsonBytes()) == p)
        #expect(try SelectionPolicy(json: Array("{}".utf8)) == .standard)
        #expect {
            try SelectionPolicy(json: Array(#"{"maxSeats":0,"noLoneSeat":"yes","limit":3}"#.utf8))
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "limit: unknown member (expected one of: maxSeats, couplesTogether, noLoneSeat, wheelchairOnRequest, companionWithWheelchair, tables)",
                "maxSeats: must be 1 to 1000, got 0",
                "noLoneSeat: expected true or false, got \"yes\"",
            ]
        }
    }
}
