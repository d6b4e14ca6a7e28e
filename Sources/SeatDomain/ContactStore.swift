/// A buyer's name and phone given at the counter with a sale (both optional), so the box office can
/// find the order again by either. Kept by order reference, apart from the sale: the sale is the money,
/// this a note on it. Personal data: the store keeps the name and phone sealed (`PersonalDataKeys`) and
/// finds them by keyed hashes, never by their text.
public struct OrderContact: Sendable, Hashable {
    public var orderRef: String
    public var showID: String
    /// Sealed (`pd1.…`); plain only in rows from before sealing, which the inventory seals at start.
    public var name: String?
    /// Sealed, as `name`; its digits only before sealing (`+86 138-0013-8000` as `8613800138000`).
    public var phone: String?
    /// Unix milliseconds.
    public var at: Int64
    /// The keyed hashes a search compares: the whole name (trimmed, lower case), the phone's digits,
    /// the phone's last four digits.
    public var nameKey: String?
    public var phoneKey: String?
    public var phoneTailKey: String?

    public init(
        orderRef: String, showID: String, name: String?, phone: String?, at: Int64, nameKey: String? = nil, phoneKey: String? = nil,
        phoneTailKey: String? = nil
    ) {
        self.orderRef = orderRef; self.showID = showID; self.name = name; self.phone = phone; self.at = at
        self.nameKey = nameKey; self.phoneKey = phoneKey; self.phoneTailKey = phoneTailKey
    }
}

/// Where order contacts are kept (both stores; one row an order, written again by a retried sale).
public protocol ContactStore: AnyObject, Sendable {
    func saveContact(_ contact: OrderContact) throws
    func contact(orderRef: String) throws -> OrderContact?
    /// Contacts whose name, phone or phone's tail has one of these keyed hashes (nil: not compared),
    /// newest first, at most `limit`.
    func findContacts(nameKey: String?, phoneKey: String?, phoneTailKey: String?, limit: Int) throws -> [OrderContact]
    /// Contacts whose name or phone is still in the clear (kept before sealing), at most `limit`.
    func plainContacts(limit: Int) throws -> [OrderContact]
}
