import SeatHTTP
import SeatInventory
import SeatJSON
import SeatSecrets
import SeatWire

/// Partners' allocations (`docs/API.md`, Channels): a manager gives a partner seats and standing places;
/// the partner holds them with `Seat-Channel: KEY` on the buyers' hold API, which the public cannot.
extension SeatAPI {
    func createChannel(_ show: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator) throws -> HTTPResponse {
        let b = try RequestBody.decode(r, ChannelRequest.init(json:))
        let new = Inventory.NewChannel(
            name: b.name, seatIDs: b.seats, places: b.areas.map { ($0.area, $0.count) }, releaseAt: b.releaseAt, prices: b.prices)
        let (view, key, ticket) = try inventory.beginCreateChannel(show: show, new, by: who.name)
        return afterCommit(ticket, trace: trace) {
            var resource = Render.channel(view)
            resource.key = key
            return .json(201, resource)
        }
    }

    func listChannels(_ show: String, by who: Operator) throws -> HTTPResponse {
        .json(200, try inventory.channels(show: show).map(Render.channel))
    }

    /// `DELETE /v1/channels/{id}`: what the channel still has returns to the public sale now.
    func releaseChannel(_ id: String, trace: RequestTrace, by who: Operator) throws -> HTTPResponse {
        _ = try inventory.channel(id: id)
        return afterCommit(try inventory.beginReleaseReservation(id: id, by: who.name), trace: trace) { .empty(204) }
    }

    /// `POST /v1/channels/{id}/seats {"add":[…],"remove":[…]}`: seats moved into or out of the channel, live.
    func modifyChannel(_ id: String, _ r: HTTPRequest, trace: RequestTrace, by who: Operator) throws -> HTTPResponse {
        _ = try inventory.channel(id: id)
        let (add, remove) = try RequestBody.modifyRequest(r)
        let (_, ticket) = try inventory.beginModifyReservation(id: id, add: add, remove: remove, by: who.name)
        // Every seat removed ends the channel: nothing left to show.
        return afterCommit(ticket, trace: trace) { [inventory] in
            (try? inventory.channel(id: id)).map { .json(200, Render.channel($0)) } ?? .empty(204)
        }
    }

    /// `POST /v1/shows/{id}/holds` with `Seat-Channel`: the partner's hold, from its channel.
    func createChannelHold(_ show: String, key: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        let body = try RequestBody.holdRequest(r)
        let (view, ticket) = try inventory.beginCreateChannelHold(
            show: show, key: key, seatIDs: body.seats, places: body.areas.map { ($0.area, $0.count) }, wheelchair: body.wheelchair)
        return afterCommit(ticket, trace: trace) { Self.render(.done(view), created: true) }
    }
}

extension Render {
    static func channel(_ v: Inventory.ChannelView) -> ChannelResource {
        ChannelResource(
            id: v.id, showID: v.showID, name: v.name, seats: v.seatIDs, held: v.held, releaseAt: v.releaseAt.map(iso), operatorName: v.operatorName,
            createdAt: iso(v.createdAt), prices: v.prices.mapValues(\.description))
    }
}
