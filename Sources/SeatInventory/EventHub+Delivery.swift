import Foundation
import SeatMap
import SharedState

/// The hub's delivery thread ("seatkit-events"): it takes the shows that have news, brings each of
/// their subscribers to the show's latest version in one message, and paces a show's rounds by its
/// number of subscribers.
extension EventHub {
    /// A show's pause between rounds, per subscriber: 10,000 viewers wait 50 ms after a round (which
    /// itself takes 90–150 ms here: a send wakes its reader), a handful none worth counting. At 20 µs
    /// (200 ms) a change reached 10,000 viewers at p50 267 / p99 482 ms; at 5 µs, p50 ~210 / p99 ~410 ms,
    /// and hold + release beside 10,000 viewers of the show moved within the run-to-run noise.
    static let pausePerSubscriber: UInt64 = 5_000
    static let longestPause: UInt64 = 400_000_000

    /// One show's round, taken under the lock: who is sent what.
    struct Round: Sendable {
        var show: String
        var latest: UInt64
        var subscribers: [Subscriber]
        /// The changes after `roundBase` (every subscriber the last round reached is there).
        var sinceRound: [SeatIndex: SeatStatus]
        var roundBase: UInt64
        /// The ring, for subscribers that joined between rounds.
        var events: [Event]
        var showChange: (revision: Int, json: String)?
        var reset: (version: UInt64, encoded: String)?
    }

    func startDeliveryIfNeeded(_ s: inout State) {
        guard !s.deliveryStarted, !s.stopping else { return }
        s.deliveryStarted = true
        s.deliveryRunning = true
        NamedThread.start("sk-events") { [unowned self] in deliver() }
    }

    func wakeDelivery() { state.withLockWakingWaiters { _ in } }

    /// Ends the delivery thread (what is due is sent first).
    func stop() {
        state.withLockWakingWaiters { $0.stopping = true }
        state.wait(until: { !$0.deliveryRunning }) { _, _ in }
    }

    /// Rounds delivered since the start (for tests and the benchmark's notes).
    var rounds: Int { state.withLock { $0.rounds } }

    private func deliver() {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (rounds, nextAt, stopping, waiting) = state.withLock { s -> ([Round], UInt64?, Bool, Int) in
                var rounds: [Round] = [], nextAt: UInt64?
                for show in s.due {
                    guard let f = s.feeds[show] else {
                        s.due.remove(show)
                        continue
                    }
                    if f.nextRound > now && !s.stopping {
                        nextAt = min(nextAt ?? .max, f.nextRound)
                        continue
                    }
                    s.due.remove(show)
                    rounds.append(Self.takeRound(show, from: &s.feeds[show]!))
                }
                return (rounds, nextAt, s.stopping, s.due.count)
            }
            for round in rounds { send(round) }
            if !rounds.isEmpty { continue }
            if stopping { break }
            let deadline = nextAt.map { Date(timeIntervalSinceNow: Double($0 - min($0, now)) / 1e9) }
            // Until another show becomes due (a publish wakes this thread only then: `due` grows only by
            // publishing), or the earliest due show's next round.
            state.wait(
                until: { s in
                    let now = DispatchTime.now().uptimeNanoseconds
                    return s.stopping || s.due.count != waiting || s.due.contains { s.feeds[$0].map { $0.nextRound <= now } ?? true }
                }, deadline: deadline
            ) { _, _ in }
        }
        state.withLockWakingWaiters { $0.deliveryRunning = false }
    }

    /// Everything the show's subscribers lack, and the feed set as if they had it (they will: only this
    /// thread sends them events, in the order rounds are taken).
    private static func takeRound(_ show: String, from f: inout Feed) -> Round {
        let round = Round(
            show: show, latest: f.latest, subscribers: Array(f.subscribers.values), sinceRound: f.sinceRound, roundBase: f.roundBase,
            events: f.events, showChange: f.show, reset: f.reset)
        for key in f.subscribers.keys {
            f.subscribers[key]!.version = max(f.subscribers[key]!.version, f.latest)
            f.subscribers[key]!.showRevision = f.show?.revision ?? 0
        }
        f.sinceRound = [:]
        f.roundBase = f.latest
        f.reset = nil
        return round
    }

    /// Subscribers a sending task takes at a time: a round of 10,000 is cut in ten, sent by as many
    /// threads as the machine has cores (a send to a loopback socket costs 10–30 µs with its reader
    /// woken; one thread took 100–300 ms a round, 2026-12-03).
    static let sendingChunk = 1_000

    private func send(_ round: Round) {
        // Each distinct starting version's message, made once.
        var made: [UInt64: String] = [:]
        for version in Set(round.subscribers.map(\.version)) where version < round.latest {
            if let text = Self.catchUp(from: version, round) { made[version] = text }
        }
        let showText = round.showChange.map { Self.showMessage($0.json) }
        let gone = Locked([any EventSubscriber]())
        let subscribers = round.subscribers
        let chunks = (subscribers.count + Self.sendingChunk - 1) / Self.sendingChunk
        let texts = made, latest = round.latest, showChange = round.showChange
        let sendChunk: @Sendable (Int) -> Void = { k in
            var lost: [any EventSubscriber] = []
            for subscriber in subscribers[(k * Self.sendingChunk)..<min(subscribers.count, (k + 1) * Self.sendingChunk)] {
                var text = ""
                if subscriber.version < latest {
                    guard let seats = texts[subscriber.version] else {
                        // Memory does not reach back (cannot happen for subscribers rounds have reached):
                        // the client reconnects and starts from a snapshot.
                        subscriber.stream.close()
                        lost.append(subscriber.stream)
                        continue
                    }
                    text = seats
                }
                if let showText, let show = showChange, subscriber.showRevision < show.revision { text += showText }
                if !text.isEmpty && !subscriber.stream.send(text) { lost.append(subscriber.stream) }
            }
            if !lost.isEmpty { gone.withLock { $0 += lost } }
        }
        if chunks > 1 { DispatchQueue.concurrentPerform(iterations: chunks, execute: sendChunk) } else if chunks == 1 { sendChunk(0) }
        let finished = DispatchTime.now().uptimeNanoseconds
        let pause = min(UInt64(round.subscribers.count) * Self.pausePerSubscriber, Self.longestPause)
        state.withLock { s in
            s.rounds += 1
            for g in gone.current { s.feeds[round.show]?.subscribers[ObjectIdentifier(g)] = nil }
            s.feeds[round.show]?.nextRound = finished + pause
        }
    }

    /// The messages that bring a subscriber at `version` to the round's latest: the one event as it was
    /// published when it is one version behind, else one merged delta (after the whole state, when a
    /// reset came since). Nil when memory does not reach back.
    private static func catchUp(from version: UInt64, _ round: Round) -> String? {
        if let reset = round.reset, version < reset.version {
            let after =
                reset.version == round.latest
                ? "" : message(version: round.latest, delta: merged(round.sinceRound, since: reset.version, through: round.latest))
            return "id: \(reset.version)\nevent: reset\ndata: \(reset.encoded)\n\n" + after
        }
        if version + 1 == round.latest, let last = round.events.last, last.version == round.latest {
            return message(version: last.version, delta: last.delta)
        }
        if version == round.roundBase {
            return message(version: round.latest, delta: merged(round.sinceRound, since: version, through: round.latest))
        }
        guard let since = slice(round.events, after: version, through: round.latest) else { return nil }
        return message(version: round.latest, delta: merged(since.map(\.changes), since: version, through: round.latest))
    }
}
