import Foundation
import SharedState

/// Wrong passwords slowed, then locked out, per operator name and per client address (each counted on
/// its own, so one address guessing many names and many addresses guessing one name are both
/// stopped). Three failures are free (typos); each further one makes the next try wait 1, 2, 4, 8 s;
/// the eighth locks the name or address for 15 minutes. Failures are forgotten 15 minutes after the
/// last one; a right password forgets the name's. Counted by this instance: behind a load balancer of
/// N instances a guesser gets N times the tries, still 8 an instance per 15 minutes.
/// Lock: `state` (a leaf).
final class SignInGuard: Sendable {
    static let freeFailures = 3, lockAfter = 8
    static let forgetSeconds: Double = 900, lockSeconds: Double = 900

    struct Entry {
        var failures = 0
        var last: Double = 0
        var notBefore: Double = 0
    }

    enum Verdict: Equatable {
        case allowed
        /// Not before this many seconds; `locked`: the name or address is locked out.
        case wait(seconds: Double, locked: Bool)
    }

    private let state = Locked([String: Entry]())
    private let now: @Sendable () -> Double

    init(now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) { self.now = now }

    /// Whether a try for `name` from `address` may be checked now.
    func check(name: String, address: String) -> Verdict {
        let t = now()
        return state.withLock { entries in
            var worst = Verdict.allowed
            for key in ["name:" + name, "address:" + address] {
                guard let e = entries[key] else { continue }
                if t - e.last >= Self.forgetSeconds && t >= e.notBefore { entries[key] = nil; continue }
                if t < e.notBefore {
                    let wait = e.notBefore - t
                    if case .wait(let w, _) = worst, w >= wait { continue }
                    worst = .wait(seconds: wait, locked: e.failures >= Self.lockAfter)
                }
            }
            return worst
        }
    }

    /// A wrong password (or code) for `name` from `address`.
    func failed(name: String, address: String) {
        let t = now()
        state.withLock { entries in
            for key in ["name:" + name, "address:" + address] {
                var e = entries[key] ?? Entry()
                if t - e.last >= Self.forgetSeconds && t >= e.notBefore { e = Entry() }
                e.failures += 1
                e.last = t
                if e.failures >= Self.lockAfter {
                    e.notBefore = t + Self.lockSeconds
                } else if e.failures > Self.freeFailures {
                    e.notBefore = t + pow(2, Double(e.failures - Self.freeFailures - 1))
                }
                entries[key] = e
            }
            // Bounded: a flood of addresses forgets the oldest entries first (100,000 ≈ 10 MiB).
            if entries.count > 100_000 {
                for (key, _) in entries.sorted(by: { $0.value.last < $1.value.last }).prefix(entries.count - 90_000) { entries[key] = nil }
            }
        }
    }

    /// A right password and code: the name's failures are forgotten (the address's are not: it may be
    /// guessing other names).
    func succeeded(name: String) { state.withLock { $0["name:" + name] = nil } }
}
