import SeatDomain
import SeatMap

extension Inventory {
    /// The events a show's logged change is, by its log action (the show's log is the webhooks' outbox:
    /// each change writes its row in its own transaction). Changes not listed are no event.
    public static let webhookEvents: [String: String] = [
        "confirm": "order.paid", "sell": "order.paid", "sell-late": "order.paid", "refund": "order.refunded", "exchange": "order.exchanged",
        "expire": "hold.expired", "payment-late": "payment.late", "payment-refunded": "payment.late", "payment-closed": "payment.failed",
        "cancel": "show.cancelled", "edit": "show.changed", "prices": "show.changed",
    ]

    /// A seat's id by its index in a show's layout (a check-in names the seat by index); nil when the
    /// show is not known here or the index is not a seat.
    public func seatName(show: String, index: Int) -> String? {
        locked { m -> String? in
            guard let state = m.shows[show], index >= 0, index < state.layout.seatCount else { return nil }
            return state.layout.seatID(index)
        }
    }

    /// The seat ids and statuses a logged change set, read with its show's layout; nil when the show is
    /// not known here.
    public func seatsChanged(show: String, delta: String) -> [(seat: String, status: String)]? {
        guard !delta.isEmpty, let parsed = try? AvailabilityDelta(encoded: delta) else { return [] }
        return locked { m -> [(seat: String, status: String)]? in
            guard let state = m.shows[show] else { return nil }
            return parsed.changes.map { (state.layout.seatID($0.seat), $0.status.name) }
        }
    }
}
