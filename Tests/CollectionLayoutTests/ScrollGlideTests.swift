import Foundation
import Testing

@testable import CollectionLayout

@Suite struct ScrollGlideTests {
    let start = Date(timeIntervalSinceReferenceDate: 1000)
    let from = LayoutPoint(x: 0, y: 100), to = LayoutPoint(x: 300, y: -50)

    @Test func startsWhereTheFingerLiftedAndEndsOnTheTarget() {
        let glide = ScrollGlide(from: from, to: to, start: start, duration: 0.4)
        #expect(glide.offset(at: start.addingTimeInterval(-1)) == from)
        #expect(glide.offset(at: start) == from)
        #expect(glide.offset(at: start.addingTimeInterval(0.4)) == to)
        #expect(glide.offset(at: start.addingTimeInterval(5)) == to)
        #expect(!glide.isFinished(at: start.addingTimeInterval(0.39)))
        #expect(glide.isFinished(at: start.addingTimeInterval(0.4)))
    }

    @Test func decelerates() {
        // Ease-out: half the time covers 87.5% of the way (1 - 0.5³), and every step is shorter than the last.
        let glide = ScrollGlide(from: from, to: to, start: start, duration: 0.4)
        let half = glide.offset(at: start.addingTimeInterval(0.2))
        #expect(abs(half.x - 262.5) < 1e-9 && abs(half.y - (100 - 131.25)) < 1e-9)
        let xs = (0...8).map { glide.offset(at: start.addingTimeInterval(Double($0) * 0.05)).x }
        let steps = zip(xs.dropFirst(), xs).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 >= 0 })
        #expect(zip(steps.dropFirst(), steps).allSatisfy { $0 < $1 })
    }

    @Test func aZeroDurationIsAJump() {
        let glide = ScrollGlide(from: from, to: to, start: start, duration: 0)
        #expect(glide.offset(at: start) == to)
        #expect(glide.isFinished(at: start))
    }
}
