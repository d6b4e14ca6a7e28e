import Foundation
import SeatHTTP
import SharedState
import SeatInventory

/// The latest seat-map picture per show and language. A crowd opening one show (a presale's first
/// minute) would otherwise draw the same 8 MB picture of a 20k arena once per buyer, 0.4 s of CPU each;
/// with this it is drawn once per version, and once every `recentSeconds` for callers that accept a
/// slightly older picture (the page does: it paints the live statuses over it), and compressed once.
/// Concurrent callers wait for the one drawing. Bounded by `maximumBytes`, least recently used first out.
final class PictureCache: Sendable {
    struct Picture {
        var version: UInt64
        var body: Representations
        var drawnAt: UInt64
        var usedAt: UInt64
    }

    private struct State {
        var pictures: [String: Picture] = [:]
        var drawing: Set<String> = []
        var bytes = 0
        var draws = 0

        /// Whether the kept picture of `key` will do.
        func fits(_ key: String, version: UInt64, recent: Bool, within: UInt64) -> Bool {
            guard let p = pictures[key] else { return false }
            return p.version == version || (recent && DispatchTime.now().uptimeNanoseconds - p.drawnAt < within)
        }

        /// The kept picture of `key` if it will do, marked used.
        mutating func take(_ key: String, version: UInt64, recent: Bool, within: UInt64) -> (version: UInt64, body: Representations)? {
            guard fits(key, version: version, recent: recent, within: within), var p = pictures[key] else { return nil }
            let now = DispatchTime.now().uptimeNanoseconds
            p.usedAt = now
            pictures[key] = p
            return (p.version, p.body)
        }
    }

    /// Lock: `state` (a leaf; drawing runs outside it, callers for the same key wait on it).
    private let state = Locked(State())
    let maximumBytes: Int
    let recentNanoseconds: UInt64

    /// How many pictures have been drawn.
    var draws: Int { state.withLock { $0.draws } }

    init(maximumBytes: Int = 64 << 20, recentSeconds: Double = 2) {
        self.maximumBytes = maximumBytes
        recentNanoseconds = UInt64(recentSeconds * 1e9)
    }

    /// The kept picture of `key` at `version` (or, when `recent`, one drawn in the last
    /// `recentSeconds`), without drawing; nil when it must be drawn.
    func cached(_ key: String, version: UInt64, recent: Bool) -> (version: UInt64, body: Representations)? {
        state.withLock { $0.take(key, version: version, recent: recent, within: recentNanoseconds) }
    }

    /// The picture of `key` at `version` (or, when `recent`, one drawn in the last `recentSeconds`),
    /// drawn by `draw` when there is none.
    func picture(_ key: String, version: UInt64, recent: Bool, draw: () -> [UInt8]) -> (version: UInt64, body: Representations) {
        let within = recentNanoseconds
        // Someone drawing this key: wait for them, then take theirs if it will do.
        let kept: (version: UInt64, body: Representations)? = state.wait(until: {
            !$0.drawing.contains(key) || $0.fits(key, version: version, recent: recent, within: within)
        }) { s, _ in
            if let p = s.take(key, version: version, recent: recent, within: within) { return p }
            s.drawing.insert(key)
            return nil
        }
        if let kept { return kept }
        // Drawn and compressed once, outside the lock.
        let body = Representations(draw())
        let maximumBytes = maximumBytes
        state.withLockWakingWaiters { s in
            s.drawing.remove(key)
            s.draws += 1
            let now = DispatchTime.now().uptimeNanoseconds
            if let old = s.pictures[key] { s.bytes -= old.body.byteCount }
            s.pictures[key] = Picture(version: version, body: body, drawnAt: now, usedAt: now)
            s.bytes += body.byteCount
            while s.bytes > maximumBytes, let (oldest, p) = s.pictures.min(by: { $0.value.usedAt < $1.value.usedAt }), oldest != key {
                s.pictures[oldest] = nil
                s.bytes -= p.body.byteCount
            }
        }
        return (version, body)
    }
}
