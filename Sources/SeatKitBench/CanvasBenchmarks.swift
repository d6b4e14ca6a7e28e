import CollectionLayout
import Foundation
import SeatCanvas
import SeatSamples
import SeatMap

enum CanvasBenchmarks {
    static func run(layout: VenueLayout, availability: SeatAvailability, report: Report) {
        let canvas = SeatCanvas(layout: layout)
        var viewport = canvas.viewport(viewSize: LayoutSize(width: 390, height: 844))
        viewport.zoom(to: 2, focal: .zero)
        var rng = SplitMix64(seed: 99)
        // Taps near random seats, in view coordinates after centring on them.
        let taps: [(Viewport, LayoutPoint)] = (0..<256).map { _ in
            let seat = Int(rng.next() % UInt64(layout.seatCount))
            var v = viewport
            v.centre(on: canvas.geometry.center(of: seat))
            let p = v.viewPoint(forContent: canvas.geometry.center(of: seat))
            return (v, LayoutPoint(x: p.x + rng.double(-15, 15), y: p.y + rng.double(-15, 15)))
        }
        var k = 0
        let hit = measure {
            k = (k + 1) & 255; consume(canvas.hitTest(taps[k].1, in: taps[k].0))
        }
        let naiveHit = measure(batches: 3) {
            k = (k + 1) & 255
            let (v, p) = taps[k]
            let c = v.contentPoint(forView: p), radius = 22 / v.zoom
            var best = -1, bestD = Double.infinity
            for s in layout.seatIndices {
                let d = canvas.geometry.rect(of: s).distanceSquared(to: c)
                if d <= radius * radius && d < bestD { best = s; bestD = d }
            }
            consume(best)
        }
        report.compare("hit test a tap on the 100k-seat arena (vs testing every seat's shape in turn)", ours: hit, baseline: naiveHit, goal: 1000)

        // Display list of one frame at three zooms vs every seat of the venue.
        let content = FrameContent(availability: availability, counts: FreeSeatCounts(layout: layout, availability: availability), language: .english)
        let everySeat = measure(batches: 3) { consume(canvas.displayList(viewport: nil, content: content).items.count) }
        let focus = canvas.geometry.center(of: layout.index(ofSeatID: "105-40-20") ?? 0)
        for (zoom, goal) in [(1.5, 100.0), (0.3, 0.0), (0.05, 0.0)] {
            var v = viewport
            v.zoom(to: zoom, focal: .zero)
            v.centre(on: focus)
            var items = 0
            let frame = measure {
                let list = canvas.displayList(viewport: v, content: content); items = list.items.count; consume(items)
            }
            report.compare(
                "display list of one 390×844 frame at zoom \(zoom) (\(canvas.level(forZoom: v.zoom).rawValue) level, \(items) items) vs every seat",
                ours: frame, baseline: everySeat, goal: goal > 0 ? goal : nil)
        }

        // Render diff after one seat changes.
        var close = viewport
        close.zoom(to: 1.5, focal: .zero)
        close.centre(on: focus)
        let visible = canvas.visibleSeats(in: close)
        var changed = content
        let seat = visible[visible.count / 2]
        changed.availability.setStatus(availability[seat] == .sold ? .available : .sold, for: seat)
        let change = [SeatChange(seat: seat, status: changed.availability[seat])]
        let fast = measure { consume(canvas.updates(after: change, in: close, content: changed).updated.count) }
        let before = canvas.displayList(viewport: close, content: content), after = canvas.displayList(viewport: close, content: changed)
        let frameDiff = measure { consume(RenderDiff(from: before, to: after).updated.count) }
        report.compare("render diff after one seat changes, 100k venue (from the change vs diffing two frames)", ours: fast, baseline: frameDiff, goal: nil)

        // SVG of the 20k arena.
        let arena20k = SampleVenues.arena(seats: 20_000)
        let arenaCanvas = SeatCanvas(layout: arena20k)
        let arenaContent = FrameContent(availability: SampleVenues.randomAvailability(for: arena20k, sold: 0.4, held: 0.05, seed: 3), language: .english)
        var bytes = 0
        let svg = measure(batches: 3) {
            let text = arenaCanvas.svg(viewport: nil, content: arenaContent); bytes = text.utf8.count; consume(bytes)
        }
        report.figure("SVG of the whole 20k-seat arena", value: String(format: "%.0f ms, %.1f MB", svg * 1000, Double(bytes) / 1e6), goal: "report")
    }
}
