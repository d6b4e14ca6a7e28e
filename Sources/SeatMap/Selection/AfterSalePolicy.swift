import Foundation
import SeatJSON

/// What a buyer may do with their own order after the sale, without the box office: exchange it for
/// other seats or another showing, and give it back. The box office is not bound by it (an operator's
/// exchange or refund is recorded with the operator's name instead).
///
/// A show carries it as `details.afterSale`:
/// `{"exchanges":1,"exchangeMinutes":30,"exchangeFee":"5.00","refunds":true,"refundMinutes":60}`;
/// members left out keep their defaults, which are Maoyan's common terms (one change of showing up to
/// 30 minutes before the start, free; refunds up to 60 minutes before). A big show's refund terms
/// (`AfterSalePolicy+Refunds.swift`) add fees by time (`refundTiers`), one refund a buyer
/// (`oneRefundPerBuyer`) and refunded seats kept back to one announced time (`refundRelease`).
public struct AfterSalePolicy: Sendable, Hashable {
    /// How many times a buyer may exchange one order (0: never).
    public var exchanges: Int
    /// Exchanges close this many minutes before the show starts (and before the new show starts).
    public var exchangeMinutes: Int
    /// What each exchanged seat costs on top of any price difference (in the show's currency).
    public var exchangeFee: Decimal
    /// Whether a buyer may refund their own order.
    public var refunds: Bool
    /// Refunds close this many minutes before the show starts.
    public var refundMinutes: Int
    /// The fee of a buyer's refund by how early it is, latest last (empty: refunds are free).
    public var refundTiers: [RefundTier] = []
    /// A buyer refunds their part of a show's order once (the rest of it stays theirs).
    public var oneRefundPerBuyer = false
    /// Unix milliseconds: seats refunded before then go back on sale together then (nil: at once).
    public var refundRelease: Int64?
    /// The offset `refundRelease` was given in (minutes east of UTC), kept to write it back alike.
    public var refundReleaseOffset = 0

    public init(exchanges: Int = 1, exchangeMinutes: Int = 30, exchangeFee: Decimal = 0, refunds: Bool = true, refundMinutes: Int = 60) {
        self.exchanges = exchanges; self.exchangeMinutes = exchangeMinutes; self.exchangeFee = exchangeFee
        self.refunds = refunds; self.refundMinutes = refundMinutes
    }

    public static let standard = AfterSalePolicy()
    static let keys = [
        "exchanges", "exchangeMinutes", "exchangeFee", "refunds", "refundMinutes", "refundTiers", "oneRefundPerBuyer", "refundRelease",
    ]
    /// A week: a window longer than that is a typing mistake, not a policy.
    public static let maximumMinutes = 10_080

    /// The policy in `value` (an object), each problem logged under `path` (`details.afterSale.exchangeFee`).
    public init?(jsonValue value: JSONValue, at path: String, into log: inout ProblemLog) {
        guard let o = value.object(at: path, into: &log) else { return nil }
        o.rejectUnknownKeys(Self.keys, at: path, into: &log)
        var p = AfterSalePolicy()
        let before = log.problems.count
        func minutes(_ key: String) -> Int? {
            guard let v = o[key] else { return nil }
            guard let n = v.intValue, (0...Self.maximumMinutes).contains(n) else {
                log.add("\(path).\(key)", "whole minutes before the start, 0 to \(Self.maximumMinutes), got \(v.shortDescription)")
                return nil
            }
            return n
        }
        if let v = o["exchanges"] {
            if let n = v.intValue, (0...9).contains(n) { p.exchanges = n } else { log.add("\(path).exchanges", "0 to 9 times, got \(v.shortDescription)") }
        }
        p.exchangeMinutes = minutes("exchangeMinutes") ?? p.exchangeMinutes
        p.refundMinutes = minutes("refundMinutes") ?? p.refundMinutes
        if let v = o["exchangeFee"] {
            if case .string(let text) = v, Self.isFee(text), let fee = PriceTable.parseDecimal(text) {
                p.exchangeFee = fee
            } else {
                log.add("\(path).exchangeFee", "an amount per seat like \"5.00\" (up to 6 digits and 2 decimals), got \(v.shortDescription)")
            }
        }
        if let v = o["refunds"] {
            if let b = v.boolValue { p.refunds = b } else { log.add("\(path).refunds", "expected true or false, got \(v.shortDescription)") }
        }
        p.readRefundTerms(o, at: path, into: &log)
        guard log.problems.count == before else { return nil }
        self = p
    }

    /// `^[0-9]{1,6}(\.[0-9]{1,2})?$`: a fee in yuan and fen (or any currency's two decimals).
    static func isFee(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (s: Substring) in s.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        guard (1...6).contains(parts[0].count), digits(parts[0]) else { return false }
        return parts.count == 1 || ((1...2).contains(parts[1].count) && digits(parts[1]))
    }

    /// The policy in a show's details JSON (`afterSale`), or the standard one when it has none or
    /// cannot be read (details are checked when they are written).
    public init(detailsJSON: String) {
        var log = ProblemLog()
        let details = (try? JSONParser.parse(Array(detailsJSON.utf8)))?.objectValue
        self = details?["afterSale"].flatMap { AfterSalePolicy(jsonValue: $0, at: "afterSale", into: &log) } ?? .standard
    }

    /// Canonical JSON: every member, in a fixed order.
    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("exchanges", first: true); w.number(exchanges); w.key("exchangeMinutes"); w.number(exchangeMinutes)
        w.key("exchangeFee"); w.string("\(exchangeFee)"); w.key("refunds"); w.raw(refunds ? "true" : "false")
        w.key("refundMinutes"); w.number(refundMinutes)
        writeRefundTerms(into: &w)
        w.raw("}")
    }
}
