import Foundation
import LoopbackHTTP
import SharedState
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tests' HTTP client must never close a descriptor it does not own: a failed connect once closed
/// its socket twice (the throwing init ran deinit), so a server's connection opened in between was
/// closed under it and libmicrohttpd aborted the test process.
@Suite struct LoopbackClientTests {
    @Test func aFailedConnectClosesNothingElse() throws {
        // A port nobody listens on.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        let port = UInt16(bigEndian: address.sin_port)
        close(fd)
        // Meanwhile another thread keeps pipes open and checks they still are.
        let stop = Locked(false), broken = Locked(0)
        let watcher = Thread {
            while !stop.current {
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { continue }
                for _ in 0..<50 where fcntl(ends[0], F_GETFD) == -1 || fcntl(ends[1], F_GETFD) == -1 { broken.withLock { $0 += 1 } }
                close(ends[0]); close(ends[1])
            }
        }
        watcher.start()
        for _ in 0..<3_000 { _ = try? HTTPConnection(port: port) }
        stop.withLock { $0 = true }
        Thread.sleep(forTimeInterval: 0.05)
        #expect(broken.current == 0, "descriptors closed under another thread \(broken.current) times")
    }
}
