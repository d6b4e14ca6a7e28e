import SeatDomain

/// The order contacts' statements (the table: `Migrations/*-buyer-contacts.sql`, `*-real-names.sql`). Names
/// and phones are sealed: a search compares keyed hashes, each column indexed.
enum ContactSchema {
    static let save = """
        INSERT INTO order_contacts(order_ref, show_id, name, phone, at, name_key, phone_key, phone_tail_key) VALUES(?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(order_ref) DO UPDATE SET name = excluded.name, phone = excluded.phone, name_key = excluded.name_key,
          phone_key = excluded.phone_key, phone_tail_key = excluded.phone_tail_key
        """
    static let columns = "order_ref, show_id, name, phone, at, name_key, phone_key, phone_tail_key"
    static let byOrder = "SELECT \(columns) FROM order_contacts WHERE order_ref = ?"
    /// `?` 1 to 3: the name's, the phone's and the tail's keys (a key matching nothing when not asked); 4: the limit.
    static let find = """
        SELECT \(columns) FROM order_contacts WHERE name_key = ? OR phone_key = ? OR phone_tail_key = ? ORDER BY at DESC, order_ref LIMIT ?
        """
    static let plain = """
        SELECT \(columns) FROM order_contacts WHERE (name IS NOT NULL AND name NOT LIKE 'pd1.%') OR (phone IS NOT NULL AND phone NOT LIKE 'pd1.%')
        LIMIT ?
        """
    /// What a key not asked for is compared with: no keyed hash has a space.
    static let nothing = " "

    static func values(_ c: OrderContact) -> [String?] {
        [c.orderRef, c.showID, c.name, c.phone, String(c.at), c.nameKey, c.phoneKey, c.phoneTailKey]
    }

    static func contact(_ row: [String?]) -> OrderContact {
        OrderContact(
            orderRef: row[0] ?? "", showID: row[1] ?? "", name: row[2], phone: row[3], at: Int64(row[4] ?? "") ?? 0, nameKey: row[5],
            phoneKey: row[6], phoneTailKey: row[7])
    }
}

extension SQLiteStore: ContactStore {
    public var contacts: (any ContactStore)? { self }

    public func saveContact(_ c: OrderContact) throws {
        try locked { db in
            try db.run(
                ContactSchema.save, ContactSchema.values(c).enumerated().map { $0.offset == 4 ? .integer(c.at) : $0.element.map(SQLValue.text) ?? .null })
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

    public func findContacts(nameKey: String?, phoneKey: String?, phoneTailKey: String?, limit: Int) throws -> [OrderContact] {
        let keys = [nameKey, phoneKey, phoneTailKey].map { SQLValue.text($0 ?? ContactSchema.nothing) }
        return try locked { db in
            var out: [OrderContact] = []
            try db.query(ContactSchema.find, keys + [.integer(Int64(limit))]) { r in out.append(ContactSchema.contact(Self.row(r))) }
            return out
        }
    }

    public func plainContacts(limit: Int) throws -> [OrderContact] {
        try locked { db in
            var out: [OrderContact] = []
            try db.query(ContactSchema.plain, [.integer(Int64(limit))]) { r in out.append(ContactSchema.contact(Self.row(r))) }
            return out
        }
    }

    private static func row(_ r: SQLRow) -> [String?] {
        (0..<8).map { r.isNull(Int32($0)) ? nil : r.text(Int32($0)) }
    }
}

extension PostgresStore: ContactStore {
    public var contacts: (any ContactStore)? { self }

    public func saveContact(_ c: OrderContact) throws {
        try withConnection { c2 in
            _ = try c2.run("contact_save", QueueSchema.numbered(ContactSchema.save), ContactSchema.values(c))
        }
    }

    public func contact(orderRef: String) throws -> OrderContact? {
        try withConnection { c in
            try c.run("contact_by_order", QueueSchema.numbered(ContactSchema.byOrder), [orderRef]).rows.first.map(ContactSchema.contact)
        }
    }

    public func findContacts(nameKey: String?, phoneKey: String?, phoneTailKey: String?, limit: Int) throws -> [OrderContact] {
        let keys = [nameKey, phoneKey, phoneTailKey].map { $0 ?? ContactSchema.nothing }
        return try withConnection { c in
            try c.run("contact_find", QueueSchema.numbered(ContactSchema.find), keys + [String(limit)]).rows.map(ContactSchema.contact)
        }
    }

    public func plainContacts(limit: Int) throws -> [OrderContact] {
        try withConnection { c in try c.run("contact_plain", QueueSchema.numbered(ContactSchema.plain), [String(limit)]).rows.map(ContactSchema.contact) }
    }
}
