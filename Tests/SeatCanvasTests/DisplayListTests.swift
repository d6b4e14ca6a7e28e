import CollectionLayout
import Foundation
import SeatMap
import SeatSamples
import Testing
@testable import SeatCanvas

@Suite struct DisplayListTests {
    let hall = try! sample("Samples/cinema-hall.json")

    func content() throws -> FrameContent {
        let prices = try SeatPrices(
            table: PriceTable(categoryPrices: ["standard": Decimal(string: "38.00")!, "vip": 58, "couple": Decimal(string: "99.90")!]), layout: hall)
        return FrameContent(
            availability: try sampleAvailability(hall), selection: Set(["8-2", "8-4"].map { hall.index(ofSeatID: $0)! }), prices: prices, rowLabels: true)
    }

    /// A picture a person can read: every row's label at both ends, and a legend of exactly what is
    /// shown (statuses present, zones, seat kinds), wrapped onto a second line when it does not fit.
    @Test func rowLabelsAndALegendOfWhatIsShown() throws {
        let canvas = SeatCanvas(layout: hall)
        let list = canvas.displayList(viewport: nil, content: try content())
        for row in hall.rows {
            let prefix = "row-label-\(SeatCanvas.elementID(row.id))-"
            let labels = list.items.filter { $0.id.hasPrefix(prefix) }
            #expect(labels.count == 2, "row \(row.id)")
            guard let start = labels.first(where: { $0.id == prefix + "start" }), let end = labels.first(where: { $0.id == prefix + "end" }),
                case .text(let a, let p, _, _, _) = start.command, case .text(_, let q, _, _, _) = end.command
            else { continue }
            #expect(a == row.label)
            // Outside the row, beyond its first and last seats.
            #expect(p.x < canvas.geometry.rect(of: row.seats.lowerBound).minX && q.x > canvas.geometry.rect(of: row.seats.upperBound - 1).maxX)
        }
        #expect(
            canvas.displayList(viewport: nil, content: FrameContent(availability: try sampleAvailability(hall))).items.allSatisfy {
                !$0.id.hasPrefix("row-label-")
            })
        let legend = canvas.legend(content: try content()).map(\.label)
        #expect(legend == ["已选", "已售", "已锁定", "普通区 可选 ¥38.00", "VIP区 可选 ¥58.00", "情侣座 可选 ¥99.90", "情侣座（成对出售）", "轮椅位", "视野受限", "最佳观影区"])
        // A fresh show with nothing selected: no status entries, only zones and kinds.
        let fresh = canvas.legend(content: FrameContent(availability: SeatAvailability(layout: hall), language: .english)).map(\.label)
        #expect(
            fresh
                == [
                    "Standard, available", "VIP, available", "Couple, available", "couple seat (sold as a pair)", "wheelchair space", "restricted view",
                    "best view",
                ].map {
                    localizedName($0, .english)
                })
        let svg = canvas.svg(viewport: nil, content: try content())
        #expect(svg.contains("<g id=\"legend\"") && svg.contains(">视野受限</text>"))
        let lines = SVGWriter(title: "", legend: canvas.legend(content: try content())).legendLayout(width: canvas.contentSize.width).map(\.line)
        #expect(lines.last == 2 && lines == lines.sorted(), "three lines at 508 points, in order")
    }

    @Test func theWholeHallAsSVG() throws {
        let svg = SeatCanvas(layout: hall).svg(viewport: nil, content: try content())
        assertSnapshot(svg, named: "cinema-hall.svg")
        // Every seat is an element with its id, status and spoken name.
        #expect(svg.components(separatedBy: "class=\"seat\"").count - 1 == hall.seatCount)
        #expect(
            svg.contains(
                "<g id=\"seat-7-12\" class=\"seat\" aria-label=\"7排12座，可选，普通区，¥38.00\" data-seat-id=\"7-12\" data-status=\"available\" data-zone=\"standard\">")
        )
        #expect(
            svg.contains("<g id=\"seat-7-1\" class=\"seat\" aria-label=\"7排1座，已锁定，VIP区，¥58.00\" data-seat-id=\"7-1\" data-status=\"held\" data-zone=\"vip\">"))
        #expect(svg.contains("data-status=\"selected\""))
    }

    @Test func levelOfDetailFollowsTheOnScreenSeatSize() throws {
        let arena = try sample("Samples/arena-20k.json")
        let canvas = SeatCanvas(layout: arena)
        #expect(canvas.level(forZoom: 0.1) == .zones)  // 2-point seats
        #expect(canvas.level(forZoom: 0.3) == .rows)  // 6-point seats
        #expect(canvas.level(forZoom: 0.6) == .seats)  // 12-point seats
        var v = canvas.viewport(viewSize: LayoutSize(width: 390, height: 600))
        let availability = SeatAvailability(layout: arena)
        var text = ""
        for zoom in [0.1, 0.3, 0.6] {
            v.zoom(to: zoom, focal: LayoutPoint(x: 195, y: 300))
            v.centre(on: canvas.geometry.center(of: arena.index(ofSeatID: "105-20-10")!))
            let list = canvas.displayList(viewport: v, content: FrameContent(availability: availability, language: .english))
            let seatItems = list.items.filter { $0.layer == .seats }.count
            switch list.level {
            case .seats:
                // Only what is on screen: a few hundred of the 20,000 seats.
                #expect(seatItems == canvas.visibleSeats(in: v).count && seatItems > 100 && seatItems < 2000)
                text += "level seats: \(seatItems) seat items\n"
            case .rows:
                #expect(seatItems == 0 && list.items.contains { $0.id.hasPrefix("block-") })
                #expect(list.items.count < arena.blocks.count)
                text += describe(list) + "\n"
            case .zones:
                #expect(seatItems == 0 && list.items.filter { $0.layer == .zones }.count == arena.zones.count)
                text += describe(list) + "\n"
            }
        }
        assertSnapshot(text, named: "arena-levels.txt")
    }

    @Test func seatNumbersAppearOnlyWhenReadable() throws {
        let canvas = SeatCanvas(layout: hall)
        var v = canvas.viewport(viewSize: LayoutSize(width: 390, height: 600))
        v.zoom(to: 0.6, focal: .zero)  // 12-point seats: shapes only
        let small = canvas.displayList(viewport: v, content: try content())
        v.zoom(to: 1, focal: .zero)  // 20-point seats: numbers
        let large = canvas.displayList(viewport: v, content: try content())
        func texts(_ l: DisplayList) -> Int {
            l.items.filter {
                if case .group(_, _, let c) = $0.command {
                    return c.contains { if case .text = $0 { return true } else { return false } }
                } else {
                    return false
                }
            }.count
        }
        #expect(texts(small) == 0 && texts(large) > 0)
    }

    @Test func oneChangedSeatIsOneUpdatedItem() throws {
        let canvas = SeatCanvas(layout: hall)
        var v = canvas.viewport(viewSize: LayoutSize(width: 390, height: 600))
        v.zoom(to: 1, focal: .zero)
        var c = try content()
        let before = canvas.displayList(viewport: v, content: c)
        let seat = canvas.visibleSeats(in: v).first { c.availability[$0] == .available }!
        c.availability.setStatus(.sold, for: seat)
        let after = canvas.displayList(viewport: v, content: c)
        let diff = RenderDiff(from: before, to: after)
        #expect(diff.inserted.isEmpty && diff.removed.isEmpty && !diff.transformChanged)
        #expect(diff.updated.map(\.id) == ["seat-" + hall.seatID(seat)])
        // The fast path from the change itself gives the same item without building a frame.
        let fast = canvas.updates(after: [SeatChange(seat: seat, status: .sold)], in: v, content: c)
        #expect(fast.updated == diff.updated)
    }

    @Test func panningInsertsAndRemovesOnlyTheEdges() throws {
        let canvas = SeatCanvas(layout: hall)
        var v = canvas.viewport(viewSize: LayoutSize(width: 200, height: 200))
        v.zoom(to: 1.2, focal: .zero)
        let c = try content()
        let before = canvas.displayList(viewport: v, content: c)
        v.pan(by: LayoutPoint(x: -30, y: 0))
        let after = canvas.displayList(viewport: v, content: c)
        let diff = RenderDiff(from: before, to: after)
        #expect(diff.transformChanged && diff.updated.isEmpty)
        #expect(!diff.inserted.isEmpty && diff.inserted.count < after.items.count / 2)
        #expect(Set(diff.removed).isDisjoint(with: Set(after.items.map(\.id))))
    }

    @Test func viewportSVGOfTheImaxHall() throws {
        let imax = try sample("Samples/imax-hall.json")
        let canvas = SeatCanvas(layout: imax)
        var v = canvas.viewport(viewSize: LayoutSize(width: 300, height: 200))
        v.zoom(to: 1, focal: .zero)
        v.scroll(to: LayoutPoint(x: 200, y: 150))
        let svg = canvas.svg(viewport: v, content: FrameContent(availability: SeatAvailability(layout: imax), language: .english))
        assertSnapshot(svg, named: "imax-viewport.svg")
        #expect(svg.contains("transform=\"translate(-200 -150) scale(1)\""))
    }
}

@Suite struct HeatmapTests {
    let hall = try! sample("Samples/cinema-hall.json")

    @Test func valuesAverageByRowAndZone() throws {
        let heat = try SeatHeatmap(json: Array(#"{"7-1":1,"7-2":0.5,"1-1":0,"11-1":0.25}"#.utf8), layout: hall)
        #expect(heat.value(of: hall.index(ofSeatID: "7-2")!) == 0.5 && heat.value(of: hall.index(ofSeatID: "7-3")!) == nil)
        #expect(heat.rowAverages[6] == 0.75 && heat.rowAverages[1] == nil)
        #expect(heat.zoneAverages[1] == 0.75 && heat.zoneAverages[0] == 0)
        #expect(SeatHeatmap.color(0) == "#313695" && SeatHeatmap.color(1) == "#A50026" && SeatHeatmap.color(0.5) == "#FEE090")
        #expect(SeatHeatmap.color(nil) == SeatHeatmap.missing)
        let svg = SeatCanvas(layout: hall).svg(
            viewport: nil, content: FrameContent(availability: SeatAvailability(layout: hall), heatmap: heat, language: .english))
        #expect(svg.contains("url(#heat)") && svg.contains("sold share"))
    }

    @Test func badHeatMapsSayWhatIsWrong() {
        #expect {
            try SeatHeatmap(json: Array(#"{"7-1":1.5,"nope":0.1,"7-2":"high"}"#.utf8), layout: hall)
        } throws: { error in
            (error as! LayoutError).problems.map(\.description) == [
                "7-1: expected a number from 0 to 1, got 1.5",
                "nope: no seat with this id in venue cinema-hall-3",
                "7-2: expected a number from 0 to 1, got \"high\"",
            ]
        }
    }
}

@Suite struct AccessibilityTests {
    let hall = try! sample("Samples/cinema-hall.json")

    @Test func spokenLabelsInBothLanguages() throws {
        let canvas = SeatCanvas(layout: hall)
        let prices = try SeatPrices(table: PriceTable(categoryPrices: ["standard": 38, "vip": 58, "couple": Decimal(string: "99.90")!]), layout: hall)
        let s = hall.index(ofSeatID: "7-12")!
        #expect(canvas.spokenLabel(s, status: .available, selected: false, prices: prices, language: .chinese) == "7排12座，可选，普通区，¥38.00")
        #expect(canvas.spokenLabel(s, status: .available, selected: false, prices: prices, language: .english) == "Row 7, seat 12, available, Standard, ¥38.00")
        let vip = hall.index(ofSeatID: "7-1")!
        #expect(canvas.spokenLabel(vip, status: .sold, selected: false, prices: prices, language: .english) == "Row 7, seat 1, sold, VIP, ¥58.00")
        #expect(canvas.spokenLabel(vip, status: .available, selected: true, prices: nil, language: .chinese) == "7排1座，已选，VIP区")
        let wheel = hall.index(ofSeatID: "1-15")!
        #expect(
            canvas.spokenLabel(wheel, status: .available, selected: false, prices: nil, language: .english)
                == "Row 1, seat 15, available, Standard, wheelchair space")
        #expect(canvas.spokenLabel(hall.index(ofSeatID: "1-11")!, status: .held, selected: false, prices: nil, language: .chinese) == "1排11座，已锁定，普通区，视线受限")
        #expect(
            canvas.spokenLabel(hall.index(ofSeatID: "11-1")!, status: .available, selected: false, prices: prices, language: .english)
                == "Row 11, seat 1, available, Couple, couple seat, ¥99.90")
    }

    @Test func elementsAreInReadingOrderWithTraitsAndFrames() throws {
        let canvas = SeatCanvas(layout: hall)
        var v = canvas.viewport(viewSize: LayoutSize(width: 390, height: 300))
        v.zoom(to: 1, focal: .zero)
        var c = FrameContent(availability: try sampleAvailability(hall), language: .english)
        c.selection = [hall.index(ofSeatID: "1-15")!]
        let elements = canvas.accessibilityElements(in: v, content: c)
        #expect(elements.map(\.seat) == canvas.visibleSeats(in: v).sorted())
        #expect(
            zip(elements, elements.dropFirst()).allSatisfy { a, b in
                hall.rowIndex(of: a.seat) < hall.rowIndex(of: b.seat) || (hall.rowIndex(of: a.seat) == hall.rowIndex(of: b.seat) && a.frame.minX < b.frame.minX)
            })
        let first = try #require(elements.first)
        #expect(first.traits == [.button, .selected])
        #expect(first.frame == v.viewRect(forContent: canvas.geometry.rect(of: first.seat)))
        let sold = elements.first { c.availability[$0.seat] == .sold }!
        #expect(sold.traits == [.button, .notEnabled])
    }

    @Test func listModeAndAnnouncements() throws {
        let canvas = SeatCanvas(layout: hall)
        let a = try sampleAvailability(hall)
        let zh = canvas.freeSeatList(a, language: .chinese), en = canvas.freeSeatList(a, language: .english)
        var text = ""
        for (z, zone) in zh.enumerated() {
            text += "\(zone.name) / \(en[z].name)\n"
            for (k, row) in zone.rows.enumerated() {
                text += "  \(row.summary) / \(en[z].rows[k].summary): " + row.runs.map(\.text).joined(separator: "; ") + "\n"
            }
        }
        assertSnapshot(text, named: "cinema-hall-list-mode.txt")
        let free = zh.flatMap(\.rows).flatMap(\.runs).reduce(0) { $0 + $1.seats.count }
        #expect(free == a.counts.available)
        let mine: Set<SeatIndex> = [hall.index(ofSeatID: "7-2")!]
        let changes = [
            SeatChange(seat: hall.index(ofSeatID: "7-4")!, status: .held), SeatChange(seat: hall.index(ofSeatID: "2-4")!, status: .sold),
            SeatChange(seat: hall.index(ofSeatID: "7-1")!, status: .available),
        ]
        #expect(canvas.announcements(for: changes, near: mine, language: .chinese) == ["7排4座刚刚被选走", "7排1座现在可选"])
        #expect(canvas.announcements(for: changes, near: mine, language: .english) == ["Row 7, seat 4 was just taken", "Row 7, seat 1 is available again"])
        #expect(canvas.announcements(for: changes, near: [], language: .english).isEmpty)
    }

    @Test func bilingualNamesSplit() {
        #expect(localizedName("VIP区 VIP", .chinese) == "VIP区" && localizedName("VIP区 VIP", .english) == "VIP")
        #expect(localizedName("下层101区 Lower 101", .english) == "Lower 101")
        #expect(localizedName("Balcony", .chinese) == "Balcony")
    }
}

@Suite struct DisplayColorTests {
    @Test func parsesTheDisplayListsColoursAndRefusesAnythingElse() {
        let c = DisplayColor(hex: "#4A90D9")
        #expect(c == DisplayColor(red: 0x4A / 255, green: 0x90 / 255, blue: 0xD9 / 255))
        #expect(DisplayColor(hex: "#22a06b80")?.alpha == Double(0x80) / 255)
        for bad in ["4A90D9", "#4A90D", "#4A90DZ", "", "#", "#4A90D9A"] { #expect(DisplayColor(hex: bad) == nil, "\(bad)") }
        // Every colour the palette and the sample zones use parses.
        for hex in [Palette.selected, Palette.held, Palette.sold, Palette.blocked, Palette.stroke, Palette.text, Palette.background, Palette.stage] {
            #expect(DisplayColor(hex: hex) != nil, "\(hex)")
        }
    }
}

@Suite struct SeatNumberContrastTests {
    @Test func contrastIsWCAGs() {
        let white = DisplayColor(hex: "#FFFFFF")!, black = DisplayColor(hex: "#000000")!
        #expect(abs(white.contrast(with: black) - 21) < 1e-9)
        #expect(white.contrast(with: white) == 1)
        // The page's old Confirm green, which axe-core measured at 3.32:1.
        #expect(abs(DisplayColor(hex: "#22A06B")!.contrast(with: white) - 3.33) < 0.01)
    }

    /// Whatever colour a venue gives a zone (4,096 spread over the cube), its numbers reach 4.5:1.
    @Test func anyZoneColourGetsAnAAInk() {
        let steps = (0..<16).map { String(format: "%02X", $0 * 17) }
        for r in steps {
            for g in steps {
                for b in steps {
                    let fill = "#\(r)\(g)\(b)"
                    let ratio = DisplayColor(hex: Palette.ink(on: fill))!.contrast(with: DisplayColor(hex: fill)!)
                    #expect(ratio >= 4.5, "\(Palette.ink(on: fill)) on \(fill) is \(ratio):1")
                }
            }
        }
    }

    /// Every seat number the samples draw meets WCAG AA (4.5:1) on its fill: each zone's colour and
    /// each status's. White on the samples' blue was 3.3:1; dark is 4.8:1.
    @Test func everySampleSeatNumberMeetsAA() {
        let zones = [SampleVenues.cinemaHall(), SampleVenues.imaxHall(), SampleVenues.arena(seats: 3000)].flatMap { $0.zones.map(\.color) }
        for fill in Set(zones + [Palette.selected, Palette.held, Palette.sold, Palette.blocked]) {
            let ink = Palette.ink(on: fill)
            let ratio = DisplayColor(hex: ink)!.contrast(with: DisplayColor(hex: fill)!)
            #expect(ratio >= 4.5, "\(ink) on \(fill) is \(ratio):1")
        }
        #expect(Palette.ink(on: "#4A90D9") == Palette.text)
        #expect(Palette.ink(on: "#E8505B") == "#000000", "a mid red: neither white (3.7) nor the dark text (4.4) reaches 4.5")
        #expect(Palette.ink(on: "#18794E") == "#FFFFFF")
    }
}
