import Foundation
import SeatSecrets
import LoopbackHTTP
import SeatJSON
import SeatSamples
import SharedState

/// One buyer of the rush, moved from step to step by whichever worker takes it off the timetable (a
/// value: a buyer is on the timetable or with one worker, never both).
struct RushBuyer: Sendable {
    enum Step: Sendable { case arrive, poll, hold, confirm, release, done }
    enum Outcome: String, Sendable, CaseIterable {
        case bought, released
        case abandonedHold = "left a hold to expire"
        case neverHeld = "let in, never held"
        case gaveUp = "gave up waiting"
        case soldOut = "told sold out"
        case noSeats = "found no seats side by side"
        case lapsed = "place lapsed"
        case refused = "refused"
        case failed = "failed"
        case unfinished = "unfinished"
    }

    var index: Int
    var address: String
    /// Seconds after the start.
    var arriveAt: Double
    var step = Step.arrive
    var entry: String?
    var admission: String?
    /// When the join was sent and answered (seconds after the start).
    var joinSent: Double?, joinAnswered: Double?
    var early = false
    /// The first place seen once in the line (for early arrivals: the place the shuffle gave).
    var firstPosition: Int?
    var admittedSeen: Double?
    var token: String?
    var seats: [String] = []
    var pollSeconds: [Double] = []
    var holdSeconds: Double?
    var outcome = Outcome.unfinished
    /// When the buyer was done (seconds after the start).
    var endedAt: Double?
    var polls = 0
    /// This buyer's plan, drawn from the seed: stop asking after this many polls (nil: keeps asking),
    /// never hold once let in, what to do with a hold, how many seats.
    var givesUpAfter: Int?
    var neverHolds = false
    var plan = Outcome.bought
    var count = 2
    var random: SplitMix64
}

/// Buyers due at a time, earliest first (a binary heap), and the finished ones. Lock: `state`.
final class RushTimetable: Sendable {
    struct State {
        var heap: [(due: Double, buyer: RushBuyer)] = []
        var finished: [RushBuyer] = []
        var stopped = false
    }
    let state: Locked<State>

    init(_ buyers: [RushBuyer]) {
        var s = State()
        for b in buyers { Self.push(&s.heap, (b.arriveAt, b)) }
        state = Locked(s)
    }

    static func push(_ heap: inout [(due: Double, buyer: RushBuyer)], _ item: (due: Double, buyer: RushBuyer)) {
        heap.append(item)
        var i = heap.count - 1
        while i > 0, heap[(i - 1) / 2].due > heap[i].due { heap.swapAt(i, (i - 1) / 2); i = (i - 1) / 2 }
    }

    static func pop(_ heap: inout [(due: Double, buyer: RushBuyer)]) -> RushBuyer {
        let top = heap[0].buyer
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count, heap[l].due < heap[m].due { m = l }
            if r < heap.count, heap[r].due < heap[m].due { m = r }
            if m == i { break }
            heap.swapAt(i, m); i = m
        }
        return top
    }

    /// The next buyer due by `now`, or how long to wait for one (nil when nobody is left).
    func next(now: Double) -> (RushBuyer?, wait: Double?) {
        state.withLock { s in
            if s.stopped || s.heap.isEmpty { return (nil, nil) }
            if s.heap[0].due <= now { return (Self.pop(&s.heap), 0) }
            return (nil, s.heap[0].due - now)
        }
    }

    func put(_ buyer: RushBuyer, at due: Double) {
        var buyer = buyer
        state.withLock { s in
            if buyer.step == .done {
                buyer.endedAt = due
                s.finished.append(buyer)
            } else {
                Self.push(&s.heap, (due, buyer))
            }
        }
    }

    /// Ends the run: everyone still on the timetable is finished as they are.
    func stop() -> [RushBuyer] {
        state.withLock { s in
            s.stopped = true
            s.finished += s.heap.map(\.buyer)
            s.heap = []
            return s.finished
        }
    }

    var remaining: Int { state.withLock { $0.heap.count } }
}

/// The rush itself: `workers` threads, each with one keep-alive connection, taking buyers off the
/// timetable as they fall due and doing their next step (every buyer's requests carry its own
/// `X-Forwarded-For`, so the server sees 20,000 addresses behind one trusted proxy).
struct RushCrowd: Sendable {
    var host: String
    var port: UInt16
    var show: String
    var zones: [String]
    /// Seconds between a waiting page's questions (± a quarter).
    var pollEvery: Double
    var started: Date

    func elapsed() -> Double { Date().timeIntervalSince(started) }

    func work(_ timetable: RushTimetable, errors: Locked<[String: Int]>, until deadline: Double) {
        var connection: HTTPConnection?
        while elapsed() < deadline {
            let (buyer, wait) = timetable.next(now: elapsed())
            guard var buyer else {
                guard let wait else { return }
                Thread.sleep(forTimeInterval: min(wait, 0.05))
                continue
            }
            do {
                if connection == nil { connection = try HTTPConnection(host: host, port: port, timeoutSeconds: 30) }
                let due = try step(&buyer, connection!)
                timetable.put(buyer, at: due)
            } catch {
                connection = nil
                errors.withLock { $0[String(describing: error).prefix(60).description, default: 0] += 1 }
                // The step again shortly (a dropped connection is the client's, not the buyer's).
                timetable.put(buyer, at: elapsed() + 0.5)
            }
        }
    }

    func headers(_ b: RushBuyer) -> [(String, String)] { [("X-Forwarded-For", b.address)] }

    /// A join; when the room asks a proof of work, its challenge fetched and solved first, as a native
    /// app does (no browser: `ProofOfWork.solve`).
    func join(_ b: RushBuyer, _ c: HTTPConnection) throws -> HTTPConnection.Response {
        let path = "/v1/shows/\(show)/queue"
        let r = try c.request("POST", path, headers: headers(b))
        guard r.status == 403, r.text.contains("proof-of-work-required") else { return r }
        let issued = try c.request("GET", path + "/challenge", headers: headers(b))
        guard let o = issued.jsonObject, let challenge = o["challenge"]?.stringValue, let bits = o["bits"]?.intValue else { return r }
        let solution = ProofOfWork.solve(challenge: challenge, bits: bits)
        return try c.request("POST", path, json: #"{"challenge":"\#(challenge)","solution":"\#(solution)"}"#, headers: headers(b))
    }

    /// Does the buyer's next step; when the one after is due.
    func step(_ b: inout RushBuyer, _ c: HTTPConnection) throws -> Double {
        let now = elapsed()
        switch b.step {
        case .arrive:
            b.joinSent = b.joinSent ?? now
            let r = try join(b, c)
            switch r.status {
            case 201:
                let o = r.jsonObject
                b.joinAnswered = elapsed()
                b.entry = o?["entry"]?.stringValue
                b.early = o?["state"]?.stringValue == "early"
                if let p = o?["position"]?.intValue { b.firstPosition = p }
                b.step = .poll
                return try afterPlace(&b, o, now: elapsed())
            case 409 where r.text.contains("queue-not-yet"): return now + 5
            case 410: b.outcome = .soldOut
            default: b.outcome = .refused
            }
            b.step = .done
            return now
        case .poll:
            b.polls += 1
            if let limit = b.givesUpAfter, b.polls > limit {
                b.outcome = .gaveUp; b.step = .done
                return now
            }
            let sent = Date()
            let r = try c.request("GET", "/v1/queue/\(b.entry ?? "")", headers: headers(b))
            b.pollSeconds.append(Date().timeIntervalSince(sent))
            guard r.status == 200 else { b.outcome = .refused; b.step = .done; return now }
            return try afterPlace(&b, r.jsonObject, now: elapsed())
        case .hold:
            return try hold(&b, c, now: now)
        case .confirm:
            let r = try c.request(
                "POST", "/v1/holds/\(b.token ?? "")/confirm", json: "{\"orderRef\":\"RUSH-\(Int(started.timeIntervalSince1970))-\(b.index)\"}",
                headers: headers(b))
            b.outcome = r.status == 200 ? .bought : .failed
            b.step = .done
            return now
        case .release:
            _ = try c.request("DELETE", "/v1/holds/\(b.token ?? "")", headers: headers(b))
            b.outcome = .released; b.step = .done
            return now
        case .done:
            return now
        }
    }

    /// What the place says: wait on (the next question in `pollEvery`, ± a quarter), or go on.
    func afterPlace(_ b: inout RushBuyer, _ o: JSONObject?, now: Double) throws -> Double {
        switch o?["state"]?.stringValue {
        case "admitted":
            b.admittedSeen = now
            b.admission = o?["admission"]?.stringValue
            if b.neverHolds { b.outcome = .neverHeld; b.step = .done; return now }
            b.step = .hold
            // A moment to look at the map.
            return now + 0.5 + Double(b.random.next() % 2000) / 1000
        case "soldOut": b.outcome = .soldOut; b.step = .done; return now
        case "left": b.outcome = .lapsed; b.step = .done; return now
        default:
            if b.firstPosition == nil, let p = o?["position"]?.intValue { b.firstPosition = p }
            return now + pollEvery * (0.75 + Double(b.random.next() % 500) / 1000)
        }
    }

    /// Best available, in one zone or anywhere (a tap's worth of choosing), held with the admission;
    /// a seat taken meanwhile is tried again twice.
    func hold(_ b: inout RushBuyer, _ c: HTTPConnection, now: Double) throws -> Double {
        var h = headers(b)
        if let admission = b.admission { h.append(("Seat-Admission", admission)) }
        for attempt in 0..<3 {
            let zone = attempt == 0 && !zones.isEmpty && b.random.next() % 5 < 2 ? "&zone=\(zones[Int(b.random.next() % UInt64(zones.count))])" : ""
            let best = try c.request("GET", "/v1/shows/\(show)/best?count=\(b.count)\(zone)", headers: headers(b))
            if best.status == 409 || best.status == 404 { continue }
            guard best.status == 200, let seats = best.jsonObject?["seats"]?.arrayValue?.compactMap(\.stringValue), !seats.isEmpty else { break }
            let body = "{\"seats\":[" + seats.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
            let sent = Date()
            let r = try c.request("POST", "/v1/shows/\(show)/holds", json: body, headers: h)
            b.holdSeconds = Date().timeIntervalSince(sent)
            if r.status == 201 {
                b.token = r.jsonObject?["token"]?.stringValue
                b.seats = seats
                switch b.plan {
                case .released: b.step = .release
                case .abandonedHold: b.outcome = .abandonedHold; b.step = .done; return now
                default: b.step = .confirm
                }
                return elapsed() + 2 + Double(b.random.next() % 6000) / 1000
            }
            if r.status != 409 { b.outcome = r.status == 403 ? .refused : .failed; b.step = .done; return now }
        }
        b.outcome = .noSeats
        b.step = .done
        return now
    }
}
