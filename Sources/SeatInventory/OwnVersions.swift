import Foundation

/// The versions the store gave this instance's own writes, per show, until the store's notification of
/// them comes back: the follower drops those notifications without taking memory's lock (the writer's
/// completion applies the change). On a hot show every commit's notification came back to its own
/// writer: 3 % of the machine a hold + release in the listening thread, each a turn of memory's lock.
/// Owned by `Inventory.ownVersions`'s lock. Versions are the store's, one writer each, so a version
/// found here is this instance's and nobody else's.
///
/// A commit's notification can be heard before its writer has the versions: the database answers the
/// writer and signals the listeners at the same moment, and in `SeatKitBench shards` 40 % of this
/// instance's notifications reached the follower first, so each was taken for another instance's and
/// applied under memory's lock. So the writer also says which shows it has a batch in the store for
/// (`beginCommit`, `endCommit`, counted per show), and the follower waits for the batches in flight
/// when it heard a payload (`inFlight`, then `isDone`) before it calls that payload another instance's.
struct OwnVersions {
    private var versions: [String: Set<UInt64>] = [:]
    /// A show's batches handed to the store and those whose versions are recorded (a show's batches
    /// are committed one at a time, on its lane, so `ended` reaching a count means those batches are done;
    /// an exchange's second show may also be in a batch of another lane: then at worst a notification is
    /// applied as another instance's, as before). Kept for every show written (two counters a show): the
    /// counts must never go back.
    private var batches: [String: (started: UInt64, ended: UInt64)] = [:]

    /// A notification that never comes (lost in a reconnect, or too long to carry its changes) leaves
    /// its versions behind: a show keeps at most this many, the newest.
    static let limit = 4096

    /// - Complexity: O(1) amortised; O(`limit`) when a show's versions are pruned.
    mutating func insert(_ version: UInt64, show: String) {
        var own = versions.removeValue(forKey: show) ?? []
        own.insert(version)
        if own.count > Self.limit { own = own.filter { $0 + UInt64(Self.limit / 2) > version } }
        versions[show] = own
    }

    /// Whether every change a notification (`show`, then a delta a line) carries is one of this
    /// instance's; if so, those versions are forgotten. A payload it cannot read is never its own.
    /// - Complexity: O(n) in the payload's length.
    mutating func take(notified payload: String) -> Bool {
        var lines = payload.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2 else { return false }
        let show = String(lines.removeFirst())
        guard var own = versions[show] else { return false }
        var found: [UInt64] = []
        for line in lines {
            // `skd1;FROM;TO;changes`: the version is the third field.
            let fields = line.split(separator: ";", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, fields[0] == "skd1", let to = UInt64(fields[2]), own.contains(to) else { return false }
            found.append(to)
        }
        for v in found { own.remove(v) }
        versions[show] = own.isEmpty ? nil : own
        return true
    }

    /// The writer hands a batch of `shows` to the store.
    /// - Complexity: O(`shows`).
    mutating func beginCommit(shows: some Sequence<String>) {
        for show in Set(shows) { batches[show, default: (0, 0)].started += 1 }
    }

    /// The batch's versions are recorded (or it failed): after `insert`, under the same lock.
    /// - Complexity: O(`shows`).
    mutating func endCommit(shows: some Sequence<String>) {
        for show in Set(shows) { batches[show, default: (0, 0)].ended += 1 }
    }

    /// What the follower waits for before it calls `payloads` another instance's: each of their shows'
    /// batches in the store now, by count (`isDone`).
    /// - Complexity: O(`payloads`).
    func inFlight(for payloads: [String]) -> [String: UInt64] {
        var due: [String: UInt64] = [:]
        for payload in payloads {
            let show = String(payload.prefix { $0 != "\n" })
            if let b = batches[show], b.started > b.ended { due[show] = b.started }
        }
        return due
    }

    /// Whether the batches `inFlight` named are all done.
    /// - Complexity: O(`due`).
    func isDone(_ due: [String: UInt64]) -> Bool { due.allSatisfy { (batches[$0.key]?.ended ?? 0) >= $0.value } }

    /// The versions kept for `show` (for tests).
    func kept(show: String) -> Set<UInt64> { versions[show] ?? [] }
}
