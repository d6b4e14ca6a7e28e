import CollectionLayout
import Foundation
import SeatJSON
import SeatKitTestSupport
import SeatMap
import SeatSamples
import Testing

@testable import SeatCanvas

/// The engine writes what the web page's JavaScript must compute (`Tests/Web/Vectors/*.json`): for each
/// sample venue its geometry and rules as the server sends them, then gesture sequences with the
/// engine's viewport, level of detail, gutter, hit tests and drag path after every step.
/// `node --test Tests/Web` replays them against `js/engine.js`, so the two can never drift; a change
/// of the engine's rules shows here as a snapshot diff (re-record with SEATKIT_RECORD=1, on purpose).
@Suite struct WebVectorsTests {
    enum Step {
        case open
        /// The first look on a touch screen with the page's 28-point gutter (`SeatCanvas.touchViewport`).
        case openTouch(gutter: Double)
        /// The first look on a touch screen whose map is sized to its hall (`SeatCanvas.touchViewHeight`),
        /// the case's height the most it may take.
        case openTouchFitted
        case zoom(by: Double, focal: LayoutPoint)
        case pan(LayoutPoint)
        case resize(LayoutSize)
        case centre(LayoutPoint)
    }

    static let venues: [(name: String, layout: VenueLayout)] = [
        ("cinema-hall", SampleVenues.cinemaHall()), ("imax-hall", SampleVenues.imaxHall()), ("arena-3000", SampleVenues.arena(seats: 3000)),
    ]

    /// A phone and a desktop, each opened, pinched in about a point, panned, resized (rotation, a split
    /// view), centred, pinched out past the minimum and in past the maximum.
    static let cases: [(view: LayoutSize, steps: [Step])] = [
        (
            LayoutSize(width: 390, height: 560),
            [
                .open, .zoom(by: 2.5, focal: LayoutPoint(x: 120, y: 300)), .pan(LayoutPoint(x: -140, y: 60)),
                .zoom(by: 1.8, focal: LayoutPoint(x: 200, y: 200)),
                .pan(LayoutPoint(x: 5000, y: -5000)), .resize(LayoutSize(width: 560, height: 390)), .centre(LayoutPoint(x: 300, y: 240)),
                .zoom(by: 0.01, focal: LayoutPoint(x: 10, y: 10)), .zoom(by: 1000, focal: LayoutPoint(x: 280, y: 190)),
            ]
        ),
        (
            LayoutSize(width: 900, height: 600),
            [
                .open, .zoom(by: 1.6, focal: LayoutPoint(x: 450, y: 300)), .pan(LayoutPoint(x: 220, y: -90)), .zoom(by: 3, focal: LayoutPoint(x: 700, y: 120)),
                .resize(LayoutSize(width: 320, height: 600)), .pan(LayoutPoint(x: -33.5, y: 17.25)),
            ]
        ),
        (
            LayoutSize(width: 390, height: 520),
            [
                .openTouch(gutter: 28), .pan(LayoutPoint(x: 5000, y: 5000)), .zoom(by: 0.5, focal: LayoutPoint(x: 195, y: 260)),
                .pan(LayoutPoint(x: -80, y: -40)), .resize(LayoutSize(width: 844, height: 300)), .pan(LayoutPoint(x: 9000, y: 0)),
            ]
        ),
        (
            LayoutSize(width: 362, height: 636),
            [.openTouchFitted, .zoom(by: 1.5, focal: LayoutPoint(x: 181, y: 120)), .pan(LayoutPoint(x: -60, y: -30))]
        ),
        (
            // Into the right edge's middle: an arena's section beside the stage, rows running up and down.
            LayoutSize(width: 390, height: 560),
            [.open, .zoom(by: 12, focal: LayoutPoint(x: 365, y: 280)), .pan(LayoutPoint(x: 0, y: 150))]
        ),
    ]

    @Test(arguments: venues.map(\.name))
    func theEngineWritesThePagesVectors(venue name: String) {
        let layout = Self.venues.first { $0.name == name }!.layout
        assertSnapshot(Self.vectors(layout), named: "\(name).json", in: repo.appendingPathComponent("Tests/Web/Vectors"))
    }

    static func vectors(_ layout: VenueLayout) -> String {
        let canvas = SeatCanvas(layout: layout)
        var w = JSONWriter()
        w.raw("{")
        w.key("venue", first: true); w.string(layout.id)
        w.key("rules"); w.raw(canvas.pickerRules().json)
        w.key("geometry"); writeGeometry(canvas, &w)
        w.key("cases"); w.raw("[")
        for (c, test) in cases.enumerated() {
            if c > 0 { w.raw(",") }
            w.raw("\n{")
            w.key("view", first: true); point(LayoutPoint(x: test.view.width, y: test.view.height), &w)
            w.key("steps"); w.raw("[")
            var viewport = canvas.viewport(viewSize: test.view)
            for (k, step) in test.steps.enumerated() {
                if k > 0 { w.raw(",") }
                w.raw("\n{")
                switch step {
                case .open:
                    viewport = canvas.viewport(viewSize: test.view)
                    w.key("op", first: true); w.string("open")
                case .openTouch(let gutter):
                    viewport = canvas.touchViewport(viewSize: test.view, gutterWidth: gutter)
                    w.key("op", first: true); w.string("openTouch"); w.key("gutter"); w.number(gutter)
                case .openTouchFitted:
                    let height = canvas.touchViewHeight(width: test.view.width, maximumHeight: test.view.height)
                    viewport = canvas.touchViewport(viewSize: LayoutSize(width: test.view.width, height: height))
                    w.key("op", first: true); w.string("openTouchFitted"); w.key("height"); w.number(height)
                case .zoom(let factor, let focal):
                    viewport.zoom(by: factor, focal: focal)
                    w.key("op", first: true); w.string("zoom"); w.key("factor"); w.number(factor); w.key("focal"); point(focal, &w)
                case .pan(let t):
                    viewport.pan(by: t)
                    w.key("op", first: true); w.string("pan"); w.key("by"); point(t, &w)
                case .resize(let size):
                    viewport.resize(to: size)
                    w.key("op", first: true); w.string("resize"); w.key("to"); point(LayoutPoint(x: size.width, y: size.height), &w)
                case .centre(let p):
                    viewport.centre(on: p)
                    w.key("op", first: true); w.string("centre"); w.key("on"); point(p, &w)
                }
                w.key("expect"); writeState(canvas, viewport, &w)
                w.raw("}")
            }
            w.raw("]}")
        }
        w.raw("]}\n")
        return w.text
    }

    static func point(_ p: LayoutPoint, _ w: inout JSONWriter) {
        w.raw("["); w.number(p.x); w.raw(","); w.number(p.y); w.raw("]")
    }

    /// Centres of the seats in availability order, and the rows as the page's gutter reads them:
    /// `[label, centre y, row, left x, right x]`, by height.
    static func writeGeometry(_ canvas: SeatCanvas, _ w: inout JSONWriter) {
        w.raw("{")
        w.key("contentWidth", first: true); w.number(canvas.contentSize.width)
        w.key("contentHeight"); w.number(canvas.contentSize.height)
        w.key("x"); w.raw("[")
        for s in canvas.layout.seatIndices { if s > 0 { w.raw(",") }; w.number(canvas.geometry.center(of: s).x) }
        w.raw("]"); w.key("y"); w.raw("[")
        for s in canvas.layout.seatIndices { if s > 0 { w.raw(",") }; w.number(canvas.geometry.center(of: s).y) }
        w.raw("]"); w.key("rows"); w.raw(canvas.gutterRowsJSON)
        w.raw("}")
    }

    /// The viewport, its level of detail, gutter, what a tap at each of 35 points hits (a 7 × 5
    /// grid, off the seats as well as on them) and what a drag across the middle picks.
    static func writeState(_ canvas: SeatCanvas, _ v: Viewport, _ w: inout JSONWriter) {
        w.raw("{")
        w.key("zoom", first: true); w.number(v.zoom)
        w.key("offset"); point(v.offset, &w)
        w.key("minZoom"); w.number(v.minimumZoom)
        w.key("maxZoom"); w.number(v.maximumZoom)
        w.key("level"); w.string(canvas.level(forZoom: v.zoom).rawValue)
        // Where a tap goes: on a seat (grown to a finger's size when smaller), on the zones or rows level.
        w.key("zoomAfterTap")
        if let z = canvas.zoomAfterTap(zoom: v.zoom) { w.number(z) } else { w.raw("null") }
        w.key("zoomIntoSeats"); w.number(canvas.zoomIntoSeats())
        w.key("gutter"); w.raw("[")
        for (k, label) in canvas.gutter(in: v).enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("["); w.number(label.row); w.raw(","); w.string(label.label); w.raw(","); w.number(label.y); w.raw("]")
        }
        w.raw("]"); w.key("topGutter"); w.raw("[")
        for (k, label) in canvas.topGutter(in: v).enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("["); w.number(label.row); w.raw(","); w.string(label.label); w.raw(","); w.number(label.x); w.raw("]")
        }
        w.raw("]"); w.key("hits"); w.raw("[")
        var first = true
        for j in 0..<5 {
            for i in 0..<7 {
                let p = LayoutPoint(x: v.viewSize.width * (Double(i) + 0.5) / 7, y: v.viewSize.height * (Double(j) + 0.5) / 5)
                if !first { w.raw(",") }
                first = false
                w.raw("["); point(p, &w); w.raw(",")
                if let seat = canvas.hitTest(p, in: v) { w.number(seat) } else { w.raw("null") }
                w.raw("]")
            }
        }
        let path = (0...12).map { LayoutPoint(x: v.viewSize.width * (0.2 + 0.05 * Double($0)), y: v.viewSize.height * (0.5 + 0.004 * Double($0))) }
        w.raw("]"); w.key("drag"); w.raw("{"); w.key("path", first: true); w.raw("[")
        for (k, p) in path.enumerated() { if k > 0 { w.raw(",") }; point(p, &w) }
        w.raw("]"); w.key("seats"); w.raw("[")
        for (k, s) in canvas.seats(alongDrag: path, in: v).enumerated() { if k > 0 { w.raw(",") }; w.number(s) }
        w.raw("]}}")
    }
}

/// The prefetch planner's events for a poster strip (120-point cards, 12 apart, 4 in), frame by frame
/// through a scroll script: forwards, a fling, a stop, back, a jump: what `js/engine.js`'s
/// PrefetchPlanner must answer (`Tests/Web/Vectors/prefetch/planner.json`).
@Suite struct WebPrefetchVectorsTests {
    @Test func theEngineWritesThePlannersVectors() {
        let axis = UniformAxis(count: 40, itemSize: 120, spacing: 12, leadingInset: 4)
        var planner = PrefetchPlanner()
        let frames: [(offset: Double, length: Double, velocity: Double)] =
            [
                (0, 390, 0), (40, 390, 40), (160, 390, 120), (900, 390, 740), (1800, 390, 900), (1800, 390, 0), (1700, 390, -100),
                (900, 390, -800), (4000, 390, 3100), (4100, 844, 0), (0, 844, -4100), (37.5, 390, 37.5),
            ]
        var w = JSONWriter()
        w.raw("{")
        w.key("axis", first: true)
        w.raw("{"); w.key("count", first: true); w.number(axis.count); w.key("itemSize"); w.number(axis.itemSize)
        w.key("spacing"); w.number(axis.spacing); w.key("leadingInset"); w.number(axis.leadingInset); w.raw("}")
        w.key("frames"); w.raw("[")
        for (k, f) in frames.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("\n{"); w.key("offset", first: true); w.number(f.offset); w.key("length"); w.number(f.length)
            w.key("velocity"); w.number(f.velocity); w.key("events"); w.raw("[")
            for (j, e) in planner.update(axis: axis, offset: f.offset, length: f.length, velocity: f.velocity).enumerated() {
                if j > 0 { w.raw(",") }
                switch e {
                case .prefetch(let key): w.raw("[\"prefetch\","); w.number(key.index); w.raw("]")
                case .cancel(let key): w.raw("[\"cancel\","); w.number(key.index); w.raw("]")
                }
            }
            w.raw("]}")
        }
        w.raw("]}\n")
        assertSnapshot(w.text, named: "planner.json", in: repo.appendingPathComponent("Tests/Web/Vectors/prefetch"))
    }
}

/// The picker's geometry document says what the engine says: read back with the strict parser, every
/// seat's centre, id, name and label parts, the rows, blocks and zones equal the engine's own.
@Suite struct PickerGeometryTests {
    @Test(arguments: [Language.english, .chinese])
    func theDocumentIsTheEngines(language: Language) throws {
        let layout = SampleVenues.imaxHall()
        let canvas = SeatCanvas(layout: layout)
        let doc = try #require(try JSONParser.parse(Array(canvas.pickerGeometry(language: language).utf8)).objectValue)
        #expect(doc["format"]?.stringValue == "seatkit-picker-geometry/2" && doc["venue"]?.stringValue == layout.id)
        #expect(doc["rules"] == (try JSONParser.parse(Array(canvas.pickerRules().json.utf8))))
        #expect(doc["palette"] == (try JSONParser.parse(Array(Palette.json.utf8))))
        let seats = try #require(doc["seats"]?.objectValue)
        #expect(seats["count"]?.intValue == layout.seatCount)
        let x = try #require(seats["x"]?.arrayValue), y = try #require(seats["y"]?.arrayValue)
        let ids = try #require(seats["id"]?.arrayValue), numbers = try #require(seats["number"]?.arrayValue)
        let rows = try #require(seats["row"]?.arrayValue), marks = try #require(seats["marks"]?.arrayValue)
        let details = try #require(seats["details"]?.arrayValue), sets = try #require(doc["detailSets"]?.arrayValue)
        #expect([x, y, ids, numbers, rows, marks, details].allSatisfy { $0.count == layout.seatCount })
        #expect(sets.count < 10, "a handful of label-part sets, not one a seat: \(sets.count)")
        let format = try #require(doc["nameFormat"]?.stringValue)
        var rowLabels: [Int: String] = [:]
        for entry in try #require(doc["rows"]?.arrayValue) {
            let e = try #require(entry.arrayValue)
            rowLabels[try #require(e[2].intValue)] = e[0].stringValue
        }
        // Read back as a page reads it: positions summed from their differences, ids from their shared
        // prefixes, names from the template; each equal to the engine's.
        var px = 0, py = 0, previous: [UInt16] = []
        for s in layout.seatIndices {
            px += try #require(x[s].intValue); py += try #require(y[s].intValue)
            let centre = canvas.geometry.center(of: s)
            #expect(abs(Double(px) / SeatCanvas.geometryScale - centre.x) <= 0.005 + 1e-9)
            #expect(abs(Double(py) / SeatCanvas.geometryScale - centre.y) <= 0.005 + 1e-9)
            let entry = try #require(ids[s].stringValue), colon = try #require(entry.firstIndex(of: ":"))
            let shared = try #require(Int(entry[..<colon]))
            previous = Array(previous.prefix(shared)) + Array(entry[entry.index(after: colon)...].utf16)
            #expect(String(decoding: previous, as: UTF16.self) == layout.seatID(s))
            #expect(numbers[s].stringValue == layout.seatLabel(s))
            let row = try #require(rows[s].intValue), label = try #require(rowLabels[row])
            #expect(format.filling(["{row}": label, "{number}": layout.seatLabel(s)]) == layout.printedName(s, language: language))
            #expect(marks[s].intValue == canvas.geometryMarks(s).rawValue)
            let parts = sets[try #require(details[s].intValue)].arrayValue?.compactMap(\.stringValue)
            #expect(parts == canvas.spokenLabelParts(s, prices: nil, language: language).details)
        }
        #expect(marks.contains { $0.intValue == SeatCanvas.GeometryMarks.wheelchair.rawValue }, "the IMAX hall has wheelchair spaces")
        #expect(doc["rows"]?.arrayValue?.count == canvas.geometry.rowsByY.count)
        let blocks = try #require(doc["blocks"]?.arrayValue)
        #expect(blocks.count == layout.blocks.count)
        #expect(blocks.compactMap { $0.arrayValue?[5].intValue }.reduce(0) { max($0, $1) } == layout.seatCount)
        let zones = try #require(doc["zones"]?.arrayValue)
        #expect(zones.count == layout.zones.count && zones.allSatisfy { ($0.objectValue?["outline"]?.arrayValue?.count ?? 1) % 2 == 0 })
        #expect(doc["statusWords"]?.objectValue?["available"]?.stringValue == canvas.statusWord(.available, selected: false, language: language))
        #expect(doc["drawing"]?.objectValue?["zoneCaption"]?.stringValue == SeatCanvas.Drawing.zoneCaption(language))
    }

    /// Ids that share prefixes across a multi-byte character are cut at a character, never inside one.
    @Test func frontCodingNeverSplitsACharacter() throws {
        let seats = [SeatSpec(id: "座😀a", label: "1", x: 0, y: 0), SeatSpec(id: "座😁b", label: "2", x: 1, y: 0)]
        let layout = try VenueLayout(
            validating: VenueSpec(
                id: "v", name: "V", zones: [Zone(id: "z", name: "Z", category: "c", color: "#336699")],
                rows: [RowSpec(id: "r", label: "1", zone: "z", seats: seats)]))
        let doc = try #require(try JSONParser.parse(Array(SeatCanvas(layout: layout).pickerGeometry(language: .english).utf8)).objectValue)
        let ids = try #require(doc["seats"]?.objectValue?["id"]?.arrayValue).compactMap(\.stringValue)
        // 座 is one UTF-16 unit; 😀 and 😁 share their high surrogate, which must not be shared alone.
        #expect(ids == ["0:座😀a", "1:😁b"])
    }
}

/// What the page's js/geometry.js must read out of the two documents a canvas is drawn from
/// (`Tests/Web/Vectors/geometry/*.json`): each seat's id, centre (as sent: whole hundredths), spoken
/// name and its label with price, from the engine; `node --test Tests/Web` decodes the documents and
/// compares seat by seat.
@Suite struct WebGeometryVectorsTests {
    static let venues: [(name: String, layout: VenueLayout)] = [
        ("cinema-hall", SampleVenues.cinemaHall()), ("imax-hall", SampleVenues.imaxHall()), ("livehouse", livehouse),
    ]

    /// Samples/livehouse.json: rows, tables (round and long, each mode) and areas.
    static let livehouse: VenueLayout = {
        let url = repo.appendingPathComponent("Samples/livehouse.json")
        return try! VenueLayout(json: [UInt8](try! Data(contentsOf: url)))
    }()

    /// What a tap picks at each table (`SelectionPolicy.tapChoice`), under a show's policy that sells T2
    /// whole too, with two seats of the long table sold and, in some cases, seats already the buyer's:
    /// js/geometry.js's `tapChoice` must pick the same.
    static func writeTaps(_ layout: VenueLayout, _ w: inout JSONWriter) throws {
        let policy = try SelectionPolicy(json: Array(#"{"tables":{"T2":"byTable"}}"#.utf8))
        let sold = ["L1-2", "L1-3"].compactMap(layout.index(ofSeatID:))
        let cases: [(String, [String])] = [
            ("T1-3", []), ("T2-2", []), ("L1-1", []), ("L1-4", []), ("L1-6", []), ("L1-5", ["L1-1"]), ("A-1", []), ("L1-2", []),
            ("T1-1", ["T1-1", "T1-2", "T1-3", "T1-4"]),
        ]
        w.key("policy"); w.raw(String(decoding: policy.jsonBytes(), as: UTF8.self))
        w.key("sold"); w.raw("[" + sold.map { "\"\(layout.seatID($0))\"" }.joined(separator: ",") + "]")
        w.key("taps"); w.raw("[")
        for (k, (seat, mine)) in cases.enumerated() {
            let i = try #require(layout.index(ofSeatID: seat))
            let own = Set(mine.compactMap(layout.index(ofSeatID:)))
            let picks = policy.tapChoice(at: i, in: layout, isFree: { !sold.contains($0) && !own.contains($0) }, mine: own)
            if k > 0 { w.raw(",") }
            w.raw("\n{"); w.key("seat", first: true); w.string(seat)
            w.key("mine"); w.raw("[" + mine.map { "\"\($0)\"" }.joined(separator: ",") + "]")
            w.key("picks"); w.raw("[" + picks.map { "\"\(layout.seatID($0))\"" }.joined(separator: ",") + "]"); w.raw("}")
        }
        w.raw("]")
    }

    @Test(arguments: venues.map(\.name))
    func theEngineWritesTheGeometryVectors(venue name: String) throws {
        let layout = Self.venues.first { $0.name == name }!.layout
        // A table with every kind of adjustment, so seats of one zone differ in price.
        let first = layout.rows[0], seat = layout.seatID(layout.rows[1].seats.lowerBound)
        let table = PriceTable(
            categoryPrices: Dictionary(uniqueKeysWithValues: Set(layout.zones.map(\.category)).map { ($0, Decimal(38)) }),
            adjustments: [
                PriceAdjustment(target: .row(first.id), change: .amount(-5)),
                PriceAdjustment(target: .zone(layout.zones[0].id), change: .multiplier(Decimal(string: "1.2")!)),
                PriceAdjustment(target: .seat(seat), change: .amount(3)),
            ])
        let prices = try SeatPrices(table: table, layout: layout)
        let canvas = SeatCanvas(layout: layout)
        var w = JSONWriter()
        w.raw("{")
        for (k, language) in [Language.english, .chinese].enumerated() {
            w.key(language.rawValue, first: k == 0)
            w.raw("{")
            w.key("geometry", first: true); w.raw(canvas.pickerGeometry(language: language))
            w.key("prices"); w.raw(canvas.seatPricesDocument(show: "vector", prices: prices, revision: 0, language: language))
            w.key("seats"); w.raw("[")
            for s in layout.seatIndices {
                if s > 0 { w.raw(",") }
                let c = canvas.geometry.center(of: s)
                w.raw("\n["); w.string(layout.seatID(s)); w.raw(",")
                w.number((c.x * SeatCanvas.geometryScale).rounded() / SeatCanvas.geometryScale); w.raw(",")
                w.number((c.y * SeatCanvas.geometryScale).rounded() / SeatCanvas.geometryScale); w.raw(",")
                w.string(layout.printedName(s, language: language)); w.raw(",")
                w.string(canvas.spokenLabel(s, status: .available, selected: false, prices: prices, language: language)); w.raw(",")
                w.string(canvas.spokenLabel(s, status: .sold, selected: false, prices: prices, language: language)); w.raw("]")
            }
            // A seat's glyph for each status, as the display list draws it (its strokes and dots, in
            // content coordinates): js/canvasmap-draw.js's addGlyph must draw the same from the palette.
            w.raw("]"); w.key("glyphs"); w.raw("[")
            let seat = layout.rows[1].seats.lowerBound
            let cases: [(SeatStatus, Bool)] = [(.available, true), (.held, false), (.sold, false), (.blocked, false)]
            for (k, (status, selected)) in cases.enumerated() {
                let glyph = try #require(SeatGlyph.of(status, selected: selected))
                let commands = glyph.commands(in: canvas.geometry.rect(of: seat), ink: "#000000")
                func r(_ v: Double) -> String { JSONWriter.format((v * 100).rounded() / 100) }
                var lines: [String] = [], dots: [String] = []
                for c in commands {
                    switch c {
                    case .path(let points, _, _): lines.append("[" + points.map { "\(r($0.x)),\(r($0.y))" }.joined(separator: ",") + "]")
                    case .circle(let centre, let radius, _): dots.append("[\(r(centre.x)),\(r(centre.y)),\(r(radius))]")
                    default: Issue.record("a glyph draws strokes and dots only, not \(c)")
                    }
                }
                if k > 0 { w.raw(",") }
                w.raw("\n{"); w.key("seat", first: true); w.number(seat); w.key("status"); w.number(Int(status.rawValue))
                w.key("selected"); w.raw(selected ? "true" : "false"); w.key("glyph"); w.string(glyph.rawValue)
                w.key("lines"); w.raw("[" + lines.joined(separator: ",") + "]"); w.key("dots"); w.raw("[" + dots.joined(separator: ",") + "]"); w.raw("}")
            }
            w.raw("]")
            if !layout.tables.isEmpty { try Self.writeTaps(layout, &w) }
            w.raw("}")
        }
        w.raw("}\n")
        assertSnapshot(w.text, named: "\(name).json", in: repo.appendingPathComponent("Tests/Web/Vectors/geometry"))
    }
}
