#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Group commit for SQLite's write-ahead log: a confirmation commits without an fsync of its own, then
/// waits here until the log is on disk. The first waiter syncs for everyone who committed before it
/// started; those who arrive meanwhile share the next sync. One fsync serves a whole group.
final class WALSyncer: @unchecked Sendable {
    private let condition = NSCondition()
    private let path: String
    private var fd: Int32 = -1
    private var requested: UInt64 = 0
    private var synced: UInt64 = 0
    private var syncing = false
    private(set) var syncCount = 0

    init(walPath: String) { path = walPath }

    deinit { if fd >= 0 { close(fd) } }

    /// Returns once everything committed before the call is on disk.
    func waitUntilDurable() throws {
        condition.lock()
        requested += 1
        let ticket = requested
        while synced < ticket {
            if syncing { condition.wait(); continue }
            syncing = true
            let target = requested
            condition.unlock()
            let ok = flush()
            condition.lock()
            syncing = false
            if ok { synced = target }
            condition.broadcast()
            if !ok { condition.unlock(); throw DatabaseError(code: 10, message: "fsync of \(path) failed (errno \(errno))") }
        }
        condition.unlock()
    }

    private func flush() -> Bool {
        if fd < 0 { fd = open(path, O_RDWR | O_CLOEXEC) }
        guard fd >= 0 else { return false }
        syncCount += 1
        return fdatasync(fd) == 0
    }
}
