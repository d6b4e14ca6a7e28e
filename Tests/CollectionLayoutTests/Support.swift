import Foundation
import Testing
import SeatKitTestSupport
@testable import CollectionLayout

let testsRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    SeatKitTestSupport.assertSnapshot(text, named: name + ".txt", in: testsRoot.appendingPathComponent("Snapshots"), sourceLocation: sourceLocation)
}

typealias Random = TestRandom

func close(_ a: Double, _ b: Double, _ eps: Double = 1e-9) -> Bool { abs(a - b) <= eps }
func close(_ a: LayoutPoint, _ b: LayoutPoint, _ eps: Double = 1e-9) -> Bool { close(a.x, b.x, eps) && close(a.y, b.y, eps) }
func close(_ a: LayoutRect, _ b: LayoutRect, _ eps: Double = 1e-9) -> Bool {
    close(a.origin, b.origin, eps) && close(a.width, b.width, eps) && close(a.height, b.height, eps)
}
