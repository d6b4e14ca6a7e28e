import Foundation
import SeatDomain
import SeatMap

/// A show's log as operators read it: every change in version order, the seats it set and to what,
/// by whom (an operator's name, or the hold that made it), when, why and under which order. Kept in
/// the store with the show (`show_log`: one line a change, written in the change's transaction, never
/// pruned), so it is as complete as the seats themselves.
public struct LogLine: Sendable {
    public var version: UInt64
    /// Unix milliseconds.
    public var at: Int64
    public var action: String
    /// The operator's name, or else the hold's id (a buyer has no other name here).
    public var by: String?
    public var holdID: String?
    public var operatorName: String?
    public var reason: String?
    public var orderRef: String?
    /// The seats the change set, each with its new status (empty: a change of the show or a hold's time).
    public var seats: [(id: String, status: SeatStatus)]
}

extension Inventory {
    /// At most this many lines an answer; the next page starts after the last line's version.
    public static let logPage = 1000

    /// The log after `since`, oldest first, at most `limit` lines (read from the store, outside the lock).
    /// - Complexity: O(lines + seats they name).
    public func log(show showID: String, since: UInt64, limit: Int = logPage) throws(Refusal) -> [LogLine] {
        guard let layout = locked({ m in m.shows[showID]?.layout }) else { throw noSuchShow(showID) }
        let records: [LogRecord]
        do { records = try store.log(show: showID, after: since, limit: max(1, min(limit, Self.logPage))) } catch { throw Self.storeRefusal(error) }
        return records.map { r in
            // Written by the inventory itself; a line that did not parse is shown with no seats, not hidden.
            let changes = (try? AvailabilityDelta(encoded: r.delta))?.changes ?? []
            return LogLine(
                version: r.version, at: r.at, action: r.entry.action, by: r.entry.operatorName ?? r.entry.holdID, holdID: r.entry.holdID,
                operatorName: r.entry.operatorName, reason: r.entry.reason, orderRef: r.entry.orderRef,
                seats: changes.filter { $0.seat < layout.seatCount }.map { (layout.seatID($0.seat), $0.status) })
        }
    }
}
