import SeatMap

/// Free seats per row, per block and per zone, for the zoomed-out views. Counted once per availability
/// (O(n)) and then kept up to date from changes in O(k), so a frame never counts seats.
public struct FreeSeatCounts: Sendable, Hashable {
    public private(set) var perRow: [Int]
    public private(set) var perBlock: [Int]
    public private(set) var perZone: [Int]

    /// - Complexity: O(seats).
    public init(layout: VenueLayout, availability: SeatAvailability) {
        perRow = Array(repeating: 0, count: layout.rows.count)
        perBlock = Array(repeating: 0, count: layout.blocks.count)
        perZone = Array(repeating: 0, count: layout.zones.count)
        var status = availability.reader()
        for i in layout.seatIndices where status(i) == .available {
            perRow[layout.rowIndex(of: i)] += 1
            perBlock[layout.blockIndex(of: i)] += 1
            perZone[layout.zoneIndex(of: i)] += 1
        }
    }

    /// Applies one seat's change from `old` to `new`.
    /// - Complexity: O(1).
    public mutating func update(seat: SeatIndex, from old: SeatStatus, to new: SeatStatus, layout: VenueLayout) {
        let delta = (new == .available ? 1 : 0) - (old == .available ? 1 : 0)
        guard delta != 0 else { return }
        perRow[layout.rowIndex(of: seat)] += delta
        perBlock[layout.blockIndex(of: seat)] += delta
        perZone[layout.zoneIndex(of: seat)] += delta
    }
}
