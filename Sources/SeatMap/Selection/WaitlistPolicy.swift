import Foundation
import SeatJSON

/// A show's waitlist for freed seats (候补), `details.waitlist`: `{"offerMinutes": 10}` turns it on. A buyer
/// in line gets the seats a refund frees (or an exchange gives back) before the public does, held for
/// them `offerMinutes`; unpaid, they go to the next in line. Damai's and Maoyan's 候补 work so, because
/// returned tickets otherwise go to scripts polling every 0.5 s.
public struct WaitlistPolicy: Sendable, Hashable {
    /// How long an offer's hold lasts.
    public var offerMinutes: Int
    /// Every entry pays when it joins, through a payment provider, the most its seats can cost (Damai's
    /// 候补 asks so: an offer is then sold at once, the buyer need not be there); the money goes back in
    /// full when nothing comes (the buyer leaves, the show begins or is cancelled), and the difference
    /// when the seats offered cost less.
    public var prepay: Bool

    public init(offerMinutes: Int = 10, prepay: Bool = false) { self.offerMinutes = offerMinutes; self.prepay = prepay }

    static let keys = ["offerMinutes", "prepay"]

    /// The policy in `value` (an object), each problem logged under `path`.
    public init?(jsonValue value: JSONValue, at path: String, into log: inout ProblemLog) {
        guard let o = value.object(at: path, into: &log) else { return nil }
        o.rejectUnknownKeys(Self.keys, at: path, into: &log)
        var p = WaitlistPolicy()
        if let v = o["offerMinutes"] {
            guard let n = v.intValue, (1...1440).contains(n) else {
                log.add("\(path).offerMinutes", "whole minutes an offer is held, 1 to 1440, got \(v.shortDescription)")
                return nil
            }
            p.offerMinutes = n
        }
        if let v = o["prepay"] {
            guard let b = v.boolValue else {
                log.add("\(path).prepay", "true (every entry pays when joining) or false, got \(v.shortDescription)")
                return nil
            }
            p.prepay = b
        }
        self = p
    }

    /// The show's waitlist in its details JSON, nil when it has none.
    public init?(detailsJSON: String) {
        var log = ProblemLog()
        guard let value = (try? JSONParser.parse(Array(detailsJSON.utf8)))?.objectValue?["waitlist"],
            let p = WaitlistPolicy(jsonValue: value, at: "waitlist", into: &log)
        else { return nil }
        self = p
    }

    /// Canonical JSON.
    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("offerMinutes", first: true); w.number(offerMinutes)
        if prepay { w.key("prepay"); w.raw("true") }
        w.raw("}")
    }
}
