import SeatHTTP
import SeatInventory
import SeatSecrets
import SeatWire

/// A real-name show's personal data at the edge: a manager's reveal and erasure (docs/REALNAME.md).
extension SeatAPI {
    func revealAttendee(_ show: String, _ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let body = try RequestBody.decode(r, RevealRequest.init(json:))
        let a = try inventory.revealAttendee(show: show, seat: body.seat, by: who.name, reason: body.reason)
        // Never kept by a cache on the way: the answer is a person's document in the clear.
        return .json(
            200, RevealedAttendeeResource(seat: a.seat, name: a.name, idType: a.idType, idNumber: a.idNumber, phone: a.phone),
            headers: [("Cache-Control", "no-store")])
    }

    func erasePersonalData(_ show: String, by who: Operator) throws -> HTTPResponse {
        let erased = try inventory.erasePersonalData(show: show, by: who.name)
        return .json(200, ErasureResource(show: show, attendees: erased.attendees, contacts: erased.contacts))
    }
}
