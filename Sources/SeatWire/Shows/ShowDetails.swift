import Foundation
import SeatMap
import SeatJSON

/// What buyers are told about a show: a fragment of the show request, the show edit and the show,
/// carried as its canonical JSON (keys in a fixed order, each checked).
public enum ShowDetails {
    /// The display fields buyers see: each a text (at most 300 characters) or `{"zh":…,"en":…}`;
    /// `poster` a `https://` URL or a path on this server; `duration` the running time in whole minutes
    /// (1 to 1440); `afterSale` the buyers' own exchanges and refunds (`AfterSalePolicy`, written whole).
    /// Canonical JSON (keys in this order).
    public static func canonical(_ value: JSONValue, into log: inout ProblemLog) -> String? {
        let known = ["title", "film", "format", "language", "poster", "hall", "notes", "duration", "afterSale", "realName", "waitlist"]
        guard let o = value.object(at: "details", into: &log) else { return nil }
        o.rejectUnknownKeys(known, at: "details", into: &log)
        var w = JSONWriter()
        w.raw("{")
        func checked(_ text: String, _ path: String) -> Bool {
            if text.unicodeScalars.count > 300 { log.add(path, "at most 300 characters, got \(text.unicodeScalars.count)"); return false }
            if let bad = WireText.controlCharacter(in: text) { log.add(path, bad); return false }
            return true
        }
        var first = true
        for key in known where o[key] != nil {
            let path = "details.\(key)"
            if key == "afterSale" {
                guard let policy = AfterSalePolicy(jsonValue: o[key]!, at: path, into: &log) else { continue }
                w.key(key, first: first); policy.write(into: &w)
                first = false
                continue
            }
            if key == "waitlist" {
                guard let policy = WaitlistPolicy(jsonValue: o[key]!, at: path, into: &log) else { continue }
                w.key(key, first: first); policy.write(into: &w)
                first = false
                continue
            }
            if key == "realName" {
                guard let policy = RealNamePolicy(jsonValue: o[key]!, at: path, into: &log) else { continue }
                // No mode is no member: a show without real names reads as before.
                if policy.isOn { w.key(key, first: first); policy.write(into: &w); first = false }
                continue
            }
            if key == "duration" {
                guard let minutes = o[key]!.intValue, (1...1440).contains(minutes) else {
                    log.add(path, "the running time in whole minutes, 1 to 1440, got \(o[key]!.shortDescription)")
                    continue
                }
                w.key(key, first: first); w.number(minutes)
                first = false
                continue
            }
            switch o[key]! {
            case .string(let text):
                guard checked(text, path) else { continue }
                if key == "poster" && !(text.hasPrefix("https://") || text.hasPrefix("/")) {
                    log.add(path, "a https:// URL or a path on this server, got \"\(text)\"")
                    continue
                }
                w.key(key, first: first); w.string(text)
            case .object(let both):
                both.rejectUnknownKeys(["zh", "en"], at: path, into: &log)
                for lang in ["zh", "en"] where both[lang] == .null { log.add("\(path).\(lang)", "expected a text, got null") }
                let zh = both.text("zh", into: &log, required: false), en = both.text("en", into: &log, required: false)
                if zh == nil && en == nil { log.add(path, "give zh, en or both") }
                w.key(key, first: first); w.raw("{")
                var inner = true
                for (lang, text) in [("en", en), ("zh", zh)] {
                    guard let text, checked(text, "\(path).\(lang)") else { continue }
                    w.key(lang, first: inner); w.string(text); inner = false
                }
                w.raw("}")
            default:
                log.add(path, "expected a text or {\"zh\":…,\"en\":…}, got \(o[key]!.shortDescription)")
                continue
            }
            first = false
        }
        w.raw("}")
        return w.text
    }
}

extension ShowDetails: WireBody {
    public static let schemaName = "ShowDetails"
    public static let schema: JSONSchema = .object(
        [
            "title": .ref(DisplayText.self),
            "film": .ref(DisplayText.self),
            "format": .ref(DisplayText.self),
            "language": .ref(DisplayText.self),
            "hall": .ref(DisplayText.self),
            "notes": .ref(DisplayText.self),
            "poster": .string(pattern: #"^(https://|/)[^\u0000-\u001f\u007f-\u009f]*$"#, maxLength: 300),
            "duration": .integer(minimum: 1, maximum: 1440).described("running time in minutes"),
            "afterSale": .object(
                [
                    "exchanges": .integer(minimum: 0, maximum: 9).described("how many times a buyer may exchange an order (default 1)"),
                    "exchangeMinutes": .integer(minimum: 0, maximum: 10_080).described("exchanges close this many minutes before the start (30)"),
                    "exchangeFee": .string(pattern: #"^[0-9]{1,6}(\.[0-9]{1,2})?$"#).described("per seat exchanged (\"0\")"),
                    "refunds": .boolean.described("whether a buyer may refund their own order (true)"),
                    "refundMinutes": .integer(minimum: 0, maximum: 10_080).described("refunds close this many minutes before the start (60)"),
                    "refundTiers": .array(
                        .object(
                            [
                                "until": .integer(minimum: 0, maximum: 10_080).described("this fee holds up to this many minutes before the start"),
                                "fee": .string(pattern: #"^((100(\.00?)?|[0-9]{1,2}(\.[0-9]{1,2})?)%|[¥￥]?[0-9]{1,6}(\.[0-9]{1,2})?)$"#)
                                    .described("a share of the seat's price (\"20%\") or an amount a seat (\"¥10.00\")"),
                            ], required: ["until", "fee"], closed: true), minItems: 1, maxItems: 10
                    ).described("a buyer's refund fee by how early it is; refunds close with the last tier"),
                    "oneRefundPerBuyer": .boolean.described("a buyer refunds their part of a show's order once (false)"),
                    "refundRelease": .string(format: "date-time").described("seats refunded before then go back on sale together then"),
                ], closed: true
            ).described("what a buyer may do with their order after the sale, without the box office"),
            "waitlist": .object(
                ["offerMinutes": .integer(minimum: 1, maximum: 1440).described("how long seats offered to the next in line are held for them (10)")],
                closed: true
            ).described("a waitlist (候补) for seats freed by refunds and exchanges: they go to the line before the public"),
            "realName": JSONSchema().with {
                $0.oneOf = [
                    .oneOf(RealNamePolicy.Mode.allCases.map(\.rawValue)),
                    .object(
                        [
                            "mode": .oneOf(RealNamePolicy.Mode.allCases.map(\.rawValue)),
                            "idTypes": .array(.oneOf(IdentityDocument.Kind.allCases.map(\.rawValue)), minItems: 1, maxItems: 5, unique: true),
                            "maxTicketsPerId": .integer(minimum: 1, maximum: 50),
                            "maxTicketsPerPhone": .integer(minimum: 1, maximum: 50),
                            "tour": .string(pattern: #"^[^\u0000-\u0020\u007f]{1,64}$"#, maxLength: 64),
                            "bindByMinutes": .integer(minimum: 0, maximum: 10_080),
                            "transferMinutes": .integer(minimum: 0, maximum: 10_080),
                            "transfers": .integer(minimum: 0, maximum: 9),
                        ], required: ["mode"], closed: true),
                ]
            }.described("real-name sale: none, perOrder (一单一证) or perTicket (一票一证), and its limits"),
        ], closed: true
    ).described("what buyers are told about the show").example(
        #"{"title":{"zh":"沙丘：第二部","en":"Dune: Part Two"},"format":"IMAX 2D","language":"English, Chinese subtitles","duration":166}"#)
}

/// Text in Chinese, English or both.
public enum DisplayText {}

extension DisplayText: WireBody {
    public static let schemaName = "DisplayText"
    public static let schema: JSONSchema = JSONSchema().with {
        $0.oneOf = [
            .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, maxLength: 300),
            .object(
                [
                    "zh": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, maxLength: 300),
                    "en": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, maxLength: 300),
                ], closed: true
            ).with { $0.minProperties = 1 },
        ]
    }
}
