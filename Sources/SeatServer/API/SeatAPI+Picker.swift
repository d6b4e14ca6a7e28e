import CollectionLayout
import Foundation
import SeatCanvas
import SeatJSON
import SeatMap
import SeatHTTP
import SeatInventory
import SeatWire

/// The public reads the web picker is drawn from: the seat map as SVG, the best N seats, and the list
/// mode. All three come from the engine (SeatCanvas, SeatMap), so the page only forwards and recolours.
extension SeatAPI {
    static func language(_ r: HTTPRequest) throws -> Language {
        guard let text = r.query["lang"] else { return .chinese }
        guard let language = Language(rawValue: text) else { throw Problem.badRequest("lang must be zh or en, not \"\(text)\"") }
        return language
    }

    /// `GET /v1/shows/{id}/seatmap.svg?lang=zh|en`: every seat as a named group with its status, accessible
    /// name and the label parts a live page needs; the root carries the zoom limits, the row positions for
    /// the gutter, the zones with their prices and the status words, so the page needs no second source.
    /// - Complexity: O(seats).
    func seatMap(_ id: String, _ r: HTTPRequest) throws -> HTTPResponse {
        let language = try Self.language(r)
        let state = try inventory.pictureState(show: id)
        let current = state.availability.version
        let recent = r.query["recent"] == "1"
        let etag = { (version: UInt64) in "\"\(id)@\(version)-\(language.rawValue)\"" }
        if let match = r.header("if-none-match"), Self.etagMatches(match, etag(current)) {
            return .empty(304, headers: [("ETag", etag(current)), ("Cache-Control", "no-cache"), ("X-Availability-Version", String(current))])
        }
        let gzip = Gzip.accepted(by: r.header("accept-encoding")), tag = language.rawValue
        @Sendable func answer(_ version: UInt64, _ body: Representations) -> HTTPResponse {
            let (bytes, encoding) = body.answer(gzip: gzip, etag: "\"\(id)@\(version)-\(tag)\"")
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "image/svg+xml; charset=utf-8"), ("Cache-Control", "no-cache"),
                    ("X-Availability-Version", String(version)),
                ] + encoding, body: bytes)
        }
        let key = id + "|" + language.rawValue
        if let (version, body) = pictures.cached(key, version: current, recent: recent) { return answer(version, body) }
        // Drawing (0.4 s for the 20k arena) happens off the request thread, whose other connections
        // (buyers holding seats) would otherwise wait; this connection is answered when it is done.
        let deferred = DeferredResponse()
        let pictures = self.pictures
        DispatchQueue.global().async {
            let (version, body) = pictures.picture(key, version: current, recent: recent) { self.drawSeatMap(id, state: state, language: language) }
            deferred.complete { answer(version, body) }
        }
        return HTTPResponse(status: 0, deferred: deferred)
    }

    /// The picture itself. - Complexity: O(seats).
    func drawSeatMap(_ id: String, state: Inventory.PictureState, language: Language) -> [UInt8] {
        let canvas = venueViews.canvas(state.venue)
        let layout = canvas.layout
        let content = FrameContent(availability: state.availability, prices: state.prices, language: language, labelParts: true)
        let list = canvas.displayList(viewport: nil, content: content)

        let writer = SVGWriter(
            title: localizedName(layout.name, language),
            rootAttributes: [
                ("data-show", id), ("data-version", String(state.availability.version)), ("data-language", language.rawValue),
                ("data-content-width", String(list.viewSize.width)), ("data-content-height", String(list.viewSize.height)),
                // Every number the page's engine (js/engine.js) needs: zoom limits, insets, level of detail,
                // hit radius, drag path, gutter spacing. The page writes none of its own.
                ("data-rules", canvas.pickerRules().json),
                ("data-rows", canvas.gutterRowsJSON), ("data-zones", canvas.zonesJSON(prices: state.prices, language: language)),
                ("data-status-words", canvas.statusWordsJSON(language: language)), ("data-palette", Palette.json),
                ("data-separator", SeatCanvas.labelSeparator(language)),
            ], seatTooltips: false)
        return Array(writer.document(list).utf8)
    }

    /// `GET /v1/shows/{id}/seat-prices?lang=zh|en`: what each seat costs now, for a page that draws the
    /// map itself from the venue's geometry: the distinct prices as the engine formats them and, in seat
    /// order, runs of `[length, index into prices]` (a zone or row at one price is one run: the 100k
    /// arena's are 64 pairs), with the zones' names and price ranges for the legend. Cached by the
    /// client under an ETag of the show's price revision; a price change is announced live (`event: show`).
    /// - Complexity: O(seats).
    func seatPrices(_ id: String, _ r: HTTPRequest) throws -> HTTPResponse {
        let language = try Self.language(r)
        let state = try inventory.pictureState(show: id)
        let etag = "\"\(id)-prices-\(state.priceRevision)-\(language.rawValue)\""
        let cache = ("Cache-Control", "no-cache")
        if r.header("if-none-match").map({ Self.etagMatches($0, etag) }) == true { return .empty(304, headers: [("ETag", etag), cache]) }
        let document = seatPricesCache.document(show: id, revision: state.priceRevision, language: language.rawValue) {
            venueViews.canvas(state.venue).seatPricesDocument(show: id, prices: state.prices, revision: state.priceRevision, language: language)
        }
        let (body, encoding) = document.answer(for: r, etag: etag)
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")] + encoding + [cache], body: body)
    }

    /// `GET /v1/shows/{id}/best?count=N[&zone=Z][&wheelchair=true]`: the best N free seats side by side
    /// under the show's rules (nothing is held: the client holds them next).
    func bestSeats(_ id: String, _ r: HTTPRequest) throws -> HTTPResponse {
        let state = try inventory.pictureState(show: id)
        guard let countText = r.query["count"], let count = Int(countText), count >= 1 else {
            throw Problem.badRequest("count must be a whole number of seats from 1 to \(state.policy.maxSeats)")
        }
        guard count <= state.policy.maxSeats else {
            throw Problem(422, "rule-violation", "Selection rule", detail: "this show sells at most \(state.policy.maxSeats) seats at once, not \(count)")
        }
        let layout = state.venue.layout
        if let zone = r.query["zone"], layout.zoneIndex(id: zone) == nil { throw Problem.notFound("no zone \(zone) in venue \(layout.id)") }
        let wheelchair = r.query["wheelchair"] == "true"
        let request = BestAvailableRequest(count: count, zone: r.query["zone"], wheelchair: wheelchair)
        // A partner asks within its channel's allocation (`Seat-Channel`): only the channel's seats are free to it.
        let availability = try r.header("seat-channel").map { try inventory.channelAvailability(show: id, key: $0) } ?? state.availability
        guard let seats = layout.bestAvailable(request, availability: availability, policy: state.policy) else {
            throw Problem(
                409, "no-seats-together", "No seats together",
                detail: "no \(count) free seats side by side\(r.query["zone"].map { " in zone \($0)" } ?? "") (version \(state.availability.version))")
        }
        return .json(
            200, BestSeats(version: state.availability.version, seats: seats.map(layout.seatID), total: state.prices.totalString(of: seats)))
    }

    /// `GET /v1/shows/{id}/free-seats?lang=zh|en`: the list mode, zone → row → runs of free seats, from
    /// the accessibility model.
    func freeSeats(_ id: String, _ r: HTTPRequest) throws -> HTTPResponse {
        let language = try Self.language(r)
        let state = try inventory.pictureState(show: id)
        let canvas = venueViews.canvas(state.venue)
        let layout = canvas.layout
        let zones = canvas.freeSeatList(state.availability, language: language).map { zone in
            FreeSeatList.Zone(
                id: layout.zones[zone.zone].id, name: zone.name,
                rows: zone.rows.map { row in
                    FreeSeatList.Row(
                        row: layout.rows[row.row].label, summary: row.summary,
                        runs: row.runs.map { FreeSeatList.Run(text: $0.text, seats: $0.seats.map(layout.seatID)) })
                })
        }
        return .json(200, FreeSeatList(version: state.availability.version, zones: zones), headers: [("Cache-Control", "no-cache")])
    }
}

/// "View from your seat": what a seat sees of the screen, from the venue's plan (`VenueLayout.view`).
extension SeatAPI {
    /// `GET /v1/venues/{id}/views/{seat}?lang=zh|en` (JSON) and `…/{seat}.svg` (the picture): the same for
    /// every show of the venue, so cached a day.
    func seatView(_ id: String, _ file: String, _ r: HTTPRequest) throws -> HTTPResponse {
        let language = try Self.language(r)
        guard let v = inventory.venueEntry(id) else { throw Problem.notFound("no venue \(id)") }
        let layout = v.layout
        var seatID = file, picture = false
        if layout.index(ofSeatID: file) == nil, file.hasSuffix(".svg") { seatID = String(file.dropLast(4)); picture = true }
        guard let seat = layout.index(ofSeatID: seatID) else { throw Problem.notFound("no seat \(seatID) in venue \(id)") }
        guard let view = venueViews.seatView(v, seat: seat) else {
            throw Problem.notFound("venue \(id) has no screen or stage on its plan, so no view from its seats")
        }
        let cache = [("Cache-Control", "public, max-age=86400")]
        if picture { return .text(200, SeatViewPicture.svg(view, language: language), contentType: "image/svg+xml", headers: cache) }
        return .json(
            200,
            SeatViewResource(
                seat: seatID, viewingAngle: view.viewingAngle, distanceInWidths: view.distanceInWidths, offCentreAngle: view.offCentreAngle,
                across: view.across, verdict: view.verdict.rawValue, words: view.words(language)), headers: cache)
    }
}
