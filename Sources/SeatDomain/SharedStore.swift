import SeatMap

/// What a store several instances share adds to `SeatStore` (PostgreSQL's): the capabilities the
/// inventory uses only then, behind one protocol, so the domain asks `store.sharing` once instead of
/// branching on the store's kind. Thread-safe as the store is.
public protocol SharedStore: AnyObject, Sendable {
    /// Active holds whose expiry is at or before `time` (Unix milliseconds), whichever instance made them
    /// (one that died leaves its holds to the others).
    func dueHolds(at time: Int64) throws -> [HoldRecord]
    /// For a store that lost its last changes (a database crash drops the acknowledged changes that
    /// were not yet flushed: holds commit without waiting for the disk): when the show is still at
    /// `expected`, moves it past `past` (a version readers may have seen) to `past + 1`, durably, with
    /// `changes` as that version's event and empty events in between, so no version number is ever
    /// reused for different seats. False (nothing written) when the show moved.
    func advanceVersion(show: String, from expected: UInt64, past: UInt64, changes: [SeatChange]) throws -> Bool
    /// A connection of its own that hears the other instances' commits as they happen (this instance's
    /// own are left out: the writer's completion has applied them already).
    func commitListener() throws -> any CommitListener
    /// The parts a follower thread each follows on its own: one database is one part, several shards
    /// are a part each, so a shard that stalls stalls only the following of its own shows.
    func followedParts() -> [any FollowedPart]
}

/// One part of a shared store that one follower thread follows: it hears the part's commits by other
/// instances and compares its shows' versions with memory. Thread-safe as the store is.
public protocol FollowedPart: AnyObject, Sendable {
    /// What the follower's thread is named by (`sk-follow-NAME`; empty: the only part, `sk-follower`).
    var partName: String { get }
    /// A listener of the part's commits by other instances (see `SharedStore.commitListener`).
    func commitListener() throws -> any CommitListener
    /// The version of each show this part keeps (shows it keeps only as a move's copy left out).
    func showVersions() throws -> [String: UInt64]
}

/// Hears a shared store's commits by other instances: each a notification's payload (the show and its
/// versions). Used by one thread (the follower), not shared.
public protocol CommitListener: AnyObject {
    /// The payloads that arrived, waiting up to `milliseconds` for the first; empty when none did.
    func notifications(waiting milliseconds: Int32) throws -> [String]
}
