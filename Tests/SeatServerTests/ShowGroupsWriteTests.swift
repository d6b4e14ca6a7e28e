import Foundation
import SeatDomain
import SeatMap
import SeatSamples
import SeatServerTestSupport
import Testing

@testable import SeatStorage

/// Migration 15 writes a batch in show order a show at a time; a batch in any other order takes
/// migration 14's statements. Both must write and refuse the same: the same batch of three shows, in
/// show order on one store and out of it on another, leaves the same claims, holds, log, versions and
/// notifications, and a refusal in either refuses the whole batch and writes nothing.
// Skipped (not passed) without PostgreSQL; with SEATKIT_REQUIRE_POSTGRES=1 and none, it runs and fails.
@Suite(.serialized, .enabled(if: StoreBackend.available.contains(.postgres))) struct ShowGroupsWriteTests {
    let layout = SampleVenues.cinemaHall()
    let shows = ["s", "t", "u"]

    func fresh() throws -> (PostgresStore, TestDirectory) {
        let dir = try TestDirectory()
        let store = try PostgresStore(url: StoreBackend.postgres.freshStore(in: dir.url))
        try store.insertVenue(id: layout.id, fingerprint: layout.fingerprintHex, layoutJSON: layout.jsonBytes())
        for show in shows {
            try store.insertShow(
                ShowRecord(
                    id: show, venueID: layout.id, startsAt: "2026-11-01T19:30:00+08:00", pricesJSON: "{}", policyJSON: "{}", holdSeconds: 600, version: 0))
        }
        return (store, dir)
    }

    func hold(_ id: String, _ show: String, _ state: HoldState = .active) -> HoldRecord {
        HoldRecord(
            id: id, tokenDigest: "tok-" + id, showID: show, state: state, expiresAt: 1_000, extended: false, orderRef: state == .confirmed ? "o-" + id : nil,
            wheelchair: false, createdAt: 1)
    }

    func change(_ h: HoldRecord, claim: [Int] = [], free: [Int] = [], sell: [Int] = []) -> StoreCommit {
        let changes =
            free.map { SeatChange(seat: $0, status: .available) } + claim.map { SeatChange(seat: $0, status: .held) }
            + sell.map { SeatChange(seat: $0, status: .sold) }
        return StoreCommit(
            showID: h.showID, version: 0, changes: changes, insert: claim.map { Claim(seat: $0, status: .held, holdID: h.id) }, delete: free, sell: sell,
            holds: [h], delta: "", durable: !sell.isEmpty, idempotency: nil, log: LogEntry(action: "change", holdID: h.id))
    }

    /// `batch` sent as it is (the instance sorts it first; this does not): each change's version, or the
    /// refusal's SQLSTATE.
    func write(_ store: PostgresStore, _ batch: [StoreCommit]) throws -> Result<[Int64], PostgresError> {
        let columns = PostgresStore.BatchColumns(batch, bodies: batch.map(PostgresStore.deltaBody), now: 5)
        do {
            let cell = try store.withConnection {
                try $0.run("write_arrays", PostgresStore.BatchColumns.call, values: [.text("f")] + columns.parameters.map(PostgresParameter.array)).rows
                    .first?[0]
            }
            return .success(try #require(cell.flatMap(PostgresStore.bigintArray)))
        } catch let error as PostgresError { return .failure(error) }
    }

    /// Everything the batches leave: claims, holds, log and versions of every show, in a fixed order.
    func state(_ store: PostgresStore) throws -> [String] {
        var out: [String] = []
        for show in shows {
            out += try store.claims(show: show).map { "\(show) claim \($0.seat) \($0.status.name) \($0.holdID ?? "-")" }.sorted()
            out += try store.log(show: show, after: 0, limit: 50).map { "\(show) log \($0.version) \($0.entry.action) \($0.entry.holdID ?? "-") \($0.delta)" }
            out.append("\(show) version \(try store.showVersions()[show] ?? 0)")
        }
        for id in ["a", "b", "c", "d", "e"] {
            out.append("hold \(id) " + ((try store.holdWithSeats(id: id)).map { "\($0.record.state.rawValue) \($0.record.orderRef ?? "-")" } ?? "none"))
        }
        return out
    }

    /// The notifications heard so far, a show's lines each.
    func heard(_ listener: PostgresConnection, count: Int) throws -> [String] {
        var out: [String] = []
        let deadline = Date().addingTimeInterval(5)
        while out.count < count && Date() < deadline { out += try listener.notifications(waiting: 200) }
        out += try listener.notifications(waiting: 100)
        return out.sorted()
    }

    @Test func aBatchOfSeveralShowsIsWrittenTheSameInShowOrderAndOutOfIt() throws {
        let (sorted, dirA) = try fresh()
        let (unsorted, dirB) = try fresh()
        defer {
            dirA.remove()
            dirB.remove()
        }
        let listeners = (try sorted.listeningConnection(), try unsorted.listeningConnection())
        // The first batch holds seats on three shows; the second frees, sells and holds again.
        let first = [
            change(hold("a", "s"), claim: [1, 2]), change(hold("e", "s"), claim: [7]), change(hold("b", "t"), claim: [3]),
            change(hold("c", "u"), claim: [4, 5]),
        ]
        let second = [
            change(hold("a", "s", .released), free: [1, 2]), change(hold("d", "s"), claim: [1, 6]), change(hold("b", "t", .confirmed), sell: [3]),
            change(hold("c", "u", .released), free: [4, 5]),
        ]
        // Out of show order: u first, then s, then t (each show's changes still in their order).
        func shuffled(_ batch: [StoreCommit]) -> [StoreCommit] {
            batch.filter { $0.showID == "u" } + batch.filter { $0.showID == "s" } + batch.filter { $0.showID == "t" }
        }
        for batch in [first, second] {
            let a = try write(sorted, batch).get(), b = try write(unsorted, shuffled(batch)).get()
            let byChange = Dictionary(uniqueKeysWithValues: zip(shuffled(batch).map { $0.holds[0].id + $0.log.action }, b))
            #expect(a == batch.map { byChange[$0.holds[0].id + $0.log.action] ?? -1 })
            let notices = (try heard(listeners.0, count: 3), try heard(listeners.1, count: 3))
            #expect(notices.0.count == 3 && notices.0 == notices.1, "\(notices)")
        }
        #expect(try state(sorted) == state(unsorted))
        #expect(
            try state(sorted).filter { $0.contains("claim") || $0.contains("version") } == [
                "s claim 1 held d", "s claim 6 held d", "s claim 7 held e", "s version 4", "t claim 3 sold b", "t version 2", "u version 2",
            ])
        #expect(try sorted.log(show: "s", after: 0, limit: 9).map(\.delta) == ["skd1;0;1;1h,2h", "skd1;1;2;7h", "skd1;2;3;1a,2a", "skd1;3;4;1h,6h"])

        // A refusal in any show refuses the whole batch, in either order: nothing of it is written.
        let before = (try state(sorted), try state(unsorted))
        let refused: [(String, [StoreCommit])] = [
            ("a seat held on the last show", [change(hold("f", "s"), claim: [8]), change(hold("g", "u"), claim: [9]), change(hold("h", "u"), claim: [9])]),
            ("a seat freed by a hold that has none", [change(hold("f", "s"), claim: [8]), change(hold("e", "t", .released), free: [7])]),
            ("a sale of a seat no longer held", [change(hold("f", "s"), claim: [8]), change(hold("d", "s", .confirmed), sell: [1, 2])]),
            ("a hold that ends keeping a seat", [change(hold("e", "s", .released)), change(hold("g", "u"), claim: [9])]),
            ("a show that is not there", [change(hold("f", "s"), claim: [8]), change(hold("g", "nowhere"), claim: [1])]),
        ]
        for (what, batch) in refused {
            // In show order, and in reverse show order (each show's changes still in their order).
            let order = batch.indices.sorted { (batch[$0].showID, $0) < (batch[$1].showID, $1) }.map { batch[$0] }
            let reverse = batch.indices.sorted { (batch[$1].showID, $0) < (batch[$0].showID, $1) }.map { batch[$0] }
            for (store, order) in [(sorted, order), (unsorted, reverse)] {
                guard case .failure(let error) = try write(store, order) else {
                    Issue.record("\(what) was written")
                    continue
                }
                #expect(["SK001", "23505", "23503"].contains(error.sqlState), "\(what): \(error)")
            }
            #expect(try state(sorted) == before.0 && state(unsorted) == before.1, "\(what)")
        }
        #expect(try heard(listeners.0, count: 0).isEmpty && heard(listeners.1, count: 0).isEmpty)
    }
}
