import Foundation
import SeatJSON

/// `{"currency":"CNY","minorUnits":2,"categories":{"vip":"58.00"},"adjustments":[{"row":"1","amount":"-5"}]}`.
/// Amounts and multipliers are text (exact); a JSON number is refused, since its binary reading may
/// already differ from what was meant (`33.3` is 33.29999…). An amount has at most `minorUnits` decimals:
/// `"1.0000000001"` would otherwise be stored as 1.00 without a word.
extension PriceTable {
    public init(json bytes: [UInt8]) throws(LayoutError) {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw LayoutError(error) }
        try self.init(jsonValue: root)
    }

    public init(jsonValue root: JSONValue) throws(LayoutError) {
        var log = ProblemLog()
        guard let doc = root.object(at: "", into: &log) else { throw log.error }
        doc.rejectUnknownKeys(["currency", "minorUnits", "categories", "adjustments", "tables"], at: "", into: &log)
        let currency = doc.string("currency", at: "", into: &log, required: false) ?? "CNY"
        let minor = doc.integer("minorUnits", at: "", into: &log, required: false) ?? 2
        if minor < 0 || minor > 6 { log.add("minorUnits", "must be 0 to 6, got \(minor)") }
        func amount(_ v: JSONValue, _ path: String) -> Decimal? {
            guard let d = Self.decimal(v, path: path, log: &log) else { return nil }
            if minor >= 0 && minor <= 6, Self.round(d, minorUnits: minor) != d {
                log.add(path, "\(v.shortDescription) has more decimals than \(currency) has (\(minor)); the amount would change")
                return nil
            }
            return d
        }
        var prices: [String: Decimal] = [:]
        if let cats = doc.object("categories", at: "", into: &log) {
            for (k, key) in cats.keys.enumerated() {
                if let d = amount(cats.values[k], "categories.\(key)") { prices[key] = d }
            }
        }
        var adjustments: [PriceAdjustment] = []
        for (k, v) in (doc.array("adjustments", at: "", into: &log, required: false) ?? []).enumerated() {
            let path = "adjustments[\(k)]"
            guard let o = v.object(at: path, into: &log) else { continue }
            o.rejectUnknownKeys(["zone", "row", "seat", "amount", "multiplier"], at: path, into: &log)
            let targets: [PriceAdjustment.Target] = [
                o.string("zone", at: path, into: &log, required: false).map { .zone($0) },
                o.string("row", at: path, into: &log, required: false).map { .row($0) },
                o.string("seat", at: path, into: &log, required: false).map { .seat($0) },
            ].compactMap { $0 }
            let changes: [PriceAdjustment.Change] = [
                o["amount"].flatMap { amount($0, path + ".amount") }.map { .amount($0) },
                o["multiplier"].flatMap { Self.decimal($0, path: path + ".multiplier", log: &log) }.map { .multiplier($0) },
            ].compactMap { $0 }
            guard targets.count == 1 else { log.add(path, "name exactly one of zone, row or seat"); continue }
            guard ["amount", "multiplier"].filter({ o[$0] != nil }).count == 1 else {
                log.add(path, "give exactly one of amount or multiplier"); continue
            }
            guard changes.count == 1 else { continue }  // its problem is recorded
            if case .multiplier(let m) = changes[0], m < 0 { log.add(path + ".multiplier", "must not be negative") }
            adjustments.append(PriceAdjustment(target: targets[0], change: changes[0]))
        }
        var tablePrices: [String: Decimal] = [:]
        if let tables = doc.object("tables", at: "", into: &log, required: false) {
            for (k, id) in tables.keys.enumerated() {
                guard let d = amount(tables.values[k], "tables.\(id)") else { continue }
                if d < 0 { log.add("tables.\(id)", "must not be negative") } else { tablePrices[id] = d }
            }
        }
        try log.check()
        self.init(currency: currency, minorUnits: minor, categoryPrices: prices, adjustments: adjustments, tablePrices: tablePrices)
    }

    /// A strict decimal written as text: `-?digits(.digits)?`.
    static func decimal(_ v: JSONValue, path: String, log: inout ProblemLog) -> Decimal? {
        let text: String
        switch v {
        case .string(let s): text = s
        case .number:
            log.add(path, "expected a decimal amount as text like \"33.30\", got the number \(v.shortDescription)")
            return nil
        default: log.add(path, "expected a decimal amount like \"33.30\", got \(v.shortDescription)"); return nil
        }
        if let d = parseDecimal(text) { return d }
        log.add(path, "expected a decimal amount like \"33.30\", got \(v.shortDescription)")
        return nil
    }

    public static func parseDecimal(_ text: String) -> Decimal? {
        let u = Array(text.utf8)
        var i = 0
        if i < u.count, u[i] == UInt8(ascii: "-") { i += 1 }
        let intStart = i
        while i < u.count, u[i] >= 48, u[i] <= 57 { i += 1 }
        guard i > intStart else { return nil }
        if i < u.count, u[i] == UInt8(ascii: ".") {
            i += 1
            let fracStart = i
            while i < u.count, u[i] >= 48, u[i] <= 57 { i += 1 }
            guard i > fracStart else { return nil }
        }
        guard i == u.count, u.count <= 30 else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("currency", first: true); w.string(currency)
        w.key("minorUnits"); w.number(minorUnits)
        w.key("categories"); w.raw("{")
        for (k, key) in categoryPrices.keys.sorted().enumerated() {
            w.key(key, first: k == 0); w.string(amountString(categoryPrices[key]!))
        }
        w.raw("}"); w.key("adjustments"); w.raw("[")
        for (k, a) in adjustments.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("{")
            switch a.target {
            case .zone(let id): w.key("zone", first: true); w.string(id)
            case .row(let id): w.key("row", first: true); w.string(id)
            case .seat(let id): w.key("seat", first: true); w.string(id)
            }
            switch a.change {
            case .amount(let d): w.key("amount"); w.string(amountString(d))
            case .multiplier(let d): w.key("multiplier"); w.string("\(d)")
            }
            w.raw("}")
        }
        w.raw("]")
        // Only when set, so every table without one reads as it did.
        if !tablePrices.isEmpty {
            w.key("tables"); w.raw("{")
            for (k, id) in tablePrices.keys.sorted().enumerated() { w.key(id, first: k == 0); w.string(amountString(tablePrices[id]!)) }
            w.raw("}")
        }
        w.raw("}")
        return w.bytes
    }
}
