import Foundation
import LoopbackHTTP
@testable import SeatServer
import SeatServerTestSupport
import Testing
import SeatHTTP

/// The big cacheable answers (venue layouts, seat maps) go gzipped to clients that accept it, and
/// plain to the others, each form with its own strong ETag.
@Suite(.serialized) struct GzipTests {
    @Test func acceptEncodingIsReadWithItsQValues() {
        #expect(Gzip.accepted(by: "gzip, deflate, br"))
        #expect(Gzip.accepted(by: "br;q=1.0, GZIP;q=0.5"))
        #expect(Gzip.accepted(by: "x-gzip"))
        #expect(Gzip.accepted(by: "*"))
        #expect(!Gzip.accepted(by: "gzip;q=0"))
        #expect(!Gzip.accepted(by: "*;q=0.5, gzip;q=0"))
        #expect(!Gzip.accepted(by: "identity") && !Gzip.accepted(by: nil) && !Gzip.accepted(by: ""))
    }

    @Test func compressionRoundTripsAndRefusesWhatIsNotGzip() throws {
        var rng = SystemRandomNumberGenerator()
        for size in [0, 1, 1000, 70_000, 3_000_000] {
            let bytes = (0..<size).map { k in UInt8(truncatingIfNeeded: k % 97 == 0 ? Int(rng.next() as UInt8) : k % 13) }
            let packed = try #require(Gzip.compress(bytes))
            #expect(packed.prefix(2) == [0x1F, 0x8B], "a gzip header")
            #expect(Gzip.decompress(packed) == bytes)
            if size > 1000 { #expect(packed.count < size / 2) }
        }
        #expect(Gzip.decompress(Array("not gzip at all".utf8)) == nil)
        let big = try #require(Gzip.compress([UInt8](repeating: 7, count: 100_000)))
        #expect(Gzip.decompress(big, maximumBytes: 10_000) == nil, "bounded: a small stream may not expand without limit")
        #expect(Gzip.decompress(Array(big.dropLast(10))) == nil, "truncated")
    }

    @Test func venuesAndSeatMapsGoGzippedToClientsThatAcceptIt() throws {
        let server = try TestServer()
        let c = try server.connection()
        for path in ["/v1/venues/cinema-hall-3", "/v1/shows/show/seatmap.svg?lang=en"] {
            let plain = try c.request("GET", path)
            #expect(plain.status == 200 && plain.headers["content-encoding"] == nil && plain.headers["vary"] == "Accept-Encoding")
            let packed = try c.request("GET", path, headers: [("Accept-Encoding", "gzip, deflate")])
            #expect(packed.status == 200 && packed.headers["content-encoding"] == "gzip", "\(path)")
            #expect(packed.body.count * 3 < plain.body.count, "\(path): \(packed.body.count) of \(plain.body.count)")
            #expect(Gzip.decompress(packed.body) == plain.body)
            // Each form has its own strong ETag, and either revalidates.
            let tag = try #require(plain.headers["etag"]), gzTag = try #require(packed.headers["etag"])
            #expect(gzTag == String(tag.dropLast()) + "-gz\"")
            #expect(try c.request("GET", path, headers: [("Accept-Encoding", "gzip"), ("If-None-Match", gzTag)]).status == 304)
            #expect(try c.request("GET", path, headers: [("If-None-Match", tag)]).status == 304)
            #expect(try c.request("GET", path, headers: [("Accept-Encoding", "gzip;q=0")]).headers["content-encoding"] == nil)
        }
    }
}
