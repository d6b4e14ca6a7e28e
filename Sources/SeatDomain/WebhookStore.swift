import Foundation

/// An operator's webhook endpoint (`/v1/webhooks`): where SeatKit posts the events it subscribes to,
/// signed Standard Webhooks style with its secret. The secret is kept sealed (`sealedSecret`) under a
/// key the store never holds, so a copy of the database cannot sign as SeatKit.
public struct WebhookEndpoint: Sendable, Hashable {
    /// `wh_…`.
    public var id: String
    public var url: String
    /// Event types, or `*` for all.
    public var events: [String]
    public var sealedSecret: String
    public var description: String?
    public var enabled: Bool
    /// Why it was switched off (failing for 3 days, gone), said to the operator.
    public var disabledReason: String?
    /// Since when every delivery failed (nil: the last one was taken).
    public var failingSince: Int64?
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: String, url: String, events: [String], sealedSecret: String, description: String?, enabled: Bool, disabledReason: String?,
        failingSince: Int64?, createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id; self.url = url; self.events = events; self.sealedSecret = sealedSecret; self.description = description; self.enabled = enabled
        self.disabledReason = disabledReason; self.failingSince = failingSince; self.createdAt = createdAt; self.updatedAt = updatedAt
    }

    /// Whether the endpoint takes events of `type`.
    public func takes(_ type: String) -> Bool { events.contains("*") || events.contains(type) }
}

/// One event to one endpoint: its body fixed when it is made (a retry and a replay send the same bytes,
/// signed anew), sent in version order per show, retried until taken or its schedule ends.
public struct WebhookDelivery: Sendable, Hashable {
    public enum State: String, Sendable, CaseIterable { case pending, delivered, failed }
    public var endpointID: String
    /// `evt_<show>_<version>`: the same event has the same id at every endpoint and in every retry (the
    /// receiver's key to ignore a repeat).
    public var eventID: String
    public var showID: String
    public var version: UInt64
    public var type: String
    public var payload: String
    /// When the change happened (unix ms).
    public var at: Int64
    public var state: State
    public var attempts: Int
    public var nextAt: Int64
    public var lastCode: Int?
    public var lastError: String?
    public var deliveredAt: Int64?

    public init(
        endpointID: String, eventID: String, showID: String, version: UInt64, type: String, payload: String, at: Int64, state: State, attempts: Int,
        nextAt: Int64, lastCode: Int? = nil, lastError: String? = nil, deliveredAt: Int64? = nil
    ) {
        self.endpointID = endpointID; self.eventID = eventID; self.showID = showID; self.version = version; self.type = type; self.payload = payload
        self.at = at; self.state = state; self.attempts = attempts; self.nextAt = nextAt; self.lastCode = lastCode; self.lastError = lastError
        self.deliveredAt = deliveredAt
    }
}

/// A row of a show's log, as the webhooks read it: the outbox every change writes in its transaction.
public struct LoggedChange: Sendable, Hashable {
    public var showID: String
    public var version: UInt64
    public var at: Int64
    public var entry: LogEntry
    public var delta: String
    public init(showID: String, version: UInt64, at: Int64, entry: LogEntry, delta: String) {
        self.showID = showID; self.version = version; self.at = at; self.entry = entry; self.delta = delta
    }
}

/// An event that is not a show's change — a ticket let in at the door (`checkin.accepted`), a buyer let
/// in from the waiting room (`queue.admitted`) — written in the transaction of what it tells
/// (`webhook_events`), so an acknowledged check-in or admission always has its event; read by the
/// webhook dispatcher after a cursor of its own. `fields` are what the store knows (a JSON object);
/// the dispatcher words the body (a seat's name, not its index).
public struct OutboxEvent: Sendable, Hashable {
    public var id: String
    public var showID: String
    public var type: String
    /// When it happened (unix ms, the store's wall clock, as the show's log).
    public var at: Int64
    public var fields: String
    /// Its place in the store's outbox (increasing): its order among its show's events of its type.
    public var seq: Int64
    public init(id: String, showID: String, type: String, at: Int64, fields: String, seq: Int64 = 0) {
        self.id = id; self.showID = showID; self.type = type; self.at = at; self.fields = fields; self.seq = seq
    }

    /// A ticket scanned in: its ticket, seat (index), gate and door operator.
    public static func checkIn(_ scan: CheckInScan, at: Int64) -> OutboxEvent {
        OutboxEvent(
            id: "evt_checkin_\(scan.showID)_\(scan.nonce)", showID: scan.showID, type: "checkin.accepted", at: at,
            fields: json(["ticket": scan.ticketID, "seat": scan.seat, "gate": scan.gate, "operator": scan.operatorName]))
    }

    /// A buyer let in from the waiting room: their position in the line as they saw it (1: the first;
    /// `place` is the line's 0-based index) and until when the admission holds (unix ms).
    public static func admitted(show: String, seq: Int64, place: Int?, until: Int64?, at: Int64) -> OutboxEvent {
        OutboxEvent(
            id: "evt_admitted_\(show)_\(seq)", showID: show, type: "queue.admitted", at: at,
            fields: json(["position": place.map { $0 + 1 } ?? NSNull(), "admittedUntil": until ?? NSNull()]))
    }

    /// `fields` as a JSON object (Foundation's: the domain knows no SeatJSON).
    static func json(_ fields: [String: Any]) -> String {
        (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The wall clock the stores stamp their logs with (unix ms).
    public static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}

/// Where webhook endpoints are kept and their deliveries read (both stores; a sharded store keeps every
/// endpoint on every shard).
public protocol WebhookStore: AnyObject, Sendable {
    func webhookEndpoints() throws -> [WebhookEndpoint]
    /// Inserts or replaces the endpoint.
    func saveWebhookEndpoint(_ endpoint: WebhookEndpoint) throws
    /// Removes the endpoint and its deliveries; false when there was none.
    func deleteWebhookEndpoint(id: String) throws -> Bool
    /// An endpoint's deliveries, newest first, at most `limit`.
    func deliveries(endpoint: String, limit: Int) throws -> [WebhookDelivery]
    /// Makes the endpoint's deliveries of events since `time` pending again, due at once; how many.
    func replayDeliveries(endpoint: String, since time: Int64, now: Int64) throws -> Int
}

/// One log and its deliveries, read and sent on their own: a store, or one shard of a sharded store.
public protocol WebhookOutbox: WebhookStore {
    /// Changes of every show logged in `(after, upTo]` (unix ms) whose action is one of `actions`,
    /// oldest first, at most `limit`.
    func loggedChanges(after: Int64, upTo: Int64, actions: [String], limit: Int) throws -> [LoggedChange]
    /// The time the log has been read to (0 at first).
    func webhookCursor() throws -> Int64
    /// Adds the deliveries not made yet (one an endpoint an event) and moves the cursor to `cursor`, in
    /// one transaction; on PostgreSQL one instance at a time (the others skip the round).
    func fanOut(_ deliveries: [WebhookDelivery], cursor: Int64) throws -> Bool
    /// Pending deliveries due by `time`, each the earliest pending one of its endpoint and show (per-show
    /// order), claimed until `lease` (another instance skips them meanwhile).
    func claimDueDeliveries(by time: Int64, lease: Int64, limit: Int) throws -> [WebhookDelivery]
    /// Writes deliveries' outcomes (state, attempts, next time, last answer), in one transaction.
    func saveDeliveries(_ deliveries: [WebhookDelivery]) throws
    /// Outbox events (check-ins, admissions) written in `(after, upTo]` (unix ms), oldest first, at most `limit`.
    func outboxEvents(after: Int64, upTo: Int64, limit: Int) throws -> [OutboxEvent]
    /// The time the outbox events have been read to (0 at first).
    func eventsCursor() throws -> Int64
    /// As `fanOut`, for outbox events and their cursor.
    func fanOutEvents(_ deliveries: [WebhookDelivery], cursor: Int64) throws -> Bool
}
