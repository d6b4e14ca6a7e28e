import SeatDomain
import SeatSecrets

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

    /// Keeps the buyer's name and phone with the order (again, for a retried sale): sealed, with the
    /// keyed hashes a search compares (the whole name; the phone's digits; its last four).
    public func saveContact(orderRef: String, show: String, name: String?, phone: String?) throws(Refusal) {
        guard name != nil || phone != nil else { return }
        guard let contacts = store.contacts else { throw Refusal(.storeFailed, detail: "this store keeps no buyers' names or phones") }
        do { try contacts.saveContact(sealedContact(orderRef: orderRef, show: show, name: name, phone: phone, at: clock())) } catch {
            throw Self.storeRefusal(error)
        }
    }

    /// A contact as the store keeps it: sealed (`PersonalDataKeys`), found by keyed hashes.
    func sealedContact(orderRef: String, show: String, name: String?, phone: String?, at: Int64) -> OrderContact {
        let digits = phone.map { String($0.unicodeScalars.filter { ("0"..."9").contains($0) }.map(Character.init)) }
        return OrderContact(
            orderRef: orderRef, showID: show, name: name.map { personalData.seal($0, context: "contact") },
            phone: phone.map { personalData.seal($0, context: "contact") }, at: at,
            nameKey: name.map { personalData.index(Self.nameForLookup($0), purpose: "name") },
            phoneKey: digits.map { personalData.index(Self.phoneForLookup($0), purpose: "phone") },
            phoneTailKey: digits.flatMap { $0.count >= 4 ? personalData.index(String($0.suffix(4)), purpose: "phone-tail") : nil })
    }

    /// A phone's digits as compared: its last 11 (a mainland mobile number, with or without +86).
    static func phoneForLookup(_ digits: String) -> String { String(digits.suffix(11)) }

    /// A name as searched: trimmed, spaces single, lower case.
    static func nameForLookup(_ name: String) -> String {
        name.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    /// The name and phone of a stored contact, opened (a row from before sealing is plain).
    func opened(_ c: OrderContact) -> (name: String?, phone: String?) {
        func open(_ text: String?) -> String? {
            guard let text else { return nil }
            return PersonalDataKeys.isSealed(text) ? personalData.open(text, context: "contact") : text
        }
        return (open(c.name), open(c.phone))
    }

    /// Seals the contacts kept in the clear before this version (run at start, a page at a time);
    /// answers how many.
    @discardableResult
    public func sealPlainContacts() throws -> Int {
        guard let contacts = store.contacts else { return 0 }
        var done = 0
        while true {
            let page = try contacts.plainContacts(limit: 500)
            if page.isEmpty { return done }
            for c in page {
                try contacts.saveContact(sealedContact(orderRef: c.orderRef, show: c.showID, name: c.name, phone: c.phone, at: c.at))
            }
            done += page.count
        }
    }

    /// Orders matching `text`: the order of that reference, the sale of that seat of `show`, then
    /// contacts by phone (all its digits, or its last 4) or whole name (any case); newest first,
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
                if let c = try contacts.contact(orderRef: out[k].orderRef) { (out[k].name, out[k].phone) = opened(c) }
            }
            // A phone's digits when the text is one (4 or more digits, spaces and + - . ( ) between them).
            let onlyDigits = String(text.unicodeScalars.filter { ("0"..."9").contains($0) }.map(Character.init))
            let isPhone = onlyDigits.count >= 4 && text.allSatisfy { $0.isNumber || " +-.()".contains($0) }
            let digits = isPhone ? onlyDigits : nil
            // Keyed hashes only: a whole phone, its last four digits, or a whole name (sealed data is not searched by its parts).
            let phoneKey = digits.map { personalData.index(Self.phoneForLookup($0), purpose: "phone") }
            let tailKey = digits.flatMap { $0.count == 4 ? personalData.index($0, purpose: "phone-tail") : nil }
            let nameKey = digits == nil ? personalData.index(Self.nameForLookup(text), purpose: "name") : nil
            for c in try contacts.findContacts(nameKey: nameKey, phoneKey: phoneKey, phoneTailKey: tailKey, limit: limit) {
                let byPhone = digits != nil && (c.phoneKey == phoneKey || c.phoneTailKey == tailKey)
                let (name, phone) = opened(c)
                add(OrderMatch(orderRef: c.orderRef, showID: c.showID, matched: byPhone ? .phone : .name, name: name, phone: phone))
            }
        } catch { throw Self.storeRefusal(error) }
        return out
    }
}
