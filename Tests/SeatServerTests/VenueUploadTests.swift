import Foundation
import LoopbackHTTP
import SeatHTTP
import SeatMap
import SeatSamples
import SeatServerTestSupport
import Testing

/// Big venues over the API: an admin may upload up to 64 MiB, plain or gzip; everyone else keeps the
/// 1 MiB limit; a format without an id must be named.
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite(.serialized) struct VenueUploadTests {
    static let admin = [("X-Admin-Key", TestServer.adminKey), ("Content-Type", "application/json")]

    @Test func theTwentyThousandSeatSampleAndAHundredThousandArenaUploadPlainAndGzipped() throws {
        let server = try TestServer(seed: false)
        // Reading and checking a 5.5 MB layout takes the debug build ~5 s, more beside the other suites.
        let c = try HTTPConnection(port: server.port, timeoutSeconds: 120)
        let sample = try [UInt8](Data(contentsOf: repositoryRoot.appendingPathComponent("Samples/arena-20k.json")))
        #expect(sample.count > 1 << 20, "the sample is over the plain limit")
        let plain = try c.request("POST", "/v1/venues", headers: Self.admin, body: sample)
        #expect(plain.status == 201, "\(plain.status) \(plain.text.prefix(200))")

        let arena = SampleVenues.arena(seats: 100_000)
        let big = arena.jsonBytes()
        #expect(big.count > 5 << 20)
        let gzipped = try #require(Gzip.compress(big))
        let zipped = try c.request("POST", "/v1/venues", headers: Self.admin + [("Content-Encoding", "gzip")], body: gzipped)
        #expect(zipped.status == 201, "\(zipped.status) \(zipped.text.prefix(200))")
        #expect(zipped.string("id") == arena.id && zipped.json?["seats"]?.intValue == arena.seatCount)
        let back = try c.request("GET", "/v1/venues/\(arena.id)")
        let layout = try VenueLayout(json: back.body)
        #expect(back.status == 200 && layout.fingerprint == arena.fingerprint)
    }

    @Test func withoutTheKeyTheLimitStaysAndBadEncodingsAreSaid() throws {
        let server = try TestServer(seed: false)
        let sample = try [UInt8](Data(contentsOf: repositoryRoot.appendingPathComponent("Samples/arena-20k.json")))
        let anonymous = try server.connection().request("POST", "/v1/venues", headers: [("Content-Type", "application/json")], body: sample)
        #expect(anonymous.status == 413 && anonymous.headers["content-type"] == "application/problem+json")
        let notGzip = try server.connection().request("POST", "/v1/venues", headers: Self.admin + [("Content-Encoding", "gzip")], body: Array("{}".utf8))
        #expect(notGzip.status == 400 && notGzip.string("type") == "/problems/bad-content-encoding")
        let brotli = try server.connection().request("POST", "/v1/venues", headers: Self.admin + [("Content-Encoding", "br")], body: Array("{}".utf8))
        #expect(brotli.status == 415 && brotli.string("type") == "/problems/unsupported-content-encoding")
        // A gzip bomb: small on the wire, past the limit inflated.
        let bomb = try #require(Gzip.compress([UInt8](repeating: 0x20, count: 65 << 20)))
        #expect(bomb.count < 1 << 20)
        let refused = try server.connection().request("POST", "/v1/venues", headers: Self.admin + [("Content-Encoding", "gzip")], body: bomb)
        #expect(refused.status == 400 && refused.string("detail")?.contains("once inflated") == true)
    }

    /// A format that carries no id (a Maoyan-style capture) is a 422 saying how to name it, not venue
    /// "venue" (whose second upload was a confusing 409).
    @Test func anUploadWithoutAnIdMustBeNamed() throws {
        let server = try TestServer(seed: false)
        let c = try server.connection()
        let capture = try [UInt8](Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/SeatMapTests/Fixtures/cinema-grid/maoyan-hall-3.json")))
        let unnamed = try c.request("POST", "/v1/venues", headers: Self.admin, body: capture)
        #expect(unnamed.status == 422 && unnamed.string("type") == "/problems/venue-id-missing" && unnamed.string("detail")?.contains("?id=") == true)
        let named = try c.request("POST", "/v1/venues?id=maoyan-3", headers: Self.admin, body: capture)
        #expect(named.status == 201 && named.string("id") == "maoyan-3" && named.json?["seats"]?.intValue == 76)
        // The same id again: a 409 that says why in plain words (it once read "m.venues are immutable").
        let again = try c.request("POST", "/v1/venues?id=maoyan-3", headers: Self.admin, body: capture)
        #expect(again.status == 409 && again.string("type") == "/problems/venue-exists")
        #expect(again.string("detail") == "venue maoyan-3 already exists; venues are immutable, create one with a new id")
    }

    /// Reseller seat lists upload as they come: a top-level array named by `?id=`, a wrapped list with
    /// its own hall number.
    @Test func resellerSeatListsUpload() throws {
        let server = try TestServer(seed: false)
        let c = try server.connection()
        func fixture(_ name: String) throws -> [UInt8] {
            try [UInt8](Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/SeatMapTests/Fixtures/reseller/\(name)")))
        }
        let array = try c.request("POST", "/v1/venues?id=platform-2", headers: Self.admin, body: fixture("platform-hall-2.json"))
        #expect(array.status == 201 && array.string("id") == "platform-2" && array.json?["seats"]?.intValue == 39)
        let wrapped = try c.request("POST", "/v1/venues?format=reseller", headers: Self.admin, body: fixture("reseller-hall-6.json"))
        #expect(wrapped.status == 201 && wrapped.string("id") == "6" && wrapped.json?["seats"]?.intValue == 63)
    }
}
