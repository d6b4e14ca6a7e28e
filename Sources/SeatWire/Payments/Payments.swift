import SeatJSON
import SeatMap

/// `POST /v1/holds/{token}/checkout`: which provider the buyer pays with, how (`method`, where the
/// provider has several: WeChat Pay `native` or `jsapi`, Alipay `qr` or `page`), and the order
/// reference the sale will have (SeatKit makes one when none is given). A WeChat Pay JSAPI payment
/// names its `payer` (the buyer's openid under the merchant's app).
public struct CheckoutRequest: Sendable, Hashable {
    public static let providers = ["stripe", "wechatpay", "alipay"]
    /// Every provider's ways of paying: Stripe `card`; WeChat Pay `native` (a QR code), `h5` (a phone's
    /// browser), `jsapi` (inside WeChat); Alipay `qr`, `page` (a desktop's cashier), `wap` (a phone's).
    public static let methods = ["card", "native", "h5", "jsapi", "qr", "page", "wap"]
    public var provider: String
    public var method: String?
    public var orderRef: String?
    public var payer: String?

    public init(provider: String, method: String? = nil, orderRef: String? = nil, payer: String? = nil) {
        self.provider = provider; self.method = method; self.orderRef = orderRef; self.payer = payer
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("provider", first: true); w.string(provider)
        if let method { w.key("method"); w.string(method) }
        if let orderRef { w.key("orderRef"); w.string(orderRef) }
        if let payer { w.key("payer"); w.string(payer) }
        w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        let read = Self(object: o, at: "", into: &log)
        guard log.isEmpty, let read else { throw .invalid(log.error) }
        self = read
    }

    /// The request in `o`, each problem logged under `path` (`prepay.method`); nil when there was one.
    public init?(object o: JSONObject, at path: String, into log: inout ProblemLog) {
        let before = log.problems.count
        func at(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
        func text(_ key: String, required: Bool) -> String? {
            guard let s = o.string(key, at: path, into: &log, required: required) else { return nil }
            if let bad = WireText.controlCharacter(in: s) { log.add(at(key), bad); return nil }
            return s
        }
        o.rejectUnknownKeys(["provider", "method", "orderRef", "payer"], at: path, into: &log)
        let provider = text("provider", required: true)
        if let provider, !Self.providers.contains(provider) { log.add(at("provider"), "one of stripe, wechatpay or alipay, got \"\(provider.prefix(40))\"") }
        let method = text("method", required: false)
        if let method, !Self.methods.contains(method) {
            log.add(at("method"), "one of \(Self.methods.joined(separator: ", ")), got \"\(method.prefix(40))\"")
        }
        let ref = text("orderRef", required: false)
        if let ref, let problem = WireOrderRef.problem(ref) { log.add(at("orderRef"), problem) }
        let payer = text("payer", required: false)
        if let payer, payer.isEmpty || payer.utf8.count > 128 { log.add(at("payer"), "the buyer's openid: 1 to 128 characters") }
        guard log.problems.count == before, let provider else { return nil }
        self.init(provider: provider, method: method, orderRef: ref, payer: payer)
    }
}

/// A payment as the API returns it, with what the buyer's page needs to pay: Stripe's `clientSecret`,
/// WeChat Pay Native's `codeUrl`, Alipay's `qrCode` or `redirectUrl`.
public struct PaymentResource: Sendable, Hashable {
    public var id: String
    public var provider: String
    /// `pending`, `succeeded`, `failed`, `canceled` or `refunded`.
    public var state: String
    /// Exact decimal text, e.g. "116.00".
    public var amount: String
    public var currency: String
    /// RFC 3339, UTC: when the payment window ends.
    public var expiresAt: String
    public var orderRef: String?
    public var clientSecret: String?
    public var codeURL: String?
    public var qrCode: String?
    public var redirectURL: String?
    /// WeChat Pay JSAPI: the signed parameters `getBrandWCPayRequest` takes.
    public var jsapi: [String: String]?
    /// Test money served from this machine (`make demo`'s sandbox): its cashier page for this payment,
    /// where a buyer without a real WeChat or Alipay pays.
    public var testPayURL: String?

    public init(
        id: String, provider: String, state: String, amount: String, currency: String, expiresAt: String, orderRef: String?,
        clientSecret: String? = nil, codeURL: String? = nil, qrCode: String? = nil, redirectURL: String? = nil
    ) {
        self.id = id; self.provider = provider; self.state = state; self.amount = amount; self.currency = currency; self.expiresAt = expiresAt
        self.orderRef = orderRef; self.clientSecret = clientSecret; self.codeURL = codeURL; self.qrCode = qrCode; self.redirectURL = redirectURL
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("id", first: true); w.string(id)
        w.key("provider"); w.string(provider)
        w.key("state"); w.string(state)
        w.key("amount"); w.string(amount)
        w.key("currency"); w.string(currency)
        w.key("expiresAt"); w.string(expiresAt)
        if let orderRef { w.key("orderRef"); w.string(orderRef) }
        if let clientSecret { w.key("clientSecret"); w.string(clientSecret) }
        if let codeURL { w.key("codeUrl"); w.string(codeURL) }
        if let qrCode { w.key("qrCode"); w.string(qrCode) }
        if let redirectURL { w.key("redirectUrl"); w.string(redirectURL) }
        if let testPayURL { w.key("testPayUrl"); w.string(testPayURL) }
        if let jsapi {
            w.key("jsapi"); w.raw("{")
            for (k, name) in jsapi.keys.sorted().enumerated() { w.key(name, first: k == 0); w.string(jsapi[name] ?? "") }
            w.raw("}")
        }
        w.raw("}")
    }
}

/// `POST /v1/holds/{token}/checkout`'s answer: the payment and the hold it keeps.
public struct CheckoutResource: Sendable, Hashable {
    public var payment: PaymentResource
    public var hold: HoldResource

    public init(payment: PaymentResource, hold: HoldResource) { self.payment = payment; self.hold = hold }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("payment", first: true); payment.write(into: &w)
        w.key("hold"); hold.write(into: &w)
        w.raw("}")
        return w.bytes
    }
}

extension PaymentResource {
    public init(json bytes: [UInt8]) throws(WireError) { try self.init(object: try WireError.object(bytes)) }

    init(object o: JSONObject) throws(WireError) {
        var log = ProblemLog()
        let id = o.string("id", at: "", into: &log), provider = o.string("provider", at: "", into: &log)
        let state = o.string("state", at: "", into: &log), amount = o.string("amount", at: "", into: &log)
        let currency = o.string("currency", at: "", into: &log), expiresAt = o.string("expiresAt", at: "", into: &log)
        guard log.isEmpty, let id, let provider, let state, let amount, let currency, let expiresAt else { throw .invalid(log.error) }
        self.init(
            id: id, provider: provider, state: state, amount: amount, currency: currency, expiresAt: expiresAt,
            orderRef: o["orderRef"]?.stringValue, clientSecret: o["clientSecret"]?.stringValue, codeURL: o["codeUrl"]?.stringValue,
            qrCode: o["qrCode"]?.stringValue, redirectURL: o["redirectUrl"]?.stringValue)
        testPayURL = o["testPayUrl"]?.stringValue
        if let jsapi = o["jsapi"]?.objectValue {
            var fields: [String: String] = [:]
            for (k, v) in zip(jsapi.keys, jsapi.values) { fields[k] = v.stringValue }
            self.jsapi = fields
        }
    }
}

extension CheckoutResource {
    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        guard let payment = o["payment"]?.objectValue, let hold = o["hold"] else {
            var log = ProblemLog()
            if o["payment"]?.objectValue == nil { log.add("payment", "missing (expected the payment)") }
            if o["hold"] == nil { log.add("hold", "missing (expected the hold)") }
            throw .invalid(log.error)
        }
        var w = JSONWriter()
        w.value(hold)
        self.init(payment: try PaymentResource(object: payment), hold: try HoldResource(json: w.bytes))
    }
}

extension CheckoutRequest: WireBody {
    public static let schemaName = "CheckoutRequest"
    public static let schema: JSONSchema = .object(
        [
            "provider": .oneOf(providers),
            "method": .oneOf(methods),
            "orderRef": .string(pattern: #"^[^/?#%\\\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 128),
            "payer": .string(minLength: 1, maxLength: 128),
        ], required: ["provider"], closed: true
    ).example(#"{"provider":"stripe"}"#)
}

extension PaymentResource: WireBody {
    public static let schemaName = "Payment"
    public static let schema: JSONSchema = .object(
        [
            "id": .string(), "provider": .oneOf(["stripe", "wechatpay", "alipay", "external"]),
            "state": .oneOf(["pending", "succeeded", "failed", "canceled", "refunded"]), "amount": .string(pattern: #"^-?[0-9]+(\.[0-9]+)?$"#),
            "currency": .string(), "expiresAt": .string(format: "date-time"), "orderRef": .string(), "clientSecret": .string(), "codeUrl": .string(),
            "qrCode": .string(), "redirectUrl": .string(), "testPayUrl": .string(format: "uri"), "jsapi": .object([:]),
        ], required: ["id", "provider", "state", "amount", "currency", "expiresAt"], closed: true)
}

extension CheckoutResource: WireBody {
    public static let schemaName = "Checkout"
    public static let schema: JSONSchema = .object(
        ["payment": .ref(PaymentResource.self), "hold": .ref(HoldResource.self)], required: ["payment", "hold"], closed: true)
}

/// `GET /v1/payments`: how a buyer of this server can pay, for the buyer's page to offer.
public struct PaymentOptionsResource: Sendable, Hashable {
    public struct Option: Sendable, Hashable {
        public var provider: String
        /// Its ways of paying here, the default first.
        public var methods: [String]
        /// Test money: the page says so, plainly.
        public var testMoney: Bool
        /// Stripe with a card form on the buyer's page: the publishable key Stripe.js runs with, and where
        /// the page loads Stripe.js from (Stripe's own, or a local stand-in's copy).
        public var publishableKey: String? = nil
        public var script: String? = nil
        public init(provider: String, methods: [String], testMoney: Bool, publishableKey: String? = nil, script: String? = nil) {
            self.provider = provider; self.methods = methods; self.testMoney = testMoney; self.publishableKey = publishableKey; self.script = script
        }
    }
    /// The online providers; none: a buyer confirms a hold without paying (the counter takes the money).
    public var providers: [Option]
    /// How long a payment keeps its seats.
    public var paymentMinutes: Int

    public init(providers: [Option], paymentMinutes: Int) { self.providers = providers; self.paymentMinutes = paymentMinutes }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("providers", first: true); w.raw("[")
        for (k, option) in providers.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("provider", first: true); w.string(option.provider)
            w.key("methods"); w.raw("[")
            for (m, method) in option.methods.enumerated() { if m > 0 { w.raw(",") }; w.string(method) }
            w.raw("]"); w.key("testMoney"); w.raw(option.testMoney ? "true" : "false")
            if let key = option.publishableKey { w.key("publishableKey"); w.string(key) }
            if let script = option.script { w.key("script"); w.string(script) }
            w.raw("}")
        }
        w.raw("]"); w.key("paymentMinutes"); w.number(paymentMinutes); w.raw("}")
        return w.bytes
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        var options: [Option] = []
        for (k, item) in (o["providers"]?.arrayValue ?? []).enumerated() {
            let option = item.objectValue
            guard let provider = option?["provider"]?.stringValue, let methods = option?["methods"]?.arrayValue?.compactMap({ $0.stringValue }) else {
                log.add("providers[\(k)]", "a provider and its methods")
                continue
            }
            options.append(
                Option(
                    provider: provider, methods: methods, testMoney: option?["testMoney"]?.boolValue == true,
                    publishableKey: option?["publishableKey"]?.stringValue, script: option?["script"]?.stringValue))
        }
        if o["providers"]?.arrayValue == nil { log.add("providers", "missing (expected an array)") }
        let minutes = o["paymentMinutes"]?.intValue
        if minutes == nil { log.add("paymentMinutes", "missing (expected minutes)") }
        guard log.isEmpty, let minutes else { throw .invalid(log.error) }
        self.init(providers: options, paymentMinutes: minutes)
    }
}

extension PaymentOptionsResource: WireBody {
    public static let schemaName = "PaymentOptions"
    public static let schema: JSONSchema = .object(
        [
            "providers": .array(
                .object(
                    [
                        "provider": .oneOf(CheckoutRequest.providers), "methods": .array(.oneOf(CheckoutRequest.methods)), "testMoney": .boolean,
                        "publishableKey": .string(pattern: "^pk_"), "script": .string(format: "uri"),
                    ], required: ["provider", "methods", "testMoney"], closed: true)),
            "paymentMinutes": .integer(minimum: 1, maximum: 120),
        ], required: ["providers", "paymentMinutes"], closed: true
    ).example(#"{"providers":[{"provider":"wechatpay","methods":["native","h5"],"testMoney":false}],"paymentMinutes":15}"#)
}

/// `GET /v1/reports/payments?from&to`: every payment of the period with its provider id and the order
/// it sold, and every mismatch (empty on a healthy day).
public struct PaymentsReportResource: Sendable, Hashable {
    public struct Line: Sendable, Hashable {
        public var id: String, provider: String, providerID: String?, state: String, amount: String, currency: String
        public var holdID: String, showID: String, orderRef: String?, createdAt: String, outcome: String?
        public init(
            id: String, provider: String, providerID: String?, state: String, amount: String, currency: String, holdID: String, showID: String,
            orderRef: String?, createdAt: String, outcome: String?
        ) {
            self.id = id; self.provider = provider; self.providerID = providerID; self.state = state; self.amount = amount; self.currency = currency
            self.holdID = holdID; self.showID = showID; self.orderRef = orderRef; self.createdAt = createdAt; self.outcome = outcome
        }
    }

    public struct Mismatch: Sendable, Hashable {
        public var payment: String, kind: String, detail: String
        public init(payment: String, kind: String, detail: String) { self.payment = payment; self.kind = kind; self.detail = detail }
    }

    /// A refund through a provider, matched to its payment.
    public struct Refund: Sendable, Hashable {
        public var id: String, payment: String, provider: String, providerRefundID: String?, state: String, amount: String, currency: String
        public var orderRef: String?, createdAt: String, reason: String, outcome: String?
        public init(
            id: String, payment: String, provider: String, providerRefundID: String?, state: String, amount: String, currency: String,
            orderRef: String?, createdAt: String, reason: String, outcome: String?
        ) {
            self.id = id; self.payment = payment; self.provider = provider; self.providerRefundID = providerRefundID; self.state = state
            self.amount = amount; self.currency = currency; self.orderRef = orderRef; self.createdAt = createdAt; self.reason = reason
            self.outcome = outcome
        }
    }

    public var from: String, to: String
    public var payments: [Line]
    public var refunds: [Refund]
    public var mismatches: [Mismatch]

    public init(from: String, to: String, payments: [Line], refunds: [Refund] = [], mismatches: [Mismatch]) {
        self.from = from; self.to = to; self.payments = payments; self.refunds = refunds; self.mismatches = mismatches
    }

    public func jsonWriter() -> JSONWriter {
        var w = JSONWriter()
        func optional(_ key: String, _ value: String?) { if let value { w.key(key); w.string(value) } }
        w.raw("{"); w.key("from", first: true); w.string(from); w.key("to"); w.string(to)
        w.key("payments"); w.raw("[")
        for (k, p) in payments.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("id", first: true); w.string(p.id); w.key("provider"); w.string(p.provider); optional("providerId", p.providerID)
            w.key("state"); w.string(p.state); w.key("amount"); w.string(p.amount); w.key("currency"); w.string(p.currency)
            w.key("holdId"); w.string(p.holdID); w.key("showId"); w.string(p.showID); optional("orderRef", p.orderRef)
            w.key("createdAt"); w.string(p.createdAt); optional("outcome", p.outcome); w.raw("}")
        }
        w.raw("]"); w.key("refunds"); w.raw("[")
        for (k, r) in refunds.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("id", first: true); w.string(r.id); w.key("payment"); w.string(r.payment); w.key("provider"); w.string(r.provider)
            optional("providerRefundId", r.providerRefundID); w.key("state"); w.string(r.state); w.key("amount"); w.string(r.amount)
            w.key("currency"); w.string(r.currency); optional("orderRef", r.orderRef); w.key("createdAt"); w.string(r.createdAt)
            w.key("reason"); w.string(r.reason); optional("outcome", r.outcome); w.raw("}")
        }
        w.raw("]"); w.key("mismatches"); w.raw("[")
        for (k, m) in mismatches.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("payment", first: true); w.string(m.payment); w.key("kind"); w.string(m.kind); w.key("detail"); w.string(m.detail); w.raw("}")
        }
        w.raw("]}")
        return w
    }
}

extension PaymentsReportResource: WireBody {
    public static let schemaName = "PaymentsReport"
    public static let schema: JSONSchema = .object(
        [
            "from": .string(format: "date-time"), "to": .string(format: "date-time"),
            "payments": .array(
                .object(
                    [
                        "id": .string(), "provider": .oneOf(["stripe", "wechatpay", "alipay", "external"]), "providerId": .string(),
                        "state": .oneOf(["pending", "succeeded", "failed", "canceled", "refunded"]), "amount": .string(pattern: #"^-?[0-9]+(\.[0-9]+)?$"#),
                        "currency": .string(), "holdId": .string(), "showId": .string(), "orderRef": .string(), "createdAt": .string(format: "date-time"),
                        "outcome": .string(),
                    ], required: ["id", "provider", "state", "amount", "currency", "holdId", "showId", "createdAt"], closed: true)),
            "refunds": .array(
                .object(
                    [
                        "id": .string(), "payment": .string(), "provider": .oneOf(["stripe", "wechatpay", "alipay"]), "providerRefundId": .string(),
                        "state": .oneOf(["pending", "succeeded", "failed"]), "amount": .string(pattern: #"^-?[0-9]+(\.[0-9]+)?$"#), "currency": .string(),
                        "orderRef": .string(), "createdAt": .string(format: "date-time"), "reason": .string(), "outcome": .string(),
                    ], required: ["id", "payment", "provider", "state", "amount", "currency", "createdAt", "reason"], closed: true)),
            "mismatches": .array(
                .object(
                    [
                        "payment": .string(),
                        "kind": .oneOf([
                            "paid-not-sold", "sold-by-another-payment", "pending-past-window", "sold-not-paid", "refund-failed", "refund-pending",
                            "refunded-more-than-paid",
                        ]),
                        "detail": .string(),
                    ], required: ["payment", "kind", "detail"], closed: true)),
        ], required: ["from", "to", "payments", "refunds", "mismatches"], closed: true)
}
