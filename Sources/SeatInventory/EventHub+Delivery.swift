import Foundation
import SeatMap
import SharedState

/// The hub's delivery thread ("seatkit-events"): it takes the shows that have news, brings each of
/// their subscribers to the show's latest version in one message, and paces a show's rounds by its
/// number of subscribers.
extension EventHub {
    /// A round's pause per subscriber before the show's next round: 10,000 viewers wait ~200 ms between
    /// rounds (at most ~50,000 sends a second, a few percent of this 2-core machine), a handful of viewers
    /// none worth counting; a change still reaches all 10,000 within ~0.3 s (the issue asks ≤ 0.5 s p99).
    static let pausePerSubscriber: UInt64 = 20_000
    static let longestPause: UInt64 = 400_000_000

    /// One show's round, taken under the lock: who is sent what.
    struct Round {
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
        let thread = Thread { [unowned self] in deliver() }
        thread.name = "seatkit-events"
        thread.start()
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

    private func send(_ round: Round) {
        let started = DispatchTime.now().uptimeNanoseconds
        var texts: [UInt64: String?] = [:]
        var gone: [any EventSubscriber] = []
        for subscriber in round.subscribers {
            var text = ""
            if subscriber.version < round.latest {
                let seats: String?
                if let cached = texts[subscriber.version] {
                    seats = cached
                } else {
                    seats = Self.catchUp(from: subscriber.version, round)
                    texts[subscriber.version] = seats
                }
                guard let seats else {
                    // Memory does not reach back (cannot happen for subscribers rounds have reached):
                    // the client reconnects and starts from a snapshot.
                    subscriber.stream.close()
                    gone.append(subscriber.stream)
                    continue
                }
                text = seats
            }
            if let show = round.showChange, subscriber.showRevision < show.revision { text += Self.showMessage(show.json) }
            if !text.isEmpty && !subscriber.stream.send(text) { gone.append(subscriber.stream) }
        }
        let finished = DispatchTime.now().uptimeNanoseconds
        let pause = min(UInt64(round.subscribers.count) * Self.pausePerSubscriber, Self.longestPause)
        state.withLock { s in
            s.rounds += 1
            for g in gone { s.feeds[round.show]?.subscribers[ObjectIdentifier(g)] = nil }
            s.feeds[round.show]?.nextRound = finished + max(pause, finished - started)
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
