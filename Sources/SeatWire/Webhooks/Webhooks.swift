import SeatJSON
import SeatMap

/// `POST /v1/webhooks` and `PATCH /v1/webhooks/{id}` (managers): where to post, which events, and
/// (optionally) the secret; a patch names only what changes (`enabled: true` switches an endpoint that
/// was switched off back on).
public struct WebhookEndpointRequest: Sendable, Hashable {
    /// The events an endpoint may take (`*`: all).
    public static let eventTypes = [
        "order.paid", "order.refunded", "order.exchanged", "hold.expired", "payment.failed", "payment.late", "show.changed", "show.cancelled",
        "checkin.accepted", "queue.admitted",
    ]
    public var url: String?
    public var events: [String]?
    public var secret: String?
    public var description: String?
    public var enabled: Bool?

    public init(url: String? = nil, events: [String]? = nil, secret: String? = nil, description: String? = nil, enabled: Bool? = nil) {
        self.url = url; self.events = events; self.secret = secret; self.description = description; self.enabled = enabled
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        var first = true
        func key(_ k: String) { w.key(k, first: first); first = false }
        w.raw("{")
        if let url { key("url"); w.string(url) }
        if let events { key("events"); w.strings(events) }
        if let secret { key("secret"); w.string(secret) }
        if let description { key("description"); w.string(description) }
        if let enabled { key("enabled"); w.raw(enabled ? "true" : "false") }
        w.raw("}")
        return w.bytes
    }

    /// A body checked field by field; `creating` requires the url and the events.
    public init(json bytes: [UInt8], creating: Bool) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["url", "events", "secret", "description", "enabled"], at: "", into: &log)
        // A member given as null is a mistake, not "unchanged": the schema has no null here.
        for key in ["url", "events", "secret", "description", "enabled"] where o[key] == .null { log.add(key, "not null (leave it out to keep it)") }
        let url = o["url"] == .null ? nil : o.text("url", into: &log, required: creating)
        if let url, !Self.isEndpointURL(url) { log.add("url", "an http(s) URL with a host, at most 2,048 characters, got \"\(url.prefix(60))\"") }
        var events: [String]? = nil
        if let value = o["events"] {
            if let list = value.arrayValue?.compactMap(\.stringValue), list.count == value.arrayValue?.count, !list.isEmpty {
                for (k, e) in list.enumerated() where e != "*" && !Self.eventTypes.contains(e) {
                    log.add("events[\(k)]", "one of \(Self.eventTypes.joined(separator: ", ")) or *, got \"\(e.prefix(40))\"")
                }
                events = list
            } else {
                log.add("events", "a non-empty list of event types")
            }
        } else if creating {
            log.add("events", "missing (the event types to send, or [\"*\"])")
        }
        let secret = o.text("secret", into: &log, required: false)
        if let secret, !Self.isSecret(secret) { log.add("secret", "whsec_ and the base64 of 24 to 64 bytes") }
        let description = o.text("description", into: &log, required: false)
        if let description, description.count > 200 { log.add("description", "at most 200 characters") }
        var enabled: Bool? = nil
        if let value = o["enabled"] {
            if case .bool(let b) = value { enabled = b } else { log.add("enabled", "true or false") }
        }
        if !log.isEmpty { throw .invalid(log.error) }
        self.init(url: url, events: events, secret: secret, description: description, enabled: enabled)
    }

    static func isEndpointURL(_ text: String) -> Bool {
        guard text.utf8.count <= 2_048, let scheme = text.split(separator: ":").first?.lowercased(), ["http", "https"].contains(scheme) else {
            return false
        }
        let rest = text.drop { $0 != ":" }
        guard rest.hasPrefix("://") else { return false }
        let host = rest.dropFirst(3).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !host.contains(" ") && !text.contains(where: { $0.isWhitespace })
    }

    static func isSecret(_ text: String) -> Bool {
        guard text.hasPrefix("whsec_") else { return false }
        let body = text.dropFirst(6)
        return body.count >= 32 && body.count <= 88 && body.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+/=".contains($0)) }
    }
}

/// An endpoint as the API shows it; its secret only in the answer that made it.
public struct WebhookEndpointResource: Sendable, Hashable {
    public var id: String, url: String, events: [String], description: String?, enabled: Bool, disabledReason: String?
    public var failingSince: String?, createdAt: String, secret: String?

    public init(
        id: String, url: String, events: [String], description: String?, enabled: Bool, disabledReason: String?, failingSince: String?,
        createdAt: String, secret: String? = nil
    ) {
        self.id = id; self.url = url; self.events = events; self.description = description; self.enabled = enabled
        self.disabledReason = disabledReason; self.failingSince = failingSince; self.createdAt = createdAt; self.secret = secret
    }

    public func write(into w: inout JSONWriter) {
        func optional(_ key: String, _ value: String?) { w.key(key); if let value { w.string(value) } else { w.raw("null") } }
        w.raw("{"); w.key("id", first: true); w.string(id); w.key("url"); w.string(url); w.key("events"); w.strings(events)
        optional("description", description); w.key("enabled"); w.raw(enabled ? "true" : "false"); optional("disabledReason", disabledReason)
        optional("failingSince", failingSince); w.key("createdAt"); w.string(createdAt)
        if let secret { w.key("secret"); w.string(secret) }
        w.raw("}")
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        write(into: &w)
        return w.bytes
    }
}

/// One event's delivery to one endpoint, as `GET /v1/webhooks/{id}/deliveries` lists it.
public struct WebhookDeliveryResource: Sendable, Hashable {
    public var eventID: String, type: String, show: String, at: String, state: String, attempts: Int
    public var nextAttemptAt: String?, lastStatus: Int?, lastError: String?, deliveredAt: String?

    public init(
        eventID: String, type: String, show: String, at: String, state: String, attempts: Int, nextAttemptAt: String?, lastStatus: Int?,
        lastError: String?, deliveredAt: String?
    ) {
        self.eventID = eventID; self.type = type; self.show = show; self.at = at; self.state = state; self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt; self.lastStatus = lastStatus; self.lastError = lastError; self.deliveredAt = deliveredAt
    }

    public func write(into w: inout JSONWriter) {
        func optional(_ key: String, _ value: String?) { w.key(key); if let value { w.string(value) } else { w.raw("null") } }
        w.raw("{"); w.key("eventId", first: true); w.string(eventID); w.key("type"); w.string(type); w.key("show"); w.string(show)
        w.key("at"); w.string(at); w.key("state"); w.string(state); w.key("attempts"); w.number(attempts)
        optional("nextAttemptAt", nextAttemptAt); w.key("lastStatus"); if let lastStatus { w.number(lastStatus) } else { w.raw("null") }
        optional("lastError", lastError); optional("deliveredAt", deliveredAt)
        w.raw("}")
    }
}

extension WebhookEndpointRequest: WireBody {
    public static let schemaName = "WebhookEndpointRequest"
    public static let schema: JSONSchema = .object(
        [
            "url": .string(minLength: 8, maxLength: 2_048).described("http(s), where SeatKit posts the events"),
            "events": .array(.oneOf(eventTypes + ["*"])).described("the event types to send; [\"*\"]: all"),
            "secret": .string(pattern: "^whsec_[A-Za-z0-9+/=]{32,88}$").described("the signing secret (one is made when none is given)"),
            "description": .string(maxLength: 200),
            "enabled": .boolean.described("false switches the endpoint off; true back on"),
        ], closed: true
    ).example(#"{"url":"https://crm.example.cn/seatkit","events":["order.paid","order.refunded"]}"#)
    public init(json bytes: [UInt8]) throws(WireError) { try self.init(json: bytes, creating: false) }
}

extension WebhookEndpointResource: WireBody {
    public static let schemaName = "WebhookEndpoint"
    public static let schema: JSONSchema = .object(
        [
            "id": .string(), "url": .string(), "events": .array(.string()), "description": .string().orNull, "enabled": .boolean,
            "disabledReason": .string().orNull.described("why SeatKit switched it off (failing for 3 days, 410 Gone)"),
            "failingSince": .string(format: "date-time").orNull, "createdAt": .string(format: "date-time"),
            "secret": .string().described("whsec_…: only in the answer that made the endpoint"),
        ], required: ["id", "url", "events", "description", "enabled", "disabledReason", "failingSince", "createdAt"])
    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        self.init(
            id: o.text("id"), url: o.text("url"), events: o["events"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            description: o.optionalText("description"), enabled: o["enabled"] == .bool(true), disabledReason: o.optionalText("disabledReason"),
            failingSince: o.optionalText("failingSince"), createdAt: o.text("createdAt"), secret: o.optionalText("secret"))
    }
}

extension WebhookDeliveryResource: WireBody {
    public static let schemaName = "WebhookDelivery"
    public static let schema: JSONSchema = .object(
        [
            "eventId": .string(), "type": .string(), "show": .string(), "at": .string(format: "date-time"),
            "state": .oneOf(["pending", "delivered", "failed"]), "attempts": .integer(minimum: 0),
            "nextAttemptAt": .string(format: "date-time").orNull, "lastStatus": .integer().orNull, "lastError": .string().orNull,
            "deliveredAt": .string(format: "date-time").orNull,
        ],
        required: ["eventId", "type", "show", "at", "state", "attempts", "nextAttemptAt", "lastStatus", "lastError", "deliveredAt"])
    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        self.init(
            eventID: o.text("eventId"), type: o.text("type"), show: o.text("show"), at: o.text("at"), state: o.text("state"),
            attempts: o["attempts"]?.intValue ?? 0, nextAttemptAt: o.optionalText("nextAttemptAt"), lastStatus: o["lastStatus"]?.intValue,
            lastError: o.optionalText("lastError"), deliveredAt: o.optionalText("deliveredAt"))
    }
}
