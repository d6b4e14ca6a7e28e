import Foundation
import SeatDomain
import SeatServer
import SeatStorage

/// A baseline for the hold + release row: the real SQLite store for everything but `commit`, which
/// accepts every batch without writing it. The same server on it shows what HTTP, the inventory and
/// the answer-after-commit path can do on this machine before any storage cost. `@unchecked`: a
/// subclass of an open class, unchecked for the reason `ForwardingStore` gives; it adds no state.
final class WritesNothingStore: ForwardingStore, @unchecked Sendable {
    init(path: String) throws { super.init(base: try SQLiteStore(path: path)) }

    override var sharing: (any SharedStore)? { nil }
    override func commit(batch: [StoreCommit]) throws -> [CommitOutcome] { batch.map { .committed(version: $0.version, delta: $0.delta) } }
}
