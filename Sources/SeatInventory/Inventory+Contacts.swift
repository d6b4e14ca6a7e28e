import SeatDomain

/// Finding an order again at the box office: by its reference, by a seat of the desk's show, or by the
/// name or phone the buyer gave at the counter (`ContactStore`).
extension Inventory {
    /// What a search found: the order, its show, how it matched, and the buyer's name and phone if given.
    public struct OrderMatch: Sendable, Hashable {
        public enum How: String, Sendable { case order, seat, phone, name }
        public var orderRef: String
        public var showID: String
        public var matched: How
        public var name: String? = nil
        public var phone: String? = nil
    }

    /// Keeps the buyer's name and phone with the order (again, for a retried sale).
    public func saveContact(orderRef: String, show: String, name: String?, phone: String?) throws(Refusal) {
        guard name != nil || phone != nil else { return }
        guard let contacts = store.contacts else { throw Refusal(.storeFailed, detail: "this store keeps no buyers' names or phones") }
        do { try contacts.saveContact(OrderContact(orderRef: orderRef, showID: show, name: name, phone: phone, at: clock())) } catch {
            throw Self.storeRefusal(error)
        }
    }

    /// Orders matching `text`: the order of that reference, the sale of that seat of `show`, then
    /// contacts by phone (its last 4 or more digits) or name (a part of it, any case); newest first,
    /// each order once, at most `limit`.
    /// - Complexity: O(contacts) in the store, plus O(the show's sales) for a seat.
    public func findOrders(_ text: String, show: String?, limit: Int = 20) throws(Refusal) -> [OrderMatch] {
        var out: [OrderMatch] = []
        func add(_ m: OrderMatch) { if out.count < limit, !out.contains(where: { $0.orderRef == m.orderRef }) { out.append(m) } }
        do {
            if let first = try store.orders(orderRef: text).first {
                add(OrderMatch(orderRef: text, showID: first.record.showID, matched: .order))
            }
            if let show, let seat = locked({ m in m.shows[show].flatMap { $0.layout.index(ofSeatID: text) } }) {
                for sale in try store.sales(show: show) where sale.seats.contains(seat) {
                    if let ref = sale.record.orderRef { add(OrderMatch(orderRef: ref, showID: show, matched: .seat)) }
                }
            }
            guard let contacts = store.contacts else { return out }
            for k in out.indices {
                if let c = try contacts.contact(orderRef: out[k].orderRef) { (out[k].name, out[k].phone) = (c.name, c.phone) }
            }
            // A phone's digits when the text is one (4 or more digits, spaces and + - . ( ) between them).
            let onlyDigits = String(text.unicodeScalars.filter { ("0"..."9").contains($0) }.map(Character.init))
            let isPhone = onlyDigits.count >= 4 && text.allSatisfy { $0.isNumber || " +-.()".contains($0) }
            let digits = isPhone ? onlyDigits : nil
            for c in try contacts.findContacts(text: text, digits: digits, limit: limit) {
                let byPhone = digits.map { c.phone?.hasSuffix($0) == true } ?? false
                add(OrderMatch(orderRef: c.orderRef, showID: c.showID, matched: byPhone ? .phone : .name, name: c.name, phone: c.phone))
            }
        } catch { throw Self.storeRefusal(error) }
        return out
    }
}
