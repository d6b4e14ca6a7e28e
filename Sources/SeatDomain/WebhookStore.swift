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
    /// Writes a delivery's outcome (state, attempts, next time, last answer).
    func saveDelivery(_ delivery: WebhookDelivery) throws
}
