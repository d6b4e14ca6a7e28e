import Dispatch
import SeatHTTP
import SharedState

/// Answers to clients over a rate limit, sent only after the wait they are told (`Retry-After`, at most
/// `maximumDelay`). A client looping as fast as it is answered then sends ~10 requests a second instead
/// of ~700: four `?since=` loopers answered at once with 429s still took a quarter of the hold
/// throughput (0.77×) through the CPU their requests cost. The connection is suspended meanwhile (no
/// thread waits), and a client holds at most its address's connection budget of them.
///
/// Lock: `state`. A parked answer is completed under it, so `stop` (before the transport stops) leaves
/// none to be completed on a stopped server; lock order: `state` → `DeferredResponse.lock` → libmicrohttpd.
final class Tarpit: Sendable {
    private struct State {
        var parked: [UInt64: (deferred: DeferredResponse, make: @Sendable () -> HTTPResponse)] = [:]
        var next: UInt64 = 0
        var stopped = false
    }

    let maximumDelay: Double
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "seatkit-tarpit")

    init(maximumDelay: Double = 1) { self.maximumDelay = maximumDelay }

    /// `make`'s answer after `seconds` (capped): a deferred response to return from the handler.
    func answer(after seconds: Double, _ make: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        let deferred = DeferredResponse()
        let id: UInt64? = state.withLock { s in
            guard !s.stopped else { return nil }
            s.next += 1
            s.parked[s.next] = (deferred, make)
            return s.next
        }
        guard let id else { return make() }
        let delay = max(0, min(seconds, maximumDelay))
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            state.withLock { s in
                if let p = s.parked.removeValue(forKey: id) { p.deferred.complete(p.make) }
            }
        }
        return HTTPResponse(status: 0, deferred: deferred)
    }

    /// How many answers are waiting.
    var count: Int { state.withLock { $0.parked.count } }

    /// Sends every waiting answer now; later ones are sent at once. Called before the transport stops.
    func stop() {
        state.withLock { s in
            s.stopped = true
            for p in s.parked.values { p.deferred.complete(p.make) }
            s.parked = [:]
        }
    }
}
