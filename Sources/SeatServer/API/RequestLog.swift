import Foundation
import Logging
import SeatHTTP
import SeatInventory

/// What a request's log line and metrics need, carried to wherever its answer is finished: at once,
/// after its change commits, or after a rate limit's wait. A value: each request has its own.
struct RequestTrace: Sendable {
    /// The route's pattern (`/v1/shows/{id}/holds`): the metrics label and the log's `route`.
    var route = "unmatched"
    let start = DispatchTime.now().uptimeNanoseconds
    let method: String
    /// Set only when request lines are logged (the id and the operator cost a little on every request).
    let requestID: String?
    let operatorName: String?

    init(_ request: HTTPRequest, logging: Bool, caller: (@escaping (String) -> String?) -> String?) {
        method = request.method
        guard logging else {
            (requestID, operatorName) = (nil, nil)
            return
        }
        requestID = Self.requestID(given: request.header("x-request-id"))
        // An operator's key is hashed to know its name: only when the request carries one.
        let carriesKey = request.header("x-admin-key") != nil || request.header("authorization") != nil
        operatorName = carriesKey ? caller({ request.header($0) }) : nil
    }

    var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    /// The client's `X-Request-Id` when it is a plain token of at most 64 characters (a proxy's, so the
    /// two logs join); otherwise 16 random hex digits.
    static func requestID(given: String?) -> String {
        if let given, (1...64).contains(given.utf8.count),
            given.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7a) || $0 == 0x2d || $0 == 0x2e || $0 == 0x5f })
        {
            return given
        }
        let n = UInt64.random(in: 0...UInt64.max)
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// The server's log: a line a finished request (route, status, milliseconds, request id, operator) at
/// `info`, and every 5xx with its cause at `error`; counts the request in the metrics too. The logger's
/// handler decides the shape (the CLI's: text or JSON lines); the default logger says nothing, so tests
/// and benchmarks pay nothing for lines nobody reads.
public struct RequestLog: Sendable {
    let logger: Logger
    let metrics: Metrics
    /// Whether request lines are wanted (the logger's level is `info` or finer).
    let wantsRequests: Bool

    /// A logger that drops everything.
    public static let silent = Logger(label: "seatkit", factory: { _ in SwiftLogNoOpLogHandler() })

    init(logger: Logger, metrics: Metrics) {
        self.logger = logger
        self.metrics = metrics
        wantsRequests = logger.logLevel <= .info
    }

    func finished(_ trace: RequestTrace, status: Int) {
        let seconds = trace.seconds
        metrics.request(route: trace.route, status: status, seconds: seconds)
        guard wantsRequests else { return }
        logger.info("request", metadata: metadata(trace, status: status, seconds: seconds))
    }

    /// A request the server failed (a 5xx): its cause, which the client's problem document never names.
    func failed(_ trace: RequestTrace, status: Int, cause: any Error) {
        var m = metadata(trace, status: status, seconds: trace.seconds)
        m["cause"] = .string(String(describing: cause))
        logger.error("request failed", metadata: m)
    }

    private func metadata(_ trace: RequestTrace, status: Int, seconds: Double) -> Logger.Metadata {
        var m: Logger.Metadata = [
            "route": .string(trace.route), "method": .string(trace.method), "status": .stringConvertible(status),
            "ms": .stringConvertible((seconds * 1e5).rounded() / 100),
        ]
        if let id = trace.requestID { m["request"] = .string(id) }
        if let name = trace.operatorName { m["operator"] = .string(name) }
        return m
    }
}
