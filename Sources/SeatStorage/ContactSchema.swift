import SeatDomain

/// The order contacts' statements (the table: `Migrations/*-buyer-contacts.sql`). A name is searched by a scan (`LIKE '%…%'`): a cinema's counter writes some hundreds
/// of contacts a day, a year of them scans in milliseconds; a phone by its last digits likewise.
enum ContactSchema {
    static let save = """
        INSERT INTO order_contacts(order_ref, show_id, name, phone, at) VALUES(?, ?, ?, ?, ?)
        ON CONFLICT(order_ref) DO UPDATE SET name = excluded.name, phone = excluded.phone
        """
    static let columns = "order_ref, show_id, name, phone, at"
    static let byOrder = "SELECT \(columns) FROM order_contacts WHERE order_ref = ?"
    /// `?` 1: the name pattern (`%text%`, lower case, LIKE's own characters escaped with `\`); 2: the phone's
    /// (`%digits`, or one that matches nothing); 3: the limit.
    static let find = """
        SELECT \(columns) FROM order_contacts WHERE lower(name) LIKE ? ESCAPE '\\' OR phone LIKE ? ORDER BY at DESC, order_ref LIMIT ?
        """

    /// The LIKE patterns of a search: the name's words anywhere, the phone's digits at its end.
    static func patterns(text: String, digits: String?) -> (name: String, phone: String) {
        let escaped = SQLText.likeLiteral(text.lowercased())
        return ("%" + escaped + "%", digits.map { "%" + $0 } ?? "-")
    }

    static func contact(_ row: [String?]) -> OrderContact {
        OrderContact(orderRef: row[0] ?? "", showID: row[1] ?? "", name: row[2], phone: row[3], at: Int64(row[4] ?? "") ?? 0)
    }
}

extension SQLiteStore: ContactStore {
    public var contacts: (any ContactStore)? { self }

    public func saveContact(_ c: OrderContact) throws {
        try locked { db in
            try db.run(
                ContactSchema.save,
                [.text(c.orderRef), .text(c.showID), c.name.map(SQLValue.text) ?? .null, c.phone.map(SQLValue.text) ?? .null, .integer(c.at)])
        }
        try syncer?.waitUntilDurable()
    }

    public func contact(orderRef: String) throws -> OrderContact? {
        try locked { db in
            var found: OrderContact?
            try db.query(ContactSchema.byOrder, [.text(orderRef)]) { r in found = ContactSchema.contact(Self.row(r)) }
            return found
        }
    }

    public func findContacts(text: String, digits: String?, limit: Int) throws -> [OrderContact] {
        let (name, phone) = ContactSchema.patterns(text: text, digits: digits)
        return try locked { db in
            var out: [OrderContact] = []
            try db.query(ContactSchema.find, [.text(name), .text(phone), .integer(Int64(limit))]) { r in out.append(ContactSchema.contact(Self.row(r))) }
            return out
        }
    }

    private static func row(_ r: SQLRow) -> [String?] {
        (0..<5).map { r.isNull(Int32($0)) ? nil : r.text(Int32($0)) }
    }
}

extension PostgresStore: ContactStore {
    public var contacts: (any ContactStore)? { self }

    public func saveContact(_ c: OrderContact) throws {
        try withConnection { c2 in
            _ = try c2.run("contact_save", QueueSchema.numbered(ContactSchema.save), [c.orderRef, c.showID, c.name, c.phone, String(c.at)])
        }
    }

    public func contact(orderRef: String) throws -> OrderContact? {
        try withConnection { c in
            try c.run("contact_by_order", QueueSchema.numbered(ContactSchema.byOrder), [orderRef]).rows.first.map(ContactSchema.contact)
        }
    }

    public func findContacts(text: String, digits: String?, limit: Int) throws -> [OrderContact] {
        let (name, phone) = ContactSchema.patterns(text: text, digits: digits)
        return try withConnection { c in
            try c.run("contact_find", QueueSchema.numbered(ContactSchema.find), [name, phone, String(limit)]).rows.map(ContactSchema.contact)
        }
    }
}
