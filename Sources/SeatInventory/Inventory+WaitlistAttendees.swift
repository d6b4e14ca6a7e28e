import SeatDomain
import SeatMap
import SeatSecrets

/// A real-name show's waitlist entry names who will sit in the seats it is offered (#54 item 5): the
/// attendees are checked when the buyer joins (a document's check digit, the show's types, one a
/// show), kept sealed with the entry (one sealed record a line, under the personal-data key), and
/// named on the offer's hold as soon as it is made, so the buyer pays without stopping to name anyone.
extension Inventory {
    /// `inputs` checked for `state`'s show and an entry of `count` seats, sealed one a line; nil when
    /// none were given (the buyer names them at checkout). Called under the lock.
    func sealedWaitlistAttendees(_ inputs: [AttendeeInput], count: Int, in state: ShowState) throws(Refusal) -> String? {
        guard !inputs.isEmpty else { return nil }
        let policy = state.realName, show = state.record.id
        guard policy.isOn else { throw Refusal.invalid(path: "attendees", "show \(show) does not sell by real name: leave attendees out") }
        let wanted = policy.mode == .perOrder ? 1 : count
        guard inputs.count == wanted else {
            let what = policy.mode == .perOrder ? "the buyer's one document (一单一证)" : "one attendee a seat (一票一证)"
            throw Refusal.invalid(path: "attendees", "show \(show) takes \(what): \(wanted), got \(inputs.count)")
        }
        var sealed: [String] = [], seen: [String: Int] = [:], problems: [(path: String, message: String)] = []
        for (k, a) in inputs.enumerated() {
            let path = "attendees[\(k)]"
            let (checked, found) = Self.checked(a, strictPhone: true)
            problems += found.map { (path + "." + $0.path, $0.message) }
            guard found.isEmpty, let (record, document) = checked else { continue }
            if !policy.idTypes.contains(document.kind) {
                throw Refusal.invalid(path: path + ".idType", "show \(show) takes \(policy.idTypes.map(\.rawValue).joined(separator: ", ")), not \(a.idType)")
            }
            let identity = personalData.index(document.canonical, purpose: "id")
            if let other = seen[identity] {
                throw Refusal(.idAlreadyUsed, detail: "\(path): the same document as attendees[\(other)]: one ticket a document a show")
            }
            seen[identity] = k
            if let seat = state.seatOfIdentity[identity] {
                throw Refusal(
                    .idAlreadyUsed, detail: "\(path): this document already has seat \(state.layout.seatID(seat)) of show \(show), held or sold (one a show)")
            }
            sealed.append(personalData.seal(record.text, context: show))
        }
        if !problems.isEmpty {
            throw Refusal(.invalidAttendee, detail: "\(problems[0].path): \(problems[0].message)", details: [.errors(problems)])
        }
        return sealed.joined(separator: "\n")
    }

    /// Names `entry`'s attendees on its offer's hold (`token`), seat by seat in seat order (a per-order
    /// show's one document on the first). A refusal (the document bought elsewhere meanwhile) leaves the
    /// naming to the checkout, as for any hold; the offer stands.
    func nameOfferAttendees(_ entry: WaitlistEntry, token: String) {
        guard let sealed = entry.attendees, let view = try? hold(token: token) else { return }
        let records = sealed.split(separator: "\n").compactMap { personalData.open(String($0), context: entry.showID).flatMap(AttendeeRecord.init(text:)) }
        guard !records.isEmpty else { return }
        let inputs = records.enumerated().map { k, r in
            AttendeeInput(
                seat: k < view.seatIDs.count ? view.seatIDs[k] : view.seatIDs.first, name: r.name, idType: r.idType, idNumber: r.idNumber, phone: r.phone)
        }
        do { _ = try setAttendees(token: token, inputs) } catch { metrics.count("waitlist_attendees_refused") }
    }
}
