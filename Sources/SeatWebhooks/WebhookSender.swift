import Foundation
import SeatPayments

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Posts one signed event to one endpoint and says how it went: a 2xx within 5 s is taken; anything
/// else (another status, no answer, a timeout) failed, with the status or the reason. 5 s: an endpoint
/// slower than that is failing for every event behind it too, and the retry schedule is its room.
public struct WebhookSender: Sendable {
    public var timeout: TimeInterval = 5
    public init(timeout: TimeInterval = 5) { self.timeout = timeout }

    public struct Outcome: Sendable, Equatable {
        public var status: Int?
        public var error: String?
        public var taken: Bool { status.map { (200..<300).contains($0) } ?? false }
    }

    /// Connections to the endpoints, kept between deliveries (see `ProviderHTTP.connections`).
    static let connections = URLSession(configuration: .ephemeral)

    public func send(url: URL, id: String, timestamp: Int, body: [UInt8], secret: String) -> Outcome {
        guard let signature = WebhookSignature.sign(id: id, timestamp: timestamp, body: body, secret: secret) else {
            return Outcome(status: nil, error: "the endpoint's secret cannot sign")
        }
        let headers = [
            ("Content-Type", "application/json"), ("User-Agent", "SeatKit-Webhooks/1"), ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", signature),
        ]
        do {
            let answer = try ProviderHTTP(timeout: timeout, connections: Self.connections).send("POST", url, headers: headers, body: body)
            return Outcome(status: answer.status, error: (200..<300).contains(answer.status) ? nil : String(decoding: answer.body.prefix(200), as: UTF8.self))
        } catch {
            return Outcome(status: nil, error: "\(error)")
        }
    }
}
