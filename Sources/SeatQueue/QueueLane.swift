/// A priority lane of a waiting room (`lanes` in `PUT /v1/shows/{id}/queue`): buyers holding a pass the
/// manager issued for it (a fan club's members) wait in it, and it is given `share` percent of the
/// admissions while anyone waits in it; the public line has what the lanes leave (none: it moves only
/// when every lane is empty — fan club first, public after). Unused shares go to the lanes that have
/// buyers, so no admission is wasted.
public struct QueueLane: Sendable, Hashable {
    public var name: String
    /// Percent of the admission rate, 1 to 100; the lanes together at most 100.
    public var share: Int

    public init(name: String, share: Int) { self.name = name; self.share = share }

    /// 4: a fan club, a card holders' presale, a venue's members, one more; more lanes split a
    /// minute's admissions too thin to be felt.
    public static let maximum = 4

    /// `fanclub:70,members:10`, as the store keeps them.
    public static func text(_ lanes: [QueueLane]) -> String? {
        lanes.isEmpty ? nil : lanes.map { "\($0.name):\($0.share)" }.joined(separator: ",")
    }

    /// The lanes `text` keeps (malformed parts skipped: the store only holds what was checked).
    public static func parse(_ text: String?) -> [QueueLane] {
        guard let text else { return [] }
        return text.split(separator: ",").compactMap { part in
            let bits = part.split(separator: ":")
            guard bits.count == 2, let share = Int(bits[1]) else { return nil }
            return QueueLane(name: String(bits[0]), share: share)
        }
    }

    /// Whether `name` can name a lane: 1 to 32 lowercase letters, digits and `-`, not `public`.
    public static func isName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count) && name != "public"
            && name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
    }

    /// Every problem of `lanes`, by path (`lanes[1].share`), empty when they are good.
    public static func problems(_ lanes: [QueueLane]) -> [(path: String, message: String)] {
        var out: [(String, String)] = []
        if lanes.count > maximum { out.append(("lanes", "at most \(maximum) lanes, got \(lanes.count)")) }
        var seen: Set<String> = []
        for (k, lane) in lanes.enumerated() {
            if !isName(lane.name) { out.append(("lanes[\(k)].name", "1 to 32 lowercase letters, digits and -, not public")) }
            if !seen.insert(lane.name).inserted { out.append(("lanes[\(k)].name", "\(lane.name) is named twice")) }
            if !(1...100).contains(lane.share) { out.append(("lanes[\(k)].share", "percent of the admissions from 1 to 100, got \(lane.share)")) }
        }
        let total = lanes.reduce(0) { $0 + $1.share }
        if total > 100 { out.append(("lanes", "the lanes' shares add up to \(total) %: at most 100 (the public line has the rest)")) }
        return out
    }
}
