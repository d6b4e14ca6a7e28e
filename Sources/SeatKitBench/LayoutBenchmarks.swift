import CollectionLayout
import Foundation
import SeatSamples

final class BenchCell: Sendable { let id: Int; init(_ id: Int) { self.id = id } }

enum LayoutBenchmarks {
    static func run(report: Report) {
        // 1. Frozen grid: visible cells of one frame.
        let rowSizes: [Double] = (0..<1000).map { (i: Int) -> Double in Double(24 + i % 5 * 6) }
        let columnSizes: [Double] = (0..<1000).map { (i: Int) -> Double in Double(60 + i % 7 * 11) }
        let grid = FrozenGridLayout(rows: VariableAxis(sizes: rowSizes), columns: VariableAxis(sizes: columnSizes), frozenRows: 1, frozenColumns: 1)
        let view = LayoutSize(width: 390, height: 844)
        var rowStarts: [Double] = [], columnStarts: [Double] = []
        var y = 0.0; for s in rowSizes { rowStarts.append(y); y += s }
        var x = 0.0; for s in columnSizes { columnStarts.append(x); x += s }
        var frame = 0
        func nextOffset() -> LayoutPoint {
            frame += 1
            return grid.clamped(LayoutPoint(x: Double(frame * 7919 % 80_000), y: Double(frame * 104_729 % 30_000)), viewSize: view)
        }
        // Both sides hand every visible cell's frame to the caller; neither builds an array.
        var cellsSeen = 0, framesSeen = 0
        let ours = measure {
            var sum = 0.0
            grid.forEachVisibleCell(offset: nextOffset(), viewSize: view) {
                cellsSeen += 1; sum += $0.frame.minX
            }
            framesSeen += 1
            consume(sum)
        }
        let cellsPerFrame = cellsSeen / max(framesSeen, 1)
        let naive = measure(batches: 3) {
            let o = nextOffset()
            let clip = LayoutRect(x: o.x, y: o.y, width: view.width, height: view.height)
            var count = 0, sum = 0.0
            for r in 0..<1000 {
                for c in 0..<1000 {
                    let f = LayoutRect(x: columnStarts[c], y: rowStarts[r], width: columnSizes[c], height: rowSizes[r])
                    if f.intersects(clip) { count += 1; sum += f.minX }
                }
            }
            consume(sum + Double(count))
        }
        report.compare(
            "frozen grid 1000×1000, the ~\(cellsPerFrame) visible cells of one frame (vs testing every cell's frame, from precomputed offsets)", ours: ours,
            baseline: naive, goal: 1000)

        // 2. Compositional layout of 100k items: rect query.
        let list = CompositionalLayout(
            sections: [
                SectionPreset.twoColumnGrid.section(itemCount: 50_000),
                SectionPreset.list.section(itemCount: 50_000),
            ], containerSize: LayoutSize(width: 390, height: 844))
        let height = list.contentSize.height
        let query = measure {
            frame += 1;
            consume(list.attributes(in: LayoutRect(x: 0, y: Double(frame * 7919).truncatingRemainder(dividingBy: height - 844), width: 390, height: 844)).count)
        }
        let sortScan = measure(batches: 3) {
            frame += 1
            let top = Double(frame * 7919).truncatingRemainder(dividingBy: height - 844)
            var all: [LayoutAttributes] = []
            all.reserveCapacity(100_000)
            for s in 0..<2 {
                for i in 0..<50_000 {
                    all.append(LayoutAttributes(kind: .item, path: ItemPath(section: s, item: i), frame: list.frame(of: ItemPath(section: s, item: i))))
                }
            }
            all.sort { $0.frame.minY < $1.frame.minY }
            let rect = LayoutRect(x: 0, y: top, width: 390, height: 844)
            consume(all.filter { $0.frame.intersects(rect) }.count)
        }
        report.compare(
            "compositional layout of 100k items, rect query (vs computing, sorting and scanning every attribute)", ours: query, baseline: sortScan, goal: 100)

        // 3. Spatial point query.
        var rng = SplitMix64(seed: 7)
        let rects = (0..<100_000).map { _ in LayoutRect(x: rng.double(0, 20_000), y: rng.double(0, 10_000), width: 18, height: 18) }
        let index = SpatialIndex(rects)
        let points = (0..<1024).map { _ in LayoutPoint(x: rng.double(0, 20_000), y: rng.double(0, 10_000)) }
        var k = 0
        let spatial = measure {
            k = (k + 1) & 1023; consume(index.nearest(to: points[k], within: 22))
        }
        let linear = measure(batches: 3) {
            k = (k + 1) & 1023
            let p = points[k]
            var best = -1, bestD = Double.infinity
            for (i, r) in rects.enumerated() { let d = r.distanceSquared(to: p); if d <= 484 && d < bestD { best = i; bestD = d } }
            consume(best)
        }
        report.compare("nearest rectangle within 22 pt among 100k (vs testing each in turn)", ours: spatial, baseline: linear, goal: 1000)

        // 4. Reuse dequeue.
        var pool = ReusePool<BenchCell>(capacityPerIdentifier: 2000)
        var array: [(String, BenchCell)] = []
        for i in 0..<1000 { let id = ["seat", "row", "header", "footer"][i % 4]; pool.enqueue(BenchCell(i), identifier: id); array.append((id, BenchCell(i))) }
        let dequeue = measure { if let c = pool.dequeue("footer") { pool.enqueue(c, identifier: "footer") } }
        let search = measure {
            if let i = array.firstIndex(where: { $0.0 == "footer" && $0.1.id > 900 }) { let c = array.remove(at: i); array.append(c) }
        }
        report.compare("reuse: dequeue by identifier (vs linear search in one array of 1000 cells)", ours: dequeue, baseline: search, goal: nil)

        // 5. Scripted 10,000-frame scrolls: all engine work a frame needs.
        var cells = ReuseCoordinator<GridCell, BenchCell>(poolCapacity: 64)
        var made = 0
        let gridFrames = time {
            for f in 0..<10_000 {
                let o = grid.clamped(LayoutPoint(x: Double(f) * 9.7, y: Double(f) * 6.1), viewSize: view)
                let visible = grid.visibleCells(offset: o, viewSize: view)
                cells.update(visible.map { ($0.cell, $0.pane.rawValue) }) { _ in
                    made += 1; return BenchCell(made)
                }
            }
        }
        var items = ReuseCoordinator<ItemPath, BenchCell>(poolCapacity: 64)
        var planner = PrefetchPlanner()
        let rowsAxis = UniformAxis(count: 25_000, itemSize: 195)
        let listFrames = time {
            for f in 0..<10_000 {
                let top = Double(f) * 23
                let visible = list.attributes(in: LayoutRect(x: 0, y: top, width: 390, height: 844))
                items.update(visible.map { ($0.path, "item") }) { _ in
                    made += 1; return BenchCell(made)
                }
                consume(planner.update(axis: rowsAxis, offset: top, length: 844, velocity: 1380).count)
            }
        }
        report.figure(
            "scripted 10,000-frame scroll, frozen grid (visible cells + reuse)", value: String(format: "%.1f µs/frame", gridFrames / 10_000 * 1e6),
            goal: "report")
        report.figure(
            "scripted 10,000-frame scroll, 100k-item compositional list (rect query + reuse + prefetch)",
            value: String(format: "%.1f µs/frame", listFrames / 10_000 * 1e6), goal: "report")
    }

    static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
