import SeatDomain
import SeatMap

/// What differs between a store this process owns and one other instances write too, decided once
/// when the inventory is made (`Inventory.mode`, from `store.sharing`): the inventory asks its mode and
/// never which kind of store it has. Immutable; thread-safe as the store is.
protocol StoreMode: Sendable {
    /// The store the app's followers follow (nil: no other instance writes it).
    var shared: (any SharedStore)? { get }
    /// The most changes a writer batch takes, and how long a lane gathers one.
    var batching: (maximum: Int, gatherSeconds: Double) { get }
    /// Other instances' changes come between ours: versions are the database's, a change stays reserved
    /// in memory until the store has it, our commits are placed after the log's, and a store behind
    /// memory (a crash lost its last changes) is moved past them.
    var followsOthers: Bool { get }
    /// `read` of the store, done only when another instance may have changed what it reads (a hold, a
    /// reservation, a show's log): nil when memory is the whole truth.
    func reread<T>(_ read: () throws -> T) rethrows -> T?
    /// See `SharedStore.dueHolds`; none when memory knows every hold.
    func dueHolds(at now: Int64) throws -> [HoldRecord]
    /// See `SharedStore.advanceVersion`; false when the store cannot be behind memory.
    func advanceVersion(show: String, from expected: UInt64, past: UInt64, changes: [SeatChange]) throws -> Bool
}

/// One process owns the store (SQLite): memory is the truth, versions are numbered here, and a commit
/// is a local call, so batches are large and nothing gathers.
struct OwnedStore: StoreMode {
    var shared: (any SharedStore)? { nil }
    var batching: (maximum: Int, gatherSeconds: Double) { (256, 0) }
    var followsOthers: Bool { false }
    func reread<T>(_ read: () throws -> T) rethrows -> T? { nil }
    func dueHolds(at now: Int64) throws -> [HoldRecord] { [] }
    func advanceVersion(show: String, from expected: UInt64, past: UInt64, changes: [SeatChange]) throws -> Bool { false }
}

/// Several instances write the store (PostgreSQL, shards). A commit is a round trip and ~330 µs of the
/// database's CPU, so lanes gather up to 1 ms; PostgreSQL gives each change of a batch replayed change
/// by change a subtransaction, and past 64 in one transaction every session's visibility checks go
/// through pg_subtrans (the "subtransaction overflow" cliff), so batches stay at 48.
struct SharedWithOthers: StoreMode {
    let store: any SharedStore
    var shared: (any SharedStore)? { store }
    var batching: (maximum: Int, gatherSeconds: Double) { (48, 0.001) }
    var followsOthers: Bool { true }
    func reread<T>(_ read: () throws -> T) rethrows -> T? { try read() }
    func dueHolds(at now: Int64) throws -> [HoldRecord] { try store.dueHolds(at: now) }
    func advanceVersion(show: String, from expected: UInt64, past: UInt64, changes: [SeatChange]) throws -> Bool {
        try store.advanceVersion(show: show, from: expected, past: past, changes: changes)
    }
}
