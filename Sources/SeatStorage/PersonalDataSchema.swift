import SeatDomain

/// Erasing a show's personal data and re-sealing values (`PersonalDataStore`): the claims' attendees and
/// the order contacts, the only places names, documents and phones are kept.
enum PersonalDataSchema {
    static let eraseAttendees = "UPDATE claims SET identity = NULL, attendee = NULL WHERE show_id = ? AND identity IS NOT NULL"
    static let eraseContacts = """
        UPDATE order_contacts SET name = NULL, phone = NULL, name_key = NULL, phone_key = NULL, phone_tail_key = NULL
        WHERE show_id = ? AND (name IS NOT NULL OR phone IS NOT NULL)
        """
    static let replaceAttendee = "UPDATE claims SET attendee = ? WHERE show_id = ? AND seat = ? AND attendee = ?"
    static let contactsAfter = "SELECT \(ContactSchema.columns) FROM order_contacts WHERE order_ref > ? ORDER BY order_ref LIMIT ?"
    /// `?` 1, 2: the new identity and attendee; 3–5: show, seat, sale; 6: the identity it had ('' for none).
    static let rebind = """
        UPDATE claims SET identity = ?, attendee = ? WHERE show_id = ? AND seat = ? AND hold_id = ? AND status = 'sold'
          AND coalesce(identity, '') = ?
        """
    static let recordTransfer = """
        INSERT INTO ticket_transfers(show_id, old_ticket, seat, hold_id, first_binding, at, operator) VALUES(?, ?, ?, ?, ?, ?, ?)
        """
    static let transfers = """
        SELECT show_id, old_ticket, seat, hold_id, first_binding, at, operator FROM ticket_transfers WHERE show_id = ? ORDER BY at, old_ticket
        """

    static let saveBookEntry = "INSERT INTO attendee_books(book, entry, sealed, created_at) VALUES(?, ?, ?, ?)"
    static let bookEntries = "SELECT entry, sealed, created_at FROM attendee_books WHERE book = ? ORDER BY created_at, entry"
    static let deleteBookEntry = "DELETE FROM attendee_books WHERE book = ? AND entry = ?"

    static func transfer(_ row: [String?]) -> TicketTransfer {
        TicketTransfer(
            show: row[0] ?? "", seat: Int(row[2] ?? "") ?? 0, sale: row[3] ?? "", oldTicket: row[1] ?? "",
            firstBinding: row[4] == "1" || row[4] == "t", at: Int64(row[5] ?? "") ?? 0, operatorName: row[6] ?? "")
    }
}

extension SQLiteStore: PersonalDataStore {
    public var personalData: (any PersonalDataStore)? { self }

    public func erasePersonalData(show: String) throws -> (attendees: Int, contacts: Int) {
        let counts = try locked { db in
            try db.transaction {
                try db.run(PersonalDataSchema.eraseAttendees, [.text(show)])
                let attendees = db.changes
                try db.run(PersonalDataSchema.eraseContacts, [.text(show)])
                return (attendees, db.changes)
            }
        }
        try syncer?.waitUntilDurable()
        return counts
    }

    public func replaceAttendee(show: String, seat: Int, old: String, new: String) throws -> Bool {
        try locked { db in
            try db.run(PersonalDataSchema.replaceAttendee, [.text(new), .text(show), .integer(Int64(seat)), .text(old)])
            return db.changes == 1
        }
    }

    public func contacts(after orderRef: String?, limit: Int) throws -> [OrderContact] {
        try locked { db in
            var out: [OrderContact] = []
            try db.query(PersonalDataSchema.contactsAfter, [.text(orderRef ?? ""), .integer(Int64(limit))]) { r in
                out.append(ContactSchema.contact((0..<8).map { r.isNull(Int32($0)) ? nil : r.text(Int32($0)) }))
            }
            return out
        }
    }

    public func transfer(_ t: TicketTransfer, from: String?, to identity: String, attendee: String) throws -> Bool {
        let done = try locked { db in
            try db.transaction { () throws -> Bool in
                try db.run(
                    PersonalDataSchema.rebind,
                    [.text(identity), .text(attendee), .text(t.show), .integer(Int64(t.seat)), .text(t.sale), .text(from ?? "")])
                guard db.changes == 1 else { return false }
                try db.run(
                    PersonalDataSchema.recordTransfer,
                    [
                        .text(t.show), .text(t.oldTicket), .integer(Int64(t.seat)), .text(t.sale), .integer(t.firstBinding ? 1 : 0), .integer(t.at),
                        .text(t.operatorName),
                    ])
                return true
            }
        }
        try syncer?.waitUntilDurable()
        return done
    }

    public func saveBookEntry(book: String, entry: String, sealed: String, at: Int64) throws {
        try locked { db in try db.run(PersonalDataSchema.saveBookEntry, [.text(book), .text(entry), .text(sealed), .integer(at)]) }
        try syncer?.waitUntilDurable()
    }

    public func bookEntries(book: String) throws -> [(entry: String, sealed: String, at: Int64)] {
        try locked { db in
            var out: [(entry: String, sealed: String, at: Int64)] = []
            try db.query(PersonalDataSchema.bookEntries, [.text(book)]) { out.append(($0.text(0), $0.text(1), $0.int(2))) }
            return out
        }
    }

    public func deleteBookEntry(book: String, entry: String) throws -> Bool {
        try locked { db in
            try db.run(PersonalDataSchema.deleteBookEntry, [.text(book), .text(entry)])
            return db.changes == 1
        }
    }

    public func transfers(show: String) throws -> [TicketTransfer] {
        try locked { db in
            var out: [TicketTransfer] = []
            try db.query(PersonalDataSchema.transfers, [.text(show)]) { r in
                out.append(PersonalDataSchema.transfer((0..<7).map { r.isNull(Int32($0)) ? nil : r.text(Int32($0)) }))
            }
            return out
        }
    }
}

extension PostgresStore: PersonalDataStore {
    public var personalData: (any PersonalDataStore)? { self }

    public func erasePersonalData(show: String) throws -> (attendees: Int, contacts: Int) {
        try withConnection { c in
            _ = try c.execute("BEGIN")
            do {
                let a = try c.run("erase_attendees", QueueSchema.numbered(PersonalDataSchema.eraseAttendees), [show]).affected
                let k = try c.run("erase_contacts", QueueSchema.numbered(PersonalDataSchema.eraseContacts), [show]).affected
                _ = try c.execute("COMMIT")
                return (a, k)
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func replaceAttendee(show: String, seat: Int, old: String, new: String) throws -> Bool {
        try withConnection { c in
            try c.run("replace_attendee", QueueSchema.numbered(PersonalDataSchema.replaceAttendee), [new, show, String(seat), old]).affected == 1
        }
    }

    public func contacts(after orderRef: String?, limit: Int) throws -> [OrderContact] {
        try withConnection { c in
            try c.run("contacts_after", QueueSchema.numbered(PersonalDataSchema.contactsAfter), [orderRef ?? "", String(limit)]).rows.map(
                ContactSchema.contact)
        }
    }

    public func transfer(_ t: TicketTransfer, from: String?, to identity: String, attendee: String) throws -> Bool {
        try withConnection { c in
            _ = try c.execute("BEGIN")
            do {
                let changed = try c.run(
                    "rebind", QueueSchema.numbered(PersonalDataSchema.rebind), [identity, attendee, t.show, String(t.seat), t.sale, from ?? ""]
                ).affected
                guard changed == 1 else {
                    _ = try c.execute("ROLLBACK")
                    return false
                }
                _ = try c.run(
                    "record_transfer", QueueSchema.numbered(PersonalDataSchema.recordTransfer),
                    [t.show, t.oldTicket, String(t.seat), t.sale, t.firstBinding ? "t" : "f", String(t.at), t.operatorName])
                _ = try c.execute("COMMIT")
                return true
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func transfers(show: String) throws -> [TicketTransfer] {
        try withConnection { c in try c.run("transfers", QueueSchema.numbered(PersonalDataSchema.transfers), [show]).rows.map(PersonalDataSchema.transfer) }
    }

    public func saveBookEntry(book: String, entry: String, sealed: String, at: Int64) throws {
        _ = try withConnection { c in try c.run("book_save", QueueSchema.numbered(PersonalDataSchema.saveBookEntry), [book, entry, sealed, String(at)]) }
    }

    public func bookEntries(book: String) throws -> [(entry: String, sealed: String, at: Int64)] {
        try withConnection { c in
            try c.run("book_entries", QueueSchema.numbered(PersonalDataSchema.bookEntries), [book]).rows.map {
                ($0[0] ?? "", $0[1] ?? "", Int64($0[2] ?? "") ?? 0)
            }
        }
    }

    public func deleteBookEntry(book: String, entry: String) throws -> Bool {
        try withConnection { c in try c.run("book_delete", QueueSchema.numbered(PersonalDataSchema.deleteBookEntry), [book, entry]).affected == 1 }
    }
}
