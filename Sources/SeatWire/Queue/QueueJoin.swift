import SeatJSON
import SeatMap

/// `POST /v1/shows/{id}/queue` (a buyer), optional: the proof of work the room asks (a challenge from
/// `GET /v1/shows/{id}/queue/challenge` and its solution) and, on a real-name show, the buyer's
/// document (one place in the line a document; the admitted hold must carry it among its attendees).
public struct QueueJoinRequest: Sendable, Hashable {
    public var challenge: String?
    public var solution: String?
    public var idType: String?
    public var idNumber: String?
    /// A pass into one of the room's priority lanes (a fan club's), each joining once.
    public var lanePass: String?

    public init(challenge: String? = nil, solution: String? = nil, idType: String? = nil, idNumber: String? = nil, lanePass: String? = nil) {
        self.challenge = challenge; self.solution = solution; self.idType = idType; self.idNumber = idNumber; self.lanePass = lanePass
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{")
        var first = true
        for (key, value) in [("challenge", challenge), ("solution", solution), ("idType", idType), ("idNumber", idNumber), ("lanePass", lanePass)] {
            guard let value else { continue }
            w.key(key, first: first); w.string(value); first = false
        }
        w.raw("}")
        return w.bytes
    }

    /// Strict: unknown members, a challenge without its solution (or the reverse), a document type
    /// without its number (or the reverse) are each named.
    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["challenge", "solution", "idType", "idNumber", "lanePass"], at: "", into: &log)
        let lanePass = o.text("lanePass", into: &log, required: false)
        let challenge = o.text("challenge", into: &log, required: false), solution = o.text("solution", into: &log, required: false)
        let idType = o.text("idType", into: &log, required: false), idNumber = o.text("idNumber", into: &log, required: false)
        if challenge != nil && solution == nil { log.add("solution", "the solution of the challenge (decimal digits)") }
        if solution != nil && challenge == nil { log.add("challenge", "the challenge the solution solves") }
        if let solution, !(1...20).contains(solution.utf8.count) || !solution.utf8.allSatisfy({ (48...57).contains($0) }) {
            log.add("solution", "1 to 20 decimal digits, got \"\(solution.prefix(40))\"")
        }
        if idType != nil && idNumber == nil { log.add("idNumber", "the document's number") }
        if idNumber != nil && idType == nil { log.add("idType", "the document's type (idCard, passport, …)") }
        guard log.isEmpty else { throw .invalid(log.error) }
        self.init(challenge: challenge, solution: solution, idType: idType, idNumber: idNumber, lanePass: lanePass)
    }
}

extension QueueJoinRequest: WireBody {
    public static let schemaName = "QueueJoin"
    public static let schema: JSONSchema = .object(
        [
            "challenge": .string(pattern: #"^pw1\.[^.]+\.[0-9]+\.[0-9]+\.[0-9a-fx]+\.[0-9a-f]{64}$"#)
                .described("a challenge from GET /v1/shows/{id}/queue/challenge, when the room asks a proof of work"),
            "solution": .string(pattern: "^[0-9]{1,20}$").described(
                "decimal digits s such that SHA-256(challenge \".\" s) starts with the challenge's bits of zeros"),
            "idType": .oneOf(["idCard", "passport", "hkMacauPermit", "taiwanPermit", "militaryId"]),
            "idNumber": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]{1,40}$"#)
                .described("a real-name show: the buyer's document (one place in the line a document)"),
            "lanePass": .string(pattern: #"^lp1\.[^.]+\.[a-z0-9-]+\.[0-9a-z]+\.[0-9a-f]{32}$"#)
                .described("a pass into one of the room's priority lanes (POST …/queue/lanes/{lane}/passes), each joining once"),
        ], required: [], closed: true
    ).example(
        #"{"challenge":"pw1.premiere.20.1797000000000.1f2e3d4c5b6a7988x0a1b2c3d4e5f6071.5f0c3d2a9b8e7f6a5b4c3d2e1f0a9b8c5f0c3d2a9b8e7f6a5b4c3d2e1f0a9b8c","solution":"734021"}"#
    )
}

/// `GET /v1/shows/{id}/queue/challenge`: a proof-of-work challenge for joining, valid 5 minutes, spent by one join.
public struct QueueChallengeResource: Sendable, Hashable {
    public var challenge: String
    /// Leading zero bits of SHA-256(challenge "." solution) the join needs (0: the room asks none).
    public var bits: Int
    public var expiresAt: String

    public init(challenge: String, bits: Int, expiresAt: String) { self.challenge = challenge; self.bits = bits; self.expiresAt = expiresAt }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("challenge", first: true); w.string(challenge); w.key("bits"); w.number(bits)
        w.key("expiresAt"); w.string(expiresAt); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(challenge: o.text("challenge"), bits: o.whole("bits"), expiresAt: o.text("expiresAt"))
    }
}

extension QueueChallengeResource: WireBody, WireWritable {
    public static let schemaName = "QueueChallenge"
    public static let schema: JSONSchema = .object(
        [
            "challenge": .string(pattern: #"^pw1\.[^.]+\.[0-9]+\.[0-9]+\.[0-9a-fx]+\.[0-9a-f]{64}$"#),
            "bits": .integer(minimum: 0, maximum: 28),
            "expiresAt": .string(format: "date-time"),
        ], required: ["challenge", "bits", "expiresAt"]
    ).example(
        #"{"challenge":"pw1.premiere.20.1797000000000.1f2e3d4c5b6a7988x0a1b2c3d4e5f6071.5f0c3d2a9b8e7f6a5b4c3d2e1f0a9b8c5f0c3d2a9b8e7f6a5b4c3d2e1f0a9b8c","bits":20,"expiresAt":"2026-12-20T20:05:00.000Z"}"#
    )
}

/// `GET /v1/shows/{id}/queue/draw`: the opening shuffle or a registration's draw, for anyone to check.
/// Before it: the seed's commitment. After: the seed, and every early arrival's entry digest in the
/// order drawn (`HMAC-SHA-256(seed, digest)` ascending); a draw's first `winners` won.
public struct QueueDrawResource: Sendable, Hashable {
    public var showID: String
    public var seedCommitment: String
    public var seed: String?
    public var drawnAt: String?
    public var order: [String]
    /// A draw's winners (the first of `order`); nil for an opening shuffle.
    public var winners: Int?

    public init(showID: String, seedCommitment: String, seed: String?, drawnAt: String?, order: [String], winners: Int?) {
        self.showID = showID; self.seedCommitment = seedCommitment; self.seed = seed; self.drawnAt = drawnAt; self.order = order
        self.winners = winners
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("showId", first: true); w.string(showID); w.key("seedCommitment"); w.string(seedCommitment)
        if let seed { w.key("seed"); w.string(seed) }
        if let drawnAt { w.key("drawnAt"); w.string(drawnAt) }
        w.key("order"); w.raw("[")
        for (k, d) in order.enumerated() {
            if k > 0 { w.raw(",") }
            w.string(d)
        }
        w.raw("]")
        if let winners { w.key("winners"); w.number(winners) }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            showID: o.text("showId"), seedCommitment: o.text("seedCommitment"), seed: o.optionalText("seed"), drawnAt: o.optionalText("drawnAt"),
            order: o["order"]?.arrayValue?.compactMap(\.stringValue) ?? [], winners: o["winners"]?.intValue)
    }
}

extension QueueDrawResource: WireBody, WireWritable {
    public static let schemaName = "QueueDraw"
    public static let schema: JSONSchema = .object(
        [
            "showId": .string(),
            "seedCommitment": .string(pattern: "^[0-9a-f]{64}$"),
            "seed": .string(pattern: "^[0-9a-f]{64}$"),
            "drawnAt": .string(format: "date-time"),
            "order": .array(.string(pattern: "^[0-9a-f]{40}$")),
            "winners": .integer(minimum: 0),
        ], required: ["showId", "seedCommitment", "order"]
    ).example(#"{"showId":"premiere","seedCommitment":"9f2c1e0d8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e","order":[]}"#)
}

/// `POST /v1/shows/{id}/queue/lanes/{lane}/passes` (a manager): how many passes to issue.
public struct QueueLanePassesRequest: Sendable, Hashable {
    public var count: Int
    public static let countRange = 1...10_000

    public init(count: Int) { self.count = count }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["count"], at: "", into: &log)
        let count = o.integer("count", at: "", into: &log)
        if let count, !Self.countRange.contains(count) { log.add("count", "passes from 1 to 10000, got \(count)") }
        guard log.isEmpty, let count else { throw .invalid(log.error) }
        self.init(count: count)
    }

    public func jsonBytes() -> [UInt8] { Array(#"{"count":\#(count)}"#.utf8) }
}

extension QueueLanePassesRequest: WireBody {
    public static let schemaName = "QueueLanePassesRequest"
    public static let schema: JSONSchema = .object(
        ["count": .integer(minimum: countRange.lowerBound, maximum: countRange.upperBound)], required: ["count"], closed: true
    ).example(#"{"count":500}"#)
}

/// The passes issued: hand each to one member (each joins the lane once).
public struct QueueLanePasses: Sendable, Hashable {
    public var lane: String
    public var passes: [String]

    public init(lane: String, passes: [String]) { self.lane = lane; self.passes = passes }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("lane", first: true); w.string(lane); w.key("passes"); w.raw("[")
        for (k, p) in passes.enumerated() {
            if k > 0 { w.raw(",") }
            w.string(p)
        }
        w.raw("]}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(lane: o.text("lane"), passes: o["passes"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }
}

extension QueueLanePasses: WireBody, WireWritable {
    public static let schemaName = "QueueLanePasses"
    public static let schema: JSONSchema = .object(
        ["lane": .string(), "passes": .array(.string(pattern: #"^lp1\.[^.]+\.[a-z0-9-]+\.[0-9a-z]+\.[0-9a-f]{32}$"#))],
        required: ["lane", "passes"]
    ).example(#"{"lane":"fanclub","passes":["lp1.premiere.fanclub.3w5e11264sgsg.5f0c3d2a9b8e7f6a5b4c3d2e1f0a9b8c"]}"#)
}
