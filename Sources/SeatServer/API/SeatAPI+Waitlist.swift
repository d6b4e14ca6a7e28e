import Foundation
import SeatHTTP
import SeatInventory
import SeatWire

/// The waitlist's routes (候补): join, see the place or the offer, leave. An entry's token is a
/// capability (a wrong guess is charged as one, `capabilityRoutes`); joins are held to the hold rate
/// of the client, as a hold is.
extension SeatAPI {
    func joinWaitlist(_ showID: String, _ r: HTTPRequest) throws -> HTTPResponse {
        // No such show is a 404 whatever the body, as for a hold.
        if inventory.showSummary(showID) == nil { throw inventory.noSuchShow(showID) }
        let body = try RequestBody.decode(r, WaitlistRequest.init(json:))
        let view = try inventory.joinWaitlist(
            show: showID, category: body.price, zone: body.zone, count: body.count, attendees: Self.attendees(body.attendees))
        return .json(201, Self.waitlist(view), headers: [("Cache-Control", "no-store")])
    }

    func waitlistEntry(_ token: String) throws -> HTTPResponse {
        .json(200, Self.waitlist(try inventory.waitlistEntry(token: token)), headers: [("Cache-Control", "no-store")])
    }

    func leaveWaitlist(_ token: String) throws -> HTTPResponse {
        .json(200, Self.waitlist(try inventory.leaveWaitlist(token: token)), headers: [("Cache-Control", "no-store")])
    }

    static func waitlist(_ v: Inventory.WaitlistView) -> WaitlistResource {
        WaitlistResource(
            entry: v.entry, show: v.showID, state: v.state.rawValue, position: v.position, price: v.category, zone: v.zone, count: v.count,
            offer: v.offer.map { .init(token: $0.token, expiresAt: Render.iso($0.expiresAt), seats: $0.seatIDs) }, createdAt: Render.iso(v.createdAt))
    }
}
