import Foundation
import SeatHTTP
import SeatInventory

/// The latest seat-map picture per show and language. A crowd opening one show (a presale's first
/// minute) would otherwise draw the same 8 MB picture of a 20k arena once per buyer, 0.4 s of CPU each;
/// with this it is drawn once per version, and once every `recentSeconds` for callers that accept a
/// slightly older picture (the page does: it paints the live statuses over it), and compressed once.
/// Concurrent callers wait for the one drawing. Bounded by `maximumBytes`, least recently used first out.
final class PictureCache: @unchecked Sendable {
    struct Picture {
        var version: UInt64
        var body: Representations
        var drawnAt: UInt64
        var usedAt: UInt64
    }

    private let condition = NSCondition()
    private var pictures: [String: Picture] = [:]
    private var drawing: Set<String> = []
    private var bytes = 0
    let maximumBytes: Int
    let recentNanoseconds: UInt64
    private var drawCount = 0

    /// How many pictures have been drawn (read under the lock: tests read it from other threads).
    var draws: Int {
        condition.lock(); defer { condition.unlock() }
        return drawCount
    }

    init(maximumBytes: Int = 64 << 20, recentSeconds: Double = 2) {
        self.maximumBytes = maximumBytes
        recentNanoseconds = UInt64(recentSeconds * 1e9)
    }

    /// The kept picture of `key` at `version` (or, when `recent`, one drawn in the last
    /// `recentSeconds`), without drawing; nil when it must be drawn.
    func cached(_ key: String, version: UInt64, recent: Bool) -> (version: UInt64, body: Representations)? {
        condition.lock(); defer { condition.unlock() }
        let now = DispatchTime.now().uptimeNanoseconds
        guard var p = pictures[key], p.version == version || (recent && now - p.drawnAt < recentNanoseconds) else { return nil }
        p.usedAt = now
        pictures[key] = p
        return (p.version, p.body)
    }

    /// The picture of `key` at `version` (or, when `recent`, one drawn in the last `recentSeconds`),
    /// drawn by `draw` when there is none.
    func picture(_ key: String, version: UInt64, recent: Bool, draw: () -> [UInt8]) -> (version: UInt64, body: Representations) {
        condition.lock()
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            if var p = pictures[key], p.version == version || (recent && now - p.drawnAt < recentNanoseconds) {
                p.usedAt = now
                pictures[key] = p
                condition.unlock()
                return (p.version, p.body)
            }
            if !drawing.contains(key) { break }
            condition.wait()
        }
        drawing.insert(key)
        condition.unlock()
        // Drawn and compressed once, outside the lock.
        let body = Representations(draw())
        condition.lock()
        drawing.remove(key)
        drawCount += 1
        let now = DispatchTime.now().uptimeNanoseconds
        if let old = pictures[key] { bytes -= old.body.byteCount }
        pictures[key] = Picture(version: version, body: body, drawnAt: now, usedAt: now)
        bytes += body.byteCount
        while bytes > maximumBytes, let (oldest, p) = pictures.min(by: { $0.value.usedAt < $1.value.usedAt }), oldest != key {
            pictures[oldest] = nil
            bytes -= p.body.byteCount
        }
        condition.broadcast()
        condition.unlock()
        return (version, body)
    }
}
