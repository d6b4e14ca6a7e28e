import Foundation
import SeatMap

/// What a rush measured, and the checks it makes: each figure with how it was counted.
struct RushReport {
    var buyers: [RushBuyer]
    var setting: Int?
    var pollEvery: Double
    var arriveOver: Double
    var elapsed: Double
    var before: SeatAvailability
    var after: SeatAvailability
    var samples: [RushSample]
    var errors: [String: Int]

    /// Seats two buyers believe they bought; seats a buyer bought that the server does not show sold.
    var soldTwice: [String] {
        var seen = Set<String>(), twice: [String] = []
        for b in buyers where b.outcome == .bought { for s in b.seats where !seen.insert(s).inserted { twice.append(s) } }
        return twice
    }

    /// Seats a buyer bought that the server does not show sold.
    var soldNotSeen: [String] {
        buyers.filter { $0.outcome == .bought }.flatMap(\.seats).filter { id in seatIndex(id).map { after[$0] != .sold } ?? true }
    }

    /// The venue's seat id → index (its layout).
    var seatIndex: (String) -> SeatIndex?

    static func percentile(_ values: [Double], _ q: Double) -> Double {
        let s = values.sorted()
        return s.isEmpty ? 0 : s[min(s.count - 1, Int(Double(s.count) * q))]
    }

    func text(server: String, show: String, seed: Int) -> String {
        var lines: [String] = []
        let admitted = buyers.compactMap(\.admittedSeen).sorted()
        lines.append(
            String(
                format: "rush against %@ show %@: %d buyers arriving over %.0f s (seed %d), %.1f s in all", server, show, buyers.count, arriveOver, seed,
                elapsed))
        var counts: [RushBuyer.Outcome: Int] = [:]
        for b in buyers { counts[b.outcome, default: 0] += 1 }
        lines.append("  outcomes: " + RushBuyer.Outcome.allCases.compactMap { o in counts[o].map { "\(o.rawValue) \($0)" } }.joined(separator: ", "))

        // Admissions a minute while the rate was the limit: from the first admission seen until buyers
        // stopped waiting or fewer than a tenth of the seats were free (then the room lets in no more than
        // seats are free: the closed loop), as pages saw them (up to one poll late at both ends).
        let seats = before.seatCount
        if let first = admitted.first {
            let limited = samples.first { $0.at > first && ($0.waiting == 0 || $0.available * 10 < seats) }?.at ?? admitted.last ?? first
            let inWindow = admitted.filter { $0 <= limited }
            let minutes = (limited - first) / 60
            if minutes > 0.25, inWindow.count > 1 {
                let rate = Double(inWindow.count - 1) / minutes
                let against = setting.map { String(format: " against the setting %d (%.3f×)", $0, rate / Double($0)) } ?? ""
                lines.append(
                    String(
                        format:
                            "  admissions: %d in all; %.0f a minute from the first (%.1f s) to %.1f s, while buyers waited and a tenth of the seats were free%@",
                        admitted.count, rate, first, limited, against))
            } else {
                lines.append("  admissions: \(admitted.count)")
            }
            var minute = 0, perMinute: [Int] = []
            while first + Double(minute) * 60 <= (admitted.last ?? first) {
                let from = first + Double(minute) * 60
                perMinute.append(admitted.filter { $0 >= from && $0 < from + 60 }.count)
                minute += 1
            }
            lines.append("  admissions by minute from the first: " + perMinute.map(String.init).joined(separator: ", "))
        } else {
            lines.append("  admissions: 0")
        }

        // Fairness after opening: a buyer whose join was sent after an earlier buyer's join was answered,
        // both let in, is out of order when let in more than one question's time plus a tick before it.
        let tolerance = pollEvery * 1.25 + 1
        let later = buyers.filter { !$0.early && $0.admittedSeen != nil && $0.joinSent != nil && $0.joinAnswered != nil }
        let byAnswer = later.sorted { $0.joinAnswered! < $1.joinAnswered! }
        var latestBefore = -Double.infinity, k = 0, outOfOrder = 0
        for b in later.sorted(by: { $0.joinSent! < $1.joinSent! }) {
            while k < byAnswer.count, byAnswer[k].joinAnswered! < b.joinSent! { latestBefore = max(latestBefore, byAnswer[k].admittedSeen!); k += 1 }
            if b.admittedSeen! + tolerance < latestBefore { outOfOrder += 1 }
        }
        lines.append(
            String(
                format:
                    "  fairness, after opening: %d of %d let in ahead of someone who had joined before them (%.2f %%; pages see admission up to %.1f s late)",
                outOfOrder, later.count, later.isEmpty ? 0 : Double(outOfOrder) * 100 / Double(later.count), tolerance))

        // The early arrivals' shuffle: arrival rank against the place it gave (Spearman's rho, near 0 when
        // arriving early gains nothing), and how many of the first half of arrivals got a place in the front half.
        let early = buyers.filter { $0.early && $0.firstPosition != nil && $0.joinSent != nil }
        if early.count >= 10 {
            let byArrival = early.sorted { $0.joinSent! < $1.joinSent! }
            let placeRank = Dictionary(uniqueKeysWithValues: early.sorted { $0.firstPosition! < $1.firstPosition! }.enumerated().map { ($1.index, $0) })
            let n = Double(early.count)
            let d2 = byArrival.enumerated().reduce(0.0) { sum, pair in
                let d = Double(pair.offset - placeRank[pair.element.index]!)
                return sum + d * d
            }
            let rho = 1 - 6 * d2 / (n * (n * n - 1))
            let half = early.count / 2
            let frontHalf = byArrival.prefix(half).filter { placeRank[$0.index]! < half }.count
            lines.append(
                String(
                    format: "  fairness, early arrivals: %d shuffled; arrival rank vs place rho %.3f; %d of the first %d arrivals in the front half (%.1f %%)",
                    early.count, rho, frontHalf, half, Double(frontHalf) * 100 / Double(max(half, 1))))
        }

        let polls = buyers.flatMap(\.pollSeconds)
        lines.append(
            String(
                format: "  queue polls: %d, p50 %.2f ms, p99 %.2f ms", polls.count, Self.percentile(polls, 0.5) * 1000, Self.percentile(polls, 0.99) * 1000))
        let holds = buyers.compactMap(\.holdSeconds)
        lines.append(
            String(
                format: "  holds after admission: %d, p50 %.2f ms, p99 %.2f ms", holds.count, Self.percentile(holds, 0.5) * 1000,
                Self.percentile(holds, 0.99) * 1000))
        if let first = admitted.first, let told = buyers.filter({ $0.outcome == .soldOut }).compactMap(\.endedAt).min() {
            lines.append(String(format: "  sold out: %.1f s after the first admission (the first page told at %.1f s)", told - first, told))
        }

        let bought = buyers.filter { $0.outcome == .bought }.flatMap(\.seats)
        let soldDuring = after.counts.sold - before.counts.sold
        lines.append(
            "  seats: \(bought.count) bought by \(buyers.filter { $0.outcome == .bought }.count) buyers; the server sold \(soldDuring) during the run; "
                + "sold twice \(soldTwice.count), bought but not sold on the server \(soldNotSeen.count)\(bought.count == soldDuring ? "" : " — MISMATCH")")
        lines.append("  server now: available \(after.counts.available), held \(after.counts.held), sold \(after.counts.sold), blocked \(after.counts.blocked)")

        // The server's cost: memory above the start per waiting entry at the peak; CPU per poll while pages waited.
        if let base = samples.first, let peak = samples.max(by: { $0.waiting < $1.waiting }), peak.waiting > 0 {
            let perEntry = (peak.resident - base.resident) / peak.waiting
            // Before the first admission the server does nothing but take joins and answer polls (and
            // its tick): the CPU it used then, over the polls, is what a poll costs. Without such a span,
            // all its work while pages waited, over the polls (an upper bound: holds and sales count too).
            let firstAdmission = admitted.first ?? .infinity
            let early = samples.filter { $0.waiting > 0 && $0.at < firstAdmission - 1 }
            let span = early.count >= 3 ? early : samples.filter { $0.waiting > 0 }
            var cpuPerPoll = 0.0, pollRate = 0.0
            if let a = span.first, let b = span.last, b.polls > a.polls {
                cpuPerPoll = (b.cpu - a.cpu) / (b.polls - a.polls)
                pollRate = (b.polls - a.polls) / max(b.at - a.at, 1e-9)
            }
            lines.append(
                String(
                    format: "  server: peak %.0f waiting, %.0f MB resident (%.0f at the start): %.0f bytes a waiting entry", peak.waiting,
                    peak.resident / 1e6, base.resident / 1e6, perEntry))
            lines.append(
                String(
                    format: "  server CPU: %.1f µs a poll (%@, %.0f polls a second, %.2f cores)", cpuPerPoll * 1e6,
                    early.count >= 3 ? "before the first admission: joins and polls only" : "all its work while pages waited, over the polls",
                    pollRate, cpuPerPoll * pollRate))
        }
        if !errors.isEmpty { lines.append("  client errors (retried): " + errors.map { "\($0.key) ×\($0.value)" }.sorted().joined(separator: "; ")) }
        return lines.joined(separator: "\n")
    }
}
