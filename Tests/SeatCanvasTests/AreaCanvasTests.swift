import CollectionLayout
import Foundation
import SeatCanvas
import SeatJSON
import SeatMap
import Testing

/// General-admission areas on the map (#53): drawn as their outline with a count, never as a pile of
/// places at their centre; the gutter names rows, not areas; a tap at an area's centre is no seat.
@Suite struct AreaCanvasTests {
    static let livehouse: VenueLayout = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/livehouse.json")
        return try! VenueLayout(json: [UInt8](try! Data(contentsOf: url)))
    }()

    @Test func thePickerDocumentCarriesEachAreaWithItsPlacesAndOutline() throws {
        let canvas = SeatCanvas(layout: Self.livehouse)
        let doc = try #require(try JSONParser.parse(Array(canvas.pickerGeometry(language: .chinese).utf8)).objectValue)
        let areas = (doc["areas"]?.arrayValue ?? []).compactMap { $0.objectValue }
        try #require(areas.count == 3)
        #expect(areas.map { $0["id"]?.stringValue } == ["floor", "box-a", "lounge"])
        let floor = try #require(Self.livehouse.area(id: "floor"))
        #expect(areas[0]["from"]?.intValue == floor.places.lowerBound && areas[0]["to"]?.intValue == floor.places.upperBound)
        #expect(areas[0]["outline"]?.arrayValue?.count == 8 && areas[2]["min"]?.intValue == 4 && areas[1]["mode"]?.stringValue == "whole")
        #expect(doc["areaWords"]?.objectValue?["free"]?.stringValue == "余 {free} 位")
        // The gutter names the two rows of seats, not the areas.
        let rows = doc["rows"]?.arrayValue?.compactMap { $0.arrayValue?.first?.stringValue }
        #expect(rows == ["A", "B"], "\(String(describing: rows))")
        // The content holds every outline (the box's left edge is at x = -4, left of every seat).
        let box = canvas.geometry.areaOutlines[1]
        #expect(box.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x <= canvas.contentSize.width && $0.y <= canvas.contentSize.height })
        // A venue without areas writes no such member (its document is as it was).
        let hall = SeatCanvas(layout: SampleVenuesLite.hall()).pickerGeometry(language: .english)
        let plain = try #require(try JSONParser.parse(Array(hall.utf8)).objectValue)
        #expect(plain["areas"] == nil && plain["areaWords"] == nil)
    }

    @Test func aTapAtAnAreasCentreIsNoSeatAndNoPlaceIsDrawn() throws {
        let canvas = SeatCanvas(layout: Self.livehouse)
        let floor = try #require(Self.livehouse.area(id: "floor"))
        let viewport = Viewport(contentSize: canvas.contentSize, viewSize: canvas.contentSize)
        #expect(canvas.hitTest(canvas.geometry.center(of: floor.places.lowerBound), in: viewport) == nil)
        let seat = try #require(Self.livehouse.index(ofSeatID: "A-1"))
        #expect(canvas.hitTest(canvas.geometry.center(of: seat), in: viewport) == seat)
        let list = canvas.displayList(viewport: nil, content: FrameContent(availability: SeatAvailability(layout: Self.livehouse)))
        #expect(!list.items.contains { $0.id.contains("floor:") || $0.id.contains("floor-3A") })
        #expect(list.items.contains { $0.id.contains("A-1") })
    }
}

/// A two-row hall with no area, for the "as it was" check.
enum SampleVenuesLite {
    static func hall() -> VenueLayout {
        try! VenueLayout(
            validating: VenueSpec(
                id: "h", name: "H", zones: [Zone(id: "z", name: "Z", category: "standard", color: "#336699")],
                rows: [RowSpec(id: "A", label: "A", zone: "z", seats: (1...4).map { SeatSpec(id: "A-\($0)", label: "\($0)", x: Double($0), y: 1) })]))
    }
}
