import Foundation
import LoopbackHTTP
import Logging
import SeatServerTestSupport
import SharedState
import Testing

@testable import SeatKitCLI

/// `seatkit serve`'s log: a line a request, failures with their cause, in text or JSON lines.
@Suite struct LogTests {
    static func server(_ format: LogLineHandler.Format, level: Logger.Level = .info) throws -> (TestServer, Locked<[String]>) {
        let lines = Locked<[String]>([])
        let server = try TestServer { options in
            var logger = Logger(label: "seatkit") { label in LogLineHandler(label: label, format: format, sink: .collecting(into: lines)) }
            logger.logLevel = level
            options.logger = logger
        }
        return (server, lines)
    }

    /// The lines of requests, without the start and stop notices.
    static func requests(_ lines: Locked<[String]>) -> [String] { lines.current.filter { $0.contains(" request ") || $0.contains("\"request\"") } }

    @Test func aLineARequestWithRouteStatusTimeIDAndOperator() throws {
        let (server, lines) = try Self.server(.text)
        let c = try HTTPConnection(host: "127.0.0.1", port: server.port)
        _ = try c.request("GET", "/v1/shows/show/availability")
        _ = try c.request("GET", "/nowhere", headers: [("X-Request-Id", "lb-7f3a.9")])
        _ = try c.request("POST", "/v1/shows/show/holds", json: #"{"seats":["7-1","7-2"]}"#)
        _ = try c.request("GET", "/v1/operators/me", headers: [("X-Admin-Key", TestServer.adminKey)])
        // A request id a client made up with spaces or 200 characters is replaced, not echoed into the log.
        _ = try c.request("GET", "/v1/shows", headers: [("X-Request-Id", String(repeating: "x", count: 200))])
        server.app.stop()
        let got = lines.current
        #expect(got.first?.contains(" notice started port=\(server.port) ") == true, "\(got)")
        #expect(got.last?.hasSuffix(" notice stopped\n") == true)
        let requests = Self.requests(lines)
        #expect(requests.count == 5, "\(got)")
        guard requests.count == 5 else { return }
        #expect(requests[0].contains(" info request route=/v1/shows/{id}/availability method=GET status=200 ms="))
        #expect(requests[1].contains(" route=unmatched method=GET status=404 ") && requests[1].contains(" request=lb-7f3a.9\n"))
        // The hold's line is written when its commit answers, with the route's pattern, never the show's id.
        #expect(requests[2].contains(" route=/v1/shows/{id}/holds method=POST status=201 "), "\(requests[2])")
        #expect(requests[3].contains(" operator=admin") && requests[3].contains("status=200"))
        #expect(!requests[4].contains("xxxx") && requests[4].range(of: #"request=[0-9a-f]{16}\n"#, options: .regularExpression) != nil)
        for line in requests { #expect(line.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z info request "#, options: .regularExpression) != nil) }
    }

    @Test func jsonLinesAreJSONAndKeepNumbersNumbers() throws {
        let (server, lines) = try Self.server(.json)
        let c = try HTTPConnection(host: "127.0.0.1", port: server.port)
        _ = try c.request("GET", "/v1/shows/show")
        _ = try c.request("GET", "/v1/shows/a%22b%0Ac")
        server.app.stop()
        let objects = try Self.requests(lines).map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.count == 2)
        #expect(objects.first?["route"] as? String == "/v1/shows/{id}" && objects.first?["status"] as? Int == 200)
        #expect(objects.first?["ms"] is Double || objects.first?["ms"] is Int)
        #expect(objects.last?["status"] as? Int == 404 && objects.last?["level"] as? String == "info")
    }

    /// A 5xx is logged with its cause (which the client's problem never names) at error level; at
    /// `--log-level error` requests themselves are not.
    @Test func failuresCarryTheirCause() throws {
        let (server, lines) = try Self.server(.text, level: .error)
        server.app.inventory.stop()
        let c = try HTTPConnection(host: "127.0.0.1", port: server.port)
        let r = try c.request("POST", "/v1/shows/show/holds", json: #"{"seats":["7-1"]}"#)
        #expect(r.status == 503)
        server.app.stop()
        let got = lines.current
        #expect(got.count == 1, "\(got)")
        #expect(got.first?.contains(" error request failed route=/v1/shows/{id}/holds method=POST status=503 ") == true, "\(got)")
        #expect(got.first?.contains("cause=") == true)
    }

    /// The timestamp is written by hand (a formatter a line was most of a request's cost): it must say
    /// what ISO 8601 says, leap days, years and milliseconds included.
    @Test func timestampsAreISO8601UTCWithMilliseconds() {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var rng = SystemRandomNumberGenerator()
        let instants =
            [0, 951_782_400_123, 4_107_542_399_999, 1_709_164_800_000, -86_400_001]
            + (0..<20_000).map { _ in Int64.random(in: 0...4_102_444_800_000, using: &rng) }
        for ms in instants {
            let date = Date(timeIntervalSince1970: Double(ms) / 1000)
            #expect(LogLineHandler.timestamp(date) == f.string(from: date), "\(ms)")
        }
    }

    @Test func valuesWithSpacesOrQuotesAreQuoted() {
        let handler = LogLineHandler(label: "t", format: .text, sink: .collecting(into: Locked([])))
        let line = handler.line(
            level: .warning, message: "x", metadata: ["cause": "a \"b\"\nc", "route": "/v1/x", "n": .stringConvertible(3)], date: Date(timeIntervalSince1970: 0)
        )
        #expect(line == #"1970-01-01T00:00:00.000Z warning x route=/v1/x cause="a \"b\"\nc" n=3"#)
        let json = LogLineHandler(label: "t", format: .json, sink: .collecting(into: Locked([])))
        #expect(
            json.line(level: .info, message: "m", metadata: ["cause": "\u{1}"], date: Date(timeIntervalSince1970: 0))
                == #"{"time":"1970-01-01T00:00:00.000Z","level":"info","message":"m","cause":"\u0001"}"#)
    }

    @Test func serveTakesTheLogOptions() {
        #expect(seatkit("serve", "--log-level", "loud").code == 2)
        #expect(seatkit("serve", "--log-format", "xml").code == 2)
        #expect(seatkit("serve", "--help").out.contains("--log-format <text|json>"))
    }
}
