import Testing
@testable import CollectionLayout

final class FakeCell: Sendable { let id: Int; init(_ id: Int) { self.id = id } }

@Suite struct ReuseTests {
    @Test func poolIsLastInFirstOutAndCapped() {
        var pool = ReusePool<Int>(capacityPerIdentifier: 2)
        let accepted = [
            pool.enqueue(1, identifier: "seat"), pool.enqueue(2, identifier: "seat"), pool.enqueue(3, identifier: "seat"),
            pool.enqueue(9, identifier: "row"),
        ]
        #expect(accepted == [true, true, false, true])
        let dequeued = [pool.dequeue("seat"), pool.dequeue("seat"), pool.dequeue("seat"), pool.dequeue("row")]
        #expect(dequeued == [2, 1, nil, 9])
    }

    @Test func aScrolledListReusesViewsAndKeepsTheInvariants() {
        var coordinator = ReuseCoordinator<Int, FakeCell>(poolCapacity: 16)
        let axis = UniformAxis(count: 10_000, itemSize: 44)
        var next = 0
        var maxPool = 0
        for frame in 0..<2000 {
            let offset = Double(frame) * 37 + (frame % 7 == 0 ? 400 : 0)  // jumps now and then
            let visible = axis.range(overlapping: offset, offset + 844)
            coordinator.update(visible.map { ($0, $0 % 5 == 0 ? "header" : "row") }) { _ in
                next += 1; return FakeCell(next)
            }
            #expect(coordinator.checkInvariants())
            #expect(Set(coordinator.visible.keys) == Set(visible))
            maxPool = max(maxPool, coordinator.pool.count)
        }
        #expect(maxPool <= 32)  // two identifiers, capped at 16 each
        #expect(coordinator.created < 60)  // ~20 on screen plus a jump's worth: creation stops once the pool is warm
    }

    @Test func visibleSetDiffIsASetDifference() {
        let d = VisibleSetDiff(from: [1, 2, 3], to: [3, 4, 5, 2])
        #expect(d.entering == [4, 5] && Set(d.leaving) == [1])
    }
}

@Suite struct PrefetchTests {
    @Test func scriptedScrollSnapshot() {
        var planner = PrefetchPlanner(screenfulsAhead: 1, screenfulsBehind: 0.5) { $0 % 4 == 0 ? 2 : 0 }
        let axis = UniformAxis(count: 60, itemSize: 50)
        var text = ""
        var offset = 0.0
        let script: [(Double, Double)] = [(0, 0), (100, 1000), (100, 1000), (300, 3000), (-200, -2000), (-200, -2000), (0, 0)]
        for (delta, velocity) in script {
            offset = max(0, offset + delta)
            let events = planner.update(axis: axis, offset: offset, length: 200, velocity: velocity)
            text += "offset \(Int(offset)) v \(Int(velocity)): \(events.map(\.description).joined(separator: " "))\n"
        }
        assertSnapshot(text, named: "prefetch-script")
    }

    @Test func itemsThatLeaveUnseenAreCancelledAndSeenOnesAreNot() {
        var planner = PrefetchPlanner(screenfulsAhead: 2, screenfulsBehind: 0)
        let axis = UniformAxis(count: 100, itemSize: 100)
        let first = planner.update(axis: axis, offset: 0, length: 300, velocity: 500)
        #expect(first == (3..<9).map { .prefetch(PrefetchKey(index: $0)) })
        // Reverse before reaching them: the unseen prefetches are cancelled, far ones first in order.
        _ = planner.update(axis: axis, offset: 200, length: 300, velocity: 500)  // 2..4 visible; 3,4 seen
        let back = planner.update(axis: axis, offset: 0, length: 300, velocity: -500)
        #expect(back.contains(.cancel(PrefetchKey(index: 9))) && back.contains(.cancel(PrefetchKey(index: 10))))
        #expect(!back.contains(.cancel(PrefetchKey(index: 3))) && !back.contains(.cancel(PrefetchKey(index: 4))))
        // What is still pending is exactly the unseen part of the new preload range (behind is 0, ahead 2 screens up: none).
        #expect(planner.pending.isEmpty)
    }

    @Test func theSameScriptGivesTheSameEvents() {
        func run() -> [[PrefetchEvent]] {
            var p = PrefetchPlanner()
            let axis = VariableAxis(sizes: (0..<500).map { Double(20 + $0 % 7 * 9) })
            return (0..<300).map { f in p.update(axis: axis, offset: Double(f * 31 % 9000), length: 700, velocity: f % 50 < 25 ? 800 : -800) }
        }
        #expect(run() == run())
    }
}

@Suite struct SpatialIndexTests {
    let rects: [LayoutRect] = {
        var rng = Random(11)
        return (0..<5000).map { _ in LayoutRect(x: rng.double(0, 2000), y: rng.double(0, 1000), width: rng.double(5, 30), height: rng.double(5, 30)) }
    }()

    @Test func rectQueriesMatchALinearScan() {
        let index = SpatialIndex(rects)
        var rng = Random(12)
        for _ in 0..<300 {
            let q = LayoutRect(x: rng.double(-100, 2100), y: rng.double(-100, 1100), width: rng.double(0.1, 300), height: rng.double(0.1, 300))
            #expect(index.query(q) == rects.indices.filter { rects[$0].intersects(q) })
        }
    }

    @Test func nearestWithinATouchTargetMatchesALinearScan() {
        let index = SpatialIndex(rects)
        var rng = Random(13)
        for _ in 0..<500 {
            let p = LayoutPoint(x: rng.double(-50, 2050), y: rng.double(-50, 1050))
            let radius = rng.double(0, 44)
            let slow = rects.indices.filter { rects[$0].distanceSquared(to: p) <= radius * radius }.min { a, b in
                let da = rects[a].distanceSquared(to: p), db = rects[b].distanceSquared(to: p)
                if da != db { return da < db }
                let ca = (rects[a].midX - p.x) * (rects[a].midX - p.x) + (rects[a].midY - p.y) * (rects[a].midY - p.y)
                let cb = (rects[b].midX - p.x) * (rects[b].midX - p.x) + (rects[b].midY - p.y) * (rects[b].midY - p.y)
                return ca != cb ? ca < cb : a < b
            }
            #expect(index.nearest(to: p, within: radius) == slow, "point \(p) radius \(radius)")
        }
    }

    @Test func emptyAndDegenerateInputs() {
        #expect(SpatialIndex([]).query(LayoutRect(x: 0, y: 0, width: 10, height: 10)) == [])
        #expect(SpatialIndex([]).nearest(to: .zero, within: 10) == nil)
        let one = SpatialIndex([LayoutRect(x: 5, y: 5, width: 0, height: 0)])
        #expect(one.nearest(to: LayoutPoint(x: 6, y: 5), within: 2) == 0)
    }
}
