import Foundation
import SharedState

/// A token bucket per client address: `rate` requests a second with bursts of `burst`. Buckets idle
/// for a minute are forgotten, so memory stays bounded by the number of active clients.
/// Lock: `state` (a leaf).
final class RateLimiter: Sendable {
    let rate: Double
    let burst: Double

    private struct State {
        var buckets: [String: (tokens: Double, last: Double)] = [:]
        var lastSweep = 0.0
    }

    private let state = Locked(State())

    init(rate: Double, burst: Double) { self.rate = rate; self.burst = burst }

    /// nil when allowed; otherwise the seconds to wait.
    /// - Complexity: O(1), and O(clients) once a minute to forget idle buckets.
    func check(_ client: String, now: Double = Date().timeIntervalSince1970) -> Double? {
        guard rate > 0 else { return nil }
        return state.withLock { s in
            if now - s.lastSweep > 60 {
                s.buckets = s.buckets.filter { now - $0.value.last < 60 }
                s.lastSweep = now
            }
            var b = s.buckets[client] ?? (burst, now)
            b.tokens = min(burst, b.tokens + (now - b.last) * rate)
            b.last = now
            defer { s.buckets[client] = b }
            if b.tokens >= 1 {
                b.tokens -= 1
                return nil
            }
            return (1 - b.tokens) / rate
        }
    }

    /// What `check` would answer, taking nothing: nil when a request would be allowed.
    /// - Complexity: O(1).
    func wait(_ client: String, now: Double = Date().timeIntervalSince1970) -> Double? {
        guard rate > 0 else { return nil }
        return state.withLock { s in
            guard let b = s.buckets[client] else { return nil }
            let tokens = min(burst, b.tokens + (now - b.last) * rate)
            return tokens >= 1 ? nil : (1 - tokens) / rate
        }
    }
}
