import Foundation
import LoopbackHTTP

#if canImport(Glibc)
import Glibc
#endif

/// A Python server a test starts on a free loopback port and stops with it (localstripe, the payment
/// sandbox, the webhook receiver): ready once `ready` answers, killed with SIGKILL (aiohttp ignores
/// SIGTERM). A test that needs one fails (never skips) when it cannot start.
public final class LocalPythonServer: Sendable {
    public let port: UInt16
    let process: Process

    /// Runs `python3 arguments… --port PORT [extra…]` and waits up to 40 s (a loaded CI machine takes
    /// seconds to import aiohttp) for `ready(port)` to be true. A server that exits at once (its port,
    /// free when it was chosen, taken by another test's server meanwhile: CI stop 68 waited 40 s for a
    /// localstripe that had died) is started again on another port, up to three times. `hint` says what
    /// to install when it fails.
    public init(_ arguments: [String], extra: [String] = [], quiet: Bool = true, hint: String, ready: (UInt16) -> Bool) throws {
        var lastPort: UInt16 = 0
        for _ in 0..<3 {
            let port = try Self.freePort()
            lastPort = port
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["python3"] + arguments + ["--port", String(port)] + extra
            if quiet {
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
            }
            try p.run()
            let deadline = Date().addingTimeInterval(40)
            while Date() < deadline && p.isRunning {
                if ready(port) {
                    self.port = port
                    process = p
                    return
                }
                usleep(100_000)
            }
            if p.isRunning {
                kill(p.processIdentifier, SIGKILL)
                p.waitUntilExit()
                break
            }
        }
        throw Unavailable(description: "\(arguments.first ?? "python3") did not start on port \(lastPort) (\(hint))")
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    public struct Unavailable: Error, CustomStringConvertible { public var description: String }

    /// Whether GET `path` answers 200.
    public static func answers(_ path: String, headers: [(String, String)] = []) -> (UInt16) -> Bool {
        { port in (try? HTTPConnection(port: port).request("GET", path, headers: headers))?.status == 200 }
    }

    /// A loopback port nobody listens on now.
    public static func freePort() throws -> UInt16 {
        let (fd, port) = try boundSocket()
        close(fd)
        return port
    }

    /// A TCP socket bound to a free loopback port, and the port; the caller closes it (or listens on it).
    public static func boundSocket() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else {
            close(fd)
            throw Unavailable(description: "no free loopback port")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}
