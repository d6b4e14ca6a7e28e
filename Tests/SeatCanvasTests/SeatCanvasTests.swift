import CollectionLayout
import Foundation
import SeatMap
import Testing
@testable import SeatCanvas

@Suite struct HitTestingTests {
    let hall = try! sample("Samples/cinema-hall.json")
    var canvas: SeatCanvas { SeatCanvas(layout: hall) }

    @Test func aTapOnASeatFindsItAtEveryZoomAndAfterRotation() {
        var v = canvas.viewport(viewSize: LayoutSize(width: 390, height: 844))
        let seat = hall.index(ofSeatID: "7-12")!
        for zoom in [v.minimumZoom, 1.0, 1.7, v.maximumZoom] {
            v.zoom(to: zoom, focal: LayoutPoint(x: 195, y: 422))
            v.centre(on: canvas.geometry.center(of: seat))
            let onScreen = v.viewPoint(forContent: canvas.geometry.center(of: seat))
            #expect(canvas.hitTest(onScreen, in: v) == seat, "zoom \(zoom)")
            // Rotate: the same seat is found at its new on-screen position.
            var turned = v
            turned.resize(to: LayoutSize(width: 844, height: 390))
            #expect(canvas.hitTest(turned.viewPoint(forContent: canvas.geometry.center(of: seat)), in: turned) == seat)
        }
    }

    /// #31 item 2: a phone opens a cinema hall whole (every seat on screen, at the seat size that fits, at
    /// least `wholeHallSeatSize`); a hall that fits only smaller opens at `openingSeatSize`; a tap on a small
    /// seat zooms to `openingSeatSize` about the finger and the seat stays under it.
    @Test func aPhoneOpensACinemaWholeAndATapGrowsTheSeatUnderTheFinger() throws {
        let view = LayoutSize(width: 362, height: 560)  // 390 less the 28-point gutter; the map's height there
        let v = canvas.touchViewport(viewSize: view, gutterWidth: 28)
        let size = canvas.style.seatSize * v.zoom
        #expect(v.zoom == v.minimumZoom && size >= SeatCanvas.wholeHallSeatSize && size < SeatCanvas.openingSeatSize, "\(size)")
        for seat in hall.seatIndices {
            let p = v.viewPoint(forContent: canvas.geometry.center(of: seat))
            #expect(p.x > 0 && p.x < view.width && p.y > 0 && p.y < view.height, "seat \(hall.seatID(seat)) in view at \(p)")
        }
        let imax = try sample("Samples/imax-hall.json")
        let wide = SeatCanvas(layout: imax)
        let w = wide.touchViewport(viewSize: view, gutterWidth: 28)
        #expect(abs(wide.style.seatSize * w.zoom - SeatCanvas.openingSeatSize) < 1e-9, "too small whole: opened at 24 points")
        #expect(wide.zoomAfterTap(zoom: w.zoom) == nil)
        // A tap at (200, 300): zoomed about it to 24 points, the content point under the finger stays there.
        let zoom = try #require(canvas.zoomAfterTap(zoom: v.zoom))
        #expect(abs(canvas.style.seatSize * zoom - SeatCanvas.openingSeatSize) < 1e-9)
        var tapped = v
        let finger = LayoutPoint(x: 200, y: 300), under = v.contentPoint(forView: finger)
        tapped.zoom(to: zoom, focal: finger)
        let after = tapped.viewPoint(forContent: under)
        #expect(abs(after.x - finger.x) < 0.5 && abs(after.y - finger.y) < 0.5)
    }

    /// #50 item 9: a phone's map is as tall as the hall opened whole needs, not the page's 636 points
    /// with the hall in a third of them; the zoom is the one the full height gives; a hall that fits only
    /// smaller keeps the whole height; the page's own limit is never passed.
    @Test func aPhonesMapIsAsTallAsItsHall() throws {
        let most = 636.0, width = 362.0
        let height = canvas.touchViewHeight(width: width, maximumHeight: most)
        let fitted = canvas.touchViewport(viewSize: LayoutSize(width: width, height: height))
        let full = canvas.touchViewport(viewSize: LayoutSize(width: width, height: most))
        #expect(height < most * 0.65 && height >= SeatCanvas.minimumTouchViewHeight, "\(height)")
        #expect(abs(fitted.zoom - full.zoom) < 1e-12, "the hall opens at the same size")
        // The hall, inset and all, fills the map's height: nothing but the insets left over.
        let drawn = canvas.contentSize.height * fitted.zoom
        #expect(drawn + 2 * SeatCanvas.viewportInset <= height && drawn + 2 * SeatCanvas.viewportInset > height - 1)
        for seat in hall.seatIndices {
            let p = fitted.viewPoint(forContent: canvas.geometry.center(of: seat))
            #expect(p.y > 0 && p.y < height, "seat \(hall.seatID(seat)) in view at \(p)")
        }
        let imax = SeatCanvas(layout: try sample("Samples/imax-hall.json"))
        #expect(imax.touchViewHeight(width: width, maximumHeight: most) == most, "opened zoomed in: all the height")
        let row = RowSpec(id: "1", label: "1", seats: (0..<4).map { SeatSpec(id: "1-\($0 + 1)", label: "\($0 + 1)", x: Double($0), y: 0, zone: "a") })
        let spec = VenueSpec(id: "tiny", name: "tiny", zones: [Zone(id: "a", name: "a", category: "c", color: "#336699")], rows: [row])
        let tiny = SeatCanvas(layout: try VenueLayout(validating: spec))
        let small = tiny.touchViewHeight(width: width, maximumHeight: most)
        #expect(small >= SeatCanvas.minimumTouchViewHeight && small < most, "\(small)")
        #expect(tiny.touchViewHeight(width: width, maximumHeight: 200) == 200, "never taller than the page gives it")
    }

    @Test func theNearestSeatWinsWithinATouchTarget() {
        var v = canvas.viewport(viewSize: LayoutSize(width: 390, height: 844))
        v.zoom(to: 2, focal: .zero)
        let a = hall.index(ofSeatID: "7-1")!, b = hall.index(ofSeatID: "7-2")!
        let ca = canvas.geometry.center(of: a), cb = canvas.geometry.center(of: b)
        v.centre(on: ca)
        // A finger a third of the way from 7-1 to 7-2 picks 7-1; two thirds picks 7-2.
        let near = v.viewPoint(forContent: LayoutPoint(x: ca.x + (cb.x - ca.x) / 3, y: ca.y))
        let far = v.viewPoint(forContent: LayoutPoint(x: ca.x + (cb.x - ca.x) * 2 / 3, y: ca.y))
        #expect(canvas.hitTest(near, in: v) == a && canvas.hitTest(far, in: v) == b)
        // 22 view points is 11 content points at zoom 2: above the front row (nothing beyond it), a tap
        // 15 points above a seat's edge finds nothing, 9 points above finds the seat.
        let front = hall.index(ofSeatID: "1-1")!, cf = canvas.geometry.center(of: front)
        v.centre(on: cf)
        #expect(canvas.hitTest(v.viewPoint(forContent: LayoutPoint(x: cf.x, y: cf.y - 10 - 15)), in: v) == nil)
        #expect(canvas.hitTest(v.viewPoint(forContent: LayoutPoint(x: cf.x, y: cf.y - 10 - 9)), in: v) == front)
    }

    @Test func aDragSelectsTheSeatsItCrossesInOrderOnce() {
        var v = canvas.viewport(viewSize: LayoutSize(width: 390, height: 844))
        v.zoom(to: 1.5, focal: .zero)
        let from = canvas.geometry.center(of: hall.index(ofSeatID: "6-5")!), to = canvas.geometry.center(of: hall.index(ofSeatID: "6-4")!)
        v.centre(on: LayoutPoint(x: (from.x + to.x) / 2, y: from.y))
        // Left to right along row 6 from seat 5 to seat 4, then back a little (no duplicates).
        let path = [from, to, LayoutPoint(x: to.x - 30, y: to.y)].map { v.viewPoint(forContent: $0) }
        let ids = canvas.seats(alongDrag: path, in: v).map { hall.seatID($0) }
        #expect(ids == ["6-5", "6-3", "6-1", "6-2", "6-4"])
        // Across the aisle: the aisle adds nothing.
        let left = canvas.geometry.center(of: hall.index(ofSeatID: "6-9")!), right = canvas.geometry.center(of: hall.index(ofSeatID: "6-7")!)
        #expect(canvas.seats(alongDrag: [left, right].map { v.viewPoint(forContent: $0) }, in: v).map { hall.seatID($0) } == ["6-9", "6-7"])
    }
}

@Suite struct GutterAndMinimapTests {
    let hall = try! sample("Samples/cinema-hall.json")

    @Test func gutterLabelsFollowTheirRows() {
        let canvas = SeatCanvas(layout: hall)
        var v = canvas.viewport(viewSize: LayoutSize(width: 390, height: 500))
        var text = ""
        for (zoom, dy) in [(v.minimumZoom, 0.0), (1.0, 0.0), (1.0, -150.0), (2.0, -300.0)] {
            v.zoom(to: zoom, focal: .zero)
            v.pan(by: LayoutPoint(x: -40, y: dy))
            let labels = canvas.gutter(in: v)
            for l in labels {
                // The label sits at its row's on-screen height, whatever the horizontal pan.
                let rowY = hall.rows[l.row].seats.map { canvas.geometry.center(of: $0).y }.reduce(0, +) / Double(hall.rows[l.row].seats.count)
                #expect(abs(l.y - (rowY * v.zoom - v.offset.y)) < 1e-9)
            }
            var panned = v
            panned.pan(by: LayoutPoint(x: -200, y: 0))
            #expect(canvas.gutter(in: panned) == labels)
            text += "zoom \(r(v.zoom)) offset \(v.offset): " + labels.map { "\($0.label)@\(r($0.y))" }.joined(separator: " ") + "\n"
        }
        assertSnapshot(text, named: "gutter.txt")
    }

    @Test func crowdedRowsAreThinnedNotOverlapped() {
        let canvas = SeatCanvas(layout: hall)
        var v = canvas.viewport(viewSize: LayoutSize(width: 390, height: 844))
        v.zoom(to: v.minimumZoom, focal: .zero)
        let ys = canvas.gutter(in: v, minimumSpacing: 12).map(\.y)
        #expect(zip(ys, ys.dropFirst()).allSatisfy { $1 - $0 >= 12 })
    }

    /// In an arena, rows of several sections share each height: the gutter names only rows that cross the
    /// view's vertical centre line, so zoomed in on a section it reads that section's rows, not two
    /// sections' numbers interleaved. (First, each crowd's first row was named; then the row nearest the
    /// centre line, which still mixed in the neighbours' rows where the centre crossed none.)
    @Test func arenaGutterNamesTheRowsOfTheMiddleSections() throws {
        let arena = try sample("Samples/arena-20k.json")
        let canvas = SeatCanvas(layout: arena)
        /// How far a row is from the vertical line at `x` (0: it crosses it).
        func distance(_ row: Int, _ x: Double) -> Double {
            let r = canvas.geometry.rowRects[row]
            return max(r.minX - x, x - r.maxX, 0)
        }
        /// The mean distance of the named rows from the centre line: ours, and naming each crowd's first row.
        func distances(_ v: Viewport) -> (ours: Double, first: Double) {
            let x = v.visibleContentRect.midX
            // Every level drawn as rows, so the crowd rule shows even where the venue would draw zones.
            let labels = canvas.gutter(in: v, policy: DetailPolicy(rowsBelow: 0, zonesBelow: 0))
            var first: [Int] = [], last = -Double.infinity
            for (y, row) in canvas.geometry.rowsByY {
                let onScreen = y * v.zoom - v.offset.y
                if onScreen >= -1e-9 && onScreen <= v.viewSize.height && onScreen - last >= 12 { first.append(row); last = onScreen }
            }
            #expect(zip(labels, labels.dropFirst()).allSatisfy { $1.y - $0.y >= 12 })
            return (
                labels.map { distance($0.row, x) }.reduce(0, +) / Double(max(labels.count, 1)),
                first.map { distance($0, x) }.reduce(0, +) / Double(first.count)
            )
        }
        var whole = canvas.viewport(viewSize: LayoutSize(width: 390, height: 844))
        whole.zoom(to: whole.minimumZoom, focal: .zero)
        // Zoomed in on the left side: a seat a fifth of the way in from the left edge, half way down.
        var left = whole
        left.zoom(to: 1, focal: .zero)
        let target = arena.seatIndices.map { canvas.geometry.center(of: $0) }
            .filter { abs($0.y - canvas.geometry.contentSize.height / 2) < 200 }
            .min { abs($0.x - canvas.geometry.contentSize.width / 5) < abs($1.x - canvas.geometry.contentSize.width / 5) }!
        left.pan(by: LayoutPoint(x: left.offset.x - (target.x * left.zoom - 195), y: left.offset.y - (target.y * left.zoom - 422)))
        #expect(abs(left.visibleContentRect.midX - target.x) < 1)
        for v in [whole, left] {
            let d = distances(v)
            #expect(d.ours == 0 && d.first > 0, "only rows crossing the centre line: \(d)")
        }
        // #31 item 2: a section tapped (here the bottom tier's 104, seats at 24 points, the view on one of
        // its seats): only rows crossing the centre line are named, all of that section, more than five.
        let first = arena.seatIndices.first { arena.zone(of: $0).id == "104-L" && arena.rows[arena.rowIndex(of: $0)].label == "10" }!
        let row = arena.rows[arena.rowIndex(of: first)].seats, seat = row.lowerBound + row.count / 2  // the row's middle seat
        var section = whole
        section.zoom(to: canvas.zoomIntoSeats(), focal: .zero)
        let c = canvas.geometry.center(of: seat)
        section.pan(by: LayoutPoint(x: section.offset.x - (c.x * section.zoom - 195), y: section.offset.y - (c.y * section.zoom - 422)))
        let named = canvas.gutter(in: section)
        #expect(canvas.style.seatSize * section.zoom >= SeatCanvas.openingSeatSize)
        #expect(named.count > 5, "\(named.map(\.label))")
        let zones = Set(named.map { arena.zone(of: arena.rows[$0.row].seats.lowerBound).id.prefix(3) })
        #expect(zones == ["104"], "one section's rows: \(zones) \(named.map(\.label))")
        #expect(named.allSatisfy { distance($0.row, section.visibleContentRect.midX) == 0 })
        // Drawn as zones (the whole arena on a phone), there are no rows to name.
        #expect(canvas.level(forZoom: whole.zoom) == .zones && canvas.gutter(in: whole).isEmpty)
        // #50 item 9: beside the stage (a fifth of the way across) rows run up and down the screen: the
        // left gutter names none of them at a height, the top one names those crossing the middle, by x.
        #expect(canvas.gutter(in: left).allSatisfy { !canvas.geometry.runsUpAndDown(row: $0.row) })
        let top = canvas.topGutter(in: left)
        #expect(top.count > 5, "\(top.map(\.label))")
        #expect(zip(top, top.dropFirst()).allSatisfy { $0.x + SeatCanvas.topGutterSpacing <= $1.x })
        #expect(top.allSatisfy { canvas.geometry.runsUpAndDown(row: $0.row) && $0.x >= 0 && $0.x <= left.viewSize.width })
        let midY = left.visibleContentRect.midY
        #expect(top.allSatisfy { canvas.geometry.rowRects[$0.row].minY <= midY && midY <= canvas.geometry.rowRects[$0.row].maxY })
        let numbers = top.compactMap { Int($0.label) }
        #expect(numbers == numbers.sorted() || numbers == numbers.sorted(by: >), "in order: \(numbers)")
        #expect(canvas.topGutter(in: whole).isEmpty, "none at the zones level")
    }

    @Test func theMinimapShowsTheViewportAndPansOnATap() {
        let canvas = SeatCanvas(layout: hall)
        var v = canvas.viewport(viewSize: LayoutSize(width: 390, height: 844))
        v.zoom(to: 2, focal: .zero)
        let minimap = canvas.minimap(fitting: LayoutSize(width: 120, height: 80))
        let r = minimap.viewportRect(v)
        #expect(abs(r.width - v.visibleContentRect.width * minimap.transform.scale) < 1e-9)
        let target = canvas.geometry.center(of: hall.index(ofSeatID: "10-16")!)
        let moved = minimap.pan(v, tappedAt: minimap.transform.apply(target))
        let c = moved.visibleContentRect.center
        #expect(
            abs(c.x - min(target.x, moved.contentSize.width - moved.visibleContentRect.width / 2 + 24 / moved.zoom)) < 1e-6
                || moved.visibleContentRect.contains(target))
        #expect(moved.visibleContentRect.contains(target))
        let list = canvas.minimapDisplayList(minimap, viewport: moved, content: FrameContent(availability: SeatAvailability(layout: hall)))
        #expect(list.items.filter { $0.id.hasPrefix("block-") }.count == hall.blocks.count)
        #expect(list["viewport"] != nil)
    }
}
