import Foundation
import SeatServer
import SeatStorage

/// A baseline for the hold + release row: the real SQLite store for everything but `commit`, which
/// accepts every batch without writing it. The same server on it shows what HTTP, the inventory and
/// the answer-after-commit path can do on this machine before any storage cost.
final class WritesNothingStore: SeatStore, @unchecked Sendable {
    let real: SQLiteStore
    init(path: String) throws { real = try SQLiteStore(path: path) }

    var assignsVersions: Bool { false }
    func commit(batch: [StoreCommit]) throws -> [CommitOutcome] { batch.map { .committed(version: $0.version, delta: $0.delta) } }

    func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws {
        try real.insertVenue(id: id, fingerprint: fingerprint, layoutJSON: layoutJSON)
    }
    func venues() throws -> [(id: String, layoutJSON: [UInt8])] { try real.venues() }
    func insertShow(_ show: ShowRecord) throws { try real.insertShow(show) }
    func shows() throws -> [ShowRecord] { try real.shows() }
    func claims(show: String) throws -> [Claim] { try real.claims(show: show) }
    func activeHolds() throws -> [HoldRecord] { try real.activeHolds() }
    func hold(tokenDigest: String) throws -> HoldRecord? { try real.hold(tokenDigest: tokenDigest) }
    func holdSeats(holdID: String) throws -> [Int] { try real.holdSeats(holdID: holdID) }
    func showVersions() throws -> [String: UInt64] { try real.showVersions() }
    func events(show: String, after version: UInt64, limit: Int) throws -> [(version: UInt64, delta: String)]? {
        try real.events(show: show, after: version, limit: limit)
    }
    func storedResponse(key: String) throws -> StoredResponse? { try real.storedResponse(key: key) }
    func prune(keepVersions: Int, idempotencyMilliseconds: Int64) throws {
        try real.prune(keepVersions: keepVersions, idempotencyMilliseconds: idempotencyMilliseconds)
    }
    func salesHistory(venue: String, since: Date, until: Date) throws -> (shows: Int, soldCounts: [Int: Int]) {
        try real.salesHistory(venue: venue, since: since, until: until)
    }
}
