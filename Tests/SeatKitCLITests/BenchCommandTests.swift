import Foundation
import SeatKitCLI
import SeatServerTestSupport
import Testing

/// `seatkit bench` against a real server: holds and releases on seats no two connections share, within
/// the show's rules; clear failures for a show that does not exist or has started, and for bad options.
@Suite(.serialized) struct BenchCommandTests {
    @Test func benchHoldsAndReleasesWithinTheRulesAndLeavesNothingHeld() throws {
        let server = try TestServer()
        let url = "http://127.0.0.1:\(server.port)"
        let (code, output) = SeatKitTool.run(["bench", "--server", url, "--show", "show", "--connections", "4", "--seconds", "0.5"])
        #expect(code == 0, "\(output.out)\(output.err)")
        let text = output.out
        #expect(text.contains("4 connections for") && text.contains("show show (172 seats;"))
        let holds = try #require(text.firstMatch(of: /holds: (\d+) \(/).flatMap { Int($0.1) })
        #expect(holds > 20)
        #expect(text.contains("releases: \(holds);") && text.contains("0 by the rules") && text.contains("errors: 0"))
        #expect(text.contains("seats of this run still held: 0"))
        #expect(try server.availability().counts.held == 0)
        #expect(server.app.inventory.metrics.value("rule_violations") == 0)
    }

    @Test func benchSaysWhatIsWrong() throws {
        let server = try TestServer(holdsPerSecond: 5)
        let url = "http://127.0.0.1:\(server.port)"
        let missing = SeatKitTool.run(["bench", "--server", url, "--show", "nope", "--seconds", "0.2"])
        #expect(missing.code == 3 && missing.output.err.contains("show nope: 404"), "\(missing.output.err)")
        #expect(SeatKitTool.run(["bench", "--server", url, "--show", "show", "--connections", "0"]).code == 2)
        #expect(SeatKitTool.run(["bench", "--server", "ftp://x", "--show", "show"]).code == 2)
        #expect(SeatKitTool.run(["bench", "--server", url, "--show", "show", "--seconds", "-1"]).code == 2)
        // The server's rate limit is reported with what to do about it.
        let limited = SeatKitTool.run(["bench", "--server", url, "--show", "show", "--connections", "2", "--seconds", "0.5"])
        #expect(limited.output.out.contains("rate-limited (start the server with --holds-per-second 0"), "\(limited.output.out)")
        // A show that has started: sales are closed, nothing to measure.
        let admin = [("X-Admin-Key", TestServer.adminKey)]
        let past = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
        #expect(
            try server.connection().request(
                "POST", "/v1/shows",
                json:
                    "{\"id\":\"gone\",\"venueId\":\"cinema-hall-3\",\"startsAt\":\"\(past)\",\"prices\":{\"categories\":{\"standard\":\"1\",\"vip\":\"1\",\"couple\":\"1\"}}}",
                headers: admin
            ).status == 201)
        let gone = SeatKitTool.run(["bench", "--server", url, "--show", "gone", "--seconds", "0.2"])
        #expect(gone.code == 3 && gone.output.err.contains("has started"), "\(gone.output.err)")
    }
}

@Suite struct ServeCommandTests {
    /// `--admin-key ""` (an unset `$KEY` in a deploy script) is a usage error, before any store is opened.
    @Test func anEmptyAdminKeyIsAUsageError() {
        let (code, output) = SeatKitTool.run(["serve", "--port", "0", "--store", "sqlite:/nonexistent/x.db", "--admin-key", ""])
        #expect(code == 2 && output.err.contains("admin key is empty"), "\(output.err)")
        let (short, shortOutput) = SeatKitTool.run(["serve", "--port", "0", "--store", "sqlite:/nonexistent/x.db", "--admin-key", "fifteen-chars!!"])
        #expect(short == 2 && shortOutput.err.contains("at least 16"), "\(shortOutput.err)")
        let (proxy, proxyOutput) = SeatKitTool.run(["serve", "--port", "0", "--trusted-proxies", "10.0.0.1,lb.example", "--admin-key", "sixteen-chars-ok"])
        #expect(proxy == 2 && proxyOutput.err.contains("\"lb.example\" is not an IPv4 or IPv6 address"), "\(proxyOutput.err)")
    }
}
