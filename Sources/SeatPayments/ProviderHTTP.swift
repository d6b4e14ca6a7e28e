import Foundation
import SharedState

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One call to a provider's API, waited for (the calling request thread waits; a checkout is one call),
/// at most `timeout` seconds (10: a provider slower than that is down for the buyer too). HTTPS through
/// Foundation's URLSession (libcurl on Linux); plain HTTP only for a local test provider.
public struct ProviderHTTP: Sendable {
    public var timeout: TimeInterval = 10

    public init(timeout: TimeInterval = 10, connections: URLSession? = nil) {
        self.timeout = timeout
        self.connections = connections
    }

    public struct Answer: Sendable {
        public var status: Int
        public var body: [UInt8]
        /// Headers by lower-case name (WeChat Pay signs its answers in them).
        public var headers: [String: String] = [:]
    }

    /// A session whose connections are kept and reused between calls (webhook deliveries: a session a
    /// call made a new TCP connection and libcurl handle each time, and 90 endpoints took about 80
    /// deliveries a second beside the hold load in `make bench`, 220 with one). Nil: a session of its own
    /// a call (the providers' calls: a dropped connection then fails at once, where a reused one waited
    /// out the whole timeout in the outage test). URLSession is safe to share between threads.
    public var connections: URLSession?

    /// Why a call got no answer: the provider could not be reached or did not answer in time.
    public struct Unreachable: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public func send(_ method: String, _ url: URL, headers: [(String, String)], body: [UInt8]?) throws -> Answer {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body) }
        // The answer, handed from URLSession's thread to this one. Lock: its own.
        let box = Locked<Result<Answer, Error>?>(nil)
        let session = connections ?? URLSession(configuration: .ephemeral)
        defer { if connections == nil { session.finishTasksAndInvalidate() } }
        session.dataTask(with: request) { data, response, error in
            let result: Result<Answer, Error> =
                error.map { .failure(Unreachable(description: "\(url.host ?? "the provider"): \($0.localizedDescription)")) }
                ?? .success(Self.answer(response, data))
            box.withLockWakingWaiters { $0 = result }
        }.resume()
        let answered = box.wait(until: { $0 != nil }, deadline: Date().addingTimeInterval(timeout + 2)) { value, _ in value }
        guard let result = answered else {
            throw Unreachable(description: "\(url.host ?? "the provider") did not answer within \(Int(timeout)) s")
        }
        return try result.get()
    }

    static func answer(_ response: URLResponse?, _ data: Data?) -> Answer {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return Answer(status: http?.statusCode ?? 0, body: Array(data ?? Data()), headers: headers)
    }

    /// `application/x-www-form-urlencoded` (what Stripe's API takes), each name and value escaped.
    public static func form(_ fields: [(String, String)]) -> [UInt8] {
        Array(fields.map { formEncoded($0.0) + "=" + formEncoded($0.1) }.joined(separator: "&").utf8)
    }

    /// One name or value escaped: every byte but ASCII letters, digits and `-._~` as `%XX` (Foundation's
    /// `alphanumerics` would leave 中文 bare in a link).
    public static func formEncoded(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The fields of a form body (`+` a space, `%XX` a byte), in their order; nil when it is not one.
    public static func formFields(_ body: [UInt8]) -> [(String, String)]? {
        let text = String(decoding: body, as: UTF8.self)
        var fields: [(String, String)] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String? { s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decode(parts[0]), !name.isEmpty, let value = decode(parts.count > 1 ? parts[1] : "") else { return nil }
            fields.append((name, value))
        }
        return fields
    }
}
