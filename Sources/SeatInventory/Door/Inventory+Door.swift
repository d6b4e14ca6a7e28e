import Foundation
import SeatDomain
import SeatMap

/// What the door needs of a show: when it starts, whether it was cancelled, the seat's printed name.
public struct DoorShowFacts: Sendable, Hashable {
    /// Unix milliseconds; nil when the stored time cannot be read.
    public var startsAt: Int64?
    public var cancelled: Bool
    /// The seat's printed name; nil when the venue has no such seat.
    public var seatID: String?
    /// Its row's label and its own, as printed on the seat ("3" and "10": 3排10座, Row 3 Seat 10).
    public var rowLabel: String?
    public var seatLabel: String?
    /// The show sells by real name: its tickets are checked against their attendee's document.
    public var realName = false
}

extension Inventory {
    /// The show's door facts for `seat`; nil for a show this server does not have.
    public func doorFacts(show: String, seat: SeatIndex) -> DoorShowFacts? {
        locked { m in
            m.shows[show].map { s in
                let known = seat >= 0 && seat < s.layout.seatCount
                return DoorShowFacts(
                    startsAt: s.startsAtMilliseconds, cancelled: s.record.cancelledAt != nil, seatID: known ? s.layout.seatID(seat) : nil,
                    rowLabel: known ? s.layout.rows[s.layout.rowIndex(of: seat)].label : nil, seatLabel: known ? s.layout.seat(seat).label : nil,
                    realName: s.realName.isOn)
            }
        }
    }

    /// The door's store: a 503 when the store keeps no scans (a test's).
    func doorStore() throws(Refusal) -> any DoorStore {
        guard let door = store.door else { throw Refusal(.storeUnavailable, detail: "this server's store keeps no check-ins") }
        return door
    }

    /// Who sold the seat now and the sales it was refunded from (`DoorStore.seatSales`). Reads the store.
    public func seatSales(show: String, seat: SeatIndex) throws(Refusal) -> SeatSales {
        do { return try doorStore().seatSales(show: show, seat: seat) } catch let r as Refusal { throw r } catch { throw Self.storeRefusal(error) }
    }

    /// Whether the seat's sale `sale` was given back in an exchange (the door tells that from a refund).
    /// Reads the store: call off the lock.
    public func wasExchanged(sale: String, seat: SeatIndex) throws(Refusal) -> Bool {
        do { return try store.refunds(holdIDs: [sale]).contains { $0.seat == seat && $0.exchangedTo != nil } } catch { throw Self.storeRefusal(error) }
    }

    /// The scan decided by the store (`DoorStore.checkIn`); the ticket's standing is the caller's to
    /// check first. Reads and writes the store: call off the lock.
    public func checkIn(_ scan: CheckInScan) throws(Refusal) -> CheckInOutcome {
        do {
            let outcome = try doorStore().checkIn(scan)
            if case .recorded(_, false) = outcome { metrics.count(scan.direction == .in ? "checkins_in" : "checkins_out") }
            return outcome
        } catch let r as Refusal { throw r } catch { throw Self.storeRefusal(error) }
    }

    /// The show's last `limit` scans, newest first, each with its seat's printed name; a 404 for an
    /// unknown show. The door's audit: who let which ticket in or out, where and when.
    public func recentScans(show: String, limit: Int) throws(Refusal) -> [(scan: CheckInScan, seatID: String)] {
        guard let layout = locked({ m in m.shows[show]?.layout }) else { throw noSuchShow(show) }
        do {
            return try doorStore().recentScans(show: show, limit: limit).map { ($0, $0.seat < layout.seatCount ? layout.seatID($0.seat) : "") }
        } catch let r as Refusal { throw r } catch { throw Self.storeRefusal(error) }
    }

    /// The show's scans counted by gate; a 404 for an unknown show.
    public func checkInCounts(show: String) throws(Refusal) -> CheckInCounts {
        guard locked({ m in m.shows[show] != nil }) else { throw noSuchShow(show) }
        do { return try doorStore().checkInCounts(show: show) } catch let r as Refusal { throw r } catch { throw Self.storeRefusal(error) }
    }
}
