import Foundation
import LoopbackHTTP
import Logging
import SeatInventory
import SeatJSON
import SeatMap
import SeatSecrets
import SeatServerTestSupport
@testable import SeatStorage
import SharedState
import Testing

/// #54 item 2: names, documents and phones are never in the store or a log in the clear; a manager may
/// reveal one with a reason the show's log keeps; a show's are erased after it; a new key re-seals them.
@Suite(.serialized) struct PersonalDataTests {
    /// Every line the server logs, at the most detailed level.
    final class Lines: LogHandler, @unchecked Sendable {
        // @unchecked: its only mutable state, the lines, is in a Locked.
        let lines = Locked<[String]>([])
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let line = "\(event.level) \(event.message) \(event.metadata.map { "\($0)" } ?? "") \(metadata)"
            lines.withLock { $0.append(line) }
        }
    }

    static let manager = "manager-key-0123456789abcdef"

    static func server(_ backend: StoreBackend, lines: Lines, keys: PersonalDataKeys? = nil) throws -> TestServer {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("operators-\(UUID().uuidString).txt").path
        try ("li boxoffice \(OperatorDirectory.digest(ReservationTests.boxOfficeKey))\n" + "mei manager \(OperatorDirectory.digest(manager))\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return try TestServer(backend: backend) {
            $0.operatorsFile = path
            $0.logger = Logger(label: "seatkit", factory: { _ in lines })
            $0.personalData = keys
        }
    }

    /// Everything the store keeps, as text: a SQLite file with its log, or every row of every table of
    /// the PostgreSQL schema (what a dump holds).
    static func storeText(_ server: TestServer) throws -> String {
        switch server.backend {
        case .sqlite:
            let path = String(server.storeURL.dropFirst("sqlite:".count))
            return [path, path + "-wal"].compactMap { FileManager.default.contents(atPath: $0) }.map { String(decoding: $0, as: UTF8.self) }
                .joined()
        case .postgres:
            let store = try PostgresStore(url: server.storeURL)
            return try store.withConnection { c in
                let tables = try c.run(
                    "tables", "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'", []
                ).rows.compactMap { $0[0] }
                return try tables.map { t in
                    try c.run("dump_" + t, "SELECT coalesce(string_agg(x::text, E'\\n'), '') FROM \(t) x", []).rows.first?[0] ?? ""
                }.joined(separator: "\n")
            }
        }
    }

    @Test(arguments: StoreBackend.available) func nothingPersonalInTheClearInTheStoreOrTheLog(backend: StoreBackend) throws {
        let lines = Lines()
        let server = try Self.server(backend, lines: lines)
        let c = try server.connection()
        try RealNameTests.realNameShow(c)
        let (name, document, phone) = ("欧阳明月", RealNameTests.idCard(77), "13912345678")
        let h = try RealNameTests.hold(c, ["7-1"], [RealNameTests.attendee("7-1", name, document, phone: phone)])
        #expect(h.status == 201, "\(h.text)")
        #expect(try c.request("POST", "/v1/holds/\(try #require(h.string("token")))/confirm", json: #"{"orderRef":"PD-1"}"#).status == 200)
        // A refused document is not logged either.
        var wrong = Array(RealNameTests.idCard(78))
        wrong[17] = wrong[17] == "1" ? "2" : "1"
        #expect(try RealNameTests.hold(c, ["8-1"], [RealNameTests.attendee("8-1", name, String(wrong))]).status == 422)
        // A counter sale's buyer.
        let sale = try c.request(
            "POST", "/v1/shows/show/sales", json: #"{"seats":["5-1"],"orderRef":"PD-2","payment":"cash","buyer":{"name":"司马相如","phone":"13700001111"}}"#,
            headers: ReservationTests.li)
        #expect(sale.status == 201, "\(sale.text)")
        let found = try c.request("GET", "/v1/orders?q=1111", headers: ReservationTests.li)
        #expect(found.text.contains("司马相如"), "the box office still finds and reads it: \(found.text)")
        server.app.stop()
        let text = try Self.storeText(server)
        #expect(text.count > 1000, "the store was read")
        for secret in [name, document, String(wrong), phone, "司马相如", "13700001111"] {
            #expect(!text.contains(secret), "\(secret) is in the store in the clear")
            #expect(!lines.lines.withLock { $0.joined(separator: "\n") }.contains(secret), "\(secret) is in the log")
        }
        #expect(lines.lines.withLock { $0.count } > 3, "the log was written")
    }

    @Test(arguments: StoreBackend.available) func aManagerRevealsWithAReasonAndErasesAfterTheShow(backend: StoreBackend) throws {
        let server = try Self.server(backend, lines: Lines())
        let c = try server.connection()
        try RealNameTests.realNameShow(c)
        let document = RealNameTests.idCard(90)
        let h = try RealNameTests.hold(c, ["7-1"], [RealNameTests.attendee("7-1", "王小明", document, phone: "13800001234")])
        #expect(try c.request("POST", "/v1/holds/\(try #require(h.string("token")))/confirm", json: #"{"orderRef":"RV-1"}"#).status == 200)
        let mgr = [("Authorization", "Bearer \(Self.manager)")]
        let ask = #"{"seat":"7-1","reason":"police request 118"}"#
        #expect(try c.request("POST", "/v1/shows/rn/attendees/reveal", json: ask, headers: ReservationTests.li).status == 403, "managers only")
        #expect(try c.request("POST", "/v1/shows/rn/attendees/reveal", json: ask).status == 401)
        #expect(try c.request("POST", "/v1/shows/rn/attendees/reveal", json: #"{"seat":"7-1"}"#, headers: mgr).status == 422, "a reason is needed")
        let revealed = try c.request("POST", "/v1/shows/rn/attendees/reveal", json: ask, headers: mgr)
        #expect(revealed.status == 200 && revealed.string("idNumber") == document && revealed.string("name") == "王小明", "\(revealed.text)")
        #expect(revealed.string("phone") == "13800001234" && revealed.headers["cache-control"] == "no-store")
        let none = try c.request("POST", "/v1/shows/rn/attendees/reveal", json: #"{"seat":"9-9","reason":"x"}"#, headers: mgr)
        #expect(none.status == 404, "\(none.text)")
        let log = try c.request("GET", "/v1/shows/rn/log", headers: mgr)
        #expect(log.text.contains("reveal") && log.text.contains("mei") && log.text.contains("police request 118"), "\(log.text)")
        // Kept until the show is over; then erased, the sale kept.
        let early = try c.request("DELETE", "/v1/shows/rn/personal-data", headers: mgr)
        #expect(early.status == 409 && early.string("type") == "/problems/show-not-over", "\(early.text)")
        server.app.inventory.clockOffset.advance(by: 200 * 365 * 86_400_000)
        let erased = try c.request("DELETE", "/v1/shows/rn/personal-data", headers: mgr)
        #expect(erased.status == 200 && erased.json?["attendees"]?.intValue == 1, "\(erased.text)")
        #expect(try c.request("POST", "/v1/shows/rn/attendees/reveal", json: ask, headers: mgr).status == 404, "gone")
        #expect(try server.availability("rn").counts.sold == 1, "the sale stays")
        let after = try c.request("GET", "/v1/shows/rn/log", headers: mgr)
        #expect(after.text.contains("erase"), "\(after.text)")
    }

    /// A key rotation: the new key added first in the file, `reseal` run, the old key dropped: every
    /// attendee and contact still opens, none under the old key.
    @Test(arguments: StoreBackend.available) func aNewKeyReSealsEverything(backend: StoreBackend) throws {
        let k1Text = PersonalDataKeys.newFile(sealID: "k1")
        let first = try PersonalDataKeys(file: k1Text, path: "k1")
        let server = try Self.server(backend, lines: Lines(), keys: first)
        let c = try server.connection()
        try RealNameTests.realNameShow(c)
        let h = try RealNameTests.hold(c, ["7-1"], [RealNameTests.attendee("7-1", "王小明", RealNameTests.idCard(91))])
        #expect(h.status == 201)
        #expect(
            try c.request(
                "POST", "/v1/shows/show/sales", json: #"{"seats":["5-1"],"orderRef":"RS-1","payment":"cash","buyer":{"name":"李雷","phone":"13700002222"}}"#,
                headers: ReservationTests.li
            ).status == 201)
        server.app.stop()
        // The file with a new seal key first, the old one kept for reading, the same index key.
        let k2 = PersonalDataKeys.newFile(sealID: "k2").split(separator: "\n").filter { $0.hasPrefix("seal ") }
        let rotated = try PersonalDataKeys(file: k2.joined(separator: "\n") + "\n" + k1Text, path: "rotated")
        let store = try server.openStore()
        let inventory = try Inventory(store: store, personalData: rotated, describeShow: { _ in "" })
        let done = try inventory.resealPersonalData()
        inventory.stop()
        #expect(done == 2, "one attendee, one contact: \(done)")
        let kept =
            try store.claims(show: "rn").compactMap(\.attendee)
            + (try store.personalData!.contacts(after: nil, limit: 10)).flatMap { [$0.name, $0.phone] }
            .compactMap { $0 }
        #expect(kept.count == 3 && kept.allSatisfy { $0.hasPrefix("pd1.k2.") }, "nothing left under the old key: \(kept)")
        // Without the old key every value still opens.
        let k2Only = try PersonalDataKeys(
            file: k2.joined(separator: "\n") + "\n" + k1Text.split(separator: "\n").filter { $0.hasPrefix("index ") }.joined(), path: "new")
        let restarted = try Inventory(store: try server.openStore(), personalData: k2Only, describeShow: { _ in "" })
        let view = try restarted.hold(token: try #require(h.string("token")))
        restarted.stop()
        #expect(view.attendees.first?.name == "王*明", "opened with the new key alone")
    }
}
