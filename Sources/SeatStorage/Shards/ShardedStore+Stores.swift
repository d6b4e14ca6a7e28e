import Foundation
import SeatDomain

/// A show's waiting room, scans and buyers' contacts are kept on its shard.
extension ShardedStore: QueueStore, DoorStore, ContactStore {
    public func rooms() throws -> [QueueRecord] { try everyShard { try $0.rooms() }.flatMap { $0 } }

    public func queueChanges(show: String, after revision: Int64) throws -> QueueChanges {
        try shard(forShow: show).run { try $0.queueChanges(show: show, after: revision) }
    }

    public func updateQueue(show: String, after revision: Int64, _ decide: (QueueChanges, Int64) throws -> QueueWrite) throws -> Int64 {
        try withoutActuallyEscaping(decide) { decide in
            try shard(forShow: show).run { try $0.updateQueue(show: show, after: revision, decide) }
        }
    }

    public func checkIn(_ scan: CheckInScan) throws -> CheckInOutcome { try shard(forShow: scan.showID).run { try $0.checkIn(scan) } }

    public func checkInCounts(show: String) throws -> CheckInCounts { try shard(forShow: show).run { try $0.checkInCounts(show: show) } }

    public func recentScans(show: String, limit: Int) throws -> [CheckInScan] {
        try shard(forShow: show).run { try $0.recentScans(show: show, limit: limit) }
    }

    public func seatSales(show: String, seat: Int) throws -> SeatSales {
        try shard(forShow: show).run { try $0.seatSales(show: show, seat: seat) }
    }

    public func saveContact(_ contact: OrderContact) throws { try shard(forShow: contact.showID).run { try $0.saveContact(contact) } }

    public func contact(orderRef: String) throws -> OrderContact? { try everyShard { try $0.contact(orderRef: orderRef) }.compactMap { $0 }.first }

    public func findContacts(nameKey: String?, phoneKey: String?, phoneTailKey: String?, limit: Int) throws -> [OrderContact] {
        let found = try everyShard { try $0.findContacts(nameKey: nameKey, phoneKey: phoneKey, phoneTailKey: phoneTailKey, limit: limit) }
        return Array(found.flatMap { $0 }.sorted { $0.at > $1.at }.prefix(limit))
    }

    public func plainContacts(limit: Int) throws -> [OrderContact] {
        Array(try everyShard { try $0.plainContacts(limit: limit) }.flatMap { $0 }.prefix(limit))
    }
}

extension ShardedStore {
    /// Batches committed and the changes in them, every open shard's together (`PostgresStore.written`).
    public var written: (batches: Int, changes: Int) {
        shards.reduce((0, 0)) { sum, shard in
            guard let w = try? shard.store().written else { return sum }
            return (sum.0 + w.batches, sum.1 + w.changes)
        }
    }
}

extension ShardedStore: PersonalDataStore {
    public var personalData: (any PersonalDataStore)? { self }

    public func erasePersonalData(show: String) throws -> (attendees: Int, contacts: Int) {
        try shard(forShow: show).run { try $0.erasePersonalData(show: show) }
    }

    public func replaceAttendee(show: String, seat: Int, old: String, new: String) throws -> Bool {
        try shard(forShow: show).run { try $0.replaceAttendee(show: show, seat: seat, old: old, new: new) }
    }

    public func transfer(_ t: TicketTransfer, from: String?, to identity: String, attendee: String) throws -> Bool {
        try shard(forShow: t.show).run { try $0.transfer(t, from: from, to: identity, attendee: attendee) }
    }

    public func transfers(show: String) throws -> [TicketTransfer] { try shard(forShow: show).run { try $0.transfers(show: show) } }

    // Attendee books belong to no show: every shard keeps them (as webhook endpoints), any reachable one answers.
    public func saveBookEntry(book: String, entry: String, sealed: String, at: Int64) throws {
        _ = try everyShard { try $0.saveBookEntry(book: book, entry: entry, sealed: sealed, at: at) }
    }

    public func bookEntries(book: String) throws -> [(entry: String, sealed: String, at: Int64)] {
        try everyShard { try $0.bookEntries(book: book) }.max { $0.count < $1.count } ?? []
    }

    public func deleteBookEntry(book: String, entry: String) throws -> Bool {
        try everyShard { try $0.deleteBookEntry(book: book, entry: entry) }.contains(true)
    }

    public func contacts(after orderRef: String?, limit: Int) throws -> [OrderContact] {
        let all = try everyShard { try $0.contacts(after: orderRef, limit: limit) }.flatMap { $0 }
        return Array(all.sorted { $0.orderRef < $1.orderRef }.prefix(limit))
    }
}

/// A show's waitlist is kept on its shard; an entry found by its token is looked for on every shard.
extension ShardedStore: WaitlistStore {
    public var waitlists: (any WaitlistStore)? { self }

    public func addWaitlistEntry(_ entry: WaitlistEntry) throws -> Int64 { try shard(forShow: entry.showID).run { try $0.addWaitlistEntry(entry) } }

    public func waitlistEntry(digest: String) throws -> WaitlistEntry? {
        try everyShard { try $0.waitlistEntry(digest: digest) }.compactMap { $0 }.first
    }

    public func openWaitlist(show: String) throws -> [WaitlistEntry] { try shard(forShow: show).run { try $0.openWaitlist(show: show) } }

    public func waitlistShows() throws -> [String] { Array(Set(try everyShard { try $0.waitlistShows() }.flatMap { $0 })).sorted() }

    public func updateWaitlistEntry(_ entry: WaitlistEntry, whenState state: WaitlistEntry.State, offers: Int) throws -> Bool {
        try shard(forShow: entry.showID).run { try $0.updateWaitlistEntry(entry, whenState: state, offers: offers) }
    }

    public func markWaitlistPrepaid(show: String, seq: Int64, at time: Int64) throws -> Bool {
        try shard(forShow: show).run { try $0.markWaitlistPrepaid(show: show, seq: seq, at: time) }
    }

    public func waitlistEntry(show: String, digest: String) throws -> WaitlistEntry? {
        try shard(forShow: show).run { try $0.waitlistEntry(show: show, digest: digest) }
    }
}
