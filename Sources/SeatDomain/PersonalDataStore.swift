import SeatJSON

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
    /// A sold seat's attendee replaced (a transfer, or a first binding when `from` is nil) when the claim
    /// is still `transfer.sale`'s with attendee `from`, and the code it revokes recorded, in one
    /// transaction; false when the claim changed meanwhile. A document with another seat of the show
    /// fails it (`StoreError.isIdentityInUse`).
    func transfer(_ transfer: TicketTransfer, from: String?, to identity: String, attendee: String) throws -> Bool
    /// The show's transfers and first bindings, oldest first.
    func transfers(show: String) throws -> [TicketTransfer]
    /// A buyer's attendee book (found by its token's digest): entries saved sealed, oldest first.
    func saveBookEntry(book: String, entry: String, sealed: String, at: Int64) throws
    func bookEntries(book: String) throws -> [(entry: String, sealed: String, at: Int64)]
    func deleteBookEntry(book: String, entry: String) throws -> Bool
}

/// A real-name ticket given to another person (or bound to its first): the code it revoked.
public struct TicketTransfer: Sendable, Hashable {
    public var show: String
    public var seat: Int
    /// The sale (confirmed hold) the seat stays in.
    public var sale: String
    /// The revoked code's ticket id (16 hex digits).
    public var oldTicket: String
    /// A ticket sold without a name bound to its first attendee (not counted as a transfer).
    public var firstBinding: Bool
    /// Unix milliseconds.
    public var at: Int64
    /// Who did it: an operator's name, or `buyer`.
    public var operatorName: String
    public init(show: String, seat: Int, sale: String, oldTicket: String, firstBinding: Bool, at: Int64, operatorName: String) {
        self.show = show; self.seat = seat; self.sale = sale; self.oldTicket = oldTicket; self.firstBinding = firstBinding; self.at = at
        self.operatorName = operatorName
    }
}

/// An attendee as sealed in a claim (`Claim.attendee` opens to this text): their name, document and
/// phone. A JSON object, so a field added later reads as absent in older rows.
public struct AttendeeRecord: Sendable, Hashable {
    public var name: String
    public var idType: String
    public var idNumber: String
    public var phone: String?
    public init(name: String, idType: String, idNumber: String, phone: String? = nil) {
        self.name = name; self.idType = idType; self.idNumber = idNumber; self.phone = phone
    }

    /// The text sealed: `{"name":…,"idType":…,"idNumber":…,"phone":…}`.
    public var text: String {
        var w = JSONWriter()
        w.raw("{"); w.key("name", first: true); w.string(name); w.key("idType"); w.string(idType); w.key("idNumber"); w.string(idNumber)
        if let phone { w.key("phone"); w.string(phone) }
        w.raw("}")
        return w.text
    }

    /// The record in an opened text; nil when it is not one.
    public init?(text: String) {
        guard let o = (try? JSONParser.parse(Array(text.utf8)))?.objectValue, let type = o["idType"]?.stringValue,
            let number = o["idNumber"]?.stringValue
        else { return nil }
        self.init(name: o["name"]?.stringValue ?? "", idType: type, idNumber: number, phone: o["phone"]?.stringValue)
    }

    /// The document as the lookups key it (`IdentityDocument.canonical`).
    public var document: String { idType + ":" + idNumber }
}
