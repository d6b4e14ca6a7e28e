#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A minimal blocking HTTP/1.1 client over a TCP socket (IPv4, loopback by default), with keep-alive: what the server
/// tests and the load generator need, without URLSession's connection pooling in the way.
public final class HTTPConnection {
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public enum Failure: Error, CustomStringConvertible {
        case connect(Int32)
        case closed
        case malformed(String)
        case timeout
        public var description: String {
            switch self {
            case .connect(let e): return "connect failed (errno \(e))"
            case .closed: return "connection closed"
            case .malformed(let m): return "malformed response: \(m)"
            case .timeout: return "timed out"
            }
        }
    }

    let fd: Int32
    private var chunk = [UInt8](repeating: 0, count: 16384)
    /// The socket, for callers that poll many connections at once.
    public var socketDescriptor: Int32 { fd }
    private var buffer: [UInt8] = []

    /// The `Host` header sent with each request.
    let hostHeader: String

    /// Connects to `host` (an IPv4 address, or `localhost`), 127.0.0.1 by default; from `source` when
    /// given (another loopback address, e.g. 127.0.0.2: tests of per-address limits).
    public init(host: String = "127.0.0.1", port: UInt16, timeoutSeconds: Int = 10, source: String? = nil) throws {
        var address = sockaddr_in()
        let numeric = host == "localhost" ? "127.0.0.1" : host
        guard inet_pton(AF_INET, numeric, &address.sin_addr) == 1 else { throw Failure.malformed("not an IPv4 address: \(host)") }
        hostHeader = port == 80 ? host : "\(host):\(port)"
        // The socket is `fd` only once connected: a throw after every stored property is set runs deinit,
        // which would close it a second time, closing whatever the process opened under that number
        // meanwhile (a server's connection: libmicrohttpd then aborted, "Failed to remove FD from epoll set").
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.connect(errno) }
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else { Glibc.close(fd); throw Failure.malformed("not an IPv4 address: \(source)") }
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { let e = errno; Glibc.close(fd); throw Failure.connect(e) }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { let e = errno; Glibc.close(fd); throw Failure.connect(e) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.fd = fd
    }

    deinit { Glibc.close(fd) }

    /// Sends raw bytes (for malformed-request tests).
    public func sendRaw(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure.closed }
            sent += n
        }
    }

    public func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try sendRaw(Array(head.utf8) + body)
        return try readResponse(method: method)
    }

    public func request(_ method: String, _ path: String, json: String, headers: [(String, String)] = []) throws -> Response {
        try request(method, path, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }

    func fill() throws {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 16384, 0) }
        if n == 0 { throw Failure.closed }
        if n < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? Failure.timeout : Failure.closed }
        buffer.append(contentsOf: chunk[0..<n])
    }

    /// The status and headers (names lowercased, values trimmed of spaces and tabs), read at the byte
    /// level: splitting the head with Foundation's `components(separatedBy:)` and
    /// `trimmingCharacters(in:)` was 12 % of a hold benchmark's whole run, CPU taken from the server it
    /// measures on the same two cores.
    func readHead() throws -> (Int, [String: String]) {
        while true {
            if let end = findHeaderEnd() {
                let head = Array(buffer[0..<end])
                buffer.removeFirst(end + 4)
                return try Self.parseHead(head)
            }
            try fill()
        }
    }

    /// A response head (without its blank line): the status line's code and each header.
    static func parseHead(_ head: [UInt8]) throws -> (Int, [String: String]) {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0, i = 0
        while i + 1 < head.count {
            if head[i] == 13 && head[i + 1] == 10 {
                lines.append(head[start..<i])
                start = i + 2
                i += 2
            } else {
                i += 1
            }
        }
        lines.append(head[start..<head.count])
        let statusLine = lines[0].split(separator: 32)
        guard statusLine.count >= 2, let status = Int(String(decoding: statusLine[1], as: UTF8.self)) else {
            throw Failure.malformed(String(decoding: head, as: UTF8.self))
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 58) else { continue }
            let name = line[line.startIndex..<colon].map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 32 || first == 9 { value.removeFirst() }
            while let last = value.last, last == 32 || last == 9 { value.removeLast() }
            headers[String(decoding: name, as: UTF8.self)] = String(decoding: value, as: UTF8.self)
        }
        return (status, headers)
    }

    func findHeaderEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 { return i }
        return nil
    }

    /// The next response on the connection (after `sendRaw`).
    public func readResponse(method: String) throws -> Response {
        let (status, headers) = try readHead()
        var body: [UInt8] = []
        if method == "HEAD" || status == 204 || status == 304 {
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            while buffer.count < length { try fill() }
            body = Array(buffer[0..<length]); buffer.removeFirst(length)
        } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                while !buffer.contains(10) { try fill() }
                let lineEnd = buffer.firstIndex(of: 10)!
                let size = Int(String(decoding: buffer[0..<lineEnd], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), radix: 16) ?? 0
                buffer.removeFirst(lineEnd + 1)
                while buffer.count < size + 2 { try fill() }
                body.append(contentsOf: buffer[0..<size]); buffer.removeFirst(size + 2)
                if size == 0 { break }
            }
        }
        return Response(status: status, headers: headers, body: body)
    }

    private var events: [UInt8] = []
    private var chunked: ChunkedDecoder?

    /// Opens an event stream: returns the response head; then `nextEvent` reads events as they come.
    public func openEvents(_ path: String, headers: [(String, String)] = []) throws -> Int {
        let head = "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nAccept: text/event-stream\r\n" + headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
        try sendRaw(Array(head.utf8))
        let (status, responseHeaders) = try readHead()
        chunked = responseHeaders["transfer-encoding"]?.lowercased() == "chunked" ? ChunkedDecoder() : nil
        takeEventBytes()
        return status
    }

    /// Moves received bytes into the event buffer, undoing chunked framing.
    private func takeEventBytes() {
        if chunked != nil { events.append(contentsOf: chunked!.feed(buffer[...])) } else { events.append(contentsOf: buffer) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// The next Server-Sent Event (its `id`, `event` and `data` lines), skipping comments; an error
    /// once `seconds` pass without one (a server's heartbeat comments would otherwise keep a test that
    /// waits for an event that never comes waiting for ever: one did, for 80 s, holding up the run).
    public func nextEvent(within seconds: Double = 10) throws -> (id: String?, event: String?, data: String) {
        let deadline = Date().addingTimeInterval(seconds)
        var id: String?, event: String?, data: [String] = []
        while true {
            while !events.contains(10) {
                if chunked?.finished == true { throw Failure.closed }
                if Date() > deadline { throw Failure.timeout }
                try fill()
                takeEventBytes()
            }
            let end = events.firstIndex(of: 10)!
            let line = String(decoding: events[0..<end], as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            events.removeFirst(end + 1)
            if line.isEmpty {
                if !data.isEmpty || event != nil { return (id, event, data.joined(separator: "\n")) }
                continue
            }
            if line.hasPrefix(":") { continue }
            if line.hasPrefix("id: ") {
                id = String(line.dropFirst(4))
            } else if line.hasPrefix("event: ") {
                event = String(line.dropFirst(7))
            } else if line.hasPrefix("data: ") {
                data.append(String(line.dropFirst(6)))
            }
            // `retry:` and unknown fields are ignored, as the specification says.
        }
    }
}
