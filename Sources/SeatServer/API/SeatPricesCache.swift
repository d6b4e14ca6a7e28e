import SeatHTTP
import SharedState

/// Each show's seat-prices document per price revision and language, plain and gzipped, made on first
/// use and kept: the 100k arena's costs 40 ms to make (a price for each of 100,000 seats) and every
/// buyer opening the show asks for it. A price change is a new revision, so nothing is ever stale; the
/// oldest entries go past `capacity` (a show, a revision and a language each).
/// Lock: `entries`; documents are made outside it (two first callers may both make one).
final class SeatPricesCache: Sendable {
    private struct Entries: Sendable {
        var byKey: [String: Representations] = [:]
        var order: [String] = []
    }

    private let entries = Locked(Entries())
    let capacity: Int

    init(capacity: Int = 512) { self.capacity = capacity }

    /// The document for `show` at `revision` in `language` (a key), made by `make` when not kept.
    /// - Complexity: O(1) when kept (amortized), else `make`'s.
    func document(show: String, revision: Int, language: String, make: () -> String) -> Representations {
        let key = "\(show)|\(revision)|\(language)"
        if let kept = entries.withLock({ $0.byKey[key] }) { return kept }
        let made = Representations(Array(make().utf8))
        return entries.withLock { e in
            if let first = e.byKey[key] { return first }
            e.byKey[key] = made
            e.order.append(key)
            if e.order.count > capacity {
                let gone = e.order.count - capacity
                for old in e.order.prefix(gone) { e.byKey[old] = nil }
                e.order.removeFirst(gone)
            }
            return made
        }
    }

    var count: Int { entries.withLock { $0.byKey.count } }
}
