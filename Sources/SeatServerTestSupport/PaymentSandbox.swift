import Foundation
import LoopbackHTTP
import SeatPayments

/// The local WeChat Pay and Alipay (`Tests/Payments/sandbox.py`, test money): checks what SeatKit signs
/// and signs what it sends with the providers' own SDKs from PyPI (`make payment-deps`). Started on a free
/// port for one test, stopped with it; a test that needs it fails (never skips) when it cannot start.
public final class PaymentSandbox: Sendable {
    let server: LocalPythonServer
    public var port: UInt16 { server.port }
    /// The repository's `Tests/Payments` (the sandbox and its test-only keys).
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Payments")
    public static let mchid = "1900009191", appid = "wxd678efh567hg6787", apiV3Key = "SeatKitSandboxApiV3Key0123456789"
    public static let alipayAppID = "2021000117600000"

    public init() throws {
        server = try LocalPythonServer(
            [Self.folder.appendingPathComponent("sandbox.py").path], hint: "pip install wechatpayv3 python-alipay-sdk",
            ready: LocalPythonServer.answers("/_sandbox/health"))
    }

    /// The payments file lines for both providers, pointed at this sandbox and at `server`'s notify routes.
    public func settings(notifyPort: UInt16) -> String {
        let keys = Self.folder.appendingPathComponent("keys").path
        return """
            wechatpay mchid=\(Self.mchid) appid=\(Self.appid) serial=3775B6A45ACD588826FF8B79F5DCBE6B1F8C8B4E privateKey=\(keys)/merchant-key.pem apiV3Key=\(Self.apiV3Key) platformCert=\(keys)/platform-cert.pem notifyUrl=http://127.0.0.1:\(notifyPort)/v1/payments/wechatpay/notify api=http://127.0.0.1:\(port)
            alipay appId=\(Self.alipayAppID) privateKey=\(keys)/alipay-app-key.pem alipayPublicKey=\(keys)/alipay-public.txt notifyUrl=http://127.0.0.1:\(notifyPort)/v1/payments/alipay/notify gateway=http://127.0.0.1:\(port)/gateway.do

            """
    }

    func post(_ path: String, _ json: String) throws -> HTTPConnection.Response {
        try HTTPConnection(port: port).request("POST", path, headers: [("Content-Type", "application/json")], body: Array(json.utf8))
    }

    /// The buyer pays order `number` (the merchant order number: the payment id without `pay_`); with
    /// `notify` the provider's notification is sent to SeatKit. The status SeatKit answered it with.
    @discardableResult
    public func pay(_ provider: String, order number: String, notify: Bool = true) throws -> (paid: Bool, notified: Int?) {
        let answer = try post("/_sandbox/pay", #"{"provider":"\#(provider)","order":"\#(number)","notify":\#(notify)}"#)
        return (answer.json?["paid"] == .bool(true), answer.json?["notified"]?.arrayValue?.first?.intValue)
    }

    /// A signed notification of order `number` as the provider would send it, not sent: its headers and
    /// body (`overrides` as JSON members: `forge`, `timestampOffset`, `amount`, `mchid`, `app_id`, …).
    public func notification(_ provider: String, order number: String, overrides: String = "") throws -> (headers: [(String, String)], body: [UInt8]) {
        let extra = overrides.isEmpty ? "" : "," + overrides
        let answer = try post("/_sandbox/notification", #"{"provider":"\#(provider)","order":"\#(number)"\#(extra)}"#)
        guard let o = answer.json, let body = o["body"]?.stringValue, let headers = o["headers"]?.objectValue else {
            throw Localstripe.Unavailable(description: "the sandbox made no notification: \(answer.text)")
        }
        return (zip(headers.keys, headers.values).map { ($0, $1.stringValue ?? "") }, Array(body.utf8))
    }

    /// From now on every refund call is answered `status` (503: the provider is down, 400: it refuses);
    /// 0: refunds are taken again.
    public func failRefunds(_ status: Int) throws {
        _ = try post("/_sandbox/refunds", #"{"fail":\#(status)}"#)
    }

    /// Every order, refund and call the sandbox saw.
    /// The provider down (its API drops every connection unanswered) or back.
    public func outage(_ down: Bool) throws {
        _ = try post("/_sandbox/outage", #"{"down":\#(down)}"#)
    }

    public func ledger() throws -> (orders: [[String: String]], refunds: [[String: String]], requests: [String]) {
        let answer = try HTTPConnection(port: port).request("GET", "/_sandbox/orders")
        func rows(_ key: String) -> [[String: String]] {
            (answer.json?[key]?.arrayValue ?? []).compactMap(\.objectValue).map { o in
                var row: [String: String] = [:]
                for (k, v) in zip(o.keys, o.values) { row[k] = v.stringValue ?? v.intValue.map(String.init) ?? "" }
                return row
            }
        }
        return (rows("orders"), rows("refunds"), (answer.json?["requests"]?.arrayValue ?? []).compactMap(\.stringValue))
    }
}
