import SeatJSON
import SeatMap

/// Why the inventory said no. The inventory knows no HTTP: the API maps each reason to its status and
/// title (`SeatAPI+Problems.swift`), the only place a refusal becomes a problem document.
public struct Refusal: Error, Sendable, CustomStringConvertible {
    /// The reasons, spelled as the problem types the API answers with (`/problems/<rawValue>`).
    public enum Reason: String, Sendable, CaseIterable {
        /// No such show, venue or hold.
        case notFound = "not-found"
        /// The request's seats, venue or prices are not valid (`errors` says where).
        case invalidBody = "invalid-body"
        case noSeats = "no-seats"
        case unknownSeats = "unknown-seats"
        /// Someone else holds or bought a seat (`conflicts` names each).
        case seatsTaken = "seats-taken"
        /// Too few places free in a general-admission area (or a whole area or a party's taken).
        case areaFull = "area-full"
        /// The show's selection rules refuse the resulting seats (`violations`).
        case ruleViolation = "rule-violation"
        case notInHold = "not-in-hold"
        /// Sales closed when the show started.
        case showStarted = "show-started"
        /// The show's manager stopped sales for now (`onSale` false).
        case offSale = "off-sale"
        /// The show was cancelled: nothing more is held or sold; its sales are refunded.
        case showCancelled = "show-cancelled"
        case holdExpired = "hold-expired"
        case holdReleased = "hold-released"
        case holdConfirmed = "hold-confirmed"
        case alreadyExtended = "already-extended"
        /// The hold is being paid for: its seats are kept until the payment window ends, and nobody
        /// changes it meanwhile.
        case holdPaying = "hold-paying"
        /// Money is owed and this server takes it online only through a checkout (an exchange whose new
        /// seats cost more, asked by a buyer).
        case paymentRequired = "payment-required"
        case idempotencyKeyReused = "idempotency-key-reused"
        case venueExists = "venue-exists"
        case showExists = "show-exists"
        /// An order reference already names an order.
        case orderExists = "order-exists"
        /// A seat to refund is not sold in the order (never was, or refunded already).
        case notInOrder = "not-in-order"
        /// A client asked for a version the show has not reached.
        case versionAhead = "version-ahead"
        /// The changes since that version are no longer kept in memory.
        case deltaGone = "delta-gone"
        /// The store is failing or the show is being reloaded from it: worth retrying.
        case storeUnavailable = "store-unavailable"
        /// The show (its own fields, or an order's seats) changed on another instance or by another clerk at
        /// the same moment: nothing was written; reload and decide again. A conflict, not an outage.
        case showChanged = "show-changed"
        /// The store refused a write for a reason a retry will not fix.
        case storeFailed = "store-failed"
        /// The waiting room's admission already has an active hold: change its seats, or end it first.
        case admissionInUse = "admission-in-use"
        /// The waiting room's admission bought already: one admission is one purchase.
        case admissionSpent = "admission-spent"
        /// A hold that is not confirmed has no tickets.
        case notConfirmed = "not-confirmed"
        /// The show's after-sale policy does not let the buyer do this themselves (any more): too late,
        /// exchanges used up, or refunds not offered. The box office still can.
        case afterSaleClosed = "after-sale-closed"
        /// The show would overlap another show of its hall, or its turnaround (`Inventory.turnaroundMinutes`).
        case scheduleClash = "schedule-clash"
        /// A shard the deployment does not have (or a shard asked of a store that has none).
        case unknownShard = "unknown-shard"
        /// A show on sale is not moved to another shard.
        case showOnSale = "show-on-sale"
        /// An exchange between shows kept on two shards (no transaction spans two databases).
        case acrossShards = "across-shards"
        /// A `Seat-Channel` key that opens no live channel of this show.
        case channelKey = "channel-key"
        /// A real-name show's seat without its attendee at the confirm or checkout (`attendees` names them).
        case attendeesRequired = "attendees-required"
        /// An attendee's document, name or phone is not valid, or not for this show (its path says which).
        case invalidAttendee = "invalid-attendee"
        /// The identity document already has a ticket (or a live hold) for this show: one a show.
        case idAlreadyUsed = "id-already-used"
        /// The show's limits per document over its tour, or per phone, would be passed.
        case purchaseLimit = "purchase-limit"
        /// A show's personal data is kept until it is over (the door checks documents until the end).
        case showNotOver = "show-not-over"
        /// The show keeps no waitlist (its manager has not turned one on), or the entry has left it.
        case waitlistClosed = "waitlist-closed"
    }

    public var reason: Reason
    /// One sentence a person can act on, naming the seat, show or field.
    public var detail: String
    /// What says more: the seats in question, each with why (the API writes them as the problem's members).
    public var details: [Detail]
    /// A race the inventory may settle itself by trying again at once (the show was being reloaded after
    /// another instance's change, a write lost to one): never shown to a client as such.
    package var retryInside = false
    /// A hold token memory does not know: the store says how its hold ended (`lockedForHold`).
    package var unknownHold = false

    /// What a refusal names besides its sentence.
    public enum Detail: Sendable {
        /// Seat ids the request named that the venue, the sale or the order does not have.
        case seats([String])
        /// Seats someone else has, each with its status, at the show's version.
        case conflicts([(seat: String, status: String)], version: UInt64)
        /// The show's rules the seats break, each with the seats and the message in both languages.
        case violations([(rule: String, seats: [String], chinese: String, english: String)])
        /// Members of the request that are wrong, each with its path.
        case errors([(path: String, message: String)])
    }

    public init(_ reason: Reason, detail: String, details: [Detail] = []) {
        self.reason = reason; self.detail = detail; self.details = details
    }

    /// A layout or price table that does not validate: every problem with its path.
    public static func invalid(_ error: LayoutError) -> Refusal {
        Refusal(
            .invalidBody, detail: error.problems.first.map(\.description) ?? "invalid",
            details: [.errors(error.problems.map { ($0.path, $0.message) })])
    }

    /// One member's problem (a 422 naming it).
    public static func invalid(path: String, _ message: String) -> Refusal {
        Refusal(.invalidBody, detail: "\(path): \(message)", details: [.errors([(path, message)])])
    }

    public var description: String { "\(reason.rawValue): \(detail)" }
}
