import SeatJSON
import SeatServerTestSupport
import Foundation
import LoopbackHTTP
import SeatCanvas
import SeatSamples
import SeatMap
import SharedState
@testable import SeatServer
import Testing

/// The reads the web picker is drawn from, and the page's own files, over real HTTP.
@Suite(.serialized) struct WebPickerRouteTests {
    @Test func theVenueGeometryIsCachedForAYearAndGzipped() throws {
        let server = try TestServer()
        let c = try server.connection()
        let r = try c.request("GET", "/v1/venues/cinema-hall-3/geometry?lang=en")
        #expect(r.status == 200 && r.headers["content-type"] == "application/json", "\(r.status)")
        #expect(r.headers["cache-control"] == "public, max-age=31536000, immutable")
        let etag = try #require(r.headers["etag"])
        #expect(etag.hasSuffix("-geometry-en\""))
        #expect(r.text == SeatCanvas(layout: SampleVenues.cinemaHall()).pickerGeometry(language: .english))
        #expect(try c.request("GET", "/v1/venues/cinema-hall-3/geometry?lang=en", headers: [("If-None-Match", etag)]).status == 304)
        let zh = try c.request("GET", "/v1/venues/cinema-hall-3/geometry?lang=zh", headers: [("Accept-Encoding", "gzip")])
        #expect(zh.status == 200 && zh.headers["content-encoding"] == "gzip" && zh.headers["etag"] != etag)
        #expect(try c.request("GET", "/v1/venues/cinema-hall-3/geometry?lang=fr").status == 400)
        #expect(try c.request("GET", "/v1/venues/nowhere/geometry").status == 404)
    }

    /// `GET /v1/shows/{id}/seat-prices`: each seat's price, read back from the runs, is the one the
    /// engine puts in that seat's label; revalidated by ETag; a price change is a new revision.
    @Test func seatPricesAreEachSeatsAsRunsAndFollowAPriceChange() throws {
        let server = try TestServer()
        let c = try server.connection()
        func decoded(_ r: HTTPConnection.Response) throws -> [String] {
            let doc = try #require(try JSONParser.parse(Array(r.text.utf8)).objectValue)
            let prices = try #require(doc["prices"]?.arrayValue).compactMap(\.stringValue)
            let runs = try #require(doc["runs"]?.arrayValue).compactMap(\.intValue)
            var out: [String] = []
            for k in stride(from: 0, to: runs.count, by: 2) { out += Array(repeating: prices[runs[k + 1]], count: runs[k]) }
            return out
        }
        let r = try c.request("GET", "/v1/shows/show/seat-prices?lang=en", headers: [("Accept-Encoding", "gzip")])
        #expect(r.status == 200 && r.headers["content-type"] == "application/json" && r.headers["cache-control"] == "no-cache")
        let plain = try c.request("GET", "/v1/shows/show/seat-prices?lang=en")
        let perSeat = try decoded(plain)
        #expect(perSeat.count == 172)
        let svg = try c.request("GET", "/v1/shows/show/seatmap.svg?lang=en").text
        for line in svg.components(separatedBy: "\n") where line.contains("class=\"seat\"") {
            let match = try #require(line.firstMatch(of: /data-index="([0-9]+)"/))
            let index = try #require(Int(match.1))
            let details = try #require(line.firstMatch(of: /data-details="([^"]*)"/)).1
            #expect(details.hasSuffix(perSeat[index]), "seat \(index): \(details) against \(perSeat[index])")
        }
        #expect(Set(perSeat).count > 1, "the sample's show has more than one price")
        let etag = try #require(plain.headers["etag"])
        #expect(try c.request("GET", "/v1/shows/show/seat-prices?lang=en", headers: [("If-None-Match", etag)]).status == 304)
        let flat = #"{"currency":"CNY","minorUnits":2,"categories":{"standard":"50.00","vip":"50.00","couple":"120.00"}}"#
        #expect(try c.request("PUT", "/v1/shows/show/prices", json: flat, headers: [("X-Admin-Key", TestServer.adminKey)]).status == 200)
        let after = try c.request("GET", "/v1/shows/show/seat-prices?lang=en", headers: [("If-None-Match", etag)])
        #expect(after.status == 200 && after.headers["etag"] != etag)
        #expect(Set(try decoded(after)) == ["¥50.00", "¥120.00"])
        #expect(try c.request("GET", "/v1/shows/show/seat-prices?lang=fr").status == 400)
        #expect(try c.request("GET", "/v1/shows/nowhere/seat-prices").status == 404)
    }

    /// A show's page names the show's venue, so the page asks for the geometry at once; an unknown show
    /// gets the plain page; the two are cached apart.
    @Test func aShowsPageNamesItsVenue() throws {
        let server = try TestServer()
        let c = try server.connection()
        let page = try c.request("GET", "/shows/show")
        #expect(page.status == 200 && page.text.contains(#"<body data-venue="cinema-hall-3">"#))
        let plain = try c.request("GET", "/shows/nothing-here")
        #expect(plain.status == 200 && plain.text.contains("<body>") && !plain.text.contains("data-venue"))
        let etag = try #require(page.headers["etag"])
        #expect(etag != plain.headers["etag"])
        #expect(try c.request("GET", "/shows/show", headers: [("If-None-Match", etag)]).status == 304)
        #expect(WebSite.escapedAttribute(#"a"<b>&'c"#) == "a&quot;&lt;b&gt;&amp;&#39;c")
    }

    @Test func seatMapCarriesEverySeatWithLiveLabelPartsAndTheViewportLimits() throws {
        let server = try TestServer()
        let c = try server.connection()
        #expect(try hold(c, ["7-1", "7-2"]).status == 201)
        let r = try c.request("GET", "/v1/shows/show/seatmap.svg?lang=en")
        #expect(r.status == 200 && r.headers["content-type"] == "image/svg+xml; charset=utf-8")
        #expect(r.headers["etag"] == "\"show@1-en\"")
        let svg = r.text
        #expect(svg.components(separatedBy: "class=\"seat\"").count - 1 == 172)
        // The held seat: its status, its index in the availability, and the parts a page relabels it from.
        #expect(svg.contains(#"data-index="\#(SampleVenues.cinemaHall().index(ofSeatID: "7-1")!)""#))
        let seat = try #require(svg.components(separatedBy: "\n").first { $0.contains(#"data-seat-id="7-1""#) })
        #expect(seat.contains(#"data-status="held""#) && seat.contains(#"data-name="Row 7, seat 1""#))
        #expect(seat.contains(#"data-details="VIP, ¥58.00""#) && seat.contains(#"aria-label="Row 7, seat 1, held, VIP, ¥58.00""#))
        // The engine's rules for the page, as SeatCanvas.pickerRules writes them.
        let rules = SeatCanvas(layout: SampleVenues.cinemaHall()).pickerRules().json
        #expect(rules.contains(#""zoom":{"minimumShortSide":160,"smallestItem":20,"touchTarget":44,"overzoom":2}"#))
        #expect(svg.contains("data-rules=\"\(rules.replacingOccurrences(of: "\"", with: "&quot;"))\""))
        #expect(svg.contains(#"data-status-words="{&quot;available&quot;:&quot;available&quot;,&quot;held&quot;:&quot;held&quot;"#))
        // Chinese on request; an unknown language is a precise 400; the ETag gives 304.
        let zh = try c.request("GET", "/v1/shows/show/seatmap.svg?lang=zh")
        #expect(zh.text.contains(#"aria-label="7排1座，已锁定，VIP区，¥58.00""#))
        let bad = try c.request("GET", "/v1/shows/show/seatmap.svg?lang=fr")
        #expect(bad.status == 400 && bad.headers["content-type"] == "application/problem+json" && bad.string("detail")!.contains("fr"))
        #expect(try c.request("GET", "/v1/shows/show/seatmap.svg?lang=en", headers: [("If-None-Match", "\"show@1-en\"")]).status == 304)
        #expect(try c.request("GET", "/v1/shows/nope/seatmap.svg").status == 404)
    }

    /// A crowd opening one show gets one drawing per version: concurrent requests wait for it; a new
    /// version is drawn again, unless the caller accepts a picture up to 2 s old (`recent=1`).
    @Test func seatMapsAreDrawnOncePerVersion() throws {
        let server = try TestServer()
        let api = server.app.api
        // Locked, not Synchronization's Mutex: on Linux the Mutex is a bare futex ThreadSanitizer cannot see,
        // so every access under it reads as a race (CI's TSan run failed on exactly this).
        let answers = Locked([HTTPConnection.Response]())
        let port = server.port
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let r = try? HTTPConnection(port: port).request("GET", "/v1/shows/show/seatmap.svg?lang=en")
            if let r { answers.withLock { $0.append(r) } }
        }
        #expect(answers.withLock { $0.count } == 8 && api.pictures.draws == 1)
        #expect(answers.withLock { Set($0.map(\.body)).count } == 1)
        let c = try server.connection()
        #expect(try hold(c, ["7-1"]).status == 201)
        // The page accepts the picture of version 0 for two seconds (it paints live statuses over it)...
        let recent = try c.request("GET", "/v1/shows/show/seatmap.svg?lang=en&recent=1")
        #expect(recent.headers["x-availability-version"] == "0" && recent.headers["etag"] == "\"show@0-en\"" && api.pictures.draws == 1)
        // ...everyone else gets version 1, drawn once more; Chinese is a picture of its own.
        let exact = try c.request("GET", "/v1/shows/show/seatmap.svg?lang=en")
        #expect(exact.headers["x-availability-version"] == "1" && exact.text.contains(#"data-status="held""#) && api.pictures.draws == 2)
        _ = try c.request("GET", "/v1/shows/show/seatmap.svg?lang=zh")
        #expect(api.pictures.draws == 3)
    }

    /// The cache stays within its bytes, least recently used out first.
    @Test func thePictureCacheIsBounded() {
        let cache = PictureCache(maximumBytes: 250)
        for k in 0..<5 { _ = cache.picture("s\(k)", version: 1, recent: false) { [UInt8](repeating: 0, count: 100) } }
        #expect(cache.draws == 5)
        _ = cache.picture("s4", version: 1, recent: false) { [] }
        _ = cache.picture("s3", version: 1, recent: false) { [] }
        #expect(cache.draws == 5, "the two latest are kept")
        _ = cache.picture("s0", version: 1, recent: false) { [UInt8](repeating: 0, count: 100) }
        #expect(cache.draws == 6, "the oldest was dropped")
    }

    @Test func bestSeatsFollowTheRulesAndSayWhenNoneFit() throws {
        let server = try TestServer()
        let c = try server.connection()
        let best = try c.request("GET", "/v1/shows/show/best?count=3")
        #expect(best.status == 200, "\(best.text)")
        let seats = try #require(best.json?["seats"]?.arrayValue).compactMap(\.stringValue)
        #expect(seats.count == 3 && best.string("total") == "174.00")
        // They are what the engine would pick, and nothing was held.
        let layout = SampleVenues.cinemaHall()
        let engine = layout.bestAvailable(BestAvailableRequest(count: 3), availability: try server.availability())!
        #expect(seats == engine.map { layout.seatID($0) })
        #expect(try server.availability().counts.held == 0)
        // Holding them works as a next step.
        #expect(try hold(c, seats).status == 201)
        #expect(try c.request("GET", "/v1/shows/show/best?count=0").status == 400)
        let tooMany = try c.request("GET", "/v1/shows/show/best?count=9")
        #expect(tooMany.status == 422 && tooMany.string("detail")!.contains("at most 6"))
        #expect(try c.request("GET", "/v1/shows/show/best?count=2&zone=balcony").status == 404)
        // The couple zone sells pairs only, so no three seats fit there.
        let none = try c.request("GET", "/v1/shows/show/best?count=3&zone=couple")
        #expect(none.status == 409 && none.string("type") == "/problems/no-seats-together", "\(none.text)")
    }

    @Test func freeSeatListIsTheAccessibilityModelsListMode() throws {
        let server = try TestServer()
        let c = try server.connection()
        #expect(try hold(c, ["7-1", "7-2"]).status == 201)
        let r = try c.request("GET", "/v1/shows/show/free-seats?lang=en")
        #expect(r.status == 200)
        let zones = try #require(r.json?["zones"]?.arrayValue)
        #expect(zones.compactMap { $0.objectValue?["id"]?.stringValue } == ["standard", "vip", "couple"])
        let vip = try #require(zones[1].objectValue?["rows"]?.arrayValue)
        let row7 = try #require(vip.first { $0.objectValue?["row"]?.stringValue == "7" }?.objectValue)
        #expect(row7["summary"]?.stringValue == "Row 7, 6 free seats")
        let runSeats = row7["runs"]?.arrayValue?.flatMap { $0.objectValue?["seats"]?.arrayValue?.compactMap(\.stringValue) ?? [] } ?? []
        #expect(!runSeats.contains("7-1") && !runSeats.contains("7-2") && runSeats.count == 6)
        #expect(try c.request("GET", "/v1/shows/show/free-seats?lang=zh").text.contains("第7排，6个空座"))
    }

    @Test func thePageAndItsFilesAreServedWithTheirTypesAndASafePolicy() throws {
        let server = try TestServer()
        let c = try server.connection()
        for path in ["/", "/shows/show"] {
            let page = try c.request("GET", path)
            #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.text.contains(#"<script type="module" src="/web/js/app.js">"#))
            #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        }
        let script = try c.request("GET", "/web/js/app.js")
        #expect(script.status == 200 && script.headers["content-type"] == "text/javascript; charset=utf-8")
        let etag = try #require(script.headers["etag"])
        #expect(try c.request("GET", "/web/js/app.js", headers: [("If-None-Match", etag)]).status == 304)
        #expect(try c.request("GET", "/web/app.css").headers["content-type"] == "text/css; charset=utf-8")
        // Every module the page imports, followed from app.js, is served (no build step: a missing file
        // would break the page), and the picker's modules are among them.
        func modules(from root: String) throws -> Set<String> {
            var seen: Set<String> = [], queue = [root]
            while let name = queue.popLast() {
                guard seen.insert(name).inserted else { continue }
                let module = try c.request("GET", "/web/js/\(name).js")
                #expect(module.status == 200, "\(name).js")
                for match in module.text.matches(of: /(?:from|import) '\.\/([a-z0-9]+)\.js'/) { queue.append(String(match.1)) }
            }
            return seen
        }
        let seen = try modules(from: "app")
        // So are the console's (at /console) and the embedding example's, and their pages.
        #expect(try modules(from: "console").isSuperset(of: ["api", "element", "seatpicker", "canvasmap"]))
        #expect(try modules(from: "embed").contains("element"))
        let console = try c.request("GET", "/console")
        #expect(console.status == 200 && console.text.contains(#"<script type="module" src="/web/js/console.js">"#))
        #expect(try c.request("GET", "/web/embed.html").text.contains("<seatkit-map"))
        #expect(
            seen.isSuperset(of: ["api", "availability", "canvasmap", "element", "engine", "geometry", "i18n", "keyboard", "live", "picker", "session", "ui"]))
        #expect(try c.request("GET", "/web/nothing.js").status == 404)
        #expect(try c.request("GET", "/web/../Package.swift").status == 404)
        #expect(try c.request("POST", "/").status == 405)
    }
}
