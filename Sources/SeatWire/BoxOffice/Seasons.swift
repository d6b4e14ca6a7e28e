import Foundation
import SeatJSON
import SeatMap

/// `POST /v1/seasons` (managers): shows sold together, the same seat in each.
public struct SeasonRequest: Sendable, Hashable {
    public var name: String
    public var shows: [String]
    /// A partial season: its shows are some of this season's.
    public var parent: String?

    public init(name: String, shows: [String], parent: String? = nil) { self.name = name; self.shows = shows; self.parent = parent }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["name", "shows", "parent"], at: "", into: &log)
        let name = o.text("name", into: &log)
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.unicodeScalars.count > 100 {
            log.add("name", "the season's name, 1 to 100 characters")
        }
        var shows: [String] = []
        if let list = o.array("shows", at: "", into: &log) {
            for (k, v) in list.enumerated() {
                guard let s = v.stringValue, WireIdentifier.isValid(s) else {
                    log.add("shows[\(k)]", "expected a show id, got \(v.shortDescription)"); continue
                }
                shows.append(s)
            }
            if list.count < 2 { log.add("shows", "a season has two shows or more, got \(list.count)") }
            if list.count > 104 { log.add("shows", "a season has at most 104 shows, got \(list.count)") }
        }
        let parent = o.text("parent", into: &log, required: false)
        guard log.isEmpty, let name else { throw .invalid(log.error) }
        self.init(name: name, shows: shows, parent: parent)
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("name", first: true); w.string(name); w.key("shows"); w.strings(shows)
        if let parent { w.key("parent"); w.string(parent) }
        w.raw("}")
        return w.bytes
    }
}

extension SeasonRequest: WireBody {
    public static let schemaName = "SeasonRequest"
    public static let schema: JSONSchema = .object(
        [
            "name": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 100),
            "shows": .array(.string(pattern: "^[A-Za-z0-9._-]{1,64}$"), minItems: 2, maxItems: 104),
            "parent": .string(pattern: "^se_").described("a partial season: its shows must be some of this season's"),
        ], required: ["name", "shows"], closed: true
    ).example(#"{"name":"Winter season","shows":["hall3-1930","hall3-2030"]}"#)
}

/// A season as the API returns it.
public struct SeasonResource: Sendable, Hashable {
    public var id: String
    public var name: String
    /// Its shows, earliest first, with their starts.
    public var shows: [String]
    public var startsAt: [String]
    public var parent: String?
    public var venueID: String
    public var currency: String
    public var operatorName: String
    public var createdAt: String

    public init(
        id: String, name: String, shows: [String], startsAt: [String], parent: String?, venueID: String, currency: String, operatorName: String,
        createdAt: String
    ) {
        self.id = id; self.name = name; self.shows = shows; self.startsAt = startsAt; self.parent = parent; self.venueID = venueID
        self.currency = currency; self.operatorName = operatorName; self.createdAt = createdAt
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("id", first: true); w.string(id); w.key("name"); w.string(name); w.key("shows"); w.strings(shows)
        w.key("startsAt"); w.strings(startsAt); w.key("parent"); if let parent { w.string(parent) } else { w.raw("null") }
        w.key("venueId"); w.string(venueID); w.key("currency"); w.string(currency); w.key("operator"); w.string(operatorName)
        w.key("createdAt"); w.string(createdAt); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) { self.init(try Self.conformingObject(bytes)) }

    public init(_ o: JSONObject) {
        self.init(
            id: o.text("id"), name: o.text("name"), shows: o.texts("shows"), startsAt: o.texts("startsAt"), parent: o.optionalText("parent"),
            venueID: o.text("venueId"), currency: o.text("currency"), operatorName: o.text("operator"), createdAt: o.text("createdAt"))
    }
}

extension SeasonResource: WireBody, WireWritable {
    public static let schemaName = "Season"
    public static let schema: JSONSchema = .object(
        [
            "id": .string(pattern: "^se_"), "name": .string(), "shows": .array(.string()), "startsAt": .array(.string()),
            "parent": .string(pattern: "^se_").orNull, "venueId": .string(), "currency": .string(pattern: "^[A-Z]{3}$"), "operator": .string(),
            "createdAt": .string(format: "date-time"),
        ], required: ["id", "name", "shows", "startsAt", "parent", "venueId", "currency", "operator", "createdAt"])
}

/// A season hold as the API returns it: one hold a show, all under one token.
public struct SeasonHoldResource: Sendable, Hashable {
    public var seasonID: String
    public var token: String
    public var state: HoldResource.State
    public var parts: [HoldResource]
    public var total: String
    public var currency: String
    public var expiresAt: String
    public var orderRef: String?

    public init(
        seasonID: String, token: String, state: HoldResource.State, parts: [HoldResource], total: String, currency: String, expiresAt: String,
        orderRef: String?
    ) {
        self.seasonID = seasonID; self.token = token; self.state = state; self.parts = parts; self.total = total; self.currency = currency
        self.expiresAt = expiresAt; self.orderRef = orderRef
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("seasonId", first: true); w.string(seasonID); w.key("token"); w.string(token); w.key("state"); w.string(state.rawValue)
        w.key("parts"); w.raw("[")
        for (k, p) in parts.enumerated() {
            if k > 0 { w.raw(",") }
            p.write(into: &w)
        }
        w.raw("]"); w.key("total"); w.string(total); w.key("currency"); w.string(currency); w.key("expiresAt"); w.string(expiresAt)
        w.key("orderRef"); if let orderRef { w.string(orderRef) } else { w.raw("null") }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            seasonID: o.text("seasonId"), token: o.text("token"), state: HoldResource.State(rawValue: o.text("state")) ?? .active,
            parts: o.objects("parts").compactMap { part in
                var w = JSONWriter()
                w.value(.object(part))
                return try? HoldResource(json: w.bytes)
            }, total: o.text("total"), currency: o.text("currency"), expiresAt: o.text("expiresAt"),
            orderRef: o.optionalText("orderRef"))
    }
}

extension SeasonHoldResource: WireBody, WireWritable {
    public static let schemaName = "SeasonHold"
    public static let schema: JSONSchema = .object(
        [
            "seasonId": .string(pattern: "^se_"), "token": .string(pattern: "^[0-9a-f]{44}$"),
            "state": .oneOf(["active", "released", "expired", "confirmed"]), "parts": .array(.ref(HoldResource.self), minItems: 1),
            "total": WireMoney.schema, "currency": .string(pattern: "^[A-Z]{3}$"), "expiresAt": .string(format: "date-time"),
            "orderRef": .string().orNull,
        ], required: ["seasonId", "token", "state", "parts", "total", "currency", "expiresAt", "orderRef"])
}

/// `POST /v1/seasons/{id}/seats/{seat}/release` and `…/reclaim`: which night, and the buyer's code
/// (without it the box office acts, with an operator key).
public struct SeasonNightRequest: Sendable, Hashable {
    public var show: String
    public var code: String?

    public init(show: String, code: String? = nil) { self.show = show; self.code = code }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["show", "code"], at: "", into: &log)
        let show = o.text("show", into: &log)
        if let show, !WireIdentifier.isValid(show) { log.add("show", "expected a show id, got \"\(show.prefix(64))\"") }
        let code = o.text("code", into: &log, required: false)
        guard log.isEmpty, let show else { throw .invalid(log.error) }
        self.init(show: show, code: code)
    }
}

extension SeasonNightRequest: WireBody {
    public static let schemaName = "SeasonNightRequest"
    public static let schema: JSONSchema = .object(
        [
            "show": .string(pattern: "^[A-Za-z0-9._-]{1,64}$"),
            "code": .string(minLength: 1, maxLength: 128).described("the buyer's code (their season hold's token); without it, an operator key"),
        ], required: ["show"], closed: true
    ).example(#"{"show":"hall3-2030"}"#)
}

/// `GET /v1/seasons/{id}/report`: each night's season seats, releases and resales, and the takings.
public struct SeasonReportResource: Sendable, Hashable {
    public struct Night: Sendable, Hashable {
        public var showID: String
        public var startsAt: String
        public var seasonSeats: Int
        public var released: Int
        public var resold: Int
        public var taken: String
        public init(showID: String, startsAt: String, seasonSeats: Int, released: Int, resold: Int, taken: String) {
            self.showID = showID; self.startsAt = startsAt; self.seasonSeats = seasonSeats; self.released = released; self.resold = resold
            self.taken = taken
        }
    }
    public var season: SeasonResource
    public var orders: Int
    public var nights: [Night]
    public var taken: String

    public init(season: SeasonResource, orders: Int, nights: [Night], taken: String) {
        self.season = season; self.orders = orders; self.nights = nights; self.taken = taken
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("season", first: true); season.write(into: &w); w.key("orders"); w.number(orders); w.key("nights"); w.raw("[")
        for (k, n) in nights.enumerated() {
            w.raw(k == 0 ? "{" : ",{"); w.key("showId", first: true); w.string(n.showID); w.key("startsAt"); w.string(n.startsAt)
            w.key("seasonSeats"); w.number(n.seasonSeats); w.key("released"); w.number(n.released); w.key("resold"); w.number(n.resold)
            w.key("taken"); w.string(n.taken); w.raw("}")
        }
        w.raw("]"); w.key("taken"); w.string(taken); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(
            season: SeasonResource(o.object("season")), orders: o.whole("orders"),
            nights: o.objects("nights").map {
                Night(
                    showID: $0.text("showId"), startsAt: $0.text("startsAt"), seasonSeats: $0.whole("seasonSeats"), released: $0.whole("released"),
                    resold: $0.whole("resold"), taken: $0.text("taken"))
            }, taken: o.text("taken"))
    }
}

extension SeasonReportResource: WireBody, WireWritable {
    public static let schemaName = "SeasonReport"
    public static let schema: JSONSchema = .object(
        [
            "season": .ref(SeasonResource.self), "orders": .integer(minimum: 0),
            "nights": .array(
                .object(
                    [
                        "showId": .string(), "startsAt": .string(), "seasonSeats": .integer(minimum: 0), "released": .integer(minimum: 0),
                        "resold": .integer(minimum: 0), "taken": WireMoney.schema,
                    ], required: ["showId", "startsAt", "seasonSeats", "released", "resold", "taken"])),
            "taken": WireMoney.schema,
        ], required: ["season", "orders", "nights", "taken"])
}
