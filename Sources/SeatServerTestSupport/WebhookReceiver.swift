import Foundation
import LoopbackHTTP

/// An operator's system listening for SeatKit's webhooks (`Tests/Webhooks/receiver.py`), which checks
/// every delivery with PyPI's `standardwebhooks`. Started on a free port for one test, stopped with it.
public final class WebhookReceiver: Sendable {
    let server: LocalPythonServer
    public var port: UInt16 { server.port }

    public init() throws {
        server = try LocalPythonServer(
            [PaymentSandbox.folder.deletingLastPathComponent().appendingPathComponent("Webhooks/receiver.py").path], quiet: false,
            hint: "pip install standardwebhooks", ready: LocalPythonServer.answers("/_receiver/health"))
    }

    /// The URL of endpoint `name` at this receiver.
    public func url(_ name: String) -> String { "http://127.0.0.1:\(port)/hooks/\(name)" }

    /// Registers endpoint `name`'s secret and how it answers (`ok`, `fail`, `gone`, `slow`).
    public func set(_ name: String, secret: String? = nil, mode: String = "ok") throws {
        let secretJSON = secret.map { #","secret":"\#($0)""# } ?? ""
        _ = try HTTPConnection(port: port).request(
            "POST", "/_receiver/endpoint", headers: [("Content-Type", "application/json")],
            body: Array(#"{"name":"\#(name)","mode":"\#(mode)"\#(secretJSON)}"#.utf8))
    }

    public struct Event: Sendable {
        public var id: String
        public var type: String?
        public var verified: Bool
        public var error: String?
        public var body: String
    }

    /// Every delivery endpoint `name` received, in order.
    public func events(_ name: String) throws -> [Event] {
        let answer = try HTTPConnection(port: port).request("GET", "/_receiver/events?name=\(name)")
        return (answer.json?["events"]?.arrayValue ?? []).compactMap(\.objectValue).map { o in
            Event(
                id: o["id"]?.stringValue ?? "", type: o["type"]?.stringValue, verified: o["verified"] == .bool(true), error: o["error"]?.stringValue,
                body: o["body"]?.stringValue ?? "")
        }
    }
}
