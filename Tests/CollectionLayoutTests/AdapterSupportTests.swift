import Foundation
import Testing
@testable import CollectionLayout

/// What the UIKit adapters (SeatKitUI) take from the engine instead of computing themselves.
@Suite struct AdapterSupportTests {
    @Test func coreGraphicsConversionsRoundTrip() {
        let r = LayoutRect(x: 1.5, y: -2, width: 30, height: 40.25)
        #expect(LayoutRect(r.cgRect) == r && r.cgRect.maxX == 31.5)
        #expect(LayoutPoint(LayoutPoint(x: 3, y: 4).cgPoint) == LayoutPoint(x: 3, y: 4))
        #expect(LayoutSize(CGSize(width: 7, height: 8)) == LayoutSize(width: 7, height: 8))
    }

    /// A card carousel driven by its group axis: the window follows the sideways offset, and the
    /// prefetch planner fed with it asks for the cards just off screen, then cancels them when the
    /// scroll turns back before they were shown.
    @Test func carouselPrefetchWindowFollowsTheSidewaysOffset() {
        let size = LayoutSize(width: 390, height: 200)
        var layout = CompositionalLayout(sections: [SectionPreset.cardCarousel.section(itemCount: 20)], containerSize: size)
        let axis = layout.groupAxis(0)
        #expect(axis.count == 20)
        let view = LayoutRect(x: 0, y: 0, width: 390, height: 200)
        let start = layout.groupWindow(section: 0, visible: view)
        #expect(start.offset == -16 && start.length == 390)  // the 16-point inset is before the first card
        layout.orthogonalOffsets[0] = 600
        let moved = layout.groupWindow(section: 0, visible: view)
        #expect(moved.offset == 584)
        // The groups the window overlaps are the items whose frames are on screen.
        let onScreen = layout.attributes(in: view).map(\.path.item)
        let byAxis = axis.range(overlapping: moved.offset, moved.offset + moved.length).flatMap { Array(layout.items(inGroup: $0, section: 0)) }
        #expect(onScreen == byAxis)
        var planner = PrefetchPlanner(screenfulsAhead: 1, screenfulsBehind: 0.5)
        let ahead = planner.update(axis: axis, offset: moved.offset, length: moved.length, velocity: 500)
        #expect(ahead.first == .prefetch(PrefetchKey(index: onScreen.last! + 1)))
        let back = planner.update(axis: axis, offset: 0, length: moved.length, velocity: -500)
        #expect(back.contains(.cancel(PrefetchKey(index: onScreen.last! + 1))))
    }

    @Test func verticalSectionsWindowDownThePageAndGroupsCoverTheirItems() {
        let layout = CompositionalLayout(
            sections: [SectionPreset.twoColumnGrid.section(itemCount: 7, header: SectionHeader(height: 30))],
            containerSize: LayoutSize(width: 390, height: 844))
        let w = layout.groupWindow(section: 0, visible: LayoutRect(x: 0, y: 100, width: 390, height: 300))
        #expect(w.offset == 100 - 30 - 8 && w.length == 300)
        #expect(layout.items(inGroup: 0, section: 0) == 0..<2 && layout.items(inGroup: 3, section: 0) == 6..<7)
        #expect(layout.items(inGroup: 9, section: 0).isEmpty)
    }
}
