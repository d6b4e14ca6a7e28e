import Foundation
import SeatJSON

/// What a buyer's refund costs while it is early enough: `{"until": 1440, "fee": "20%"}` is a fee of
/// 20 % of each seat's price for a refund made up to 1,440 minutes (a day) before the start;
/// `"fee": "¥10.00"` is ten yuan a seat. The published tiers of China's big shows (the notice of
/// September 2023 asks for them) read like this: free a week out, 20 % up to a day, 50 % after.
public struct RefundTier: Sendable, Hashable {
    public enum Fee: Sendable, Hashable {
        /// Percent of the seat's price, 0 to 100.
        case percent(Decimal)
        /// An amount a seat, in the show's currency.
        case amount(Decimal)
    }

    /// Minutes before the start up to which this fee holds.
    public var until: Int
    public var fee: Fee
    /// `20%` or `10.00`, as the policy was given it (without the currency sign): how it writes it back.
    public let feeText: String

    public init(until: Int, fee: Fee) {
        self.until = until; self.fee = fee
        switch fee {
        case .percent(let p): feeText = "\(p)%"
        case .amount(let a): feeText = "\(a)"
        }
    }

    init(until: Int, fee: Fee, written: String) { self.until = until; self.fee = fee; self.feeText = written }

    /// The fee of a seat sold at `price`, rounded half up to `minorUnits`, never more than the price.
    /// - Complexity: O(1).
    public func fee(of price: Decimal, minorUnits: Int) -> Decimal {
        let raw: Decimal
        switch fee {
        case .percent(let p): raw = price * p / 100
        case .amount(let a): raw = a
        }
        return max(0, min(price, PriceTable.round(raw, minorUnits: minorUnits)))
    }

    /// `20%`, `12.5%`, `¥10.00`, `￥10`, `10.00`, with how it is written back (`20%`, `10.00`); nil for anything else.
    static func readFee(_ text: String) -> (Fee, written: String)? {
        if text.hasSuffix("%") {
            // 0 to 100 with up to two decimals, as the schema's pattern: `7%`, `12.5%`, `100.00%`.
            let number = String(text.dropLast()), whole = number.split(separator: ".", omittingEmptySubsequences: false)[0]
            guard AfterSalePolicy.isFee(number), whole.count <= 3, let p = PriceTable.parseDecimal(number), p <= 100,
                whole.count < 3 || whole == "100"
            else { return nil }
            return (.percent(p), "\(p)%")
        }
        let amount = text.hasPrefix("¥") || text.hasPrefix("￥") ? String(text.dropFirst()) : text
        guard AfterSalePolicy.isFee(amount), let a = PriceTable.parseDecimal(amount) else { return nil }
        return (.amount(a), amount)
    }
}

extension AfterSalePolicy {
    /// At most this many tiers: Damai's and Maoyan's published terms have 3 or 4.
    public static let maximumTiers = 10

    /// The tier a buyer's refund `millisecondsBeforeStart` before the start falls in: of the tiers whose
    /// `until` has not passed, the earliest; nil when there are no tiers or the last one has passed.
    /// - Complexity: O(tiers).
    public func refundTier(millisecondsBeforeStart left: Int64) -> RefundTier? {
        refundTiers.first { Int64($0.until) * 60_000 < left }
    }

    /// Reads `refundTiers`, `oneRefundPerBuyer` and `refundRelease` of `o`; with tiers, refunds close
    /// at the last one (`refundMinutes`, which may be left out or must agree).
    mutating func readRefundTerms(_ o: JSONObject, at path: String, into log: inout ProblemLog) {
        if let v = o["refundTiers"] {
            readTiers(v, at: "\(path).refundTiers", into: &log)
            if let last = refundTiers.last {
                if o["refundMinutes"] != nil, refundMinutes != last.until {
                    log.add(
                        "\(path).refundMinutes",
                        "refunds close with the last tier (\(last.until) minutes before the start): leave refundMinutes out or make it \(last.until)")
                }
                refundMinutes = last.until
            }
        }
        if let v = o["oneRefundPerBuyer"] {
            if let b = v.boolValue { oneRefundPerBuyer = b } else { log.add("\(path).oneRefundPerBuyer", "expected true or false, got \(v.shortDescription)") }
        }
        if let v = o["refundRelease"] {
            let zone = { (t: String) in t.hasSuffix("Z") || t.hasSuffix("z") ? "Z" : String(t.suffix(6)) }
            if let text = v.stringValue, let ms = Timestamp.milliseconds(text), let offset = Timestamp.offsetMinutes(zone(text)) {
                refundRelease = ms
                refundReleaseOffset = offset
            } else {
                log.add("\(path).refundRelease", "a time with its offset like \"2026-12-20T12:00:00+08:00\", got \(v.shortDescription)")
            }
        }
    }

    private mutating func readTiers(_ v: JSONValue, at path: String, into log: inout ProblemLog) {
        guard let items = v.arrayValue, (1...Self.maximumTiers).contains(items.count) else {
            log.add(path, "1 to \(Self.maximumTiers) tiers like {\"until\": 1440, \"fee\": \"20%\"}, got \(v.shortDescription)")
            return
        }
        var tiers: [RefundTier] = []
        for (k, item) in items.enumerated() {
            let at = "\(path)[\(k)]"
            guard let t = item.object(at: at, into: &log) else { continue }
            t.rejectUnknownKeys(["until", "fee"], at: at, into: &log)
            let until = t["until"].flatMap { $0.intValue }.flatMap { (0...Self.maximumMinutes).contains($0) ? $0 : nil }
            if until == nil {
                log.add("\(at).until", "whole minutes before the start, 0 to \(Self.maximumMinutes), got \(t["until"]?.shortDescription ?? "nothing")")
            }
            let fee = t["fee"].flatMap(\.stringValue).flatMap(RefundTier.readFee)
            if fee == nil {
                log.add(
                    "\(at).fee",
                    "a share of the price like \"20%\" (0 to 100) or an amount a seat like \"¥10.00\", got \(t["fee"]?.shortDescription ?? "nothing")")
            }
            guard let until, let fee else { continue }
            if let same = tiers.firstIndex(where: { $0.until == until }) {
                log.add("\(at).until", "\(until) minutes is also tier \(same)'s: each tier ends at its own time")
                continue
            }
            tiers.append(RefundTier(until: until, fee: fee.0, written: fee.written))
        }
        refundTiers = tiers.sorted { $0.until > $1.until }
    }

    /// The members of the refund terms that differ from none, so a show without them reads as before.
    func writeRefundTerms(into w: inout JSONWriter) {
        if !refundTiers.isEmpty {
            w.key("refundTiers"); w.raw("[")
            for (k, t) in refundTiers.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("until", first: true); w.number(t.until); w.key("fee"); w.string(t.feeText); w.raw("}")
            }
            w.raw("]")
        }
        if oneRefundPerBuyer { w.key("oneRefundPerBuyer"); w.raw("true") }
        if let at = refundRelease { w.key("refundRelease"); w.string(Timestamp.text(at, offsetMinutes: refundReleaseOffset)) }
    }
}
