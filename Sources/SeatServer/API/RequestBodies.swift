import Foundation
import SeatJSON
import SeatMap
import SeatWire
import SeatHTTP
import SeatInventory

/// Reading request bodies strictly: malformed JSON is a 400 with the line, wrong members a 422 with
/// the path; nothing is applied.
enum RequestBody {
    static func object(_ request: HTTPRequest) throws(Problem) -> JSONObject {
        guard !request.body.isEmpty else { throw Problem.badRequest("the request needs a JSON body") }
        let value: JSONValue
        do { value = try JSONParser.parse(request.body) } catch {
            throw Problem(400, "malformed-json", "Malformed JSON", detail: "body, \(error.description)")
        }
        guard case .object(let o) = value else { throw Problem.badRequest("the body must be a JSON object") }
        return o
    }

    static func check(_ log: ProblemLog) throws(Problem) {
        if !log.isEmpty { throw Refusal.invalid(log.error).problem }
    }

    /// A wire-format problem as the API's answer: 400 for syntax, 422 for content.
    static func problem(_ e: WireError) -> Problem {
        switch e {
        case .malformed(let syntax): return Problem(400, "malformed-json", "Malformed JSON", detail: "body, \(syntax.description)")
        case .notAnObject: return Problem.badRequest("the body must be a JSON object")
        case .invalid(let errors): return Refusal.invalid(errors).problem
        }
    }

    static func nonEmpty(_ request: HTTPRequest) throws(Problem) {
        if request.body.isEmpty { throw Problem.badRequest("the request needs a JSON body") }
    }

    /// `{"seats": ["7-12", …], "wheelchair": false}`.
    static func holdRequest(_ request: HTTPRequest) throws(Problem) -> HoldRequest {
        try nonEmpty(request)
        let body: HoldRequest
        do { body = try HoldRequest(json: request.body) } catch { throw problem(error) }
        if body.seats.count > 1000 { throw Problem(422, "too-many-seats", "Too many seats", detail: "at most 1000 seats in one request") }
        return body
    }

    /// `{"add": [...], "remove": [...]}`.
    static func modifyRequest(_ request: HTTPRequest) throws(Problem) -> (add: [String], remove: [String]) {
        let body = try modifyBody(request)
        if !body.areas.isEmpty {
            throw Problem(422, "no-areas-here", "Places not changed here", detail: "areas: a reservation's places are named, not counted")
        }
        return (body.add, body.remove)
    }

    /// A hold's change: seats to add or remove, and each area's places to have.
    static func modifyBody(_ request: HTTPRequest) throws(Problem) -> ModifyHoldRequest {
        try nonEmpty(request)
        let body: ModifyHoldRequest
        do { body = try ModifyHoldRequest(json: request.body) } catch { throw problem(error) }
        if body.add.isEmpty && body.remove.isEmpty && body.areas.isEmpty {
            throw Problem(422, "nothing-to-change", "Nothing to change", detail: "give seats to add or remove, or an area's places to have")
        }
        return body
    }

    /// `{"orderRef": "A-1001"}`.
    static func confirmRequest(_ request: HTTPRequest) throws(Problem) -> ConfirmRequest {
        try nonEmpty(request)
        do { return try ConfirmRequest(json: request.body) } catch { throw problem(error) }
    }

    /// A body of the wire contract, read by its SeatWire type (every problem with its path).
    static func decode<Body>(_ request: HTTPRequest, _ read: ([UInt8]) throws(WireError) -> Body) throws(Problem) -> Body {
        try nonEmpty(request)
        do { return try read(request.body) } catch { throw problem(error) }
    }

    /// `POST /v1/shows`.
    static func showRequest(_ request: HTTPRequest) throws(Problem) -> Inventory.NewShow {
        let b = try decode(request, ShowRequest.init(json:))
        return Inventory.NewShow(
            id: b.id, venueID: b.venueID, startsAt: b.startsAt, prices: b.prices, policy: b.policy, holdSeconds: b.holdSeconds,
            detailsJSON: b.detailsJSON, shard: b.shard)
    }

    static func isIdentifier(_ s: String) -> Bool { WireIdentifier.isValid(s) }

    /// An ISO 8601 time with its offset (`2026-12-01T19:30:00+08:00`, `….000Z` as the server writes), in Unix milliseconds.
    static func milliseconds(ofTimestamp text: String) -> Int64? { Timestamp.milliseconds(text) }
}
