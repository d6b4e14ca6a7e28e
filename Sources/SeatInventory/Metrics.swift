import Foundation
import SharedState

/// Counters and a latency histogram, served at `/metrics` in the Prometheus text format.
/// Lock: `state` (a leaf; taken under the inventory lock too).
public final class Metrics: Sendable {
    private struct RouteStatus: Hashable { var route: String; var status: Int }
    static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

    private struct State {
        var requests: [RouteStatus: Int] = [:]
        var counters: [String: Int] = [:]
        var buckets = [Int](repeating: 0, count: Metrics.bounds.count + 1)
        var latencySum = 0.0
        var latencyCount = 0
    }

    private let state = Locked(State())

    package func request(route: String, status: Int, seconds: Double) {
        let k = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        state.withLock { s in
            s.requests[RouteStatus(route: route, status: status), default: 0] += 1
            s.buckets[k] += 1
            s.latencySum += seconds
            s.latencyCount += 1
        }
    }

    package func count(_ name: String, by n: Int = 1) { state.withLock { $0.counters[name, default: 0] += n } }

    public func value(_ name: String) -> Int { state.withLock { $0.counters[name] ?? 0 } }

    /// Why a provider's notification is refused: not signed, signed by another key, signed too long ago,
    /// not readable, about no payment of this server, or not matching the payment it names.
    package static let refusedNotificationReasons = ["unsigned", "forged", "stale", "unreadable", "unknown", "mismatch", "merchant"]

    public func text(gauges: [(String, String, Double)]) -> String {
        let s = state.withLock({ $0 })
        let (requests, counters, buckets, latencySum, latencyCount) = (s.requests, s.counters, s.buckets, s.latencySum, s.latencyCount)
        var out = "# HELP seatkit_requests_total HTTP requests by route and status.\n# TYPE seatkit_requests_total counter\n"
        for key in requests.keys.sorted(by: { ($0.route, $0.status) < ($1.route, $1.status) }) {
            out += "seatkit_requests_total{route=\"\(key.route)\",status=\"\(key.status)\"} \(requests[key]!)\n"
        }
        for (name, help) in [
            ("holds_created", "Holds created."), ("hold_conflicts", "Hold requests refused because a seat was taken."),
            ("rule_violations", "Hold requests refused by the show's selection rules."), ("holds_released", "Holds released by their holder."),
            ("holds_expired", "Holds released by expiry."), ("confirmations", "Holds confirmed (seats sold)."),
            ("rate_limited", "Requests refused by the rate limit."),
            ("show_reloads", "Shows reloaded from the store (a refused or failed write, a gap in the log)."),
            ("store_batches", "Transactions written by the store's writer (group commit)."),
            ("store_changes", "Changes written (store_changes / store_batches: the mean batch)."),
            ("checkouts", "Checkouts: holds made paying, each with a pending payment."),
            ("payment_notifications", "Providers' notifications accepted (signed, known, matching)."),
            ("payments_sold", "Payments that sold their hold's seats."),
            ("payments_late", "Payments that came when their hold was gone: nothing sold, the money to go back."),
            ("payments_refunded_late", "Late payments given back through their provider."),
            ("payments_sold_late", "Late payments that sold their seats, still free, as a new sale."),
            ("payment_refunds_sent", "Refunds through providers the provider took."),
            ("payment_refunds_failed", "Refunds through providers the provider refused (on the payments report)."),
            ("payment_refunds_retried", "Refunds left pending because the provider could not be reached (sent again)."),
            ("webhooks_delivered", "Webhook deliveries an endpoint took (2xx)."),
            ("webhooks_failed_attempts", "Webhook delivery attempts that failed (retried on the schedule)."),
            ("webhook_endpoints_disabled", "Webhook endpoints switched off (failing for 3 days, or 410 Gone)."),
        ] {
            out += "# HELP seatkit_\(name)_total \(help)\n# TYPE seatkit_\(name)_total counter\nseatkit_\(name)_total \(counters[name] ?? 0)\n"
        }
        out += "# HELP seatkit_payment_notifications_refused_total Providers' notifications refused, changing nothing, by reason.\n"
        out += "# TYPE seatkit_payment_notifications_refused_total counter\n"
        for reason in Self.refusedNotificationReasons {
            out += "seatkit_payment_notifications_refused_total{reason=\"\(reason)\"} \(counters["payment_notifications_refused_" + reason] ?? 0)\n"
        }
        out += "# HELP seatkit_request_duration_seconds Time to answer a request.\n# TYPE seatkit_request_duration_seconds histogram\n"
        var cumulative = 0
        for (k, bound) in Self.bounds.enumerated() {
            cumulative += buckets[k]
            out += "seatkit_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        cumulative += buckets[Self.bounds.count]
        out += "seatkit_request_duration_seconds_bucket{le=\"+Inf\"} \(cumulative)\n"
        out += "seatkit_request_duration_seconds_sum \(latencySum)\nseatkit_request_duration_seconds_count \(latencyCount)\n"
        for (name, help, value) in gauges {
            out += "# HELP seatkit_\(name) \(help)\n# TYPE seatkit_\(name) gauge\nseatkit_\(name) \(value)\n"
        }
        return out
    }
}
