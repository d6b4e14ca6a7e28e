import Foundation
import SeatWire

/// The buyer's tickets and the door's scans (#30), for an app's receipt and a scanner on a phone.
extension SeatAPIClient {
    /// The tickets of a confirmed hold, by its token: each seat's code for its QR
    /// (`ticketPicture(code:)` draws it).
    public func tickets(token: String) async throws(APIError) -> TicketsResource {
        let answer = try await send("GET", "/v1/holds/\(token)/tickets")
        do { return try TicketsResource(json: answer.body) } catch { throw .unexpected(status: answer.status, detail: error.description) }
    }

    /// Where the ticket's QR code is drawn (SVG; `.png` for printers).
    public func ticketPicture(code: String, png: Bool = false) -> URL? {
        URL(string: "/v1/tickets/\(code).\(png ? "png" : "svg")", relativeTo: baseURL)
    }

    /// A scan at the door with a door operator's `key`: green (`ok`) or red and why. A retry of a scan
    /// whose answer was lost must send the same `nonce` (it then counts once).
    public func checkIn(_ scan: CheckInRequest, key: String) async throws(APIError) -> CheckInResult {
        let answer = try await send("POST", "/v1/checkin", body: scan.jsonBytes(), headers: ["Authorization": "Bearer \(key)"])
        do { return try CheckInResult(json: answer.body) } catch { throw .unexpected(status: answer.status, detail: error.description) }
    }
}
