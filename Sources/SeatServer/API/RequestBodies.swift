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
    static func holdRequest(_ request: HTTPRequest) throws(Problem) -> (seats: [String], wheelchair: Bool) {
        try nonEmpty(request)
        let body: HoldRequest
        do { body = try HoldRequest(json: request.body) } catch { throw problem(error) }
        if body.seats.count > 1000 { throw Problem(422, "too-many-seats", "Too many seats", detail: "at most 1000 seats in one request") }
        return (body.seats, body.wheelchair)
    }

    /// `{"add": [...], "remove": [...]}`.
    static func modifyRequest(_ request: HTTPRequest) throws(Problem) -> (add: [String], remove: [String]) {
        try nonEmpty(request)
        let body: ModifyHoldRequest
        do { body = try ModifyHoldRequest(json: request.body) } catch { throw problem(error) }
        if body.add.isEmpty && body.remove.isEmpty { throw Problem(422, "nothing-to-change", "Nothing to change", detail: "give seats to add or remove") }
        return (body.add, body.remove)
    }

    /// `{"orderRef": "A-1001"}`.
    static func confirmRequest(_ request: HTTPRequest) throws(Problem) -> String {
        try nonEmpty(request)
        do { return try ConfirmRequest(json: request.body).orderRef } catch { throw problem(error) }
    }

    /// `{"id","venueId","startsAt","prices":{…},"policy":{…},"holdSeconds"}`.
    static func showRequest(_ request: HTTPRequest) throws(Problem) -> Inventory.NewShow {
        let o = try object(request)
        var log = ProblemLog()
        o.rejectUnknownKeys(["id", "venueId", "startsAt", "prices", "policy", "holdSeconds", "details"], at: "", into: &log)
        let details = o["details"].flatMap { Self.details($0, into: &log) } ?? "{}"
        let id = o.text("id", into: &log)
        let venue = o.text("venueId", into: &log)
        let startsAt = o.text("startsAt", into: &log)
        if let s = startsAt, !isTimestamp(s) { log.add("startsAt", "expected an ISO 8601 time like 2026-12-01T19:30:00+08:00, got \"\(s)\"") }
        let hold = o.integer("holdSeconds", at: "", into: &log, required: false) ?? 600
        if hold < 30 || hold > 3600 { log.add("holdSeconds", "must be 30 to 3600, got \(hold)") }
        if let id, !isIdentifier(id) { log.add("id", "letters, digits, '-', '_' and '.', 1 to 64 of them") }
        var prices: PriceTable?, policy = SelectionPolicy.standard
        if let p = o["prices"] {
            do { prices = try PriceTable(jsonValue: p) } catch { for e in error.problems { log.add("prices." + e.path, e.message) } }
        } else {
            log.add("prices", "missing (expected an object)")
        }
        if let p = o["policy"] {
            do { policy = try SelectionPolicy(jsonValue: p) } catch { for e in error.problems { log.add("policy." + e.path, e.message) } }
        }
        try check(log)
        return Inventory.NewShow(id: id!, venueID: venue!, startsAt: startsAt!, prices: prices!, policy: policy, holdSeconds: hold, detailsJSON: details)
    }

    static func isIdentifier(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64
            && s.utf8.allSatisfy { c in
                (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45 || c == 95 || c == 46
            }
    }

    static func isTimestamp(_ s: String) -> Bool { milliseconds(ofTimestamp: s) != nil }

    /// An ISO 8601 time with its offset (`2026-12-01T19:30:00+08:00`, `….000Z` as the server writes), in Unix milliseconds.
    static func milliseconds(ofTimestamp text: String) -> Int64? { Timestamp.milliseconds(text) }
}
