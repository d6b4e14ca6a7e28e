import Foundation
import Testing
@testable import CollectionLayout

let testsRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

/// Compares with `Snapshots/<name>.txt`; `SEATKIT_RECORD=1 swift test` writes them anew.
func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = testsRoot.appendingPathComponent("Snapshots/\(name).txt")
    if ProcessInfo.processInfo.environment["SEATKIT_RECORD"] == "1" {
        try! text.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("no snapshot \(name).txt: run SEATKIT_RECORD=1 swift test to record it", sourceLocation: sourceLocation)
        return
    }
    #expect(text == expected, "snapshot \(name) differs", sourceLocation: sourceLocation)
}

struct Random {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func double(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53) }
}

func close(_ a: Double, _ b: Double, _ eps: Double = 1e-9) -> Bool { abs(a - b) <= eps }
func close(_ a: LayoutPoint, _ b: LayoutPoint, _ eps: Double = 1e-9) -> Bool { close(a.x, b.x, eps) && close(a.y, b.y, eps) }
func close(_ a: LayoutRect, _ b: LayoutRect, _ eps: Double = 1e-9) -> Bool { close(a.origin, b.origin, eps) && close(a.width, b.width, eps) && close(a.height, b.height, eps) }
