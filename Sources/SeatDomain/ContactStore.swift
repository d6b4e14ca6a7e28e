/// A buyer's name and phone given at the counter with a sale (both optional), so the box office can
/// find the order again by either. Kept by order reference, apart from the sale: the sale is the money,
/// this a note on it.
public struct OrderContact: Sendable, Hashable {
    public var orderRef: String
    public var showID: String
    public var name: String?
    /// Digits only (`+86 138-0013-8000` is kept as `8613800138000`).
    public var phone: String?
    /// Unix milliseconds.
    public var at: Int64

    public init(orderRef: String, showID: String, name: String?, phone: String?, at: Int64) {
        self.orderRef = orderRef; self.showID = showID; self.name = name; self.phone = phone; self.at = at
    }
}

/// Where order contacts are kept (both stores; one row an order, written again by a retried sale).
public protocol ContactStore: AnyObject, Sendable {
    func saveContact(_ contact: OrderContact) throws
    func contact(orderRef: String) throws -> OrderContact?
    /// Contacts whose phone ends with `digits` (4 or more) or whose name contains `text` (any case), newest
    /// first, at most `limit`.
    func findContacts(text: String, digits: String?, limit: Int) throws -> [OrderContact]
}
