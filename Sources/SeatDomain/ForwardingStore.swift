import Foundation
import SeatMap

/// A store that passes every call to `base`: subclass it and override what a wrapper changes (the
/// benchmark's store that writes nothing, the tests' store that fails a commit or holds a read at a
/// gate). The defaults of `SeatStore`'s extension are forwarded too, so `base`'s own versions run.
/// `@unchecked` only because an open class cannot be checked: its one stored property is a `let` of
/// a `Sendable` store.
open class ForwardingStore: SeatStore, @unchecked Sendable {
    public let base: any SeatStore

    public init(base: any SeatStore) { self.base = base }

    /// The base's: what a shared store adds is not wrapped (the wrappers here change commits and reads).
    open var sharing: (any SharedStore)? { base.sharing }
    open var waitingRooms: (any QueueStore)? { base.waitingRooms }
    open var door: (any DoorStore)? { base.door }
    open var contacts: (any ContactStore)? { base.contacts }
    open var personalData: (any PersonalDataStore)? { base.personalData }
    open var waitlists: (any WaitlistStore)? { base.waitlists }
    open var seasons: (any SeasonStore)? { base.seasons }
    open var staff: (any StaffStore)? { base.staff }
    open var payments: (any PaymentStore)? { base.payments }
    open var webhooks: (any WebhookStore)? { base.webhooks }
    open var webhookParts: [any WebhookOutbox] { base.webhookParts }
    open var placement: (any ShowPlacement)? { base.placement }
    open func insertVenue(id: String, fingerprint: String, layoutJSON: [UInt8]) throws {
        try base.insertVenue(id: id, fingerprint: fingerprint, layoutJSON: layoutJSON)
    }
    open func venues() throws -> [(id: String, layoutJSON: [UInt8])] { try base.venues() }
    open func insertShow(_ show: ShowRecord) throws { try base.insertShow(show) }
    open func shows() throws -> [ShowRecord] { try base.shows() }
    open func claims(show: String) throws -> [Claim] { try base.claims(show: show) }
    open func activeHolds() throws -> [HoldRecord] { try base.activeHolds() }
    open func hold(tokenDigest: String) throws -> HoldRecord? { try base.hold(tokenDigest: tokenDigest) }
    open func commit(batch: [StoreCommit]) throws -> [CommitOutcome] { try base.commit(batch: batch) }
    open func holdSeats(holdID: String) throws -> [Int] { try base.holdSeats(holdID: holdID) }
    open func holdWithSeats(tokenDigest: String) throws -> (record: HoldRecord, seats: [Int])? { try base.holdWithSeats(tokenDigest: tokenDigest) }
    open func activeHolds(show: String) throws -> [HoldRecord] { try base.activeHolds(show: show) }
    open func showVersions() throws -> [String: UInt64] { try base.showVersions() }
    open func events(show: String, after version: UInt64, limit: Int) throws -> [(version: UInt64, delta: String)]? {
        try base.events(show: show, after: version, limit: limit)
    }
    open func storedResponse(key: String) throws -> StoredResponse? { try base.storedResponse(key: key) }
    open func storedResponse(key: String, show: String?) throws -> StoredResponse? { try base.storedResponse(key: key, show: show) }
    open func prune(idempotencyMilliseconds: Int64) throws { try base.prune(idempotencyMilliseconds: idempotencyMilliseconds) }
    open func orders(orderRef: String) throws -> [(record: HoldRecord, seats: [Int])] { try base.orders(orderRef: orderRef) }
    open func holdWithSeats(id: String) throws -> (record: HoldRecord, seats: [Int])? { try base.holdWithSeats(id: id) }
    open func sales(show: String) throws -> [(record: HoldRecord, seats: [Int])] { try base.sales(show: show) }
    open func refunds(holdIDs: [String]) throws -> [RefundRecord] { try base.refunds(holdIDs: holdIDs) }
    open func log(show: String, after version: UInt64, limit: Int) throws -> [LogRecord] { try base.log(show: show, after: version, limit: limit) }
    open func salesHistory(venue: String, since: Date, until: Date) throws -> (shows: Int, soldCounts: [Int: Int]) {
        try base.salesHistory(venue: venue, since: since, until: until)
    }
}
