import Foundation
import LoopbackHTTP

/// The #53 venue for the suites: Samples/livehouse.json (two rows, three tables, a standing floor, a
/// box and a lounge), made on a fresh server through the API as an operator would.
extension TestServer {
    /// The repository's Samples/livehouse.json.
    public static let livehouseJSON: [UInt8] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/livehouse.json")
        return [UInt8]((try? Data(contentsOf: url)) ?? Data())
    }()

    /// A server on `backend` with the livehouse and a show of each body (`POST /v1/shows`, venue
    /// `livehouse`); a refusal of either is thrown with the server's words.
    public static func livehouse(_ backend: StoreBackend = .sqlite, shows: [String]) throws -> TestServer {
        let server = try TestServer(backend: backend, seed: false)
        let c = try server.connection()
        let admin = [("X-Admin-Key", adminKey)]
        let venue = try c.request("POST", "/v1/venues", headers: admin, body: livehouseJSON)
        guard venue.status == 201 else { throw HTTPConnection.Failure.malformed("the livehouse was refused: \(venue.text)") }
        for body in shows {
            let show = try c.request("POST", "/v1/shows", json: body, headers: admin)
            guard show.status == 201 else { throw HTTPConnection.Failure.malformed("a show was refused: \(show.text)") }
        }
        return server
    }
}
