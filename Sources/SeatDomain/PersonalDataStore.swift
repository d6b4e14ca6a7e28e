/// What a store does with buyers' personal data beyond keeping it sealed in claims and contacts: erase a
/// show's after it (the sales stay), and re-seal values under a new key (`seatkit personal-data reseal`).
public protocol PersonalDataStore: AnyObject, Sendable {
    /// Clears the show's attendees (their documents' hashes and the sealed attendees) and its order
    /// contacts' names and phones; answers how many claims and contacts lost theirs.
    func erasePersonalData(show: String) throws -> (attendees: Int, contacts: Int)
    /// Replaces a claim's sealed attendee when it is still `old` (a value re-sealed under a new key).
    func replaceAttendee(show: String, seat: Int, old: String, new: String) throws -> Bool
    /// Contacts after `orderRef` (nil: from the first), in order of reference, at most `limit`.
    func contacts(after orderRef: String?, limit: Int) throws -> [OrderContact]
}
