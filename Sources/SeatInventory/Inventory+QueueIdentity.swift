import SeatSecrets
import SeatMap

/// The waiting room of a real-name show takes one place a document: the room keeps the document's
/// keyed hash (the same as an attendee's, so the admission can be matched against the hold's attendees
/// without decrypting anything), never the number.
extension Inventory {
    /// Whether `show` sells by real name (its waiting room then takes a document with each join).
    public func sellsByRealName(show: String) -> Bool { locked { m in m.shows[show]?.realName.isOn } ?? false }

    /// The keyed hash of the document `idType`/`idNumber` for a join to `show`'s waiting room: checked
    /// as an attendee's is (the check digit of an ID card, the shape of the others) and against the
    /// types the show takes. A refusal names the member (`idType`, `idNumber`).
    public func queueIdentity(show: String, idType: String, idNumber: String) throws(Refusal) -> String {
        guard let kind = IdentityDocument.Kind(rawValue: idType) else {
            throw Refusal.invalid(path: "idType", "expected one of \(IdentityDocument.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let policy = locked { m in m.shows[show]?.realName } ?? RealNamePolicy()
        if policy.isOn, !policy.idTypes.contains(kind) {
            throw Refusal.invalid(path: "idType", "show \(show) takes \(policy.idTypes.map(\.rawValue).joined(separator: ", ")), not \(idType)")
        }
        switch IdentityDocument.check(kind: kind, number: idNumber) {
        case .success(let document): return personalData.index(document.canonical, purpose: "id")
        case .failure(let problem): throw Refusal.invalid(path: "idNumber", "not a valid \(kind.words.en) number: \(problem)")
        }
    }

    /// The keyed hashes of `attendees`' documents (those that check; the hold itself judges the rest).
    public func identities(of attendees: [AttendeeInput]) -> Set<String> {
        Set(
            attendees.compactMap { a in
                guard let kind = IdentityDocument.Kind(rawValue: a.idType), case .success(let d) = IdentityDocument.check(kind: kind, number: a.idNumber)
                else { return nil }
                return personalData.index(d.canonical, purpose: "id")
            })
    }
}

extension Inventory {
    /// The waiting-room admission a live hold was made with and the keyed hashes of its seats' attendees
    /// (nil: no such hold in memory, or made without an admission): what its sale is checked against
    /// when the admission was given to a document.
    public func admissionAndIdentities(token plain: String) -> (show: String, admission: String, identities: Set<String>)? {
        let token = Secrets.tokenDigest(plain)
        return locked { m in
            guard let show = m.holdShow[token], let state = m.shows[show], let hold = state.holds[token], let admission = hold.record.admission else {
                return nil
            }
            return (show, admission, Set(hold.seats.compactMap { state.attendees[$0]?.identity }))
        }
    }
}
