import Foundation
import SeatServerTestSupport
import Testing

@testable import SeatKitCLI

/// `seatkit block` and `seatkit report` against a real server, with the key from a file.
@Suite struct BoxOfficeCommandTests {
    /// A real server, a file holding its admin key, and its URL.
    static func serverAndKeyFile() throws -> (TestServer, String, String) {
        let server = try TestServer()
        let keyFile = temporaryDirectory().appendingPathComponent("key").path
        try "\(TestServer.adminKey)\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        return (server, keyFile, "http://127.0.0.1:\(server.port)")
    }

    @Test func blockThenReport() throws {
        let (server, keyFile, url) = try Self.serverAndKeyFile()
        let blocked = seatkit("block", "--server", url, "--show", "show", "--seats", "7-1,7-2", "--reason", "broken seats", "--key-file", keyFile)
        #expect(blocked.code == 0 && blocked.out.hasPrefix("blocked: 7-1, 7-2 as r_") && blocked.out.contains("(version 1)"), "\(blocked)")
        let house = seatkit(
            "block", "--server", url, "--show", "show", "--seats", "8-1", "--reason", "guest", "--house", "--release-at", "30 minutes before start",
            "--key-file", keyFile)
        #expect(house.code == 0 && house.out.hasPrefix("kept for the house: 8-1 as r_") && house.out.contains("back on sale at "), "\(house)")
        let report = seatkit("report", "--server", url, "--show", "show", "--key-file", keyFile)
        #expect(report.code == 0, "\(report)")
        #expect(report.out.contains("available \(172 - 3), held 0, sold 0, blocked 3") && report.out.contains("revenue CNY 0.00 net"), "\(report.out)")
        let csv = seatkit("report", "--server", url, "--show", "show", "--csv", "--key-file", keyFile)
        #expect(csv.code == 0 && csv.out.hasPrefix("seat,row,zone,category,status,price,orderRef,channel,payment\r\n"))
        #expect(csv.out.components(separatedBy: ",blocked,").count - 1 == 3)
        // A seat someone has, a wrong key, no key: precise errors, nothing changed.
        let taken = seatkit("block", "--server", url, "--show", "show", "--seats", "7-1", "--reason", "x", "--key-file", keyFile)
        #expect(taken.code == 1 && taken.err.contains("the server answered 409") && taken.err.contains("7-1"), "\(taken)")
        let wrongFile = temporaryDirectory().appendingPathComponent("wrong").path
        try "not-a-known-key-0123456789".write(toFile: wrongFile, atomically: true, encoding: .utf8)
        let wrong = seatkit("report", "--server", url, "--show", "show", "--key-file", wrongFile)
        #expect(wrong.code == 1 && wrong.err.contains("401"))
        if ProcessInfo.processInfo.environment["SEATKIT_OPERATOR_KEY"] == nil {
            let none = seatkit("report", "--server", url, "--show", "show")
            #expect(none.code == 2 && none.err.contains("SEATKIT_OPERATOR_KEY"))
        }
        withExtendedLifetime(server) {}  // the server answers until here
    }

    /// `seatkit queue`: a room set up, looked at and switched off on a real server; bad settings named.
    @Test func queueSetUpLookedAtAndSwitchedOff() throws {
        let (server, keyFile, url) = try Self.serverAndKeyFile()
        let base = ["queue", "--server", url, "--show", "show", "--key-file", keyFile]
        let set = seatkit(base + ["--opens-at", "in 10 minutes", "--admit-per-minute", "600", "--max-per-address", "4"])
        #expect(set.code == 0 && set.out.hasPrefix("waiting room of show: before, opens ") && set.out.contains("600 a minute"), "\(set)")
        #expect(set.out.contains("4 places an address") && set.out.contains("shuffle seed commitment "), "\(set)")
        let joined = try server.connection().request("POST", "/v1/shows/show/queue")
        #expect(joined.status == 201)
        let look = seatkit(base)
        #expect(look.code == 0 && look.out.contains("waiting 1, let in 0"), "\(look)")
        let bad = seatkit(base + ["--opens-at", "tomorrow", "--admit-per-minute", "600"])
        #expect(bad.code == 2 && bad.err.contains("--opens-at"), "\(bad)")
        let range = seatkit(base + ["--opens-at", "now", "--admit-per-minute", "0"])
        #expect(range.code == 1 && range.err.contains("422") && range.err.contains("admitPerMinute"), "\(range)")
        // The fair room's settings: a proof of work, a draw, a fan club lane (all kept by an update that names them).
        let fair = seatkit(
            base + [
                "--opens-at", "in 10 minutes", "--admit-per-minute", "600", "--proof-of-work-bits", "16", "--draw-at", "in 5 minutes",
                "--draw-winners", "100", "--lane", "fanclub:70",
            ])
        #expect(fair.code == 0 && fair.out.contains("proof of work: 16 bits a join") && fair.out.contains("draw of 100 at "), "\(fair)")
        #expect(fair.out.contains("lane fanclub (70 %): waiting 0, let in 0"), "\(fair)")
        let badLane = seatkit(base + ["--opens-at", "now", "--admit-per-minute", "600", "--lane", "fanclub"])
        #expect(badLane.code == 2 && badLane.err.contains("--lane is NAME:SHARE"), "\(badLane)")
        let halfDraw = seatkit(base + ["--opens-at", "in 10 minutes", "--admit-per-minute", "600", "--draw-at", "in 5 minutes"])
        #expect(halfDraw.code == 2 && halfDraw.err.contains("--draw-winners"), "\(halfDraw)")
        let off = seatkit(base + ["--off"])
        #expect(off.code == 0 && off.out.hasPrefix("waiting room of show: off"), "\(off)")
        #expect(try hold(server.connection(), ["5-1"]).status == 201, "holds need no admission once it is off")
    }

    /// `seatkit rush` through a room asking a proof of work: every buyer solves its challenge (as a native
    /// app does, no browser) and joins.
    @Test func rushSolvesTheRoomsProofOfWork() throws {
        let (server, keyFile, url) = try Self.serverAndKeyFile()
        let set = seatkit([
            "queue", "--server", url, "--show", "show", "--key-file", keyFile, "--opens-at", "now", "--admit-per-minute", "600",
            "--proof-of-work-bits", "10",
        ])
        #expect(set.code == 0 && set.out.contains("proof of work: 10 bits a join"), "\(set)")
        let rush = seatkit([
            "rush", "--server", url, "--show", "show", "--buyers", "12", "--arrive-over", "1", "--poll-every", "1", "--workers", "4", "--limit", "60",
            "--key-file", keyFile, "--seed", "3",
        ])
        #expect(rush.code == 0 && rush.out.contains("sold twice 0"), "\(rush)")
        let room = try server.connection().request("GET", "/v1/shows/show/queue", headers: [("X-Admin-Key", TestServer.adminKey)])
        let joined = (room.jsonObject?["length"]?.intValue ?? 0) + (room.jsonObject?["admitted"]?.intValue ?? 0)
        #expect(joined == 12, "every buyer solved and joined: \(room.text)")
    }

    /// `seatkit rush` through a real room: every buyer joins, is let in and mostly buys; the report's checks
    /// hold (no seat sold twice, every bought seat sold on the server) and its figures are the run's.
    @Test func rushThroughARoom() throws {
        let (server, keyFile, url) = try Self.serverAndKeyFile()
        let set = seatkit(["queue", "--server", url, "--show", "show", "--key-file", keyFile, "--opens-at", "now", "--admit-per-minute", "600"])
        #expect(set.code == 0, "\(set)")
        let rush = seatkit([
            "rush", "--server", url, "--show", "show", "--buyers", "24", "--arrive-over", "2", "--poll-every", "1", "--workers", "4", "--limit", "60",
            "--key-file", keyFile, "--seed", "7",
        ])
        #expect(rush.code == 0, "\(rush)")
        #expect(rush.out.hasPrefix("rush against \(url) show show: 24 buyers arriving over 2 s (seed 7)"), "\(rush.out)")
        #expect(rush.out.contains("sold twice 0, bought but not sold on the server 0") && !rush.out.contains("MISMATCH"), "\(rush.out)")
        #expect(rush.out.contains("fairness, after opening: 0 of "), "\(rush.out)")
        let bought = try #require(rush.out.firstMatch(of: /outcomes: bought (\d+)/).flatMap { Int($0.1) })
        let sold = try server.availability().counts.sold
        #expect(bought > 0 && rush.out.contains("the server sold \(sold) during the run"), "\(rush.out)")
        let bad = seatkit(["rush", "--server", url, "--show", "show", "--buyers", "0"])
        #expect(bad.code == 2 && bad.err.contains("--buyers"), "\(bad)")
    }
}
