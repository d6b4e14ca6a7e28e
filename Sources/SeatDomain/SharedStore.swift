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
}

/// Hears a shared store's commits by other instances: each a notification's payload (the show and its
/// versions). Used by one thread (the follower), not shared.
public protocol CommitListener: AnyObject {
    /// The payloads that arrived, waiting up to `milliseconds` for the first; empty when none did.
    func notifications(waiting milliseconds: Int32) throws -> [String]
}
