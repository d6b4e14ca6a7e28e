import Foundation
import SeatDomain
import SeatSecrets
import SeatServer
import SeatServerTestSupport
import SeatStorage
import Testing

/// Operators kept in the store (#56): the operators file imported once, then the store the truth; a
/// key disabled in the store refused on every instance within a second; rows written in any order
/// ending with the newest revision; one key, one operator.
@Suite struct StaffStoreTests {
    static let clerkKey = "clerk-key-0123456789abcdef"

    /// An operators file naming the clerk with `role`.
    static func operatorsFile(_ directory: URL, role: String) throws -> String {
        let path = directory.appendingPathComponent("operators-\(role).txt").path
        try (OperatorDirectory.line(name: "clerk", role: OperatorRole(rawValue: role)!, key: clerkKey) + "\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func who(_ server: TestServer, key: String) throws -> (status: Int, role: String?) {
        let r = try server.connection().request("GET", "/v1/operators/me", headers: [("X-Admin-Key", key)])
        return (r.status, r.json?["role"]?.stringValue)
    }

    @Test(arguments: StoreBackend.available) func theOperatorsFileIsImportedOnceThenTheStoreDecides(backend: StoreBackend) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-staff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let first = try Self.operatorsFile(scratch, role: "boxoffice")
        let server = try TestServer(backend: backend, seed: false) { $0.operatorsFile = first }
        #expect(try Self.who(server, key: Self.clerkKey) == (200, "boxoffice"))
        let store = try #require(try server.openStore().staff)
        let kept = try #require(try store.allStaff().first { $0.name == "clerk" })
        #expect(kept.role == "boxoffice" && kept.cinemas == nil && kept.changedBy == "import" && kept.state == .active)
        #expect(kept.keyDigest == OperatorDirectory.digest(Self.clerkKey))
        #expect(try store.staffLog(limit: 10).map(\.action) == ["operator-imported"])
        // The file changed later (the clerk made a manager there) is not imported again: the store decides.
        let second = try Self.operatorsFile(scratch, role: "manager")
        let again = try TestServer(backend: backend, seed: false, storeURL: server.storeURL) { $0.operatorsFile = second }
        #expect(try Self.who(again, key: Self.clerkKey) == (200, "boxoffice"))
        #expect(try store.staffLog(limit: 10).count == 1)
        // Without any file, the stored clerk still signs in (the file was an upgrade's, not the truth).
        let bare = try TestServer(backend: backend, seed: false, storeURL: server.storeURL)
        #expect(try Self.who(bare, key: Self.clerkKey) == (200, "boxoffice"))
    }

    /// A key disabled by a write to the store (what another instance's change is) stops opening anything
    /// on two running instances within a second; enabled again, it works again.
    @Test(arguments: StoreBackend.available) func aKeyDisabledInTheStoreIsRefusedEverywhereWithinASecond(backend: StoreBackend) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-staff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = try Self.operatorsFile(scratch, role: "boxoffice")
        let a = try TestServer(backend: backend, seed: false) { $0.operatorsFile = file }
        let b = try TestServer(backend: backend, seed: false, storeURL: a.storeURL)
        for s in [a, b] { #expect(try Self.who(s, key: Self.clerkKey).status == 200) }
        let store = try #require(try a.openStore().staff)
        var clerk = try #require(try store.allStaff().first { $0.name == "clerk" })
        clerk.state = .disabled
        clerk.revision += 1
        clerk.changedBy = "admin"
        let started = Date()
        #expect(try store.saveStaff(clerk))
        func refusedEverywhere() throws -> Bool { try [a, b].allSatisfy { try Self.who($0, key: Self.clerkKey).status == 401 } }
        while try !refusedEverywhere() && Date().timeIntervalSince(started) < 3 { Thread.sleep(forTimeInterval: 0.02) }
        let took = Date().timeIntervalSince(started)
        print("StaffStoreTests[\(backend)]: a disabled key refused on both instances after \(Int(took * 1000)) ms")
        #expect(took < 1)
        // The admin key is never the store's to revoke.
        #expect(try Self.who(a, key: TestServer.adminKey) == (200, "manager"))
        clerk.state = .active
        clerk.revision += 1
        #expect(try store.saveStaff(clerk))
        Thread.sleep(forTimeInterval: 0.6)
        for s in [a, b] { #expect(try Self.who(s, key: Self.clerkKey) == (200, "boxoffice")) }
    }

    /// Two instances' writes arriving in either order end with the newer; an older one changes nothing.
    /// Two operators cannot share a key.
    @Test(arguments: StoreBackend.available) func theNewerRevisionWinsAndAKeyIsOneOperators(backend: StoreBackend) throws {
        let server = try TestServer(backend: backend, seed: false)
        let store = try #require(try server.openStore().staff)
        let base = StaffRecord(
            name: "mei", role: "boxoffice", cinemas: ["c_north"], keyDigest: OperatorDirectory.digest("mei-key-0123456789abcdef"), state: .active,
            revision: 100, createdAt: 100, changedBy: "admin")
        #expect(try store.saveStaff(base))
        var newer = base
        newer.role = "manager"; newer.cinemas = ["c_north", "c_south"]; newer.revision = 200
        var older = base
        older.role = "door"; older.revision = 150
        #expect(try store.saveStaff(newer))
        #expect(try !store.saveStaff(older))
        #expect(try store.allStaff() == [newer])
        #expect(try store.staffRevision() == 200)
        var thief = base
        thief.name = "lei"
        #expect(throws: (any Error).self) { try store.saveStaff(thief) }
        #expect(try store.allStaff().map(\.name) == ["mei"])
        // Every cinema is kept as `*` and read back as nil; a deleted operator keeps no key.
        var gone = newer
        gone.cinemas = nil; gone.state = .deleted; gone.keyDigest = nil; gone.revision = 300
        #expect(try store.saveStaff(gone))
        #expect(try store.allStaff() == [gone])
        let north = CinemaRecord(id: "c_north", name: "北城影城", venues: ["cinema-hall-3", "imax-1"], revision: 10, createdAt: 10)
        #expect(try store.saveCinema(north))
        var renamed = north
        renamed.name = "North"; renamed.revision = 5
        #expect(try !store.saveCinema(renamed))
        #expect(try store.cinemas() == [north])
        #expect(try store.staffRevision() == 300)
        try store.appendStaffLog(StaffLogLine(at: 1, operatorName: "admin", action: "cinema-created", subject: "c_north", detail: "北城影城"))
        try store.appendStaffLog(StaffLogLine(at: 2, operatorName: "admin", action: "operator-created", subject: "mei", detail: "boxoffice"))
        #expect(try store.staffLog(limit: 1).map(\.subject) == ["mei"])
    }
}
