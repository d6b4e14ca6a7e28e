import Foundation
import LoopbackHTTP
import SeatMap
@testable import SeatServer
import SeatServerTestSupport
import SharedState
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A server tried as an attacker would try it: broken framing, floods of connections and streams from
/// one address, slow senders, long query strings. Loopback addresses other than 127.0.0.1 stand for
/// other clients (Linux routes all of 127/8 to the loopback interface).
@Suite(.serialized) struct HostileClientTests {
    /// Each is one 400 problem+json and changes nothing (before: the first of two Content-Lengths won
    /// and a hold was created; folding and a missing Host were accepted).
    @Test func brokenFramingIsOne400AndChangesNothing() throws {
        let server = try TestServer()
        let body = #"{"seats":["7-1","7-2"]}"#
        let cases: [(String, String)] = [
            ("two Content-Length", "POST /v1/shows/show/holds HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\nContent-Length: 5\r\n\r\n\(body)"),
            (
                "Content-Length and chunked",
                "POST /v1/shows/show/holds HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\nTransfer-Encoding: chunked\r\n\r\n\(body)"
            ),
            ("folded header", "POST /v1/shows/show/holds HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n b\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"),
            ("folded Content-Length", "POST /v1/shows/show/holds HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n \(body.utf8.count)\r\n\r\n\(body)"),
            ("no Host", "POST /v1/shows/show/holds HTTP/1.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"),
            ("two Host", "POST /v1/shows/show/holds HTTP/1.1\r\nHost: x\r\nHost: y\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"),
            ("gzip transfer coding", "POST /v1/shows/show/holds HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n"),
            // #26 item 7: lines a proxy in front may read otherwise.
            ("bare LF after a header", "POST /v1/shows/show/holds HTTP/1.1\r\nHost: x\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"),
            ("bare LF after the request line", "POST /v1/shows/show/holds HTTP/1.1\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"),
            ("only bare LFs", "POST /v1/shows/show/holds HTTP/1.1\nHost: x\nContent-Length: \(body.utf8.count)\n\n\(body)"),
            ("NUL in a header", "POST /v1/shows/show/holds HTTP/1.1\r\nHost: x\r\nX-Note: a\u{0}b\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"),
        ]
        for (name, raw) in cases {
            let c = try server.connection()
            try c.sendRaw(Array(raw.utf8))
            let r = try c.readResponse(method: "POST")
            #expect(
                r.status == 400 && r.headers["content-type"] == "application/problem+json" && r.string("type") == "/problems/bad-framing",
                "\(name): \(r.status) \(r.text)")
            #expect(r.headers["connection"] == "close", "\(name)")
        }
        #expect(try server.availability().counts.held == 0)
        // A chunked body, well formed or with garbage after its size (libmicrohttpd read "17xyz" as 0x17):
        // 411, send a Content-Length. Nothing is held either way.
        let size = String(body.utf8.count, radix: 16)
        for chunk in ["\(size)", "\(size)xyz", "\(size) ;x"] {
            let c = try server.connection()
            try c.sendRaw(Array("POST /v1/shows/show/holds HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\(chunk)\r\n\(body)\r\n0\r\n\r\n".utf8))
            let r = try c.readResponse(method: "POST")
            #expect(
                r.status == 411 && r.string("type") == "/problems/length-required" && r.headers["content-type"] == "application/problem+json",
                "\(chunk): \(r.status) \(r.text)")
        }
        #expect(try server.availability().counts.held == 0)
        // Well-formed requests still pass, HTTP/1.0 without Host included.
        let c = try server.connection()
        try c.sendRaw(Array("GET /healthz HTTP/1.0\r\n\r\n".utf8))
        #expect(try c.readResponse(method: "GET").status == 200)
        #expect(try hold(try server.connection(), ["7-1", "7-2"], headers: [("X-Note", "a, b"), ("X-Empty", "")]).status == 201)
    }

    /// ~230 query parameters ran the connection's memory pool out: no answer until the 60 s timeout.
    @Test func aLongQueryStringIsAnsweredAtOnce() throws {
        let server = try TestServer()
        let c = try HTTPConnection(port: server.port, timeoutSeconds: 3)
        let query = (0..<230).map { "p\($0)=1" }.joined(separator: "&")
        let start = Date()
        let r = try c.request("GET", "/v1/shows/show/availability?" + query)
        #expect(r.status == 414 && r.string("type") == "/problems/query-too-long", "\(r.status) \(r.text)")
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(try server.connection().request("GET", "/v1/shows/show/availability?since=0&x=1").status == 200)
    }

    /// 4,200 slow connections from one address left 0 of 5 holds answered and /healthz timing out.
    @Test func aConnectionFloodFromOneAddressLeavesOthersServed() throws {
        let server = try TestServer {
            $0.connectionsPerAddress = 32; $0.trustedAddresses = ["127.0.0.4"]
        }
        var flood: [HTTPConnection] = []
        for _ in 0..<300 {
            guard let c = try? HTTPConnection(port: server.port, timeoutSeconds: 2, source: "127.0.0.2") else { continue }
            try? c.sendRaw(Array("GET /healthz HTTP/1.1\r\nHo".utf8))  // headers that never finish
            flood.append(c)
        }
        Thread.sleep(forTimeInterval: 0.3)
        var answered = 0
        for k in 0..<5 where try hold(try server.connection(), ["\(k + 1)-1", "\(k + 1)-2"]).status == 201 { answered += 1 }
        #expect(answered == 5)
        #expect(try server.connection().request("GET", "/healthz").status == 200)
        let metrics = try server.connection().request("GET", "/metrics").text
        #expect(metrics.contains("seatkit_refused_connections "), "\(metrics)")
        // The flood's 32 plus, at most, the 7 this test opened itself (5 holds, /healthz, /metrics): a closed
        // one may still count until the server reads its end (CI once saw 36 against a bound of 35). Without
        // the per-address budget the flood alone would hold 300.
        #expect(Self.gauge(metrics, "open_request_connections") <= 32 + 7, "at most the per-address budget from the flood")
        // A trusted proxy's address is exempt: 100 connections from it all work.
        var proxied: [HTTPConnection] = []
        for _ in 0..<100 { proxied.append(try HTTPConnection(port: server.port, source: "127.0.0.4")) }
        for c in proxied.suffix(3) { #expect(try c.request("GET", "/healthz").status == 200) }
        withExtendedLifetime(flood) {}
    }

    /// Event streams have their own budget: viewers cannot take the connections buyers need.
    @Test func eventStreamsAreOnTheirOwnBudget() throws {
        let server = try TestServer {
            $0.streamsPerAddress = 20; $0.maximumStreams = 50; $0.connectionsPerAddress = 8; $0.heartbeatSeconds = 60
        }
        var streams: [HTTPConnection] = []
        var refused = 0
        for k in 0..<60 {
            let c = try HTTPConnection(port: server.port, source: "127.0.0.\(10 + k / 20)")
            let status = try c.openEvents("/v1/shows/show/events")
            if status == 200 { streams.append(c) } else { refused += 1; #expect(status == 503) }
        }
        #expect(streams.count == 50 && refused == 10, "\(streams.count) streams, \(refused) refused")
        // Twenty streams from 127.0.0.10 and still a buyer there holds (the streams left its request budget).
        #expect(try hold(try HTTPConnection(port: server.port, source: "127.0.0.10"), ["7-1", "7-2"]).status == 201)
        // A 21st stream from one address is refused even with room left in all.
        streams.removeLast(5)
        // Until the server has seen those five go (it counts the streams it holds open).
        let gone = Date().addingTimeInterval(5)
        while server.app.inventory.subscriberCount > 45 && Date() < gone { Thread.sleep(forTimeInterval: 0.01) }
        #expect(try HTTPConnection(port: server.port, source: "127.0.0.10").openEvents("/v1/shows/show/events") == 503)
        #expect(try HTTPConnection(port: server.port, source: "127.0.0.30").openEvents("/v1/shows/show/events") == 200)
    }

    /// A viewer who closes the tab frees its slot at once (before: ~29 s, until a heartbeat failed).
    @Test func aClosedSubscriberIsFreedAtOnce() throws {
        let server = try TestServer { $0.heartbeatSeconds = 60 }
        do {
            let c = try server.connection()
            #expect(try c.openEvents("/v1/shows/show/events") == 200)
            let subscribed = Date().addingTimeInterval(5)
            while server.app.inventory.subscriberCount == 0 && Date() < subscribed { Thread.sleep(forTimeInterval: 0.01) }
            #expect(server.app.inventory.subscriberCount == 1)
        }  // the socket closes here
        let start = Date()
        while server.app.inventory.subscriberCount > 0 && Date().timeIntervalSince(start) < 5 { Thread.sleep(forTimeInterval: 0.05) }
        #expect(server.app.inventory.subscriberCount == 0)
        #expect(Date().timeIntervalSince(start) < 1.5, "freed after \(Date().timeIntervalSince(start)) s")
    }

    /// An event stream's socket is the server's own after its head (libmicrohttpd lets go of it): the
    /// head is a proper HTTP/1.1 answer (dated, chunked), an HTTP/1.0 client gets a body that ends
    /// with the connection, a viewer who hangs up is counted and freed at once, and stopping the server
    /// ends the chunked body cleanly.
    @Test func aStreamsSocketIsTheServersOwnAfterItsHead() throws {
        let server = try TestServer { $0.heartbeatSeconds = 60 }
        func read(_ c: HTTPConnection, until marker: String) -> String {
            var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
            let deadline = Date().addingTimeInterval(5)
            while !String(decoding: bytes, as: UTF8.self).contains(marker) && Date() < deadline {
                let n = chunk.withUnsafeMutableBytes { recv(c.socketDescriptor, $0.baseAddress, 4096, 0) }
                if n <= 0 { break }
                bytes += chunk[0..<n]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        func hangUps() throws -> String {
            try server.connection().request("GET", "/metrics").text.split(separator: "\n").first { $0.hasPrefix("seatkit_event_stream_hangups ") }.map(
                String.init) ?? "none"
        }
        let current = try server.connection()
        try current.sendRaw(Array("GET /v1/shows/show/events HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        let head = read(current, until: "event: snapshot")
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.contains("\r\nDate: ") && head.contains("\r\nContent-Type: text/event-stream\r\n") && head.contains("\r\nTransfer-Encoding: chunked\r\n"))
        let old = try server.connection()
        try old.sendRaw(Array("GET /v1/shows/show/events HTTP/1.0\r\n\r\n".utf8))
        let oldHead = read(old, until: "event: snapshot")
        #expect(oldHead.contains("\r\nConnection: close\r\n\r\nretry: 2000\n\n") && !oldHead.contains("chunked"))
        #expect(try hangUps() == "seatkit_event_stream_hangups 0.0")
        // The HTTP/1.0 viewer hangs up: counted and freed without waiting for a heartbeat.
        shutdown(old.socketDescriptor, Int32(SHUT_RDWR))
        let start = Date()
        while server.app.inventory.subscriberCount > 1 && Date().timeIntervalSince(start) < 5 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(server.app.inventory.subscriberCount == 1)
        #expect(try hangUps() == "seatkit_event_stream_hangups 1.0")
        // A change reaches the other viewer; stopping ends its body with the last chunk.
        #expect(try hold(server.connection(), ["2-1", "2-2"]).status == 201)
        #expect(read(current, until: "event: seats").contains("id: 1\nevent: seats"))
        server.app.stop()
        #expect(read(current, until: "0\r\n\r\n").hasSuffix("0\r\n\r\n"))
    }

    /// A sender that trickles its headers is cut off at the header deadline, though it never goes idle.
    @Test func aSlowSenderIsCutOffAtTheHeaderDeadline() throws {
        let server = try TestServer { $0.headerTimeoutSeconds = 1 }
        let c = try HTTPConnection(port: server.port, timeoutSeconds: 1)
        let start = Date()
        var closedAfter: Double?
        for byte in Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 40) {
            do { try c.sendRaw([byte]) } catch { closedAfter = Date().timeIntervalSince(start); break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(closedAfter != nil && closedAfter! < 3, "closed after \(closedAfter ?? -1) s")
        #expect(try server.connection().request("GET", "/healthz").status == 200)
    }

    /// A delta spanning many versions is a merge of that many events: limited per client address (a
    /// client looping on old versions took a quarter of the hold throughput); short ones never are.
    @Test func bigDeltasAreRateLimitedPerClient() throws {
        let server = try TestServer()
        let c = try server.connection()
        for _ in 0..<40 {
            let token = try #require(try hold(c, ["7-1", "7-2"]).string("token"))
            #expect(try c.request("DELETE", "/v1/holds/\(token)").status == 204)
        }
        let far = try HTTPConnection(port: server.port, source: "127.0.0.7")
        let burst = try (0..<20).map { _ in try far.request("GET", "/v1/shows/show/availability?since=0").status }
        #expect(burst.allSatisfy { $0 == 200 }, "\(burst)")
        // Past its burst a client looping as fast as it is answered gets ~10 answers a second: each 429
        // is sent after the wait it names (the tarpit), instead of at once (20 answers in ~20 ms before).
        let start = Date()
        let after = try (0..<20).map { _ in try far.request("GET", "/v1/shows/show/availability?since=0") }
        let elapsed = Date().timeIntervalSince(start)
        let limited = after.filter { $0.status == 429 }
        #expect(limited.count >= 9 && after.filter { $0.status == 200 }.count + limited.count == 20, "\(after.map(\.status))")
        #expect(elapsed >= 0.8, "20 requests past the burst answered in \(elapsed) s")
        #expect(limited.allSatisfy { $0.headers["retry-after"] == "1" && $0.headers["content-type"] == "application/problem+json" })
        let near = try (0..<40).map { _ in try far.request("GET", "/v1/shows/show/availability?since=70").status }
        #expect(near.allSatisfy { $0 == 200 }, "\(near)")
        #expect(try HTTPConnection(port: server.port, source: "127.0.0.8").request("GET", "/v1/shows/show/availability?since=0").status == 200)
    }

    /// A rate-limited answer waiting in the tarpit is sent when the server stops, not lost with it (and
    /// not completed on a stopped transport).
    @Test func stoppingSendsTheAnswersWaitingInTheTarpit() throws {
        let server = try TestServer(holdsPerSecond: 0.2)
        #expect(try hold(try server.connection(), ["7-1"]).status == 201)
        let answer = Locked<(status: Int, after: Double)?>(nil)
        let start = Date()
        let port = server.port
        let waiting = Thread {
            let status = (try? hold(try HTTPConnection(port: port), ["8-1"]).status) ?? -1
            answer.withLock { $0 = (status, Date().timeIntervalSince(start)) }
        }
        waiting.start()
        while server.app.api.tarpit.count == 0 && Date().timeIntervalSince(start) < 2 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(server.app.api.tarpit.count == 1 && answer.current == nil, "the 429 waits (up to 1 s)")
        server.app.stop()
        while answer.current == nil && Date().timeIntervalSince(start) < 3 { Thread.sleep(forTimeInterval: 0.01) }
        let got = try #require(answer.current)
        #expect(got.status == 429 && got.after < 0.9, "\(got.status) after \(got.after) s")
    }

    /// Behind a trusted balancer the client is the address it forwards: rate limits apply per buyer.
    /// From anyone else, `X-Forwarded-For` is ignored (it cannot buy a fresh budget).
    @Test func behindATrustedProxyTheForwardedAddressIsTheClient() throws {
        let server = try TestServer(holdsPerSecond: 1)
        let proxy = try server.connection()
        // Rows 1 to 7 have at least 8 seats: seats 1-2 of row k + 1 are a pair nobody else holds.
        func holdVia(_ c: HTTPConnection, _ k: Int, as client: String) throws -> Int {
            try hold(c, ["\(1 + k)-1", "\(1 + k)-2"], headers: [("X-Forwarded-For", client)]).status
        }
        let first = try (0..<3).map { try holdVia(proxy, $0, as: "198.51.100.7, 203.0.113.5") }
        #expect(first == [201, 201, 429], "\(first)")
        #expect(try holdVia(proxy, 3, as: "203.0.113.6") == 201)
        let untrusted = try HTTPConnection(port: server.port, source: "127.0.0.9")
        let spoofed = try (4..<7).map { try holdVia(untrusted, $0, as: "203.0.113.\($0 + 10)") }
        #expect(spoofed == [201, 201, 429], "\(spoofed)")
    }

    static func gauge(_ metrics: String, _ name: String) -> Double {
        for line in metrics.split(separator: "\n") where line.hasPrefix("seatkit_\(name) ") {
            return Double(line.split(separator: " ").last ?? "") ?? -1
        }
        return -1
    }
}
