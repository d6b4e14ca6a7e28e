import Testing
@testable import CollectionLayout

@Suite struct ViewportTests {
    let content = LayoutSize(width: 2000, height: 1000)
    let limits = ZoomLimits(minimumShortSide: 160, smallestItem: 10, touchTarget: 44, overzoom: 1)

    @Test func startsFittedAndCentred() {
        let v = Viewport(contentSize: content, viewSize: LayoutSize(width: 400, height: 800), limits: limits)
        #expect(v.zoom == 0.2)  // 400 / 2000
        #expect(v.maximumZoom == 4.4)
        // Content 400×200 in an 800-tall view: centred vertically.
        #expect(v.offset == LayoutPoint(x: 0, y: -300))
    }

    @Test func aNarrowWindowNeverCollapsesTheMapToALine() {
        let v = Viewport(contentSize: LayoutSize(width: 4000, height: 500), viewSize: LayoutSize(width: 320, height: 900), limits: limits)
        // Fitting would be 0.08 (a 40-point strip); the short side gets 160 points instead.
        #expect(v.minimumZoom == 160.0 / 500)
        #expect(v.zoom * 500 == 160)
    }

    @Test func pinchKeepsTheContentUnderTheFingers() {
        var v = Viewport(contentSize: content, viewSize: LayoutSize(width: 800, height: 600), limits: limits)
        let focal = LayoutPoint(x: 300, y: 200)
        let before = v.contentPoint(forView: focal)
        v.zoom(by: 3, focal: focal)
        #expect(close(v.contentPoint(forView: focal), before))
        v.zoom(by: 1.7, focal: LayoutPoint(x: 100, y: 500))
        #expect(v.zoom > 0.4 * 3)
    }

    @Test func zoomIsClampedAtBothEnds() {
        var v = Viewport(contentSize: content, viewSize: LayoutSize(width: 800, height: 600), limits: limits)
        v.zoom(to: 1000, focal: LayoutPoint(x: 400, y: 300))
        #expect(v.zoom == v.maximumZoom)
        v.zoom(to: 0.0001, focal: LayoutPoint(x: 400, y: 300))
        #expect(v.zoom == v.minimumZoom)
        #expect(v.offset == v.clamped(v.offset))
    }

    @Test func panningStopsAtTheEdgesPlusInsets() {
        var v = Viewport(contentSize: content, viewSize: LayoutSize(width: 800, height: 600), limits: limits, insets: EdgeInsets(all: 20))
        v.zoom(to: 2, focal: .zero)
        v.pan(by: LayoutPoint(x: 1e6, y: 1e6))
        #expect(v.offset == LayoutPoint(x: -20, y: -20))
        v.pan(by: LayoutPoint(x: -1e6, y: -1e6))
        #expect(v.offset == LayoutPoint(x: 4000 - 800 + 20, y: 2000 - 600 + 20))
    }

    @Test func rotationMidScrollKeepsTheCentrePoint() {
        var v = Viewport(contentSize: content, viewSize: LayoutSize(width: 390, height: 844), limits: limits)
        v.zoom(to: 1.5, focal: LayoutPoint(x: 100, y: 400))
        v.pan(by: LayoutPoint(x: -120, y: 30))
        let centre = v.contentPoint(forView: LayoutPoint(x: 195, y: 422))
        v.resize(to: LayoutSize(width: 844, height: 390))
        #expect(close(v.contentPoint(forView: LayoutPoint(x: 422, y: 195)), centre, 1e-6))
        #expect(v.minimumZoom == max(390.0 / 1000, 160.0 / 1000))
        // Back again: the same point, the same zoom.
        v.resize(to: LayoutSize(width: 390, height: 844))
        #expect(close(v.contentPoint(forView: LayoutPoint(x: 195, y: 422)), centre, 1e-6) && v.zoom == 1.5)
    }

    @Test func zoomToRectAndFling() {
        var v = Viewport(contentSize: content, viewSize: LayoutSize(width: 800, height: 600), limits: limits)
        v.zoom(toContentRect: LayoutRect(x: 100, y: 100, width: 400, height: 300))
        #expect(v.zoom == 2)
        #expect(close(v.visibleContentRect.center, LayoutPoint(x: 300, y: 250)))
        let target = v.decelerationTarget(velocity: LayoutPoint(x: 1000, y: 0))
        #expect(close(target.x, v.offset.x + 1000 * 0.998 / 0.002 / 1000) && target.y == v.offset.y)
        #expect(v.decelerationTarget(velocity: LayoutPoint(x: -1e9, y: 0)).x == 0)
    }
}
