import Foundation
import SeatDomain
import SeatJSON
import SeatMap
import SeatSecrets

/// A real-name show's attendee in the clear: what only a manager sees, and only with a reason the show's
/// log keeps (`revealAttendee`).
public struct RevealedAttendee: Sendable, Hashable {
    public var seat: String
    public var name: String
    public var idType: String
    public var idNumber: String
    public var phone: String?
}

/// Personal data after the sale: a manager's reveal (audited before it is shown), erasure once the show
/// is over (the sales stay), and re-sealing under a new key.
extension Inventory {
    /// The attendee of `seat` in the clear, after the show's log has recorded who asked and why (durably:
    /// an answer whose audit line could be lost is never given). The store is read, not memory: another
    /// instance may have bound the seat.
    public func revealAttendee(show: String, seat seatID: String, by operatorName: String, reason: String) throws(Refusal) -> RevealedAttendee {
        let seat: SeatIndex = try lockedWhenFresh(show: show) { (m: Memory) throws(Refusal) -> SeatIndex in
            let state = try state(forShow: show, in: m)
            guard let seat = state.layout.index(ofSeatID: seatID) else {
                throw Refusal(.unknownSeats, detail: "show \(show) has no seat \(seatID)", details: [.seats([seatID])])
            }
            return seat
        }
        let claim: Claim?
        do { claim = try store.claims(show: show).first { $0.seat == seat && $0.attendee != nil } } catch { throw Self.storeRefusal(error) }
        guard let sealed = claim?.attendee else { throw Refusal(.notFound, detail: "seat \(seatID) of show \(show) has no attendee") }
        let ticket = try lockedWhenFresh(show: show) { (m: Memory) throws(Refusal) -> CommitTicket in
            try apply(
                try state(forShow: show, in: m), in: m, changes: [], holds: [], durable: true,
                log: LogEntry(action: "reveal", operatorName: operatorName, reason: "seat \(seatID): \(reason)"))
        }
        try wait(ticket)
        guard let o = opened(attendee: sealed, show: show) else {
            throw Refusal(.storeFailed, detail: "seat \(seatID)'s attendee is sealed under a key this server no longer has (docs/REALNAME.md)")
        }
        return RevealedAttendee(seat: seatID, name: o.name, idType: o.idType, idNumber: o.idNumber, phone: o.phone)
    }

    /// Erases the show's attendees and buyers' contacts once it is over (the sales, refunds and log
    /// stay; tickets still open the door's history), and logs who did it. Refused before the show ends.
    public func erasePersonalData(show: String, by operatorName: String) throws(Refusal) -> (attendees: Int, contacts: Int) {
        try lockedWhenFresh(show: show) { (m: Memory) throws(Refusal) in
            let state = try state(forShow: show, in: m)
            if state.record.cancelledAt == nil, let ends = state.endsAtMilliseconds, ends > clock() {
                throw Refusal(
                    .showNotOver,
                    detail: "show \(show) ends at \(Timestamp.text(ends)): its attendees are kept until then (the door checks their documents)")
            }
        }
        guard let personal = store.personalData else { throw Refusal(.storeFailed, detail: "this store keeps no personal data") }
        let erased: (attendees: Int, contacts: Int)
        do { erased = try personal.erasePersonalData(show: show) } catch { throw Self.storeRefusal(error) }
        let ticket = try lockedWhenFresh(show: show) { (m: Memory) throws(Refusal) -> CommitTicket in
            let state = try state(forShow: show, in: m)
            state.unbindAll()
            return try apply(
                state, in: m, changes: [], holds: [], durable: true,
                log: LogEntry(action: "erase", operatorName: operatorName, reason: "\(erased.attendees) attendees and \(erased.contacts) contacts erased"))
        }
        try wait(ticket)
        return erased
    }

    /// Re-seals every attendee and contact not sealed under the current key (after a new key is added
    /// to the keys file, before the old one is dropped); answers how many were rewritten.
    public func resealPersonalData() throws -> Int {
        guard let personal = store.personalData else { return 0 }
        var done = 0
        for show in try store.shows() {
            for claim in try store.claims(show: show.id) {
                guard let old = claim.attendee, personalData.isStale(old), let text = personalData.open(old, context: show.id) else { continue }
                if try personal.replaceAttendee(show: show.id, seat: claim.seat, old: old, new: personalData.seal(text, context: show.id)) { done += 1 }
            }
        }
        guard let contacts = store.contacts else { return done }
        var after: String?
        while true {
            let page = try personal.contacts(after: after, limit: 500)
            guard let last = page.last else { return done }
            for c in page where [c.name, c.phone].contains(where: { $0.map(personalData.isStale) ?? false }) {
                let (name, phone) = opened(c)
                try contacts.saveContact(sealedContact(orderRef: c.orderRef, show: c.showID, name: name, phone: phone, at: c.at))
                done += 1
            }
            after = last.orderRef
        }
    }
}
