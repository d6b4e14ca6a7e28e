import Foundation
import LoopbackHTTP
import SeatMap

extension HTTPConnection {
    /// As the test server's operator: `layout` as a venue, then show `id` of it on 1 December 2099 at
    /// 20:00 (+08:00) priced `prices` (category → yuan), with `policy` (a JSON object) when given. The
    /// status of each answer, in order (201 and 201 when both were made).
    public func addShow(_ id: String, of layout: VenueLayout, prices: KeyValuePairs<String, String>, policy: String? = nil) throws -> [Int] {
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let venue = try request("POST", "/v1/venues", headers: admin, body: layout.jsonBytes())
        let categories = prices.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",")
        let show = try request(
            "POST", "/v1/shows",
            json: #"{"id":"\#(id)","venueId":"\#(layout.id)","startsAt":"2099-12-01T20:00:00+08:00","prices":{"categories":{\#(categories)}}"#
                + (policy.map { #","policy":"# + $0 } ?? "") + "}",
            headers: admin)
        return [venue.status, show.status]
    }
}
