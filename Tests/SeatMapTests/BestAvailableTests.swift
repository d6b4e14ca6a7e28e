import Testing
@testable import SeatMap

@Suite struct BestAvailableTests {
    func best(_ layout: VenueLayout, _ statuses: [String], _ request: BestAvailableRequest) -> [String]? {
        ids(layout, layout.bestAvailable(request, availability: availability(layout, statuses)))
    }

    @Test func picksTheCentreOfARow() {
        let l = venue(["SSSSSSSS"])
        #expect(best(l, ["aaaaaaaa"], BestAvailableRequest(count: 2)) == ["1-4", "1-5"])
    }

    @Test func neverCrossesAnAisle() {
        let l = venue(["SSS_SSS"])
        #expect(best(l, ["aaaaaa"], BestAvailableRequest(count: 4)) == nil)
        #expect(best(l, ["aaaaaa"], BestAvailableRequest(count: 3)) == ["1-1", "1-2", "1-3"])
    }

    @Test func avoidsLeavingALoneSeat() {
        // The centred window 2–4 would strand 1 and 5; the two end windows are equally near: lowest wins.
        let l = venue(["SSSSS"])
        #expect(best(l, ["aaaaa"], BestAvailableRequest(count: 3)) == ["1-1", "1-2", "1-3"])
        #expect(best(l, ["saaas"], BestAvailableRequest(count: 2)) == ["1-2", "1-3"])
    }

    @Test func prefersRowsThatLeaveNoLoneSeatEvenIfFurther() {
        // Row 1 (nearer the focal point) can only fit 2 by stranding one seat; row 2 fits them cleanly.
        let l = venue(["SSS", "SSSS"])
        let a = availability(l, ["aaa", "aass"])
        let picked = l.bestAvailable(BestAvailableRequest(count: 2, focalPoint: FloorPoint(x: 1, y: 0)), availability: a)
        #expect(ids(l, picked) == ["2-1", "2-2"])
    }

    @Test func keepsCouplePairsWhole() {
        let l = venue(["LRLR"])
        #expect(best(l, ["aaaa"], BestAvailableRequest(count: 2)) == ["1-1", "1-2"])
        #expect(best(l, ["aaaa"], BestAvailableRequest(count: 1)) == nil)
        #expect(best(l, ["aaaa"], BestAvailableRequest(count: 3)) == nil)
    }

    @Test func honoursZoneAndCategory() {
        let spec = VenueSpec(
            id: "v", name: "v",
            zones: [
                Zone(id: "a", name: "a", category: "cheap", color: "#000000"),
                Zone(id: "b", name: "b", category: "dear", color: "#000000"),
            ],
            rows: [
                RowSpec(
                    id: "1", label: "1", seats: (0..<6).map { SeatSpec(id: "1-\($0 + 1)", label: "\($0 + 1)", x: Double($0), y: 0, zone: $0 < 3 ? "a" : "b") })
            ])
        let l = try! VenueLayout(validating: spec)
        // 1-4 and 1-5 are nearer the centre but would strand 1-6 at the row end.
        #expect(best(l, ["aaaaaa"], BestAvailableRequest(count: 2, zone: "b")) == ["1-5", "1-6"])
        #expect(best(l, ["aaaaaa"], BestAvailableRequest(count: 3, category: "cheap")) == ["1-1", "1-2", "1-3"])
        #expect(best(l, ["aaaaaa"], BestAvailableRequest(count: 4, category: "cheap")) == nil)
    }

    @Test func wheelchairSpacesOnlyWhenAsked() {
        let l = venue(["WPSSSS"])
        #expect(best(l, ["aaaaaa"], BestAvailableRequest(count: 2, focalPoint: FloorPoint(x: 0, y: 0))) == ["1-3", "1-4"])
        #expect(best(l, ["aaaaaa"], BestAvailableRequest(count: 2, wheelchair: true)) == ["1-1", "1-2"])
        #expect(best(l, ["saaaaa"], BestAvailableRequest(count: 1, wheelchair: true)) == nil)
    }

    @Test func overTheLimitFindsNothing() {
        let l = venue([String(repeating: "S", count: 20)])
        #expect(best(l, [String(repeating: "a", count: 20)], BestAvailableRequest(count: 7)) == nil)
    }

    @Test(arguments: ["Samples/cinema-hall.json", "Samples/imax-hall.json", "Samples/arena-20k.json"])
    func agreesWithTryingEveryWindow(sample: String) throws {
        let layout = try VenueLayout(json: sampleBytes(sample))
        var rng = TestRandom(UInt64(layout.seatCount))
        let rounds = layout.seatCount > 10_000 ? 4 : 30
        for round in 0..<rounds {
            var a = SeatAvailability(layout: layout)
            let sold = rng.unit() * 0.9
            for i in layout.seatIndices where rng.unit() < sold { a.setStatus(rng.int(3) == 0 ? .held : .sold, for: i) }
            let zone = round % 3 == 0 ? layout.zones[rng.int(layout.zones.count)].id : nil
            let request = BestAvailableRequest(count: 1 + rng.int(6), zone: zone, wheelchair: round % 7 == 3)
            let fast = layout.bestAvailable(request, availability: a)
            let slow = ReferenceAlgorithms.bestAvailableTryingEveryWindow(request, layout: layout, availability: a)
            #expect(fast == slow, "round \(round): \(request)")
            if let fast {
                // Whatever it picks passes the rules.
                let v = SelectionPolicy.standard.violations(
                    for: fast, in: layout, availability: a,
                    context: SelectionContext(wheelchairRequested: request.wheelchair))
                #expect(v.isEmpty, "round \(round): \(v)")
            }
        }
    }

    @Test func defaultFocalPointIsTwoThirdsBackFromTheScreen() throws {
        let hall = try VenueLayout(json: sampleBytes("Samples/cinema-hall.json"))
        let f = hall.defaultFocalPoint
        #expect(f.x == 8.5)
        #expect(abs(f.y - 11.2 * 2 / 3) < 1e-5)  // positions are stored as Float
    }
}
