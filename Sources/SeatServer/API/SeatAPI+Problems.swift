import SeatJSON
import SeatHTTP
import SeatInventory

/// The one place the inventory's refusals become problem documents: each reason's status and title.
/// The `type` stays `/problems/<reason>`, so clients see the same slugs as before the inventory knew
/// nothing of HTTP.
extension Refusal {
    var problem: Problem {
        let (status, title) = Self.statusAndTitle(reason)
        // A failing store is worth retrying in a second (the reload or the database's return).
        let headers = reason == .storeUnavailable ? [("Retry-After", "1")] : []
        return Problem(status, reason.rawValue, title, detail: detail, extensions: details.flatMap(Self.members), headers: headers)
    }

    /// A detail as the problem document's members (ProblemDocument's schema): name and JSON text.
    static func members(_ detail: Detail) -> [(String, String)] {
        var w = JSONWriter()
        func list<T>(_ items: [T], _ each: (T) -> Void) {
            w.raw("[")
            for (k, item) in items.enumerated() { if k > 0 { w.raw(",") }; each(item) }
            w.raw("]")
        }
        switch detail {
        case .seats(let seats):
            w.strings(seats)
            return [("seats", w.text)]
        case .conflicts(let conflicts, let version):
            list(conflicts) { c in
                w.raw("{"); w.key("seat", first: true); w.string(c.seat); w.key("status"); w.string(c.status); w.raw("}")
            }
            return [("conflicts", w.text), ("version", String(version))]
        case .violations(let violations):
            list(violations) { v in
                w.raw("{"); w.key("rule", first: true); w.string(v.rule); w.key("seats"); w.strings(v.seats)
                w.key("message"); w.raw("{"); w.key("zh", first: true); w.string(v.chinese); w.key("en"); w.string(v.english); w.raw("}}")
            }
            return [("violations", w.text)]
        case .errors(let errors):
            list(errors) { e in
                w.raw("{"); w.key("path", first: true); w.string(e.path); w.key("message"); w.string(e.message); w.raw("}")
            }
            return [("errors", w.text)]
        }
    }

    static func statusAndTitle(_ reason: Reason) -> (Int, String) {
        switch reason {
        case .notFound: (404, "Not found")
        case .invalidBody: (422, "The request body is not valid")
        case .noSeats: (422, "No seats")
        case .unknownSeats: (422, "Unknown seats")
        case .seatsTaken: (409, "Seats taken")
        case .areaFull: (409, "Not enough places free")
        case .ruleViolation: (422, "Selection rule")
        case .notInHold: (422, "Seats not in the hold")
        case .showStarted: (409, "Show started")
        case .offSale: (409, "Not on sale")
        case .showCancelled: (409, "Show cancelled")
        case .holdExpired: (410, "Hold expired")
        case .holdReleased: (410, "Hold released")
        case .holdConfirmed: (409, "Hold confirmed")
        case .alreadyExtended: (409, "Already extended")
        case .holdPaying: (409, "Hold being paid for")
        case .paymentRequired: (402, "Payment required")
        case .idempotencyKeyReused: (422, "Idempotency-Key reused")
        case .venueExists: (409, "Venue exists")
        case .showExists: (409, "Show exists")
        case .orderExists: (409, "Order exists")
        case .notInOrder: (409, "Not in the order")
        case .versionAhead: (409, "Version ahead")
        case .deltaGone: (410, "Delta no longer available")
        case .storeUnavailable: (503, "Storage unavailable")
        case .showChanged: (409, "Show changed meanwhile")
        case .storeFailed: (500, "Storage failed")
        case .admissionInUse: (409, "Admission in use")
        case .admissionSpent: (409, "Admission used")
        case .notConfirmed: (409, "Hold not confirmed")
        case .afterSaleClosed: (409, "Not allowed by the show's policy")
        case .scheduleClash: (409, "Clashes with another show of the hall")
        case .unknownShard: (422, "No such shard")
        case .showOnSale: (409, "Show on sale")
        case .acrossShards: (409, "Shows on different shards")
        case .channelKey: (403, "Not this show's channel")
        case .attendeesRequired: (422, "Attendees required")
        case .invalidAttendee: (422, "Attendee not valid")
        case .idAlreadyUsed: (409, "Document already used for this show")
        case .purchaseLimit: (409, "Purchase limit reached")
        case .showNotOver: (409, "Show not over yet")
        case .waitlistClosed: (409, "No waitlist")
        }
    }
}

extension Problem {
    /// What any error thrown while answering means to the client: its own problem, the inventory's
    /// refusal, or (never expected) a 500 that names it without leaking more.
    static func from(_ error: any Error) -> Problem {
        switch error {
        case let p as Problem: p
        case let r as Refusal: r.problem
        default: Problem(500, "internal-error", "Internal error", detail: "the server failed: \(type(of: error))")
        }
    }
}

/// The transport's event streams are the inventory's subscribers.
extension EventStream: EventSubscriber {}
