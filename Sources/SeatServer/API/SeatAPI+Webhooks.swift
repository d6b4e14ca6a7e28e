import Foundation
import SeatDomain
import SeatHTTP
import SeatJSON
import SeatSecrets
import SeatWebhooks
import SeatWire

/// `/v1/webhooks` (managers): the endpoints SeatKit posts its events to (`WebhookDispatcher` sends
/// them), their recent deliveries, and a replay. An endpoint's secret is shown once, in the answer that
/// made it, and kept sealed in the store.
extension SeatAPI {
    func webhookStore() throws -> any WebhookStore {
        guard let store = inventory.store.webhooks else { throw Problem(501, "not-supported", "Not supported", detail: "this store keeps no webhooks") }
        return store
    }

    func resource(_ e: WebhookEndpoint, secret: String? = nil) -> WebhookEndpointResource {
        WebhookEndpointResource(
            id: e.id, url: e.url, events: e.events, description: e.description, enabled: e.enabled, disabledReason: e.disabledReason,
            failingSince: e.failingSince.map(Render.iso), createdAt: Render.iso(e.createdAt), secret: secret)
    }

    static func list<T>(_ items: [T], _ key: String, _ write: (T, inout JSONWriter) -> Void) -> JSONWriter {
        var w = JSONWriter()
        w.raw("{"); w.key(key, first: true); w.raw("[")
        for (k, item) in items.enumerated() {
            if k > 0 { w.raw(",") }
            write(item, &w)
        }
        w.raw("]}")
        return w
    }

    func endpoint(_ id: String) throws -> WebhookEndpoint {
        guard let found = try storeCall({ try webhookStore().webhookEndpoints() }).first(where: { $0.id == id }) else {
            throw Problem.notFound("no webhook endpoint \(id)")
        }
        return found
    }

    func storeCall<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let problem as Problem { throw problem } catch {
            throw Problem(503, "store-unavailable", "Store unavailable", detail: "the webhooks could not be read or written; try again")
        }
    }

    /// `POST /v1/webhooks`.
    func createWebhook(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let body = try RequestBody.decode(r) { (bytes: [UInt8]) throws(WireError) in try WebhookEndpointRequest(json: bytes, creating: true) }
        let store = try webhookStore()
        let existing = try storeCall { try store.webhookEndpoints() }
        guard existing.count < 100 else {
            throw Problem(409, "too-many-endpoints", "Too many endpoints", detail: "a server posts to at most 100 endpoints: delete one first")
        }
        // Born on the wall clock, as the shows' log is written (the events it takes are those after it).
        let now = WebhookDispatcher.wallClock(), secret = body.secret ?? WebhookSignature.newSecret()
        var g = SystemRandomNumberGenerator()
        let id = "wh_" + (0..<8).map { _ in String(format: "%02x", g.next() as UInt8) }.joined()
        let endpoint = WebhookEndpoint(
            id: id, url: body.url ?? "", events: body.events ?? [], sealedSecret: webhookBox.seal(secret), description: body.description,
            enabled: body.enabled ?? true, disabledReason: nil, failingSince: nil, createdAt: now, updatedAt: now)
        try storeCall { try store.saveWebhookEndpoint(endpoint) }
        requestLog.logger.notice("webhook endpoint added", metadata: ["endpoint": .string(id), "url": .string(endpoint.url), "operator": .string(who.name)])
        return HTTPResponse(
            status: 201, headers: [("Content-Type", "application/json"), ("Location", "/v1/webhooks/\(id)"), ("Cache-Control", "no-store")],
            body: resource(endpoint, secret: secret).jsonBytes())
    }

    /// `GET /v1/webhooks`.
    func listWebhooks() throws -> HTTPResponse {
        let endpoints = try storeCall { try webhookStore().webhookEndpoints() }
        return .json(200, Self.list(endpoints, "endpoints") { e, w in resource(e).write(into: &w) })
    }

    /// `GET /v1/webhooks/{id}`.
    func getWebhook(_ id: String) throws -> HTTPResponse { Self.json(200, resource(try endpoint(id))) }

    static func json(_ status: Int, _ e: WebhookEndpointResource) -> HTTPResponse {
        var w = JSONWriter()
        e.write(into: &w)
        return .json(status, w)
    }

    /// `PATCH /v1/webhooks/{id}`: what the body names changes; `enabled: true` switches it back on (its
    /// failures forgotten), a new `secret` replaces the old at once.
    func patchWebhook(_ id: String, _ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        let body = try RequestBody.decode(r) { (bytes: [UInt8]) throws(WireError) in try WebhookEndpointRequest(json: bytes, creating: false) }
        var e = try endpoint(id)
        if let url = body.url { e.url = url }
        if let events = body.events { e.events = events }
        if let description = body.description { e.description = description }
        if let secret = body.secret { e.sealedSecret = webhookBox.seal(secret) }
        if let enabled = body.enabled {
            e.enabled = enabled
            e.disabledReason = enabled ? nil : "switched off by \(who.name)"
            if enabled { e.failingSince = nil }
        }
        e.updatedAt = inventory.clock()
        let saved = e
        try storeCall { try webhookStore().saveWebhookEndpoint(saved) }
        requestLog.logger.notice("webhook endpoint changed", metadata: ["endpoint": .string(id), "operator": .string(who.name)])
        return Self.json(200, resource(saved))
    }

    /// `DELETE /v1/webhooks/{id}`.
    func deleteWebhook(_ id: String, by who: Operator) throws -> HTTPResponse {
        guard try storeCall({ try webhookStore().deleteWebhookEndpoint(id: id) }) else { throw Problem.notFound("no webhook endpoint \(id)") }
        requestLog.logger.notice("webhook endpoint deleted", metadata: ["endpoint": .string(id), "operator": .string(who.name)])
        return .empty(204)
    }

    /// `GET /v1/webhooks/{id}/deliveries?limit=` (50; at most 500), newest first.
    func webhookDeliveries(_ id: String, _ r: HTTPRequest) throws -> HTTPResponse {
        _ = try endpoint(id)
        let limit = try Self.limit(r.query["limit"], default: 50, most: 500)
        let deliveries = try storeCall { try webhookStore().deliveries(endpoint: id, limit: limit) }
        return .json(
            200,
            Self.list(deliveries, "deliveries") { d, w in
                WebhookDeliveryResource(
                    eventID: d.eventID, type: d.type, show: d.showID, at: Render.iso(d.at), state: d.state.rawValue, attempts: d.attempts,
                    nextAttemptAt: d.state == .pending ? Render.iso(d.nextAt) : nil, lastStatus: d.lastCode, lastError: d.lastError,
                    deliveredAt: d.deliveredAt.map(Render.iso)
                ).write(into: &w)
            })
    }

    /// `POST /v1/webhooks/{id}/replay {"since"}`: the endpoint's deliveries of events since then sent
    /// again (same ids, signed anew), in order per show.
    func replayWebhook(_ id: String, _ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        _ = try endpoint(id)
        let o = (try? JSONParser.parse(r.body))?.objectValue
        guard let text = o?["since"]?.stringValue, let since = RequestBody.milliseconds(ofTimestamp: text), o?.count == 1 else {
            throw Problem(
                422, "invalid-body", "The request body is not valid",
                detail: "since: the time to replay from, like 2026-12-06T20:00:00+08:00 (and nothing else)")
        }
        let count = try storeCall { try webhookStore().replayDeliveries(endpoint: id, since: since, now: inventory.clock()) }
        requestLog.logger.notice("webhook replay", metadata: ["endpoint": .string(id), "since": .string(text), "operator": .string(who.name)])
        var w = JSONWriter()
        w.raw("{"); w.key("replayed", first: true); w.number(count); w.raw("}")
        return .json(200, w)
    }

    static func limit(_ text: String?, default fallback: Int, most: Int) throws -> Int {
        guard let text else { return fallback }
        guard let n = Int(text), (1...most).contains(n) else {
            throw Problem(422, "invalid-query", "Invalid query", detail: "limit: a whole number from 1 to \(most), got \"\(text.prefix(20))\"")
        }
        return n
    }
}
