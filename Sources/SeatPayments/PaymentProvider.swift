import Foundation

/// One online payment provider (Stripe, WeChat Pay, Alipay) as the server uses it: make a payment,
/// ask where it stands (closing it when unpaid), give money back, and read a notification the
/// provider's way. Each provider's quirks stay behind this; the API above knows none of them.
public protocol PaymentProvider: Sendable {
    /// `stripe`, `wechatpay` or `alipay`: what a checkout names and `/v1/payments/{provider}/notify` says.
    var name: String { get }
    /// A payment for `request`: what the buyer's page pays with. The same payment id again is the same
    /// payment (a retried checkout).
    func create(_ request: PaymentRequest) throws -> ProviderCheckout
    /// Where the payment stands; one not paid (and not being paid) is closed at the provider, so nobody
    /// can pay it after its seats went back on sale. What a paying hold's end waits for.
    func settle(_ payment: ProviderReference) throws -> ProviderPayment.Status
    /// Gives `amount` (minor units) of the payment back; `key` makes a retry the same refund.
    func refund(_ payment: ProviderReference, amount: Int64, key: String, reason: String) throws -> ProviderRefund
    /// A notification checked the provider's way (signature, freshness, decryption): what it says, or
    /// why it is refused. `now` in unix seconds.
    func notification(header: (String) -> String?, body: [UInt8], now: Int) throws(NotificationRefusal) -> ProviderNotification
    /// The answer the provider expects to a notification: accepted (it stops sending) or not (it tries
    /// again later).
    func answer(accepted: Bool, type: String, outcome: String) -> ProviderAnswer
}

/// A payment SeatKit made, as a provider call names it.
public struct ProviderReference: Sendable, Hashable {
    public var paymentID: String
    /// The provider's own id, once known (Stripe's at creation; WeChat Pay's and Alipay's once paid).
    public var providerID: String?
    /// The whole payment in minor units (WeChat Pay's refund restates it).
    public var amount: Int64
    public var currency: String

    public init(paymentID: String, providerID: String?, amount: Int64, currency: String) {
        self.paymentID = paymentID; self.providerID = providerID; self.amount = amount; self.currency = currency
    }

    /// The merchant's order number at WeChat Pay and Alipay (`out_trade_no`, 32 characters at most):
    /// the payment id without its `pay_`.
    public var merchantOrderNumber: String { paymentID.hasPrefix("pay_") ? String(paymentID.dropFirst(4)) : paymentID }

    /// The payment id a merchant order number stands for.
    public static func paymentID(merchantOrderNumber: String) -> String { "pay_" + merchantOrderNumber }
}

/// What a buyer's page needs to pay a payment just made.
public struct ProviderCheckout: Sendable, Hashable {
    /// The provider's id, when it gives one before the payment (Stripe's PaymentIntent).
    public var providerID: String?
    public var amount: Int64
    public var currency: String
    /// Stripe: the PaymentIntent's client secret (Stripe.js pays with it).
    public var clientSecret: String?
    /// WeChat Pay Native: the `weixin://` link to show as a QR code.
    public var codeURL: String?
    /// WeChat Pay JSAPI: what `WeixinJSBridge.invoke('getBrandWCPayRequest', …)` takes, signed.
    public var jsapi: [String: String]?
    /// Alipay precreate: the link to show as a QR code.
    public var qrCode: String?
    /// Alipay page pay: where to send the buyer.
    public var redirectURL: String?

    public init(providerID: String?, amount: Int64, currency: String) {
        self.providerID = providerID; self.amount = amount; self.currency = currency
    }
}

/// A provider's notification, checked: its id, its type in the provider's words, and the payment it
/// is about (nil: about something else, acknowledged and ignored).
public struct ProviderNotification: Sendable, Hashable {
    public var id: String
    public var type: String
    public var payment: ProviderPayment?
    /// The merchant the notification is for (WeChat Pay's `mchid`, Alipay's `app_id`), checked by the provider.
    public init(id: String, type: String, payment: ProviderPayment?) { self.id = id; self.type = type; self.payment = payment }
}

/// Why a notification changes nothing: `reason` is the `/metrics` label.
public struct NotificationRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// `unsigned`, `forged`, `stale`, `unreadable`, `merchant`.
    public var reason: String
    public var message: String
    public var description: String { message }
    public init(_ reason: String, _ message: String) { self.reason = reason; self.message = message }
}

/// A refund as the provider took it.
public struct ProviderRefund: Sendable, Hashable {
    public enum State: String, Sendable { case pending, succeeded, failed }
    public var id: String
    public var state: State
    /// The provider's reason, for a refund it refused.
    public var reason: String?
    public init(id: String, state: State, reason: String? = nil) { self.id = id; self.state = state; self.reason = reason }
}

/// An answer to a provider's notification.
public struct ProviderAnswer: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    public init(status: Int, contentType: String, body: [UInt8]) { self.status = status; self.contentType = contentType; self.body = body }
}

extension PaymentSettings {
    /// The configured online providers, ready to call.
    public func providers(http: ProviderHTTP = ProviderHTTP()) -> [String: any PaymentProvider] {
        var all: [String: any PaymentProvider] = [:]
        if let stripe { all["stripe"] = StripeClient(settings: stripe, http: http) }
        if let wechatpay { all["wechatpay"] = WeChatPayClient(settings: wechatpay, http: http) }
        if let alipay { all["alipay"] = AlipayClient(settings: alipay, http: http) }
        return all
    }
}
