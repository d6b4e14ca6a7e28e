import Foundation
import SeatCanvas
import SeatJSON
import SeatMap
import SeatSecrets
import SeatWire
import SeatDomain
import SeatHTTP
import SeatInventory

extension SeatAPI {
    /// Every venue; an operator of some cinemas gets their cinemas' (the console's board rows).
    func listVenues(_ r: HTTPRequest) -> HTTPResponse {
        var ids = inventory.venueIDs
        if let who = caller({ r.header($0) }), who.cinemas != nil { ids = ids.filter { who.actsFor(cinema: staff.cinema(ofVenue: $0)) } }
        return .json(200, ids.compactMap { id in inventory.venueEntry(id).map { Render.venue($0.layout) } })
    }

    /// Admin: a venue from SeatKit layout JSON or any importer format (`?format=seed|cinema-grid|pretix`).
    func createVenue(_ r: HTTPRequest) throws -> HTTPResponse {
        let format: ImportFormat?
        if let f = r.query["format"] {
            guard let known = ImportFormat(rawValue: f) else {
                throw Problem.badRequest("unknown format \"\(f)\" (seatkit, seed, cinema-grid, pretix, reseller or seatsio)")
            }
            format = known
        } else {
            format = nil
        }
        let imported: ImportedVenue
        // A format without an id (cinema-grid captures, pretix plans) takes `?id=`; without either, every
        // upload would be venue "venue" and the second a confusing 409.
        let unnamed = "venue-without-an-id"
        do { imported = try ImportedVenue(format: format, json: r.body, fallbackID: r.query["id"] ?? unnamed) } catch {
            if let first = error.problems.first, first.path.hasPrefix("line ") {
                throw Problem(400, "malformed-json", "Malformed JSON", detail: first.description)
            }
            throw Refusal.invalid(error).problem
        }
        if imported.layout.id == unnamed && r.query["id"] == nil {
            throw Problem(
                422, "venue-id-missing", "Venue id missing",
                detail: "this format carries no venue id: name the venue with ?id=NAME (letters, digits, '-', '_' and '.', 1 to 64)")
        }
        guard RequestBody.isIdentifier(imported.layout.id) else {
            throw Problem(
                422, "invalid-body", "The request body is not valid", detail: "venue id \"\(imported.layout.id)\": letters, digits, '-', '_' and '.', 1 to 64")
        }
        try inventory.addVenue(imported.layout)
        return .json(201, Render.venue(imported.layout), headers: [("Location", "/v1/venues/\(imported.layout.id)")])
    }

    /// The layout: immutable, so a strong ETag and a year of caching.
    func venue(_ id: String, _ r: HTTPRequest) throws -> HTTPResponse {
        guard let v = inventory.venueEntry(id) else { throw Problem.notFound("no venue \(id)") }
        let (body, encoding) = venueViews.json(v).answer(for: r, etag: v.etag)
        let headers = encoding + [("Cache-Control", "public, max-age=31536000, immutable")]
        if r.header("if-none-match").map({ Self.etagMatches($0, v.etag) }) == true { return .empty(304, headers: headers) }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    /// `GET /v1/venues/{id}/geometry?lang=zh|en`: what a picker that draws by itself needs of the venue
    /// (SeatCanvas.pickerGeometry): immutable for the layout, so cached for a year under an ETag of the
    /// layout's fingerprint and the language; gzip when asked.
    func venueGeometry(_ id: String, _ r: HTTPRequest) throws -> HTTPResponse {
        let language = try Self.language(r)
        guard let v = inventory.venueEntry(id) else { throw Problem.notFound("no venue \(id)") }
        let etag = "\"\(v.layout.fingerprintHex)-geometry-\(language.rawValue)\""
        let cache = ("Cache-Control", "public, max-age=31536000, immutable")
        if r.header("if-none-match").map({ Self.etagMatches($0, etag) }) == true { return .empty(304, headers: [("ETag", etag), cache]) }
        let (body, encoding) = venueViews.geometry(v, language: language).answer(for: r, etag: etag)
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")] + encoding + [cache], body: body)
    }

    /// Whether `If-None-Match` names `etag`, in either encoding's form (`"x"` or `"x-gz"`).
    static func etagMatches(_ header: String, _ etag: String) -> Bool {
        let gz = Representations.gzipETag(etag)
        return header == "*"
            || header.split(separator: ",").contains {
                let tag = $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "")
                return tag == etag || tag == gz
            }
    }

    /// Per seat, the share of the venue's shows that started in the last `days` days in which it sold.
    func heatmap(_ id: String, _ r: HTTPRequest) throws -> HTTPResponse {
        guard let v = inventory.venueEntry(id) else { throw Problem.notFound("no venue \(id)") }
        let days = r.query["days"].map { Int($0) } ?? 30
        guard let days, days >= 1, days <= 3650 else { throw Problem.badRequest("days must be a whole number from 1 to 3650") }
        let now = Date(timeIntervalSince1970: Double(inventory.clock()) / 1000)
        let history: (shows: Int, soldCounts: [Int: Int])
        do { history = try inventory.store.salesHistory(venue: id, since: now.addingTimeInterval(-Double(days) * 86400), until: now) } catch {
            throw Inventory.storeRefusal(error)
        }
        let shape = r.query["shape"] ?? "seats"
        guard shape == "seats" || shape == "levels" else { throw Problem.badRequest("shape must be seats or levels, not \"\(shape)\"") }
        if shape == "levels" {
            // The overlay a page draws (the console): levels, the engine's colours and the averages.
            let values = v.layout.seatIndices.map { i -> Float in
                history.shows == 0 ? .nan : Float(Double(history.soldCounts[i] ?? 0) / Double(history.shows))
            }
            let heat = SeatHeatmap(values: values, layout: v.layout)
            return .text(
                200, heat.overlayDocument(layout: v.layout, shows: history.shows, days: days), contentType: "application/json",
                headers: [("X-Shows-Counted", String(history.shows))])
        }
        var w = JSONWriter(reservingCapacity: v.layout.seatCount * 16)
        w.raw("{")
        for i in v.layout.seatIndices {
            w.key(v.layout.seatID(i), first: i == 0)
            let share = history.shows == 0 ? 0 : Double(history.soldCounts[i] ?? 0) / Double(history.shows)
            w.number((share * 1000).rounded() / 1000)
        }
        w.raw("}")
        return .json(200, w, headers: [("X-Shows-Counted", String(history.shows))])
    }

    /// What a `show` event carries: the show as `GET /v1/shows/{id}` gives it.
    public static let showEventData: @Sendable (ShowSummary) -> String = { Render.show($0).json }

    /// Every show; `?cinema=ID` a cinema's (the console's board filter). An operator of some cinemas
    /// sees theirs only.
    func listShows(_ r: HTTPRequest) throws -> HTTPResponse {
        var ids = inventory.showIDs
        if let who = caller({ r.header($0) }), who.cinemas != nil || r.query["cinema"] != nil {
            let seen = try showsSeen(r, by: who)
            ids = ids.filter(seen)
        } else if let asked = r.query["cinema"] {
            guard let cinema = staff.cinema(asked) else { throw Problem(422, "invalid-query", "Invalid query", detail: "cinema: no cinema \(asked)") }
            ids = ids.filter { inventory.venueID(show: $0).flatMap(staff.cinema(ofVenue:)) == cinema.id }
        }
        return .json(200, ids.compactMap { inventory.showSummary($0).map(Render.show) })
    }

    func createShow(_ r: HTTPRequest, by who: Operator) throws -> HTTPResponse {
        var new = try RequestBody.showRequest(r)
        if !who.actsFor(cinema: staff.cinema(ofVenue: new.venueID)), inventory.venueIDs.contains(new.venueID) {
            throw Problem.outsideCinemas(
                who, cinema: staff.cinema(ofVenue: new.venueID).map { staff.cinema($0)?.name ?? $0 } ?? "a venue of no cinema (head office's)")
        }
        new.startsAt = onLocalClock(new.startsAt)
        try inventory.addShow(new)
        guard let summary = inventory.showSummary(new.id) else { throw Problem.notFound("no show \(new.id)") }
        return .json(201, Render.show(summary), headers: [("Location", "/v1/shows/\(new.id)")])
    }

    /// A start as the venues' clock reads it (the same instant): what every page then shows.
    func onLocalClock(_ startsAt: String) -> String {
        guard let offset = localOffsetMinutes, let ms = Timestamp.milliseconds(startsAt) else { return startsAt }
        let written = Timestamp.text(ms, offsetMinutes: offset)
        return Timestamp.milliseconds(written) == ms ? written : startsAt
    }

    func show(_ id: String) throws -> HTTPResponse {
        guard let s = inventory.showSummary(id) else { throw inventory.noSuchShow(id) }
        return .json(200, Render.show(s))
    }

    /// The compact encoding with its version as ETag; `?since=V` gives the delta from V, or 410 when the
    /// log no longer reaches back (fetch the whole state again).
    func availability(_ id: String, _ r: HTTPRequest, trace: RequestTrace) throws -> HTTPResponse {
        // A partner's page (`Seat-Channel`): its channel's seats and places free, every other seat not.
        if let key = r.header("seat-channel") {
            guard key.utf8.count <= 200 else { throw Problem.badRequest("Seat-Channel: a channel's key, at most 200 characters") }
            guard r.query["since"] == nil else {
                throw Problem(
                    422, "invalid-query", "Invalid query", detail: "since: a channel's map is read whole (its changes come as the show's, on its event stream)")
            }
            let channel = try inventory.channelAvailability(show: id, key: key)
            return .text(200, channel.encoded(), headers: [("Cache-Control", "no-store"), ("X-Availability-Version", String(channel.version))])
        }
        if let sinceText = r.query["since"] {
            guard let since = Self.version(sinceText) else {
                throw Problem.badRequest("since must be a version number (0 to \(Self.largestVersion)), got \"\(sinceText.prefix(40))\"")
            }
            if let now = inventory.committedVersion(show: id), now > since + Self.cheapDeltaSpan, let wait = deltaLimiter.check(r.clientAddress) {
                return rateLimited(
                    "too many deltas spanning over \(Self.cheapDeltaSpan) versions from \(r.clientAddress); fetch the whole availability, or try again shortly",
                    wait: wait, trace: trace)
            }
            let delta = try inventory.delta(show: id, since: since)
            return .text(200, delta, headers: [("Cache-Control", "no-cache")])
        }
        let (version, encoded) = try inventory.encodedAvailability(show: id)
        let etag = "\"\(id)@\(version)\""
        let headers = [("ETag", etag), ("Cache-Control", "no-cache"), ("X-Availability-Version", String(version))]
        if r.header("if-none-match").map({ Self.etagMatches($0, etag) }) == true { return .empty(304, headers: headers) }
        return .text(200, encoded, headers: headers)
    }

    func createHold(_ showID: String, _ r: HTTPRequest, trace: RequestTrace, idempotency: IdempotencyClaim?) throws -> HTTPResponse {
        // A partner's hold: from its channel, past the waiting room (the partner has its own queue).
        if let key = r.header("seat-channel") { return try createChannelHold(showID, key: key, r, trace: trace) }
        let admission = try self.admission(for: showID, r)
        let body = try RequestBody.holdRequest(r)
        let idem = idempotency?.request { view in Render.hold(view).bytes }
        let places = body.areas.map { ($0.area, $0.count) }
        let attendees = try attendeeInputs(body.attendees, book: body.book)
        let (outcome, ticket) = try inventory.beginCreateHold(
            show: showID, seatIDs: body.seats, wheelchair: body.wheelchair, places: places, idempotency: idem, admission: admission?.entryID,
            attendees: attendees)
        return afterCommit(ticket, trace: trace) { [queues] in
            // Held with it: the admission no longer lapses (its place is done with).
            if let admission { queues?.used(admission) }
            return Self.render(outcome, created: true)
        }
    }

    func confirm(_ token: String, _ r: HTTPRequest, trace: RequestTrace, idempotency: IdempotencyClaim?) throws -> HTTPResponse {
        let body = try RequestBody.confirmRequest(r)
        let idem = idempotency?.request { view in Render.hold(view).bytes }
        var paid: [PaymentRecord] = []
        // A partner's hold (made with Seat-Channel) is paid at the partner: it confirms with its own order
        // number, and only such a hold may.
        // (A hold no longer live is the inventory's to answer: bought before under the same number, the same answer.)
        let live = try? inventory.hold(token: token)
        let partner = live.map { Inventory.isPartnerHold(id: $0.holdID) } ?? false
        if body.externalOrderId != nil, live != nil, !partner {
            throw Problem(
                422, "invalid-body", "The request body is not valid", detail: "externalOrderId: only a partner's hold (made with Seat-Channel) has one")
        }
        if let external = body.payment {
            paid = [try externalPayment(external, token: token, r)]
        } else if payments.takesMoneyOnline, !partner, let view = try? inventory.hold(token: token), view.state == .active, !view.paying,
            view.total.amount != 0
        {
            // With money taken online, a buyer's hold is sold by its payment, never by asking (a hold
            // already sold answers as before; one that costs nothing needs no payment).
            throw Problem(
                402, "payment-required", "Payment required",
                detail: "pay for this hold first: POST /v1/holds/{token}/checkout with a provider ("
                    + payments.onlineProviders.joined(separator: ", ") + "); the seats are sold when the payment is")
        }
        try checkAdmissionDocument(token, adding: Self.attendees(body.attendees))
        let (outcome, ticket) = try inventory.beginConfirmHold(
            token: token, orderRef: body.orderRef, idempotency: idem, payments: paid, uniqueOrder: body.externalOrderId != nil,
            attendees: Self.attendees(body.attendees))
        return afterCommit(ticket, trace: trace) { Self.render(outcome, created: false) }
    }

    static func render(_ outcome: HoldOutcome, created: Bool) -> HTTPResponse {
        respond(outcome, created ? 201 : 200) { view, status in
            .json(status, Render.hold(view), headers: created ? [("Location", "/v1/holds/\(view.token)")] : [])
        }
    }

    /// A kept answer, sent again for a retried request with the same `Idempotency-Key`.
    static func replayed(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json"), ("Idempotent-Replayed", "true")], body: body)
    }

    /// The route's answer with its success `status`: a fresh one drawn by `done`, or the kept one
    /// replayed with the same status (the domain keeps bodies only; statuses are the API's).
    static func respond<View>(_ answer: Answer<View>, _ status: Int, _ done: (View, Int) -> HTTPResponse) -> HTTPResponse {
        switch answer {
        case .done(let view): return done(view, status)
        case .replayed(let body): return replayed(status, body)
        }
    }

    /// Versions stay below 2^53 (what every JSON reader keeps exact): a larger one from a client is not a
    /// version (`?since=18446744073709551615` once overflowed `since + cheapDeltaSpan` and stopped the server).
    static let largestVersion: UInt64 = 9_007_199_254_740_991

    static func version(_ text: String) -> UInt64? { UInt64(text).flatMap { $0 <= largestVersion ? $0 : nil } }

    /// Server-Sent Events: one event per committed version (`id:` is the version); with `Last-Event-ID`
    /// the missed versions are replayed first, or a `reset` event carries the whole state when the log
    /// no longer reaches back.
    func events(_ showID: String, _ r: HTTPRequest) throws -> HTTPResponse {
        // An id past any version is no id (a fresh stream), never arithmetic near UInt64.max.
        let last = (r.header("last-event-id") ?? r.query["lastEventId"]).flatMap(Self.version)
        let stream = EventStream()
        try inventory.subscribe(stream, show: showID, lastEventID: last)
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")], stream: stream)
    }
}

extension SeatAPI {
    /// A request's attendees in the domain's words (the inventory checks them).
    static func attendees(_ list: [HoldAttendee]) -> [AttendeeInput] {
        list.map { AttendeeInput(seat: $0.seat, name: $0.name, idType: $0.idType, idNumber: $0.idNumber, phone: $0.phone) }
    }

    /// The same, those saved in the buyer's attendee book opened from it.
    /// An admission given to a document (a real-name show's waiting room) buys for that document: the
    /// hold is sold (paid for, or confirmed) only with it among its attendees (`adding`: those the
    /// confirm brings). The picker holds on the first tap and asks for attendees afterwards, so the
    /// hold itself is not refused.
    func checkAdmissionDocument(_ token: String, adding: [AttendeeInput] = []) throws {
        guard let queues, let hold = inventory.admissionAndIdentities(token: token),
            let identity = queues.identity(show: hold.show, entry: hold.admission),
            !hold.identities.union(inventory.identities(of: adding)).contains(identity)
        else { return }
        throw Problem(
            422, "attendees-required", "The admission's document is missing",
            detail: "attendees: the waiting room let you in with your document: give it as one of this hold's attendees before paying")
    }

    func attendeeInputs(_ list: [HoldAttendee], book: String?) throws -> [AttendeeInput] {
        var saved: [Int: String] = [:]
        for (k, a) in list.enumerated() { if let id = a.saved { saved[k] = id } }
        return try inventory.resolveSaved(Self.attendees(list), saved: saved, book: book)
    }
}

/// JSON renderings of API objects.
enum Render {
    static func hold(_ h: HoldView) -> JSONWriter { holdResource(h).jsonWriter() }

    static func holdResource(_ h: HoldView) -> HoldResource {
        var r = HoldResource(
            token: h.token, holdID: h.holdID, showID: h.showID, state: h.paying ? .paying : HoldResource.State(rawValue: h.state.rawValue) ?? .active,
            seats: h.seatIDs, total: h.total.description, currency: h.currency, expiresAt: iso(h.expiresAt), extended: h.extended,
            version: h.version, orderRef: h.orderRef)
        r.attendees = h.attendees.map { ShownAttendee(seat: $0.seat, name: $0.name, idType: $0.idType, idNumber: $0.idNumber) }
        return r
    }

    /// RFC 3339 UTC with milliseconds.
    static func iso(_ ms: Int64) -> String { Timestamp.text(ms) }

    static func venue(_ layout: VenueLayout) -> VenueSummary {
        VenueSummary(id: layout.id, name: layout.name, seats: layout.seatCount, fingerprint: layout.fingerprintHex)
    }

    /// The show as `GET /v1/shows/{id}` and the `show` event give it.
    static func show(_ s: ShowSummary) -> ShowResource {
        let c = s.counts
        return ShowResource(
            id: s.record.id, venueID: s.record.venueID, startsAt: s.record.startsAt, onSale: s.open, salesSwitch: s.record.onSale,
            cancelledAt: s.record.cancelledAt.map(iso), details: RawJSON(s.record.detailsJSON), holdSeconds: s.record.holdSeconds,
            policy: RawJSON(s.record.policyJSON), prices: RawJSON(s.record.pricesJSON), priceRevision: s.record.priceRevision,
            version: s.version, seats: SeatCounts(total: s.seatCount, available: c.available, held: c.held, sold: c.sold, blocked: c.blocked),
            shard: s.shard)
    }
}

/// Internals the tests check against Foundation.
public enum SeatAPITestHooks {
    public static func iso(_ ms: Int64) -> String { Render.iso(ms) }
}
