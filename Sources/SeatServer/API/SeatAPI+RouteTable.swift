import SeatHTTP
import SeatInventory
import SeatWire

/// Every route the server answers, in one table: the pattern is the metrics label and the OpenAPI
/// path; the methods are the `Allow` of a 405 (OpenAPIContractTests derives its checks from this).
extension SeatAPI {
    static let routes = RouteTable(routes: [
        Route("/healthz", [("GET", .health, health), ("HEAD", .health, health)]),
        Route("/metrics", [("GET", .metrics, { api, _ in api.metricsText() })]),
        Route("/openapi.json", [("GET", .openapi, { _, _ in .text(200, OpenAPIDocument.json, contentType: "application/json") })]),
        // The web picker: the page for `/` and `/shows/{id}` (it routes itself), its files under `/web/`.
        Route("/", [("GET", .pickerPage, page), ("HEAD", .pickerPage, page)]),
        Route("/shows/{id}", [("GET", .pickerShowPage, showPage), ("HEAD", .pickerShowPage, showPage)]),
        Route("/console", [("GET", .consolePage, console), ("HEAD", .consolePage, console)]),
        Route("/door", [("GET", .doorPage, door), ("HEAD", .doorPage, door)]),
        Route("/orders/{orderRef}", [("GET", .orderPage, orderPage), ("HEAD", .orderPage, orderPage)]),
        Route("/web/{file}", [("GET", .pageFile, webFile), ("HEAD", .pageFile, webFile)]),
        Route("/web/js/{file}", [("GET", .pageScript, webFile), ("HEAD", .pageScript, webFile)]),
        Route(
            "/v1/venues", [("GET", .listVenues, { api, c in api.listVenues(c.request) }), ("POST", .createVenue, { api, c in try api.createVenue(c.request) })]),
        Route("/v1/venues/{id}", [("GET", .getVenue, { api, c in try api.venue(c[0], c.request) })]),
        Route("/v1/venues/{id}/geometry", [("GET", .getVenueGeometry, { api, c in try api.venueGeometry(c[0], c.request) })]),
        Route("/v1/venues/{id}/views/{seat}", [("GET", .getSeatView, { api, c in try api.seatView(c[0], c[1], c.request) })]),
        Route("/v1/venues/{id}/heatmap", [("GET", .getHeatmap, { api, c in try api.heatmap(c[0], c.request) })]),
        Route(
            "/v1/shows",
            [
                ("GET", .listShows, { api, c in try api.listShows(c.request) }),
                ("POST", .createShow, { api, c in try api.createShow(c.request, by: try c.signedIn) }),
            ]),
        Route(
            "/v1/shows/{id}",
            [
                ("GET", .getShow, { api, c in try api.show(c[0]) }),
                ("PATCH", .editShow, { api, c in try api.editShow(c[0], c.request, trace: c.trace, by: try c.signedIn) }),
            ]),
        Route("/v1/shows/{id}/prices", [("PUT", .changePrices, { api, c in try api.changePrices(c[0], c.request, trace: c.trace, by: try c.signedIn) })]),
        Route(
            "/v1/shows/{id}/cancel",
            [("POST", .cancelShow, { api, c in try api.cancelShow(c[0], c.request, trace: c.trace, by: try c.signedIn, idempotency: c.idempotency) })]),
        Route("/v1/shows/{id}/move", [("POST", .moveShow, { api, c in try api.moveShow(c[0], c.request, by: try c.signedIn) })]),
        Route("/v1/shards", [("GET", .listShards, { api, c in try api.listShards(c.request) })]),
        Route("/v1/shows/{id}/log", [("GET", .showLog, { api, c in try api.showLog(c[0], c.request) })]),
        Route("/v1/shows/{id}/availability", [("GET", .getAvailability, { api, c in try api.availability(c[0], c.request, trace: c.trace) })]),
        Route("/v1/shows/{id}/events", [("GET", .showEvents, { api, c in try api.events(c[0], c.request) })]),
        Route("/v1/shows/{id}/seatmap.svg", [("GET", .getSeatMap, { api, c in try api.seatMap(c[0], c.request) })]),
        Route("/v1/shows/{id}/seat-prices", [("GET", .getSeatPrices, { api, c in try api.seatPrices(c[0], c.request) })]),
        Route("/v1/shows/{id}/best", [("GET", .getBestSeats, { api, c in try api.bestSeats(c[0], c.request) })]),
        Route("/v1/shows/{id}/free-seats", [("GET", .getFreeSeats, { api, c in try api.freeSeats(c[0], c.request) })]),
        Route(
            "/v1/shows/{id}/queue",
            [
                ("GET", .getQueue, { api, c in try api.getQueue(c[0], c.request) }),
                ("PUT", .putQueue, { api, c in try api.putQueue(c[0], c.request, trace: c.trace, by: try c.signedIn) }),
                ("DELETE", .deleteQueue, { api, c in try api.deleteQueue(c[0], c.request, trace: c.trace, by: try c.signedIn) }),
                ("POST", .joinQueue, { api, c in try api.joinQueue(c[0], c.request, trace: c.trace) }),
            ]),
        Route("/v1/shows/{id}/queue/challenge", [("GET", .getQueueChallenge, { api, c in try api.queueChallenge(c[0], c.request) })]),
        Route(
            "/v1/shows/{id}/queue/lanes/{lane}/passes",
            [("POST", .createLanePasses, { api, c in try api.lanePasses(c[0], lane: c[1], c.request, trace: c.trace, by: try c.signedIn) })]),
        Route("/v1/shows/{id}/queue/draw", [("GET", .getQueueDraw, { api, c in try api.queueDraw(c[0]) })]),
        Route("/v1/queue/{entry}", [("GET", .getQueuePlace, { api, c in try api.queuePlace(c[0], c.request) })]),
        Route("/v1/queue/{entry}/events", [("GET", .queuePlaceEvents, { api, c in try api.queueEvents(c[0], c.request) })]),
        Route("/v1/shows/{id}/areas", [("GET", .getAreaCounts, { api, c in try api.areaCounts(c[0]) })]),
        Route("/v1/shows/{id}/holds", [("POST", .createHold, { api, c in try api.createHold(c[0], c.request, trace: c.trace, idempotency: c.idempotency) })]),
        Route(
            "/v1/shows/{id}/channels",
            [
                ("GET", .listChannels, { api, c in try api.listChannels(c[0], by: try c.signedIn) }),
                ("POST", .createChannel, { api, c in try api.createChannel(c[0], c.request, trace: c.trace, by: try c.signedIn) }),
            ]),
        Route("/v1/channels/{id}", [("DELETE", .releaseChannel, { api, c in try api.releaseChannel(c[0], trace: c.trace, by: try c.signedIn) })]),
        Route(
            "/v1/channels/{id}/seats",
            [("POST", .modifyChannel, { api, c in try api.modifyChannel(c[0], c.request, trace: c.trace, by: try c.signedIn) })]),
        Route(
            "/v1/shows/{id}/reservations",
            [
                ("GET", .listReservations, { api, c in try api.listReservations(c[0], c.request) }),
                (
                    "POST", .createReservation,
                    { api, c in try api.createReservation(c[0], c.request, trace: c.trace, by: try c.signedIn, idempotency: c.idempotency) }
                ),
            ]),
        Route(
            "/v1/reservations/{id}",
            [
                ("GET", .getReservation, { api, c in try api.getReservation(c[0], c.request) }),
                ("DELETE", .releaseReservation, { api, c in try api.releaseReservation(c[0], c.request, trace: c.trace, by: try c.signedIn) }),
            ]),
        Route("/v1/shows/{id}/report", [("GET", .showReport, { api, c in try api.showReport(c[0], c.request) })]),
        Route(
            "/v1/shows/{id}/sales",
            [("POST", .sell, { api, c in try api.sell(c[0], c.request, trace: c.trace, by: try c.signedIn, idempotency: c.idempotency) })]),
        Route("/v1/operators/me", [("GET", .getSignedInOperator, { api, c in try api.signedIn(c.request, by: try c.signedIn) })]),
        Route(
            "/v1/operators",
            [
                ("GET", .listOperators, { api, c in try api.listOperators(by: try c.signedIn) }),
                ("POST", .createOperator, { api, c in try api.createOperator(c.request, by: try c.signedIn) }),
            ]),
        Route(
            "/v1/operators/{name}",
            [
                ("PATCH", .changeOperator, { api, c in try api.changeOperator(c[0], c.request, by: try c.signedIn) }),
                ("DELETE", .deleteOperator, { api, c in try api.deleteOperator(c[0], by: try c.signedIn) }),
            ]),
        Route("/v1/staff/log", [("GET", .staffLog, { api, c in try api.staffLog(c.request, by: try c.signedIn) })]),
        Route("/v1/sessions", [("POST", .signIn, { api, c in try api.signIn(c.request) })]),
        Route("/v1/sessions/current", [("DELETE", .signOut, { api, c in try api.signOut(c.request) })]),
        Route(
            "/v1/cinemas",
            [
                ("GET", .listCinemas, { api, c in try api.listCinemas(by: try c.signedIn) }),
                ("POST", .createCinema, { api, c in try api.createCinema(c.request, by: try c.signedIn) }),
            ]),
        Route("/v1/cinemas/{id}", [("PATCH", .changeCinema, { api, c in try api.changeCinema(c[0], c.request, by: try c.signedIn) })]),
        Route("/v1/reports/sales", [("GET", .salesReport, { api, c in try api.salesReport(c.request, by: try c.signedIn) })]),
        Route("/v1/reports/takings", [("GET", .takingsReport, { api, c in try api.takingsReport(c.request, by: try c.signedIn) })]),
        Route("/v1/reports/payments", [("GET", .paymentsReport, { api, c in try api.paymentsReport(c.request, by: try c.signedIn) })]),
        Route("/v1/orders", [("GET", .searchOrders, { api, c in try api.searchOrders(c.request, by: try c.signedIn) })]),
        Route("/v1/orders/{orderRef}", [("GET", .getOrder, { api, c in try api.order(c[0], c.request) })]),
        Route("/v1/orders/{orderRef}/tickets", [("GET", .getOrderTickets, { api, c in try api.orderTickets(c[0], c.request) })]),
        Route("/v1/shows/{id}/issuer", [("GET", .getTicketIssuer, { api, c in try api.ticketIssuer(c[0], c.request) })]),
        Route("/v1/checkin", [("POST", .checkIn, { api, c in try api.checkIn(c.request, by: try c.signedIn) })]),
        Route("/v1/tickets/{ticket}", [("GET", .getTicketPicture, { api, c in try api.ticketPicture(c[0]) })]),
        Route("/v1/tickets/{ticket}/transfer", [("POST", .transferTicket, { api, c in try api.transferTicket(c[0], c.request) })]),
        Route("/v1/shows/{id}/checkin", [("GET", .checkInCounts, { api, c in try api.checkInCounts(c[0], c.request) })]),
        Route("/v1/orders/{orderRef}/refund", [("POST", .refund, { api, c in try api.refund(c[0], c.request, trace: c.trace, idempotency: c.idempotency) })]),
        Route("/v1/orders/{orderRef}/exchange", [("POST", .exchange, { api, c in try api.exchange(c[0], c.request, idempotency: c.idempotency) })]),
        Route("/v1/orders/{orderRef}/calendar.ics", [("GET", .getOrderCalendar, { api, c in try api.orderCalendar(c[0], c.request) })]),
        Route(
            "/v1/seasons",
            [
                (
                    "GET", .listSeasons,
                    { api, c in
                        _ = try c.signedIn; return try api.listSeasons()
                    }
                ),
                ("POST", .createSeason, { api, c in try api.createSeason(c.request, by: try c.signedIn) }),
            ]),
        Route("/v1/seasons/{id}", [("GET", .getSeason, { api, c in try api.season(c[0]) })]),
        Route(
            "/v1/seasons/{id}/report",
            [
                (
                    "GET", .seasonReport,
                    { api, c in
                        _ = try c.signedIn; return try api.seasonReport(c[0])
                    }
                )
            ]),
        Route("/v1/seasons/{id}/holds", [("POST", .createSeasonHold, { api, c in try api.createSeasonHold(c[0], c.request, trace: c.trace) })]),
        Route(
            "/v1/seasons/{id}/holds/{token}",
            [
                ("GET", .getSeasonHold, { api, c in try api.seasonHold(c[0], token: c[1]) }),
                ("DELETE", .releaseSeasonHold, { api, c in try api.releaseSeasonHold(c[0], token: c[1], trace: c.trace) }),
            ]),
        Route(
            "/v1/seasons/{id}/holds/{token}/confirm",
            [("POST", .confirmSeasonHold, { api, c in try api.confirmSeasonHold(c[0], token: c[1], c.request, trace: c.trace) })]),
        Route("/v1/seasons/{id}/sales", [("POST", .sellSeason, { api, c in try api.sellSeason(c[0], c.request, trace: c.trace, by: try c.signedIn) })]),
        Route(
            "/v1/seasons/{id}/seats/{seat}/release",
            [("POST", .releaseSeasonNight, { api, c in try api.seasonNight(c[0], seat: c[1], c.request, reclaim: false, trace: c.trace) })]),
        Route(
            "/v1/seasons/{id}/seats/{seat}/reclaim",
            [("POST", .reclaimSeasonNight, { api, c in try api.seasonNight(c[0], seat: c[1], c.request, reclaim: true, trace: c.trace) })]),
        Route(
            "/v1/reservations/{id}/seats",
            [("POST", .modifyReservation, { api, c in try api.modifyReservation(c[0], c.request, trace: c.trace, by: try c.signedIn) })]),
        Route(
            "/v1/holds/{token}",
            [
                ("GET", .getHold, { api, c in .json(200, Render.hold(try api.inventory.hold(token: c[0]))) }),
                ("DELETE", .releaseHold, { api, c in api.afterCommit(try api.inventory.beginReleaseHold(token: c[0]), trace: c.trace) { .empty(204) } }),
            ]),
        Route("/v1/holds/{token}/seats", [("POST", .modifyHold, modifyHold)]),
        Route("/v1/holds/{token}/attendees", [("PUT", .setAttendees, setAttendees)]),
        Route("/v1/shows/{id}/attendees/reveal", [("POST", .revealAttendee, { api, c in try api.revealAttendee(c[0], c.request, by: try c.signedIn) })]),
        Route("/v1/shows/{id}/waitlist", [("POST", .joinWaitlist, { api, c in try api.joinWaitlist(c[0], c.request) })]),
        Route(
            "/v1/waitlist/{entry}",
            [("GET", .getWaitlistEntry, { api, c in try api.waitlistEntry(c[0]) }), ("DELETE", .leaveWaitlist, { api, c in try api.leaveWaitlist(c[0]) })]),
        Route("/v1/attendee-books", [("POST", .createAttendeeBook, { api, _ in api.createAttendeeBook() })]),
        Route("/v1/attendee-books/{book}", [("GET", .getAttendeeBook, { api, c in try api.attendeeBook(c[0]) })]),
        Route("/v1/attendee-books/{book}/attendees", [("POST", .addBookAttendee, { api, c in try api.addBookAttendee(c[0], c.request) })]),
        Route(
            "/v1/attendee-books/{book}/attendees/{entry}",
            [("DELETE", .removeBookAttendee, { api, c in try api.removeBookAttendee(c[0], entry: c[1]) })]),
        Route(
            "/v1/shows/{id}/unbound",
            [
                (
                    "GET", .unboundTickets,
                    { api, c in
                        _ = try c.signedIn; return try api.unboundTickets(c[0])
                    }
                )
            ]),
        Route("/v1/shows/{id}/personal-data", [("DELETE", .erasePersonalData, { api, c in try api.erasePersonalData(c[0], by: try c.signedIn) })]),
        Route("/v1/holds/{token}/extend", [("POST", .extendHold, extendHold)]),
        Route("/v1/holds/{token}/tickets", [("GET", .getHoldTickets, { api, c in try api.holdTickets(c[0]) })]),
        Route(
            "/v1/holds/{token}/confirm", [("POST", .confirmHold, { api, c in try api.confirm(c[0], c.request, trace: c.trace, idempotency: c.idempotency) })]),
        Route("/v1/holds/{token}/checkout", [("POST", .checkoutHold, { api, c in try api.checkout(c[0], c.request, trace: c.trace) })]),
        Route("/v1/holds/{token}/card-setup", [("POST", .cardSetup, { api, c in try api.cardSetup(c[0], c.request, trace: c.trace) })]),
        Route("/v1/holds/{token}/card-payment", [("POST", .cardPayment, { api, c in try api.cardPay(c[0], c.request) })]),
        Route("/v1/payments", [("GET", .paymentOptions, { api, _ in api.paymentOptions() })]),
        Route("/v1/payments/qr.svg", [("GET", .paymentQR, { api, c in try api.paymentQR(c.request) })]),
        Route("/v1/payments/{provider}/notify", [("POST", .paymentNotify, { api, c in try api.paymentNotify(c[0], c.request, trace: c.trace) })]),
        Route(
            "/v1/webhooks",
            [
                ("GET", .listWebhooks, { api, _ in try api.listWebhooks() }),
                ("POST", .createWebhook, { api, c in try api.createWebhook(c.request, by: try c.signedIn) }),
            ]),
        Route(
            "/v1/webhooks/{id}",
            [
                ("GET", .getWebhook, { api, c in try api.getWebhook(c[0]) }),
                ("PATCH", .patchWebhook, { api, c in try api.patchWebhook(c[0], c.request, by: try c.signedIn) }),
                ("DELETE", .deleteWebhook, { api, c in try api.deleteWebhook(c[0], by: try c.signedIn) }),
            ]),
        Route("/v1/webhooks/{id}/deliveries", [("GET", .webhookDeliveries, { api, c in try api.webhookDeliveries(c[0], c.request) })]),
        Route("/v1/webhooks/{id}/replay", [("POST", .replayWebhook, { api, c in try api.replayWebhook(c[0], c.request, by: try c.signedIn) })]),
    ])

    private static let health: Route.Handler = { _, _ in .text(200, "ok\n") }
    private static let page: Route.Handler = { api, c in try api.site.response("index.html", c.request) }
    /// The operator console (docs/CONSOLE.md): its page is public, everything it shows needs a key.
    private static let console: Route.Handler = { api, c in try api.site.response("console.html", c.request) }
    /// The door's scanner (docs/DOOR.md): its page is public, scanning needs a door operator's key.
    private static let door: Route.Handler = { api, c in try api.site.response("door.html", c.request) }
    /// The buyer's order (`/orders/{ref}?code=…`, the receipt's link): the page is public, the order is read with the code.
    /// An order this code does not open (no such order, a reference no order can have, a wrong code or
    /// none) is the page with a 404 status, which tells the buyer so in their language (the page asks the
    /// API, which says 404 for each, so a guess learns nothing).
    private static let orderPage: Route.Handler = { api, c in
        var page = try api.site.response("order.html", c.request)
        let opens = c.request.query["code"].map { code in (try? api.inventory.buyerOrder(orderRef: c[0], code: code)) != nil } ?? false
        if !opens && page.status == 200 { page.status = 404 }
        return page
    }

    private static let showPage: Route.Handler = { api, c in
        guard RequestBody.isIdentifier(c[0]) else { throw Problem.notFound("no show \(c[0])") }
        return try api.site.showPage(venue: api.inventory.venueID(show: c[0]), c.request)
    }

    private static let webFile: Route.Handler = { api, c in
        guard c[0] != ".." && c[0] != "." else { throw Problem.notFound("no file \(c.request.path)") }
        return try api.site.response(c.route.hasPrefix("/web/js/") ? "js/\(c[0])" : c[0], c.request)
    }

    private static let modifyHold: Route.Handler = { api, c in
        let body = try RequestBody.modifyBody(c.request)
        let (view, ticket) = try api.inventory.beginModifyHold(
            token: c[0], add: body.add, remove: body.remove, places: body.areas.map { ($0.area, $0.count) }, attendees: SeatAPI.attendees(body.attendees))
        return api.afterCommit(ticket, trace: c.trace) { .json(200, Render.hold(view)) }
    }

    private static let setAttendees: Route.Handler = { api, c in
        let body = try RequestBody.decode(c.request, AttendeesRequest.init(json:))
        let (view, ticket) = try api.inventory.beginSetAttendees(token: c[0], try api.attendeeInputs(body.attendees, book: body.book))
        return api.afterCommit(ticket, trace: c.trace) { .json(200, Render.hold(view)) }
    }

    private static let extendHold: Route.Handler = { api, c in
        let (view, ticket) = try api.inventory.beginExtendHold(token: c[0])
        return api.afterCommit(ticket, trace: c.trace) { .json(200, Render.hold(view)) }
    }

    func metricsText() -> HTTPResponse {
        .text(
            200,
            inventory.metrics.text(
                gauges: [
                    ("event_subscribers", "Open Server-Sent Events streams.", Double(inventory.subscriberCount)),
                    ("active_holds", "Holds not yet released, expired or confirmed.", Double(inventory.activeHoldCount)),
                    ("queue_waiting", "Buyers waiting in the shows' waiting rooms (early arrivals too).", Double(queues?.waitingCount ?? 0)),
                    ("resident_memory_bytes", "The server process's resident memory (Linux: /proc/self/statm).", Double(ProcessMemory.residentBytes())),
                    ("cpu_seconds", "CPU time the server process has used, user and system (Linux: /proc/self/stat).", ProcessMemory.cpuSeconds()),
                ]
                    + connectionGauges.withLock { $0 }()
                    + (inventory.placement?.status() ?? []).flatMap { s in
                        [
                            ("shard_\(s.name)_up", "Whether shard \(s.name)'s database answers (1) or not (0).", s.outage == nil ? 1 : 0),
                            ("shard_\(s.name)_shows", "Shows kept on shard \(s.name), as this instance knows them.", Double(s.shows)),
                        ]
                    }),
            contentType: "text/plain; version=0.0.4")
    }

    /// Routes one request: 414 for an over-long path, 404 for no route, 405 with `Allow` for a routed
    /// path without the method; `trace.route` is set to the pattern (the metrics label) once one matches.
    func dispatch(_ r: HTTPRequest, trace: inout RequestTrace) throws -> HTTPResponse {
        guard r.path.utf8.count <= 2048 else { throw Problem(414, "uri-too-long", "URI too long", detail: "the path is over 2048 bytes") }
        switch Self.routes.resolve(method: r.method, path: r.path) {
        case .notFound:
            throw Problem.notFound("no route \(r.path)")
        case .methodNotAllowed(let found):
            trace.route = found.pattern
            let allowed = found.methods.joined(separator: ", ")
            throw Problem(
                405, "method-not-allowed", "Method not allowed", detail: "\(r.method) is not allowed here; use \(allowed)",
                headers: [("Allow", allowed)])
        case .found(let found, let handler, let operation, let parameters):
            trace.route = found.pattern
            var call = Route.Call(request: r, parameters: parameters, trace: trace)
            try checkSessionForm(r)
            // The operation's role, idempotency and rate, declared in the table: checked here, before the
            // handler (401 without a known key, 403 naming the role; 400 for a malformed Idempotency-Key;
            // 429 past the rate), so no handler repeats it.
            if case .role(let role, let action) = operation.access { call.who = try requireOperator(r, role, to: action) }
            // An operator of some cinemas acts on theirs only (any route, any method: their key is their act).
            if let who = call.who ?? caller({ r.header($0) }) { try checkCinema(found.pattern, parameters, method: r.method, who: who) }
            if let scope = operation.idempotency { call.idempotency = try Self.idempotencyClaim(r, scope: scope + ":" + parameters[0]) }
            if operation.limit == .holds, let wait = holdLimiter.check(r.clientAddress) {
                return rateLimited("too many holds from \(r.clientAddress); try again shortly", wait: wait, trace: trace)
            }
            guard Self.capabilityRoutes.contains(found.pattern), caller({ r.header($0) }) == nil else { return try handler(self, call) }
            return try guarded(r, trace: trace) { try handler(self, call) }
        }
    }

    /// Routes whose path or query carries a secret (a hold's token, an order's code, a waiting-room
    /// entry, a ticket's code): a 404 there from someone without an operator's key is a wrong guess.
    static let capabilityRoutes: Set<String> = [
        "/v1/holds/{token}", "/v1/holds/{token}/seats", "/v1/holds/{token}/attendees", "/v1/holds/{token}/extend", "/v1/holds/{token}/tickets",
        "/v1/holds/{token}/confirm",
        "/v1/holds/{token}/checkout", "/v1/holds/{token}/card-setup", "/v1/holds/{token}/card-payment",
        "/v1/orders/{orderRef}", "/v1/orders/{orderRef}/tickets", "/v1/orders/{orderRef}/exchange", "/v1/orders/{orderRef}/refund",
        "/v1/orders/{orderRef}/calendar.ics", "/orders/{orderRef}", "/v1/queue/{entry}", "/v1/queue/{entry}/events", "/v1/waitlist/{entry}",
        "/v1/tickets/{ticket}",
        "/v1/tickets/{ticket}/transfer", "/v1/attendee-books/{book}", "/v1/attendee-books/{book}/attendees",
        "/v1/attendee-books/{book}/attendees/{entry}",
        "/v1/seasons/{id}/holds/{token}", "/v1/seasons/{id}/holds/{token}/confirm", "/v1/seasons/{id}/seats/{seat}/release",
        "/v1/seasons/{id}/seats/{seat}/reclaim",
    ]

    /// A capability route's answer, unless this address has guessed wrong too often: then a 429 after
    /// the wait it names (`guessLimiter`: 900 wrong order codes from one address once took 0.7 s,
    /// every one a 404). A right answer costs nothing; only a 404 is charged.
    private func guarded(_ r: HTTPRequest, trace: RequestTrace, _ answer: () throws -> HTTPResponse) throws -> HTTPResponse {
        if let wait = guessLimiter.wait(r.clientAddress) {
            return rateLimited("too many unknown tokens, codes or entries from this address: wait \(Int(wait.rounded(.up))) s", wait: wait, trace: trace)
        }
        do {
            let response = try answer()
            if response.status == 404 { _ = guessLimiter.check(r.clientAddress) }
            return response
        } catch {
            if Problem.from(error).status == 404 { _ = guessLimiter.check(r.clientAddress) }
            throw error
        }
    }
}
