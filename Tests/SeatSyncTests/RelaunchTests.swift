import Foundation
import SeatMap
import SeatSamples
import SeatServerTestSupport
import SeatSync
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Sessions that survive real life: a killed app's hold is found by its next launch (a real second
/// process, `seatkit buyer`), and a map opens offline from the cache, marked stale, and catches up by a delta.
@Suite(.serialized, .timeLimit(.minutes(1))) struct RelaunchTests {
    static var binary: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("seatkit") }
    let hall = SampleVenues.cinemaHall()

    func temporaryDirectory() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-cache-\(UUID().uuidString)") }

    /// Starts `seatkit buyer …`; returns the process and its standard output.
    func buyer(_ server: TestServer, cache: URL, _ args: [String]) throws -> (Process, Pipe) {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = ["buyer", "--server", "http://127.0.0.1:\(server.port)", "--show", "show", "--cache", cache.path] + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        return (p, out)
    }

    func finished(_ server: TestServer, cache: URL, _ args: [String]) throws -> (code: Int32, text: String) {
        let (p, out) = try buyer(server, cache: cache, args)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func aKilledAppsHoldIsFoundAndConfirmedByItsNextLaunch() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build seatkit first (swift build)")
        let server = try TestServer()
        let cache = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        // The first launch holds two seats and keeps running until it is killed: no chance to save at exit.
        let (first, out) = try buyer(server, cache: cache, ["hold", "7-1", "7-2", "--stay"])
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains("\n") && Date() < deadline { text += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self) }
        #expect(text.hasPrefix("held 7-1, 7-2"), "\(text)")
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(try server.availability()[hall.index(ofSeatID: "7-1")!] == .held)
        // The next launch finds the hold in the cache and buys it.
        let second = try finished(server, cache: cache, ["confirm", "ORDER-RELAUNCH"])
        #expect(second.code == 0 && second.text.hasPrefix("sold 7-1, 7-2"), "\(second.text)")
        #expect(try server.availability()[hall.index(ofSeatID: "7-2")!] == .sold)
        // A sold hold is forgotten: the one after that has none.
        let third = try finished(server, cache: cache, ["status"])
        #expect(third.code == 0 && third.text.contains("no hold"), "\(third.text)")
    }

    @Test func offlineTheMapOpensFromTheCacheMarkedStaleAndCatchesUp() async throws {
        let server = try TestServer()
        let cache = try DirectoryCache(directory: temporaryDirectory())
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let api = { SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, cache: cache) }
        #expect(try hold(try server.connection(), ["5-1", "5-2"]).status == 201)
        let online = try await SeatSession(api: api(), show: "show")
        let seen = await online.state.server
        #expect(await !online.state.isStale && seen[hall.index(ofSeatID: "5-1")!] == .held)
        // Another buyer holds seats the cache never saw; then the network goes: a new session (a
        // relaunched app) opens with what the cache kept, marked stale.
        #expect(try hold(try server.connection(), ["4-1", "4-2"]).status == 201)
        server.app.stop()
        let offline = try await SeatSession(api: api(), show: "show")
        let s = await offline.state
        #expect(s.isStale && s.server.version == seen.version && s.server[hall.index(ofSeatID: "5-1")!] == .held)
        // A session with no cache cannot open at all.
        await #expect(throws: APIError.self) {
            _ = try await SeatSession(api: SeatAPIClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!), show: "show")
        }
        // The network returns with changes made meanwhile: the next refresh catches up and clears the mark.
        try server.restart()
        #expect(try hold(try server.connection(), ["6-1", "6-2"]).status == 201)
        await offline.refresh()
        await offline.settle()
        let caught = await offline.state, now = try server.availability().version
        #expect(!caught.isStale && caught.server[hall.index(ofSeatID: "6-1")!] == .held && caught.server.version == now)
        #expect(caught.server[hall.index(ofSeatID: "4-1")!] == .held)
        // By a delta (from the show's log: the restarted server's memory has only the last change), not the whole state.
        #expect(server.app.inventory.metrics.value("deltas_from_store") == 1)
    }
}
