#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SharedState

/// Group commit for SQLite's write-ahead log: a confirmation commits without an fsync of its own, then
/// waits here until the log is on disk. The first waiter syncs for everyone who committed before it
/// started; those who arrive meanwhile share the next sync. One fsync serves a whole group.
/// Lock: `state` (a leaf; the fsync runs outside it, on the descriptor read under it).
final class WALSyncer: Sendable {
    private struct State {
        var requested: UInt64 = 0
        var synced: UInt64 = 0
        var syncing = false
        var syncCount = 0
        /// The log, opened by the first sync and kept (-1 until then).
        var fd: Int32 = -1
    }

    private let state = Locked(State())
    private let path: String

    init(walPath: String) { path = walPath }

    deinit {
        let fd = state.withLock { $0.fd }
        if fd >= 0 { close(fd) }
    }

    /// fsyncs issued so far.
    var syncCount: Int { state.withLock { $0.syncCount } }

    /// Returns once everything committed before the call is on disk.
    func waitUntilDurable() throws {
        let ticket = state.withLock { s in
            s.requested += 1
            return s.requested
        }
        while true {
            // Synced past our ticket: done. Nobody syncing: we sync for everyone who asked so far.
            let taken: (target: UInt64, fd: Int32)? = state.wait(until: { $0.synced >= ticket || !$0.syncing }) { s, _ in
                if s.synced >= ticket { return nil }
                s.syncing = true
                s.syncCount += 1
                // Opened under the lock, once; the fsync itself runs outside it.
                if s.fd < 0 { s.fd = open(path, O_RDWR | O_CLOEXEC) }
                return (s.requested, s.fd)
            }
            guard let (target, fd) = taken else { return }
            let ok = fd >= 0 && fdatasync(fd) == 0
            state.withLockWakingWaiters { s in
                s.syncing = false
                if ok { s.synced = max(s.synced, target) }
            }
            if !ok { throw DatabaseError(code: 10, message: "fsync of \(path) failed (errno \(errno))") }
        }
    }
}
