#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SharedState

/// Group commit for SQLite's write-ahead log: a confirmation commits without an fsync of its own, then
/// waits here until the log is on disk. The first waiter syncs for everyone who committed before it
/// started; those who arrive meanwhile share the next sync. One fsync serves a whole group.
/// Lock: `state` (a leaf; the fsync runs outside it). `fd` belongs to the thread that set `syncing`.
final class WALSyncer: @unchecked Sendable {
    private struct State {
        var requested: UInt64 = 0
        var synced: UInt64 = 0
        var syncing = false
        var syncCount = 0
    }

    private let state = Locked(State())
    private let path: String
    private var fd: Int32 = -1

    init(walPath: String) { path = walPath }

    deinit { if fd >= 0 { close(fd) } }

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
            let target: UInt64? = state.wait(until: { $0.synced >= ticket || !$0.syncing }) { s, _ in
                if s.synced >= ticket { return nil }
                s.syncing = true
                s.syncCount += 1
                return s.requested
            }
            guard let target else { return }
            let ok = flush()
            state.withLockWakingWaiters { s in
                s.syncing = false
                if ok { s.synced = max(s.synced, target) }
            }
            if !ok { throw DatabaseError(code: 10, message: "fsync of \(path) failed (errno \(errno))") }
        }
    }

    private func flush() -> Bool {
        if fd < 0 { fd = open(path, O_RDWR | O_CLOEXEC) }
        guard fd >= 0 else { return false }
        return fdatasync(fd) == 0
    }
}
