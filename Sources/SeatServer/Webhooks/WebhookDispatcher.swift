import Foundation
import Logging
import SeatDomain
import SeatInventory
import SeatJSON
import SeatWebhooks
import SharedState

/// Sends the shows' changes to the operators' endpoints (#52 item 4), off every request thread: each
/// round (every second, `sk-webhooks`) reads the show's log past the cursor (2 s behind now), writes one
/// delivery an event an endpoint that takes it, then sends the due ones (the earliest pending of each
/// endpoint and show: in version order per show), each endpoint's on a serial queue of its own so a
/// slow or dead one delays only itself. At least once: a delivery is marked taken only after a 2xx.
/// Thread: the dispatcher's own, and the endpoints' queues (`queues`); state lives in the store
/// (deliveries, cursor) and is claimed there, so several instances share the work.
final class WebhookDispatcher: Sendable {
    let inventory: Inventory
    let box: SecretBox
    let sender: WebhookSender
    let logger: Logger

    init(inventory: Inventory, box: SecretBox, sender: WebhookSender = WebhookSender(), logger: Logger) {
        self.inventory = inventory
        self.box = box
        self.sender = sender
        self.logger = logger
    }

    /// A lease on a delivery being sent (60 s: twelve sender timeouts), after which another instance may.
    static let lease: Int64 = 60_000

    /// One round on every part of the store; returns how many deliveries were sent (taken or not).
    @discardableResult
    func round() -> Int {
        inventory.store.webhookParts.reduce(0) { sent, part in
            do {
                let endpoints = try part.webhookEndpoints()
                guard !endpoints.isEmpty else { return sent }
                try fanOut(part, endpoints)
                return sent + (try deliver(part, endpoints))
            } catch {
                logger.warning("webhooks' round failed", metadata: ["cause": .string(String(describing: error))])
                return sent
            }
        }
    }

    /// The log's new events, as deliveries to every enabled endpoint that takes them; the cursor moved.
    func fanOut(_ part: any WebhookOutbox, _ endpoints: [WebhookEndpoint]) throws {
        // The log's times are the stores' wall clock (as are endpoints' births); retries run on the
        // inventory's clock (which tests move).
        let wall = Self.wallClock(), now = inventory.clock(), cursor = try part.webhookCursor()
        // A first round starts at the oldest endpoint's birth, not at the beginning of time.
        let from = cursor == 0 ? (endpoints.map(\.createdAt).min() ?? wall) - 1 : cursor
        let upTo = wall - 2_000, limit = 500
        guard upTo > from else { return }
        let changes = try part.loggedChanges(after: from, upTo: upTo, actions: Array(Inventory.webhookEvents.keys).sorted(), limit: limit)
        var deliveries: [WebhookDelivery] = []
        for change in changes {
            guard let type = Inventory.webhookEvents[change.entry.action] else { continue }
            let payload = self.payload(change, type: type)
            for endpoint in endpoints where endpoint.enabled && endpoint.takes(type) && endpoint.createdAt <= change.at {
                deliveries.append(
                    WebhookDelivery(
                        endpointID: endpoint.id, eventID: Self.eventID(change), showID: change.showID, version: change.version, type: type, payload: payload,
                        at: change.at, state: .pending, attempts: 0, nextAt: now))
            }
        }
        // A full page may end mid-millisecond: the next round starts one before its last (repeats are ignored).
        let next = changes.count == limit ? (changes.last?.at ?? upTo) - 1 : upTo
        _ = try part.fanOut(deliveries, cursor: max(from, next))
        try fanOutEvents(part, endpoints, wall: wall, now: now)
    }

    /// The outbox's other events (check-ins, admissions), as the log's: past their own cursor, 2 s
    /// behind. Each type of a show is a lane of its own (`show#type`), in the outbox's order.
    func fanOutEvents(_ part: any WebhookOutbox, _ endpoints: [WebhookEndpoint], wall: Int64, now: Int64) throws {
        let cursor = try part.eventsCursor()
        let from = cursor == 0 ? (endpoints.map(\.createdAt).min() ?? wall) - 1 : cursor
        let upTo = wall - 2_000, limit = 500
        guard upTo > from else { return }
        let events = try part.outboxEvents(after: from, upTo: upTo, limit: limit)
        var deliveries: [WebhookDelivery] = []
        for event in events {
            let payload = self.payload(event)
            for endpoint in endpoints where endpoint.enabled && endpoint.takes(event.type) && endpoint.createdAt <= event.at {
                deliveries.append(
                    WebhookDelivery(
                        endpointID: endpoint.id, eventID: event.id, showID: "\(event.showID)#\(event.type)", version: UInt64(max(event.seq, 0)),
                        type: event.type, payload: payload, at: event.at, state: .pending, attempts: 0, nextAt: now))
            }
        }
        let next = events.count == limit ? (events.last?.at ?? upTo) - 1 : upTo
        _ = try part.fanOutEvents(deliveries, cursor: max(from, next))
    }

    /// An outbox event's body: its id, type and time, and its fields (a seat by its name).
    func payload(_ event: OutboxEvent) -> String {
        var w = JSONWriter()
        w.raw("{"); w.key("id", first: true); w.string(event.id); w.key("type"); w.string(event.type)
        w.key("createdAt"); w.string(Render.iso(event.at))
        w.key("data"); w.raw("{"); w.key("show", first: true); w.string(event.showID)
        if let fields = (try? JSONParser.parse(Array(event.fields.utf8)))?.objectValue {
            for (key, value) in zip(fields.keys, fields.values) {
                w.key(key)
                if key == "seat", let index = value.intValue, let name = inventory.seatName(show: event.showID, index: index) {
                    w.string(name)
                } else {
                    w.value(value)
                }
            }
        }
        w.raw("}}")
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func wallClock() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func eventID(_ change: LoggedChange) -> String { "evt_\(change.showID)_\(change.version)" }

    /// The event's body, fixed when its deliveries are made: its id, type, time and what changed.
    func payload(_ change: LoggedChange, type: String) -> String {
        var w = JSONWriter()
        func optional(_ key: String, _ value: String?) { if let value { w.key(key); w.string(value) } }
        w.raw("{"); w.key("id", first: true); w.string(Self.eventID(change)); w.key("type"); w.string(type)
        w.key("createdAt"); w.string(Render.iso(change.at))
        w.key("data"); w.raw("{"); w.key("show", first: true); w.string(change.showID); w.key("version"); w.raw(String(change.version))
        optional("orderRef", change.entry.orderRef); optional("hold", change.entry.holdID); optional("operator", change.entry.operatorName)
        optional("reason", change.entry.reason)
        if let seats = inventory.seatsChanged(show: change.showID, delta: change.delta), !seats.isEmpty {
            w.key("seats"); w.raw("[")
            for (k, s) in seats.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("seat", first: true); w.string(s.seat); w.key("status"); w.string(s.status); w.raw("}")
            }
            w.raw("]")
        }
        if type.hasPrefix("order.") || type.hasPrefix("payment."), let hold = change.entry.holdID,
            let payments = try? inventory.store.payments?.payments(hold: hold), let p = payments.last
        {
            w.key("payment"); w.raw("{"); w.key("id", first: true); w.string(p.id); w.key("provider"); w.string(p.provider)
            optional("providerId", p.providerID); w.key("state"); w.string(p.state.rawValue); w.key("amount"); w.raw(String(p.amount))
            w.key("currency"); w.string(p.currency); optional("outcome", p.outcome); w.raw("}")
        }
        w.raw("}}")
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// Sends the due deliveries, each endpoint's in turn on a queue of its own; how many were handed
    /// over. A claim gives one delivery a show and endpoint (per-show order), so the next of a show is
    /// due only once its predecessor is taken: claimed again at once, for up to a second a round (one a
    /// claim a second delivered a burst of 15 sales in 15 s after a restart). The round waits for its
    /// sends only until its second is up: an endpoint that never answers (5 s a try) goes on trying on
    /// its own queue and holds up nobody else (waiting for it, 90 healthy endpoints took 4 deliveries
    /// in 5 s beside 5 black holes in `make bench`).
    func deliver(_ part: any WebhookOutbox, _ endpoints: [WebhookEndpoint]) throws -> Int {
        let byID = Dictionary(uniqueKeysWithValues: endpoints.map { ($0.id, $0) })
        let end = DispatchTime.now() + .seconds(1)
        var sent = 0
        var inFlight: DispatchGroup?
        while DispatchTime.now() < end {
            let now = inventory.clock()
            let due = try part.claimDueDeliveries(by: now, lease: now + Self.lease, limit: 200)
            if due.isEmpty {
                // Nothing due, but sends to idle endpoints still out (a slow machine): their next ones
                // become due once they are taken, within this round's second.
                guard let group = inFlight, group.wait(timeout: end) == .success else { break }
                inFlight = nil
                saveOutcomes()
                continue
            }
            // Waited for: the sends to endpoints that were idle. One still busy with an earlier try (a
            // black hole's 5 s) gets its batch queued behind it, and the round does not wait for it.
            let group = DispatchGroup()
            // Outcomes of sends the round waited for are written together after the wait; one that ends
            // after it writes its own (else it waited for the next round, up to a second, unrecorded).
            let waiting = Locked(true)
            for (id, deliveries) in Dictionary(grouping: due, by: \.endpointID) {
                guard let endpoint = byID[id] else { continue }
                let (queue, idle) = take(id)
                let work: @Sendable () -> Void = { [self] in
                    send(deliveries.sorted { ($0.showID, $0.version) < ($1.showID, $1.version) }, to: endpoint, part)
                    done(id)
                    if !waiting.current { saveOutcomes() }
                }
                if idle { queue.async(group: group, execute: work) } else { queue.async(execute: work) }
            }
            sent += due.count
            // An idle endpoint that turns out dead holds the round up for 250 ms once, then is busy.
            if group.wait(timeout: min(end, DispatchTime.now() + .milliseconds(250))) == .timedOut { inFlight = group }
            waiting.withLock { $0 = false }
            saveOutcomes()
        }
        saveOutcomes()
        return sent
    }

    /// Sent deliveries' outcomes not yet written (by the endpoints' queues). Lock: `outcomes`' own (a leaf).
    private let outcomes = Locked([(part: any WebhookOutbox, delivery: WebhookDelivery)]())

    func keep(_ delivery: WebhookDelivery, _ part: any WebhookOutbox) { outcomes.withLock { $0.append((part, delivery)) } }

    /// Writes the kept outcomes, one transaction a part (a commit a delivery was 450 a second on the
    /// store's one writer beside the hold load). One that fails to be written stays claimed until its
    /// lease ends and is sent again: at least once.
    func saveOutcomes() {
        let taken = outcomes.withLock { all -> [(part: any WebhookOutbox, delivery: WebhookDelivery)] in
            defer { all.removeAll() }
            return all
        }
        for group in Dictionary(grouping: taken, by: { ObjectIdentifier($0.part) }).values {
            guard let part = group.first?.part else { continue }
            do { try part.saveDeliveries(group.map(\.delivery)) } catch {
                logger.warning("webhook deliveries' outcomes not written", metadata: ["cause": .string(String(describing: error))])
            }
        }
    }

    /// Each endpoint's serial queue (made at its first delivery) and how many batches it has queued.
    /// Lock: `queues`' own (a leaf).
    private let queues = Locked([String: (queue: DispatchQueue, queued: Int)]())

    /// The endpoint's queue, one more batch counted on it; whether it was idle.
    func take(_ endpoint: String) -> (DispatchQueue, idle: Bool) {
        queues.withLock { all in
            let entry = all[endpoint] ?? (DispatchQueue(label: "sk-webhook-\(endpoint)"), 0)
            all[endpoint] = (entry.queue, entry.queued + 1)
            return (entry.queue, entry.queued == 0)
        }
    }

    func done(_ endpoint: String) {
        queues.withLock { all in all[endpoint]?.queued -= 1 }
    }

    func send(_ deliveries: [WebhookDelivery], to endpoint: WebhookEndpoint, _ part: any WebhookOutbox) {
        var endpoint = endpoint
        let metrics = inventory.metrics
        for var d in deliveries {
            let now = inventory.clock()
            guard endpoint.enabled, let url = URL(string: endpoint.url), let secret = box.open(endpoint.sealedSecret) else {
                // Switched off (or its secret unreadable): kept pending for a replay, not tried meanwhile.
                d.nextAt = now + 86_400_000
                keep(d, part)
                continue
            }
            let outcome = sender.send(url: url, id: d.eventID, timestamp: Int(now / 1000), body: Array(d.payload.utf8), secret: secret)
            d.attempts += 1
            d.lastCode = outcome.status
            d.lastError = outcome.error.map { String($0.prefix(200)) }
            if outcome.taken {
                d.state = .delivered
                d.deliveredAt = now
                metrics.count("webhooks_delivered")
                if endpoint.failingSince != nil {
                    endpoint.failingSince = nil
                    endpoint.updatedAt = now
                    try? part.saveWebhookEndpoint(endpoint)
                }
            } else {
                metrics.count("webhooks_failed_attempts")
                if let delay = RetrySchedule.delay(afterAttempts: d.attempts) { d.nextAt = now + delay } else { d.state = .failed }
                let since = endpoint.failingSince ?? now
                endpoint.failingSince = since
                if outcome.status == 410 || now - since >= RetrySchedule.disableAfter {
                    endpoint.enabled = false
                    endpoint.disabledReason =
                        outcome.status == 410
                        ? "the endpoint answered 410 Gone"
                        : "every delivery failed for 3 days (since \(Render.iso(since))); last: \(d.lastError ?? "no answer")"
                    logger.warning(
                        "webhook endpoint switched off", metadata: ["endpoint": .string(endpoint.id), "why": .string(endpoint.disabledReason ?? "")])
                    metrics.count("webhook_endpoints_disabled")
                }
                endpoint.updatedAt = now
                try? part.saveWebhookEndpoint(endpoint)
            }
            keep(d, part)
        }
    }
}
