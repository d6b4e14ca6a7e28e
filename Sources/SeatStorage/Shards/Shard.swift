import Foundation
import SeatDomain
import SharedState

/// One shard: its name, its database, and whether it answers. The database is opened on first reach,
/// so an instance started while a shard is down serves the others and opens it when it returns.
/// A call that finds the database unreachable marks the shard down: until a probe reaches it again
/// (`probe`, the shard's listening thread, every 250 ms), calls on it fail at once instead of each
/// waiting for a connection to time out: its shows answer 503 in microseconds, the others never wait.
/// Lock: `state` (a leaf; the database is called outside it).
final class Shard: Sendable {
    let name: String
    let url: String
    let index: Int

    private struct State {
        var store: PostgresStore?
        var outage: ShardOutage?
    }

    private let state: Locked<State>
    /// Told when the shard goes down or comes back (the server logs it), called outside the lock.
    let watcher: ShardWatcher

    init(name: String, url: String, index: Int, watcher: ShardWatcher = ShardWatcher()) {
        self.name = name; self.url = Self.withConnectTimeout(url); self.index = index; self.watcher = watcher
        state = Locked(State(outage: ShardOutage(shard: name, since: Self.now(), cause: Self.notReached)))
    }

    /// A shard that stops answering in the middle of a connect (a machine gone, not a refused port)
    /// is given up after 3 s, not libpq's default of waiting for ever.
    static func withConnectTimeout(_ url: String) -> String {
        guard !url.contains("connect_timeout=") else { return url }
        return url + (url.contains("?") ? "&" : "?") + "connect_timeout=3"
    }

    static let notReached = "not reached yet"

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    var outage: ShardOutage? { state.withLock { $0.outage } }

    /// The database, or `StoreError.unavailable` at once while the shard is down.
    func store() throws -> PostgresStore {
        let (store, outage) = state.withLock { ($0.store, $0.outage) }
        if let outage { throw StoreError.unavailable(cause: "shard \(name) cannot be reached since \(outage.since) ms: \(outage.cause)") }
        guard let store else { throw StoreError.unavailable(cause: "shard \(name) is not open") }
        return store
    }

    /// `body` on the shard's database; a failure to reach it marks the shard down. Only that: a
    /// refusal in the domain's words (a move of a show on sale) or a statement's own error leaves it up
    /// (a CI run marked a shard down because a move was refused, and its shows answered 503). The
    /// failure leaves tagged with this shard (`ShardFailure`), so a call of another shard it passes
    /// through (a move's source, around the target's write) does not take it for its own.
    func run<T>(_ body: (PostgresStore) throws -> T) throws -> T {
        let store = try store()
        do { return try body(store) } catch let e as PostgresError where e.meansTheDatabaseIsGone {
            markDown(StoreError(e).description)
            throw ShardFailure(shard: name, underlying: e)
        }
    }

    func markDown(_ cause: String) {
        let went: ShardOutage? = state.withLock { s in
            guard s.outage == nil else { return nil }
            s.outage = ShardOutage(shard: name, since: Self.now(), cause: cause)
            return s.outage
        }
        if let went { watcher.tell(name, went) }
    }

    /// Reaches the database (opening and migrating it the first time, and checking it is this shard's:
    /// `ShardIdentityError` when it says it is another's). True when it answers; the shard is up then.
    @discardableResult
    func probe() throws -> Bool {
        do {
            if let store = state.withLock({ $0.store }) {
                try store.ping()
            } else {
                let store = try PostgresStore(url: url)
                try store.claimShardName(name)
                state.withLock { $0.store = store }
            }
        } catch let e as ShardIdentityError {
            markDown(e.description)
            throw e
        } catch {
            markDown(String(describing: StoreError(error)))
            return false
        }
        let was = state.withLock { s in
            defer { s.outage = nil }
            return s.outage
        }
        // Back after a real outage (not its first opening).
        if let was, was.cause != Self.notReached { watcher.tell(name, nil) }
        return true
    }
}

/// A database that says it is another shard (two URLs swapped in the list): identifiers route by the
/// shard's name, so the deployment refuses to start rather than look for records in the wrong place.
public struct ShardIdentityError: Error, CustomStringConvertible, Sendable {
    public var listedAs: String
    public var databaseSays: String
    public var url: String
    public var description: String {
        "the database listed as shard \(listedAs) (\(ShardList.redacted(url))) is shard \(databaseSays): its records' identifiers name it so; list it as \(databaseSays)"
    }
}

/// A shard's database that could not be reached during a call: which shard, and the database's error.
/// In the domain's words it is the store being unavailable, as the error it carries.
public struct ShardFailure: Error, StoreErrorConvertible, CustomStringConvertible {
    public var shard: String
    public var underlying: PostgresError
    public var storeError: StoreError { underlying.storeError }
    public var description: String { "shard \(shard): \(underlying)" }
}

/// Who is told when a shard goes down (with why) or comes back (nil), and of each interrupted move
/// repaired (in words; those found before anyone watches, at start, are kept until someone does).
/// Locks: `callback`, `repairs` (leaves; the callbacks run after they are released).
public final class ShardWatcher: Sendable {
    private let callback = Locked<(@Sendable (String, ShardOutage?) -> Void)?>(nil)
    private struct Repairs {
        var pending: [String] = []
        var body: (@Sendable (String) -> Void)?
    }
    private let repairs = Locked(Repairs())
    public init() {}
    public func watch(_ body: @escaping @Sendable (String, ShardOutage?) -> Void) { callback.withLock { $0 = body } }
    func tell(_ shard: String, _ outage: ShardOutage?) { callback.withLock { $0 }?(shard, outage) }

    /// `body` told of every repair from now on, after those already made.
    public func watchRepairs(_ body: @escaping @Sendable (String) -> Void) {
        let pending = repairs.withLock { r in
            defer { (r.body, r.pending) = (body, []) }
            return r.pending
        }
        for text in pending { body(text) }
    }

    func tellRepair(_ text: String) {
        let body = repairs.withLock { r in
            if r.body == nil { r.pending.append(text) }
            return r.body
        }
        body?(text)
    }
}
