import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a thread whose name the system shows: `top -H`, `ps -L`, `perf report --sort comm`, gdb.
/// Foundation's `Thread.name`, set before `start()`, never reached the kernel here (Swift 6.3 on
/// Linux): every thread of a server read the process's name in `/proc/PID/task/*/comm`, and a
/// profile could not tell a shard's writer from the follower or a request thread (a lane made from a
/// request read `MHD-worker`). The thread names itself, first thing, cut to the kernel's 15 bytes;
/// SeatKit's names are `sk-…` so that they fit.
public enum NamedThread {
    /// The longest name the kernel keeps (16 bytes with the terminating zero).
    public static let maximumLength = 15

    /// `name` cut to `maximumLength` bytes, never in the middle of a character.
    public static func shortened(_ name: String) -> String {
        var short = ""
        for c in name where short.utf8.count + c.utf8.count <= maximumLength { short.append(c) }
        return short
    }

    /// Starts `body` on a new thread named `name` (shortened).
    @discardableResult
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) -> Thread {
        let short = shortened(name)
        let thread = Thread {
            nameCurrentThread(short)
            body()
        }
        thread.name = short
        thread.start()
        return thread
    }

    /// Names the calling thread (shortened). On Linux through `/proc/thread-self/comm`, which is what
    /// `pthread_setname_np` writes (Swift's Glibc module does not declare that GNU extension).
    public static func nameCurrentThread(_ name: String) {
        let short = shortened(name)
        #if canImport(Darwin)
        _ = pthread_setname_np(short)
        #else
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        _ = short.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        #endif
    }

    /// The calling thread's name as the system has it.
    public static var currentName: String {
        var buffer = [CChar](repeating: 0, count: maximumLength + 2)
        #if canImport(Darwin)
        guard pthread_getname_np(pthread_self(), &buffer, buffer.count) == 0 else { return "" }
        #else
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        guard fd >= 0 else { return "" }
        _ = read(fd, &buffer, maximumLength + 1)
        close(fd)
        #endif
        let bytes = buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
