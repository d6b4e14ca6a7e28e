import SeatJSON
import SeatMap

/// `PUT /v1/shows/{id}/queue` (a manager): when the sale opens, how many buyers are let in a minute,
/// how early arrivals may join (shuffled at opening), how long an admission lasts, how many places
/// one address and one network may hold, and how many arrivals the line takes a second. Strict: each
/// member out of range is named.
public struct QueueSettingsRequest: Sendable, Hashable {
    /// ISO 8601 with its offset.
    public var opensAt: String
    public var admitPerMinute: Int
    public var earlyMinutes: Int
    public var admissionMinutes: Int
    public var maxEntriesPerAddress: Int
    /// Places an IPv4 /24 or an IPv6 /64 may hold; arrivals the line takes a second.
    public var maxEntriesPerNetwork: Int
    public var maxJoinsPerSecond: Int
    /// Leading zero bits a join's proof of work must reach (0: none; `GET …/queue/challenge` gives one).
    public var proofOfWorkBits: Int
    /// Registration and draw: registration closes and the draw is made at this instant (ISO 8601); the
    /// first `drawWinners` get purchase slots from `opensAt`.
    public var drawAt: String?
    public var drawWinners: Int
    /// Priority lanes (`[{"name":"fanclub","share":70}]`): buyers with a lane's pass wait in it, and it
    /// has its share (percent) of the admissions; the public line the rest.
    public var lanes: [QueueLaneSetting]

    /// The bounds (`QueueSettings` in SeatQueue holds the same, for its own callers; QueueTests checks both agree).
    public static let admitPerMinuteRange = 1...100_000
    public static let earlyMinutesRange = 0...20_160
    public static let admissionMinutesRange = 1...60
    public static let maxEntriesPerAddressRange = 1...1_000
    public static let maxEntriesPerNetworkRange = 1...100_000
    public static let maxJoinsPerSecondRange = 1...1_000_000
    public static let proofOfWorkBitsRange = 0...28
    public static let drawWinnersRange = 1...10_000_000

    public init(
        opensAt: String, admitPerMinute: Int, earlyMinutes: Int = 30, admissionMinutes: Int = 10, maxEntriesPerAddress: Int = 8,
        maxEntriesPerNetwork: Int = 64, maxJoinsPerSecond: Int = 1_000, proofOfWorkBits: Int = 0, drawAt: String? = nil, drawWinners: Int = 0,
        lanes: [QueueLaneSetting] = []
    ) {
        self.proofOfWorkBits = proofOfWorkBits; self.drawAt = drawAt; self.drawWinners = drawWinners; self.lanes = lanes
        self.opensAt = opensAt; self.admitPerMinute = admitPerMinute; self.earlyMinutes = earlyMinutes
        self.admissionMinutes = admissionMinutes; self.maxEntriesPerAddress = maxEntriesPerAddress
        self.maxEntriesPerNetwork = maxEntriesPerNetwork; self.maxJoinsPerSecond = maxJoinsPerSecond
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("opensAt", first: true); w.string(opensAt); w.key("admitPerMinute"); w.number(admitPerMinute)
        w.key("earlyMinutes"); w.number(earlyMinutes); w.key("admissionMinutes"); w.number(admissionMinutes)
        w.key("maxEntriesPerAddress"); w.number(maxEntriesPerAddress); w.key("maxEntriesPerNetwork"); w.number(maxEntriesPerNetwork)
        w.key("maxJoinsPerSecond"); w.number(maxJoinsPerSecond)
        writeFairness(into: &w)
        w.raw("}")
        return w.bytes
    }

    /// The proof of work, the draw and the lanes, when set.
    func writeFairness(into w: inout JSONWriter, lanes withLanes: Bool = true) {
        if proofOfWorkBits > 0 { w.key("proofOfWorkBits"); w.number(proofOfWorkBits) }
        if let drawAt { w.key("drawAt"); w.string(drawAt); w.key("drawWinners"); w.number(drawWinners) }
        guard withLanes, !lanes.isEmpty else { return }
        w.key("lanes"); w.raw("[")
        for (k, lane) in lanes.enumerated() {
            w.raw(k == 0 ? "{" : ",{"); w.key("name", first: true); w.string(lane.name); w.key("share"); w.number(lane.share); w.raw("}")
        }
        w.raw("]")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(
            [
                "opensAt", "admitPerMinute", "earlyMinutes", "admissionMinutes", "maxEntriesPerAddress", "maxEntriesPerNetwork", "maxJoinsPerSecond",
                "proofOfWorkBits", "drawAt", "drawWinners", "lanes",
            ], at: "", into: &log)
        let opensAt = o.text("opensAt", into: &log)
        if let s = opensAt, Timestamp.milliseconds(s) == nil {
            log.add("opensAt", "expected an ISO 8601 time like 2026-12-20T20:00:00+08:00, got \"\(s)\"")
        }
        func number(_ key: String, _ range: ClosedRange<Int>, _ what: String, default value: Int?) -> Int? {
            guard let n = o.integer(key, at: "", into: &log, required: value == nil) ?? value else { return nil }
            if !range.contains(n) { log.add(key, "\(what) from \(range.lowerBound) to \(range.upperBound), got \(n)") }
            return n
        }
        let rate = number("admitPerMinute", Self.admitPerMinuteRange, "buyers a minute", default: nil)
        let early = number("earlyMinutes", Self.earlyMinutesRange, "minutes", default: 30)
        let admission = number("admissionMinutes", Self.admissionMinutesRange, "minutes", default: 10)
        let perAddress = number("maxEntriesPerAddress", Self.maxEntriesPerAddressRange, "places", default: 8)
        let perNetwork = number("maxEntriesPerNetwork", Self.maxEntriesPerNetworkRange, "places", default: max(64, perAddress ?? 8))
        let perSecond = number("maxJoinsPerSecond", Self.maxJoinsPerSecondRange, "arrivals a second", default: 1_000)
        let bits = number("proofOfWorkBits", Self.proofOfWorkBitsRange, "bits", default: 0)
        let drawAt = o.text("drawAt", into: &log, required: false)
        var drawOpens: Int64?
        if let s = drawAt {
            drawOpens = Timestamp.milliseconds(s)
            if drawOpens == nil { log.add("drawAt", "expected an ISO 8601 time like 2026-12-18T20:00:00+08:00, got \"\(s)\"") }
        }
        let winners = number("drawWinners", Self.drawWinnersRange, "winners", default: drawAt == nil ? 1 : nil)
        if drawAt == nil, o["drawWinners"] != nil { log.add("drawWinners", "only with drawAt: the instant registration closes and the draw is made") }
        if let drawOpens, let opens = opensAt.flatMap(Timestamp.milliseconds), let early {
            if drawOpens > opens { log.add("drawAt", "no later than opensAt (\(opensAt!)): winners buy from the opening") }
            if drawOpens <= opens - Int64(early) * 60_000 {
                log.add("drawAt", "after registration opens (earlyMinutes = \(early) before opensAt): registrants need a window")
            }
        }
        var lanes: [QueueLaneSetting] = []
        for (k, item) in (o.array("lanes", at: "", into: &log, required: false) ?? []).enumerated() {
            guard let lane = item.object(at: "lanes[\(k)]", into: &log) else { continue }
            lane.rejectUnknownKeys(["name", "share"], at: "lanes[\(k)]", into: &log)
            if let name = lane.string("name", at: "lanes[\(k)]", into: &log), let share = lane.integer("share", at: "lanes[\(k)]", into: &log) {
                lanes.append(QueueLaneSetting(name: name, share: share))
            }
        }
        for p in Self.laneProblems(lanes) { log.add(p.path, p.message) }
        if let perAddress, let perNetwork, perNetwork < perAddress {
            log.add("maxEntriesPerNetwork", "at least maxEntriesPerAddress (\(perAddress)): a network holds its addresses' places")
        }
        guard log.isEmpty, let opensAt, let rate, let early, let admission, let perAddress, let perNetwork, let perSecond, let bits, let winners else {
            throw .invalid(log.error)
        }
        self.init(
            opensAt: opensAt, admitPerMinute: rate, earlyMinutes: early, admissionMinutes: admission, maxEntriesPerAddress: perAddress,
            maxEntriesPerNetwork: perNetwork, maxJoinsPerSecond: perSecond, proofOfWorkBits: bits, drawAt: drawAt,
            drawWinners: drawAt == nil ? 0 : winners, lanes: lanes)
    }

    /// The lanes' rules (QueueLane in SeatQueue holds the same; QueueFairnessTests checks both agree).
    public static func laneProblems(_ lanes: [QueueLaneSetting]) -> [(path: String, message: String)] {
        var out: [(String, String)] = []
        if lanes.count > 4 { out.append(("lanes", "at most 4 lanes, got \(lanes.count)")) }
        var seen: Set<String> = []
        for (k, lane) in lanes.enumerated() {
            let good =
                (1...32).contains(lane.name.utf8.count) && lane.name != "public"
                && lane.name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
            if !good { out.append(("lanes[\(k)].name", "1 to 32 lowercase letters, digits and -, not public")) }
            if !seen.insert(lane.name).inserted { out.append(("lanes[\(k)].name", "\(lane.name) is named twice")) }
            if !(1...100).contains(lane.share) { out.append(("lanes[\(k)].share", "percent of the admissions from 1 to 100, got \(lane.share)")) }
        }
        let total = lanes.reduce(0) { $0 + $1.share }
        if total > 100 { out.append(("lanes", "the lanes' shares add up to \(total) %: at most 100 (the public line has the rest)")) }
        return out
    }
}

extension QueueSettingsRequest: WireBody {
    public static let schemaName = "QueueSettings"
    public static let schema: JSONSchema = .object(
        [
            "opensAt": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, format: "date-time"),
            "admitPerMinute": .integer(minimum: admitPerMinuteRange.lowerBound, maximum: admitPerMinuteRange.upperBound),
            "earlyMinutes": .integer(minimum: earlyMinutesRange.lowerBound, maximum: earlyMinutesRange.upperBound),
            "admissionMinutes": .integer(minimum: admissionMinutesRange.lowerBound, maximum: admissionMinutesRange.upperBound),
            "maxEntriesPerAddress": .integer(minimum: maxEntriesPerAddressRange.lowerBound, maximum: maxEntriesPerAddressRange.upperBound),
            "maxEntriesPerNetwork": .integer(minimum: maxEntriesPerNetworkRange.lowerBound, maximum: maxEntriesPerNetworkRange.upperBound)
                .described("places an IPv4 /24 or an IPv6 /64 may hold at once (default 64, at least maxEntriesPerAddress)"),
            "maxJoinsPerSecond": .integer(minimum: maxJoinsPerSecondRange.lowerBound, maximum: maxJoinsPerSecondRange.upperBound)
                .described("arrivals the line takes a second, from everyone (default 1000); more get 429 queue-busy with Retry-After"),
            "proofOfWorkBits": .integer(minimum: proofOfWorkBitsRange.lowerBound, maximum: proofOfWorkBitsRange.upperBound)
                .described("leading zero bits of SHA-256(challenge.solution) a join must bring (default 0: none); each bit doubles a buyer's work"),
            "drawAt": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*$"#, format: "date-time")
                .described("registration and draw: registration closes and the draw is made at this instant (after joining opens, by opensAt)"),
            "drawWinners": .integer(minimum: drawWinnersRange.lowerBound, maximum: drawWinnersRange.upperBound)
                .described("registrants drawn (with drawAt): each given a purchase slot from opensAt at the admission rate"),
            "lanes": .array(
                .object(
                    ["name": .string(pattern: "^[a-z0-9-]{1,32}$"), "share": .integer(minimum: 1, maximum: 100)], required: ["name", "share"],
                    closed: true), maxItems: 4
            ).described("priority lanes: buyers with a lane's pass wait in it and it has its share (percent) of admissions; the public line the rest"),
        ], required: ["opensAt", "admitPerMinute"], closed: true
    ).example(#"{"opensAt":"2026-12-20T20:00:00+08:00","admitPerMinute":600,"earlyMinutes":30,"admissionMinutes":10,"maxEntriesPerAddress":4}"#)
}

/// A show's waiting room as a manager sees it (`GET`, `PUT`, `DELETE /v1/shows/{id}/queue`).
public struct QueueResource: Sendable, Hashable {
    /// `before` (taking early arrivals), `open` (letting buyers in), `soldOut`, or `off` (switched off: everyone let in).
    public enum State: String, Sendable { case before, open, soldOut, off }
    public var showID: String
    public var state: State
    public var settings: QueueSettingsRequest
    /// Buyers waiting (early arrivals included).
    public var length: Int
    /// Buyers let in so far.
    public var admitted: Int
    public var admittedLastMinute: Int
    /// Seconds a buyer joining now would wait.
    public var waitAtBackSeconds: Int
    public var openedAt: String?
    /// SHA-256 of the opening shuffle's seed, hex: published before opening, so the seed cannot be chosen afterwards.
    public var seedCommitment: String
    /// The seed itself, hex, once the shuffle is done: with the early arrivals' entries anyone can recompute their order.
    public var seed: String?
    public var shuffled: Int
    /// A draw's registrants: so far, or drawn.
    public var registered: Int?
    /// Each priority lane: buyers waiting in it and let in from it.
    public var laneCounts: [QueueLaneCount] = []

    public init(
        showID: String, state: State, settings: QueueSettingsRequest, length: Int, admitted: Int, admittedLastMinute: Int, waitAtBackSeconds: Int,
        openedAt: String?, seedCommitment: String, seed: String?, shuffled: Int, registered: Int? = nil
    ) {
        self.registered = registered
        self.showID = showID; self.state = state; self.settings = settings; self.length = length; self.admitted = admitted
        self.admittedLastMinute = admittedLastMinute; self.waitAtBackSeconds = waitAtBackSeconds; self.openedAt = openedAt
        self.seedCommitment = seedCommitment; self.seed = seed; self.shuffled = shuffled
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("showId", first: true); w.string(showID); w.key("state"); w.string(state.rawValue)
        w.key("opensAt"); w.string(settings.opensAt); w.key("admitPerMinute"); w.number(settings.admitPerMinute)
        w.key("earlyMinutes"); w.number(settings.earlyMinutes); w.key("admissionMinutes"); w.number(settings.admissionMinutes)
        w.key("maxEntriesPerAddress"); w.number(settings.maxEntriesPerAddress)
        w.key("maxEntriesPerNetwork"); w.number(settings.maxEntriesPerNetwork); w.key("maxJoinsPerSecond"); w.number(settings.maxJoinsPerSecond)
        settings.writeFairness(into: &w, lanes: false)
        if let registered { w.key("registered"); w.number(registered) }
        if !laneCounts.isEmpty {
            w.key("lanes"); w.raw("[")
            for (k, lane) in laneCounts.enumerated() {
                w.raw(k == 0 ? "{" : ",{"); w.key("name", first: true); w.string(lane.name); w.key("share"); w.number(lane.share)
                w.key("waiting"); w.number(lane.waiting); w.key("admitted"); w.number(lane.admitted); w.raw("}")
            }
            w.raw("]")
        }
        w.key("length"); w.number(length); w.key("admitted"); w.number(admitted); w.key("admittedLastMinute"); w.number(admittedLastMinute)
        w.key("waitAtBackSeconds"); w.number(waitAtBackSeconds)
        if let openedAt { w.key("openedAt"); w.string(openedAt) }
        w.key("seedCommitment"); w.string(seedCommitment)
        if let seed { w.key("seed"); w.string(seed) }
        w.key("shuffled"); w.number(shuffled); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            showID: o.text("showId"), state: State(rawValue: o.text("state")) ?? .off,
            settings: QueueSettingsRequest(
                opensAt: o.text("opensAt"), admitPerMinute: o.whole("admitPerMinute"), earlyMinutes: o.whole("earlyMinutes"),
                admissionMinutes: o.whole("admissionMinutes"), maxEntriesPerAddress: o.whole("maxEntriesPerAddress"),
                maxEntriesPerNetwork: o.whole("maxEntriesPerNetwork"), maxJoinsPerSecond: o.whole("maxJoinsPerSecond"),
                proofOfWorkBits: o["proofOfWorkBits"]?.intValue ?? 0, drawAt: o.optionalText("drawAt"), drawWinners: o["drawWinners"]?.intValue ?? 0),
            length: o.whole("length"), admitted: o.whole("admitted"), admittedLastMinute: o.whole("admittedLastMinute"),
            waitAtBackSeconds: o.whole("waitAtBackSeconds"), openedAt: o.optionalText("openedAt"), seedCommitment: o.text("seedCommitment"),
            seed: o.optionalText("seed"), shuffled: o.whole("shuffled"), registered: o["registered"]?.intValue)
        laneCounts = (o["lanes"]?.arrayValue ?? []).compactMap(\.objectValue).map {
            QueueLaneCount(
                name: $0["name"]?.stringValue ?? "", share: $0["share"]?.intValue ?? 0, waiting: $0["waiting"]?.intValue ?? 0,
                admitted: $0["admitted"]?.intValue ?? 0)
        }
    }
}

extension QueueResource: WireBody, WireWritable {
    public static let schemaName = "Queue"
    public static let schema: JSONSchema = .object(
        [
            "showId": .string(),
            "state": .oneOf(["before", "open", "soldOut", "off"]),
            "opensAt": .string(format: "date-time"),
            "admitPerMinute": .integer(minimum: 1),
            "earlyMinutes": .integer(minimum: 0),
            "admissionMinutes": .integer(minimum: 1),
            "maxEntriesPerAddress": .integer(minimum: 1),
            "maxEntriesPerNetwork": .integer(minimum: 1),
            "maxJoinsPerSecond": .integer(minimum: 1),
            "length": .integer(minimum: 0),
            "admitted": .integer(minimum: 0),
            "admittedLastMinute": .integer(minimum: 0),
            "waitAtBackSeconds": .integer(minimum: 0),
            "openedAt": .string(format: "date-time"),
            "seedCommitment": .string(pattern: "^[0-9a-f]{64}$"),
            "seed": .string(pattern: "^[0-9a-f]{64}$"),
            "shuffled": .integer(minimum: 0),
            "proofOfWorkBits": .integer(minimum: 1),
            "drawAt": .string(format: "date-time"),
            "drawWinners": .integer(minimum: 1),
            "registered": .integer(minimum: 0).described("a draw's registrants: so far, or drawn"),
            "lanes": .array(
                .object(
                    [
                        "name": .string(), "share": .integer(minimum: 1, maximum: 100), "waiting": .integer(minimum: 0),
                        "admitted": .integer(minimum: 0),
                    ], required: ["name", "share", "waiting", "admitted"])),
        ],
        required: [
            "showId", "state", "opensAt", "admitPerMinute", "earlyMinutes", "admissionMinutes", "maxEntriesPerAddress", "maxEntriesPerNetwork",
            "maxJoinsPerSecond", "length", "admitted",
            "admittedLastMinute", "waitAtBackSeconds", "seedCommitment", "shuffled",
        ])
}

/// A buyer's place in a show's waiting room (`POST /v1/shows/{id}/queue` answers it with the entry id,
/// `GET /v1/queue/{entry}` and its event stream without).
public struct QueuePlace: Sendable, Hashable {
    public enum State: String, Sendable { case early, waiting, admitted, soldOut, left, notDrawn }
    /// The entry id: given once, when joining; it asks for the place and receives the admission.
    public var entry: String?
    public var showID: String
    public var state: State
    /// 1 for the front of the line; absent before the opening shuffle gives places.
    public var position: Int?
    public var ahead: Int?
    public var etaSeconds: Int?
    /// The signed admission (for `Seat-Admission`), once admitted, and until when it lets the buyer start holding.
    public var admission: String?
    public var admittedUntil: String?
    /// The waiting room was switched off: buy without an admission.
    public var queueOff: Bool
    /// When the sale opens (an early arrival's page counts down to it).
    public var opensAt: String?
    /// The room's revision this answer reflects: the page sends it back (`?after=`), and an instance
    /// behind it catches up first, so a page's position never goes back when its requests change instance.
    public var revision: Int
    /// A draw's winner: when the purchase slot starts. A room with a draw: when the draw is made.
    public var slotAt: String?
    public var drawAt: String?
    /// The priority lane the buyer waits in (absent: the public line); `position` counts within it.
    public var lane: String?

    public init(
        entry: String? = nil, showID: String, state: State, position: Int? = nil, ahead: Int? = nil, etaSeconds: Int? = nil, admission: String? = nil,
        admittedUntil: String? = nil, queueOff: Bool = false, opensAt: String? = nil, revision: Int = 0, slotAt: String? = nil, drawAt: String? = nil
    ) {
        self.slotAt = slotAt; self.drawAt = drawAt
        self.entry = entry; self.showID = showID; self.state = state; self.position = position; self.ahead = ahead; self.etaSeconds = etaSeconds
        self.admission = admission; self.admittedUntil = admittedUntil; self.queueOff = queueOff; self.opensAt = opensAt; self.revision = revision
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{")
        var first = true
        if let entry { w.key("entry", first: true); w.string(entry); first = false }
        w.key("showId", first: first); w.string(showID); w.key("state"); w.string(state.rawValue)
        if let position { w.key("position"); w.number(position) }
        if let ahead { w.key("ahead"); w.number(ahead) }
        if let etaSeconds { w.key("etaSeconds"); w.number(etaSeconds) }
        if let admission { w.key("admission"); w.string(admission) }
        if let admittedUntil { w.key("admittedUntil"); w.string(admittedUntil) }
        w.key("queueOff"); w.raw(queueOff ? "true" : "false")
        if let opensAt { w.key("opensAt"); w.string(opensAt) }
        if let slotAt { w.key("slotAt"); w.string(slotAt) }
        if let drawAt { w.key("drawAt"); w.string(drawAt) }
        if let lane { w.key("lane"); w.string(lane) }
        w.key("revision"); w.number(revision)
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            entry: o.optionalText("entry"), showID: o.text("showId"), state: State(rawValue: o.text("state")) ?? .left, position: o["position"]?.intValue,
            ahead: o["ahead"]?.intValue, etaSeconds: o["etaSeconds"]?.intValue, admission: o.optionalText("admission"),
            admittedUntil: o.optionalText("admittedUntil"), queueOff: o.flag("queueOff"), opensAt: o.optionalText("opensAt"),
            revision: o.whole("revision"), slotAt: o.optionalText("slotAt"), drawAt: o.optionalText("drawAt"))
        lane = o.optionalText("lane")
    }
}

extension QueuePlace: WireBody, WireWritable {
    public static let schemaName = "QueuePlace"
    public static let schema: JSONSchema = .object(
        [
            "entry": .string(pattern: "^q[0-9a-f]{32}$"),
            "showId": .string(),
            "state": .oneOf(["early", "waiting", "admitted", "soldOut", "left", "notDrawn"]),
            "position": .integer(minimum: 1),
            "ahead": .integer(minimum: 0),
            "etaSeconds": .integer(minimum: 0),
            "admission": .string(pattern: #"^sa1\.[^.]+\.[0-9a-f]{40}\.[0-9]+\.[0-9a-f]{64}$"#),
            "admittedUntil": .string(format: "date-time"),
            "queueOff": .boolean,
            "opensAt": .string(format: "date-time"),
            "revision": .integer(minimum: 0).described("the room's revision this answer reflects: send it back as ?after= when asking again"),
            "slotAt": .string(format: "date-time").described("a draw's winner: when the purchase slot starts (the admission comes then)"),
            "drawAt": .string(format: "date-time").described("a room with a draw: when registration closes and the draw is made"),
            "lane": .string().described("the priority lane the buyer waits in (absent: the public line); position counts within it"),
        ], required: ["showId", "state", "queueOff", "revision"]
    ).example(
        #"{"entry":"q5f0c3d2a9b8e7f6a5b4c3d2e1f0a9b8c","showId":"premiere","state":"waiting","position":1204,"ahead":1203,"etaSeconds":121,"#
            + #""queueOff":false,"revision":2817}"#)
}

/// A priority lane as a manager sets it.
public struct QueueLaneSetting: Sendable, Hashable {
    public var name: String
    public var share: Int
    public init(name: String, share: Int) { self.name = name; self.share = share }
}

/// A priority lane as a manager sees it: its share, buyers waiting in it and let in from it.
public struct QueueLaneCount: Sendable, Hashable {
    public var name: String
    public var share: Int
    public var waiting: Int
    public var admitted: Int
    public init(name: String, share: Int, waiting: Int, admitted: Int) {
        self.name = name; self.share = share; self.waiting = waiting; self.admitted = admitted
    }
}
