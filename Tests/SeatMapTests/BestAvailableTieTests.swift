import Testing
@testable import SeatMap

/// Exact ties go to the lowest seat index, as docs/formats/prices-and-policy.md says, also for positions
/// that are not multiples of a binary fraction (#26 item 9: seats 0.3 apart tied in the file's numbers and
/// the later window won, since positions were ranked in 1/64 units).
@Suite struct BestAvailableTieTests {
    @Test func equallyNearWindowsGoToTheLowestIndex() throws {
        let seats = (0..<8).map { SeatSpec(id: "A\($0 + 1)", label: "\($0 + 1)", x: Double($0) * 0.3, y: 0) }
        let layout = try VenueLayout(
            validating: VenueSpec(
                id: "t", name: "T", zones: [Zone(id: "z", name: "Z", category: "z", color: "#112233")],
                rows: [RowSpec(id: "A", label: "A", zone: "z", seats: seats)]))
        let free = SeatAvailability(layout: layout)
        let open = SelectionPolicy(noLoneSeat: false)
        // One seat, the focal point halfway between A4 (0.9) and A5 (1.2): A4.
        #expect(
            layout.bestAvailable(BestAvailableRequest(count: 1, focalPoint: FloorPoint(x: 1.05, y: 0)), availability: free, policy: open)
                .map { $0.map { layout.seatID($0) } } == ["A4"])
        // Two seats, centred at 0.75 and 1.05 either side of 0.9: the first window.
        #expect(
            layout.bestAvailable(BestAvailableRequest(count: 2, focalPoint: FloorPoint(x: 0.9, y: 0)), availability: free, policy: open)
                .map { $0.map { layout.seatID($0) } } == ["A3", "A4"])
        // A focal point beyond any coordinate still ranks (no trap): the nearest end.
        #expect(
            layout.bestAvailable(BestAvailableRequest(count: 1, focalPoint: FloorPoint(x: 1e300, y: 0)), availability: free, policy: open)
                .map { $0.map { layout.seatID($0) } } == ["A8"])
    }
}
