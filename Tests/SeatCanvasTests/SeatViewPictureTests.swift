import CollectionLayout
import Foundation
import SeatCanvas
import SeatMap
import SeatSamples
import Testing

/// The seat-view picture against corners worked by hand: a 90° pinhole camera at the seat, looking at
/// the screen's centre, the screen a 2.39 : 1 frame 0.6 of its height above the eye.
@Suite struct SeatViewPictureTests {
    func view(across: Double, widths: Double) -> SeatView {
        SeatView(viewingAngle: 45, distanceInWidths: widths, offCentreAngle: 0, across: across, verdict: .good)
    }

    @Test func straightAheadOneWidthAwayIsSymmetric() {
        // Half-width 1 at depth 2: x = 120 ± 120 · 1/2; the frame's height 2/2.39 = 0.8368 half-widths:
        // top 78 − 120 · 0.6 · 0.8368 / 2 = 47.87, bottom 78 + 120 · 0.4 · 0.8368 / 2 = 98.08.
        let c = SeatViewPicture.corners(view(across: 0, widths: 1))
        #expect(abs(c[0].x - 60) < 1e-9 && abs(c[1].x - 180) < 1e-9 && abs(c[2].x - 180) < 1e-9 && abs(c[3].x - 60) < 1e-9)
        #expect(abs(c[0].y - 47.866) < 0.01 && abs(c[1].y - c[0].y) < 1e-9 && abs(c[3].y - 98.080) < 0.01)
    }

    @Test func fromTheSideTheNearEdgeIsTaller() {
        // In line with the right edge: the right edge is nearer (2 half-widths) than the left (√8), so taller.
        let c = SeatViewPicture.corners(view(across: 1, widths: 1))
        let leftHeight = c[3].y - c[0].y, rightHeight = c[2].y - c[1].y
        #expect(rightHeight > leftHeight && c[1].x > c[0].x)
        // Looking at the centre, the picture's middle is the screen's centre: the edges straddle 120.
        #expect(c[0].x < 120 && c[1].x > 120)
        // The near edge stands 2 half-widths ahead along the seat's line to the screen's centre:
        // Z = (0, −2)·(−1, −2)/√5 = 4/√5, height 120 · 0.8368 / (4/√5) = 56.13.
        #expect(abs(rightHeight - 120 * (2 / 2.39) / (4 / 5.squareRoot())) < 1e-6)
    }

    @Test func fromBehindTheScreensBackIsSeenMirrored() {
        // #50 item 4: straight behind, one width away: the seat at (0, −2) looks along +z; its right is
        // (−1, 0), so the screen's left end (−1, 0) stands at X = 1, Z = 2: x = 120 + 120 · 1/2 = 180.
        let behind = SeatView(viewingAngle: 53.13, distanceInWidths: 1, offCentreAngle: 180, across: 0, verdict: .behind)
        let c = SeatViewPicture.corners(behind)
        #expect(abs(c[0].x - 180) < 1e-9 && abs(c[1].x - 60) < 1e-9, "mirrored: \(c)")
        #expect(abs(c[0].y - 47.866) < 0.01 && abs(c[3].y - 98.080) < 0.01, "the same size as from in front")
        let back = SeatViewPicture.svg(behind, language: .english)
        #expect(!back.contains("url(#glow)") && back.contains("#3b3e46"), "the unlit back, not a screen ahead")
        let front = SeatViewPicture.svg(view(across: 0, widths: 1), language: .english)
        #expect(front.contains("fill=\"url(#glow)\"") && !front.contains("#3b3e46"))
    }

    @Test func thePictureNamesItsVerdictInEitherLanguage() throws {
        let cinema = SampleVenues.cinemaHall()
        let seat = try #require(cinema.index(ofSeatID: "5-1"))
        let view = try #require(cinema.view(from: seat))
        let zh = SeatViewPicture.svg(view, language: .chinese), en = SeatViewPicture.svg(view, language: .english)
        #expect(zh.hasPrefix("<svg") && zh.contains("aria-label=\"座位视角示意：\(view.words(.chinese))") && zh.contains("<polygon"))
        #expect(en.contains("The screen fills \(Int(view.viewingAngle.rounded()))°"))
    }
}

/// Seat states a person reads at a glance: every status's fill at least 3 : 1 against the map (WCAG
/// 1.4.11), its glyph at least 3 : 1 against the fill, a different glyph for each, and the seat drawn
/// with it in place of its number.
@Suite struct SeatGlyphTests {
    @Test func everyStatusReadsByContrastAndByShape() throws {
        let white = try #require(DisplayColor(hex: Palette.background))
        var seen = Set<SeatGlyph>()
        for (status, selected, fill) in [
            (SeatStatus.available, true, Palette.selected), (.held, false, Palette.held), (.sold, false, Palette.sold),
            (.blocked, false, Palette.blocked),
        ] {
            let f = try #require(DisplayColor(hex: fill)), ink = try #require(DisplayColor(hex: Palette.ink(on: fill)))
            #expect(f.contrast(with: white) >= 3, "\(status) \(fill): \(f.contrast(with: white))")
            #expect(ink.contrast(with: f) >= 3, "\(status)'s glyph on \(fill)")
            let glyph = try #require(SeatGlyph.of(status, selected: selected))
            #expect(seen.insert(glyph).inserted, "\(glyph) twice")
        }
        #expect(SeatGlyph.of(.available, selected: false) == nil)
    }

    @Test func aSoldSeatIsDrawnWithItsCrossNotItsNumber() throws {
        let layout = SampleVenues.cinemaHall()
        let canvas = SeatCanvas(layout: layout)
        var availability = SeatAvailability(seatCount: layout.seatCount)
        let seat = try #require(layout.index(ofSeatID: "7-3"))
        availability.setStatus(.sold, for: seat)
        availability.commit(version: 1)
        let svg = canvas.svg(viewport: nil, content: FrameContent(availability: availability, language: .english))
        let group = try #require(svg.components(separatedBy: "<g id=\"seat-7-3\"").dropFirst().first?.components(separatedBy: "</g>").first)
        #expect(group.contains("fill=\"\(Palette.sold)\"") && group.contains("<path") && !group.contains(">3</text>"), "\(group)")
        let free = try #require(svg.components(separatedBy: "<g id=\"seat-7-5\"").dropFirst().first?.components(separatedBy: "</g>").first)
        #expect(free.contains(">5</text>") && !free.contains("<path"))
    }
}

/// The zones level says each zone's price, as a ticketing app's overview does: the engine's text
/// (`SeatPrices.zonePriceText`: one price, or the lowest and highest), and nothing without prices.
@Suite struct ZonePriceCaptionTests {
    @Test func eachZonesCaptionSaysItsPrice() throws {
        let hall = SampleVenues.cinemaHall()
        let table = PriceTable(
            categoryPrices: ["standard": 38, "vip": 58, "couple": Decimal(string: "99.9")!],
            adjustments: [PriceAdjustment(target: .row("1"), change: .amount(-5))])
        let prices = try SeatPrices(table: table, layout: hall)
        #expect(prices.zonePriceText(0) == "¥33.00–¥38.00" && prices.zonePriceText(1) == "¥58.00" && prices.zonePriceText(2) == "¥99.90")
        // An arena far out: the zones level, each section's caption with its price.
        let arena = SampleVenues.arena(seats: 2000)
        let canvas = SeatCanvas(layout: arena)
        let arenaPrices = try SeatPrices(
            table: PriceTable(categoryPrices: Dictionary(uniqueKeysWithValues: Set(arena.zones.map(\.category)).map { ($0, Decimal(380)) })), layout: arena)
        var v = canvas.viewport(viewSize: LayoutSize(width: 390, height: 600))
        v.zoom(to: 0.05, focal: LayoutPoint(x: 195, y: 300))
        let availability = SeatAvailability(layout: arena)
        func captions(_ prices: SeatPrices?) -> [String] {
            let list = canvas.displayList(viewport: v, content: FrameContent(availability: availability, prices: prices, language: .english))
            // The second line of each caption (its first is the zone's name).
            return list.items.compactMap {
                if case .text(let text, _, _, _, _) = $0.command, $0.id.hasSuffix("-label-2"), $0.id.hasPrefix("zone-") { return text }
                return nil
            }
        }
        let priced = captions(arenaPrices), plain = captions(nil)
        #expect(!priced.isEmpty && priced.count == plain.count, "at the zones level: \(priced)")
        for (p, q) in zip(priced, plain) {
            #expect(p.hasPrefix("¥380.00 · ") && p == "¥380.00 · " + q && q.hasSuffix(" free"), "\(p) / \(q)")
        }
    }
}
