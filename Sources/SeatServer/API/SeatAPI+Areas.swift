import SeatHTTP
import SeatInventory
import SeatMap
import SeatWire

/// General-admission areas (#53) over HTTP: their counts. Holding places is `createHold`'s `areas`.
extension SeatAPI {
    /// `GET /v1/shows/{id}/areas`.
    func areaCounts(_ showID: String) throws -> HTTPResponse {
        let (version, counts) = try inventory.areaCounts(show: showID)
        let lines = counts.map { c in
            var low: Int?, high: Int?
            if case .party(let a, let b) = c.area.mode { low = a; high = b }
            return AreaCountsResource.Line(
                id: c.area.id, name: c.area.name, zone: c.area.zone, mode: c.area.mode.name, min: low, max: high, capacity: c.area.capacity,
                free: c.free, held: c.held, sold: c.sold, blocked: c.blocked, open: c.open)
        }
        return .json(200, AreaCountsResource(version: version, areas: lines), headers: [("Cache-Control", "no-store")])
    }
}
