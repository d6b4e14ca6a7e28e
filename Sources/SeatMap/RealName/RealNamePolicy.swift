import Foundation
import SeatJSON

/// How a show sells by real name (`details.realName`): not at all, one buyer's document on each order
/// (一单一证), or one attendee's document on each ticket (一票一证). What the notice of 12 September
/// 2023 asks of a show of 5,000 or more; any show may choose it.
///
/// `"perTicket"`, or an object: `{"mode":"perTicket","idTypes":["idCard","passport"],"maxTicketsPerId":1,
/// "maxTicketsPerPhone":4,"tour":"jay-2026","bindByMinutes":1440,"transferMinutes":120,"transfers":1}`.
/// Members left out keep their defaults; the show keeps the policy whole.
public struct RealNamePolicy: Sendable, Hashable {
    public enum Mode: String, Sendable, CaseIterable {
        case none, perOrder, perTicket
    }

    public var mode: Mode
    /// The document types the show takes (all by default).
    public var idTypes: [IdentityDocument.Kind]
    /// perOrder: the most tickets one order (one document) has in the show; perTicket: the most tickets
    /// one document has over the tour's shows (one a show in any case).
    public var maxTicketsPerId: Int
    /// The most tickets under one phone in the show (nil: no limit).
    public var maxTicketsPerPhone: Int?
    /// The shows that count together for `maxTicketsPerId` (a tour's name; nil: this show alone).
    public var tour: String?
    /// Tickets sold without names (to partners, at the counter) must be bound this many minutes before
    /// the start (the notice's 24 hours).
    public var bindByMinutes: Int
    /// Transfers close this many minutes before the start.
    public var transferMinutes: Int
    /// How many times a ticket may change hands.
    public var transfers: Int

    public init(
        mode: Mode = .none, idTypes: [IdentityDocument.Kind] = IdentityDocument.Kind.allCases, maxTicketsPerId: Int? = nil,
        maxTicketsPerPhone: Int? = nil, tour: String? = nil, bindByMinutes: Int = 1440, transferMinutes: Int = 120, transfers: Int = 1
    ) {
        self.mode = mode; self.idTypes = idTypes; self.maxTicketsPerId = maxTicketsPerId ?? (mode == .perOrder ? 6 : 1)
        self.maxTicketsPerPhone = maxTicketsPerPhone; self.tour = tour; self.bindByMinutes = bindByMinutes
        self.transferMinutes = transferMinutes; self.transfers = transfers
    }

    public static let none = RealNamePolicy()
    public var isOn: Bool { mode != .none }

    static let keys = ["mode", "idTypes", "maxTicketsPerId", "maxTicketsPerPhone", "tour", "bindByMinutes", "transferMinutes", "transfers"]
    /// A week, as the after-sale policy's windows.
    public static let maximumMinutes = AfterSalePolicy.maximumMinutes

    /// The policy in `value` (a mode's name or an object), each problem logged under `path`.
    public init?(jsonValue value: JSONValue, at path: String, into log: inout ProblemLog) {
        let before = log.problems.count
        func mode(_ v: JSONValue, _ at: String) -> Mode? {
            if let text = v.stringValue, let m = Mode(rawValue: text) { return m }
            log.add(at, "expected none, perOrder or perTicket, got \(v.shortDescription)")
            return nil
        }
        if case .string = value {
            guard let m = mode(value, path) else { return nil }
            self.init(mode: m)
            return
        }
        guard let o = value.object(at: path, into: &log) else { return nil }
        o.rejectUnknownKeys(Self.keys, at: path, into: &log)
        guard
            let m = o["mode"].map({ mode($0, path + ".mode") })
                ?? {
                    log.add(path + ".mode", "give none, perOrder or perTicket"); return nil
                }()
        else { return nil }
        var p = RealNamePolicy(mode: m)
        func whole(_ key: String, _ range: ClosedRange<Int>, _ what: String) -> Int? {
            guard let v = o[key] else { return nil }
            guard let n = v.intValue, range.contains(n) else {
                log.add("\(path).\(key)", "\(what), \(range.lowerBound) to \(range.upperBound), got \(v.shortDescription)")
                return nil
            }
            return n
        }
        if let v = o["idTypes"] {
            var kinds: [IdentityDocument.Kind] = []
            for (k, item) in (v.arrayValue ?? []).enumerated() {
                if let kind = item.stringValue.flatMap(IdentityDocument.Kind.init(rawValue:)) {
                    // Named twice is a slip the manager should see (the schema says so: unique items).
                    if kinds.contains(kind) { log.add("\(path).idTypes[\(k)]", "\(kind.rawValue) is listed twice") } else { kinds.append(kind) }
                } else {
                    let names = IdentityDocument.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                    log.add("\(path).idTypes[\(k)]", "expected one of \(names), got \(item.shortDescription)")
                }
            }
            if v.arrayValue == nil || kinds.isEmpty { log.add("\(path).idTypes", "a list of at least one document type") }
            p.idTypes = IdentityDocument.Kind.allCases.filter(kinds.contains)
        }
        p.maxTicketsPerId = whole("maxTicketsPerId", 1...50, "whole tickets") ?? p.maxTicketsPerId
        p.maxTicketsPerPhone = whole("maxTicketsPerPhone", 1...50, "whole tickets") ?? p.maxTicketsPerPhone
        p.bindByMinutes = whole("bindByMinutes", 0...Self.maximumMinutes, "whole minutes before the start") ?? p.bindByMinutes
        p.transferMinutes = whole("transferMinutes", 0...Self.maximumMinutes, "whole minutes before the start") ?? p.transferMinutes
        p.transfers = whole("transfers", 0...9, "times") ?? p.transfers
        if let v = o["tour"] {
            if let t = v.stringValue, (1...64).contains(t.unicodeScalars.count), t.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) {
                p.tour = t
            } else {
                log.add("\(path).tour", "a tour's name, 1 to 64 characters without spaces, got \(v.shortDescription)")
            }
        }
        guard log.problems.count == before else { return nil }
        self = p
    }

    /// The policy in a show's details JSON (`realName`), or none when it has none.
    public init(detailsJSON: String) {
        var log = ProblemLog()
        let details = (try? JSONParser.parse(Array(detailsJSON.utf8)))?.objectValue
        self = details?["realName"].flatMap { RealNamePolicy(jsonValue: $0, at: "realName", into: &log) } ?? .none
    }

    /// Canonical JSON: every member, in a fixed order (`maxTicketsPerPhone` and `tour` when set).
    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("mode", first: true); w.string(mode.rawValue)
        w.key("idTypes"); w.strings(idTypes.map(\.rawValue))
        w.key("maxTicketsPerId"); w.number(maxTicketsPerId)
        if let maxTicketsPerPhone { w.key("maxTicketsPerPhone"); w.number(maxTicketsPerPhone) }
        if let tour { w.key("tour"); w.string(tour) }
        w.key("bindByMinutes"); w.number(bindByMinutes); w.key("transferMinutes"); w.number(transferMinutes)
        w.key("transfers"); w.number(transfers); w.raw("}")
    }
}
