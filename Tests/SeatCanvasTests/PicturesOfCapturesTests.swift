import CollectionLayout
import Foundation
import SeatJSON
import SeatMap
import Testing
import SeatKitTestSupport
@testable import SeatCanvas

/// The pictures of real captures, checked as a person would look at them (#26 item 9): zone outlines
/// cover no other zone's seats and no row label; a pretix stage is drawn as deep as the plan draws it;
/// the legend is in one language and says which colour is free.
@Suite struct PicturesOfCapturesTests {
    static let captures = [
        "Tests/SeatMapTests/Fixtures/cinema-grid/maoyan-hall-3.json", "Tests/SeatMapTests/Fixtures/cinema-grid/maoyan-hall-8.json",
        "Tests/SeatMapTests/Fixtures/cinema-grid/camel-wrapped-hall-5.json", "Tests/SeatMapTests/Fixtures/reseller/ctms-hall-5.json",
        "Tests/SeatMapTests/Fixtures/pretix/editor-plan.json", "Samples/imports/seed-screening.json", "Samples/imports/reseller-hall.json",
        "Samples/cinema-hall.json",
    ]

    /// Even-odd point in polygon.
    static func inside(_ p: LayoutPoint, _ poly: [LayoutPoint]) -> Bool {
        var result = false
        var j = poly.count - 1
        for i in poly.indices {
            let a = poly[i], b = poly[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { result.toggle() }
            j = i
        }
        return result
    }

    @Test(arguments: captures) func zoneOutlinesCoverNoOtherZoneAndNoRowLabel(path: String) throws {
        let venue = try ImportedVenue(format: nil, json: [UInt8](Data(contentsOf: repo.appendingPathComponent(path))), fallbackID: "capture")
        let canvas = SeatCanvas(layout: venue.layout)
        let geometry = canvas.geometry, layout = venue.layout
        let list = canvas.displayList(
            viewport: nil, content: FrameContent(availability: SeatAvailability(layout: layout), language: .chinese, rowLabels: true))
        let labels = list.items.filter { $0.id.hasPrefix("row-label-") }.compactMap { item -> LayoutPoint? in
            if case .text(_, let p, let size, _, _) = item.command { return LayoutPoint(x: p.x, y: p.y - size * 0.35) }
            return nil
        }
        #expect(!labels.isEmpty, "\(path): row labels drawn")
        for (zone, parts) in geometry.zoneOutlines.enumerated() {
            // A block of another zone inside this zone's rows (the sample hall's VIP block) is inside by design.
            let own = layout.seatIndices.filter { layout.zoneIndex(of: $0) == zone }
            let enclosing = Set(own.map { layout.rowIndex(of: $0) }).contains { r in
                let mine = layout.rows[r].seats.filter { layout.zoneIndex(of: $0) == zone }
                return layout.rows[r].seats.contains { $0 > mine.min()! && $0 < mine.max()! && layout.zoneIndex(of: $0) != zone }
            }
            for outline in parts where outline.count > 2 {
                for s in layout.seatIndices where layout.zoneIndex(of: s) != zone && !enclosing {
                    #expect(!Self.inside(geometry.center(of: s), outline), "\(path): zone \(layout.zones[zone].id) covers \(layout.seatID(s))")
                }
                // Rows straight across: no row label inside the outline (arena sections keep their hulls).
                for label in labels { #expect(!Self.inside(label, outline), "\(path): zone \(layout.zones[zone].id) runs through a row label at \(label)") }
            }
        }
    }

    @Test func aPretixStageIsAsDeepAsThePlanDrawsIt() throws {
        let plan = try ImportedVenue(
            format: .pretix, json: [UInt8](Data(contentsOf: repo.appendingPathComponent("Tests/SeatMapTests/Fixtures/pretix/editor-plan.json"))),
            fallbackID: "plan")
        let stage = try #require(plan.layout.stage)
        let depth = try #require(stage.depth)
        #expect(depth > 0 && depth < stage.width / 4, "a stage band far wider than deep: \(stage)")
        // Drawn at that depth when seats surround it: the box is the plan's, not half its width.
        var surrounded = stage
        let b = plan.layout.bounds
        surrounded.center = FloorPoint(x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2)
        let moved = try VenueLayout(
            json: Array(
                String(decoding: plan.layout.jsonBytes(), as: UTF8.self)
                    .replacingOccurrences(
                        of: #""y":\#(JSONWriter.format(stage.center.y)),"width""#, with: #""y":\#(JSONWriter.format(surrounded.center.y)),"width""#
                    ).utf8))
        let canvas = SeatCanvas(layout: moved)
        let shape = try #require(canvas.geometry.stage)
        #expect(shape.surrounded && abs(shape.depth - depth * canvas.style.pitch) < 1e-9, "\(shape)")
        let box = canvas.displayList(viewport: nil, content: FrameContent(availability: SeatAvailability(layout: moved))).items.first { $0.id == "stage" }
        guard case .roundedRect(let rect, _, _)? = box?.command else { Issue.record("no stage box"); return }
        #expect(abs(rect.height - shape.depth) < 1e-9 && rect.height < rect.width / 4)
    }

    @Test func theLegendIsInOneLanguageAndSaysWhatIsFree() throws {
        let grid = try ImportedVenue(format: nil, json: [UInt8](Data(contentsOf: repo.appendingPathComponent("Samples/imports/cinema-grid.json"))))
        let canvas = SeatCanvas(layout: grid.layout)
        let zh = canvas.legend(content: FrameContent(availability: grid.availability!, language: .chinese)).map(\.label)
        let en = canvas.legend(content: FrameContent(availability: grid.availability!, language: .english)).map(\.label)
        #expect(zh.contains("可选") && en.contains("available"), "\(zh) \(en)")
        #expect(!zh.contains { $0.unicodeScalars.contains { ("A"..."z").contains($0) } }, "English in the Chinese legend: \(zh)")
        #expect(!en.contains { $0.unicodeScalars.contains { $0.value >= 0x2E80 } }, "Chinese in the English legend: \(en)")
    }
}
