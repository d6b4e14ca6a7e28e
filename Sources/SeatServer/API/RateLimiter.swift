import Foundation

/// A token bucket per client address: `rate` requests a second with bursts of `burst`. Buckets idle
/// for a minute are forgotten, so memory stays bounded by the number of active clients.
final class RateLimiter: @unchecked Sendable {
    let rate: Double
    let burst: Double
    private let lock = NSLock()
    private var buckets: [String: (tokens: Double, last: Double)] = [:]
    private var lastSweep = 0.0

    init(rate: Double, burst: Double) { self.rate = rate; self.burst = burst }

    /// nil when allowed; otherwise the seconds to wait.
    func check(_ client: String, now: Double = Date().timeIntervalSince1970) -> Double? {
        guard rate > 0 else { return nil }
        lock.lock(); defer { lock.unlock() }
        if now - lastSweep > 60 {
            buckets = buckets.filter { now - $0.value.last < 60 }
            lastSweep = now
        }
        var b = buckets[client] ?? (burst, now)
        b.tokens = min(burst, b.tokens + (now - b.last) * rate)
        b.last = now
        if b.tokens >= 1 {
            b.tokens -= 1
            buckets[client] = b
            return nil
        }
        buckets[client] = b
        return (1 - b.tokens) / rate
    }
}
