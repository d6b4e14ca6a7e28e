import Foundation
import SeatHTTP
import SeatJSON
import SeatWire

extension HTTPResponse {
    /// A body of the wire contract (SeatWire) as `application/json`.
    static func json(_ status: Int, _ body: some WireWritable, headers: [(String, String)] = []) -> HTTPResponse {
        var w = JSONWriter()
        body.write(into: &w)
        return .json(status, w, headers: headers)
    }
}
